"""The benchmark indexes cached under ``.bench-cache/`` (gitignored): each question set's corpus
written as JSONL and ingested once with ``citewise.open(...).ingest``; re-runs reuse the stored
vectors. Shared by the retrieval and answers benchmarks."""

from __future__ import annotations

import json
import time
from pathlib import Path

import citewise
from citewise.evaluate.benchsets import BenchSet
from citewise.index.embedder import Embedder
from citewise.settings import Settings
from common import CACHE, JSON, StderrProgress, log, write_if_changed

CACHES = {"obliqa": "obliqa-full", "obliqa_subset": "obliqa-docs-subset"}
"""Cache folder of a set, when not its name (``obliqa-lexical`` held the full ObliQA corpus without vectors
until session 16)."""
LEXICAL_ONLY: frozenset[str] = frozenset()
"""Sets indexed without vectors. None since session 16: the full ObliQA corpus (11.5k chunks, ~130 e5 tokens each)
embeds in about a quarter of an hour with the numpy encoder on 2 cores."""
DEFAULT_ANALYZER = "syllable_bigram_folded_stemmed"


def folder(name: str) -> Path:
    return CACHE / CACHES.get(name, name)


def settings_for(name: str, analyzer: str = DEFAULT_ANALYZER) -> Settings:
    return Settings(index=folder(name) / "index", store={"lexical_analyzer": analyzer})


def build_index(ds: BenchSet, embedder: Embedder | None) -> JSON:
    """Ingest the set's corpus into its cached index (a no-op when unchanged); the build record."""
    embedder = None if ds.name in LEXICAL_ONLY else embedder
    jsonl = folder(ds.name) / f"{ds.name}.jsonl"
    write_if_changed(jsonl, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ds.records))
    info_file = folder(ds.name) / "build.json"
    progress = StderrProgress(ds.name)
    log(f"{ds.name}: ingesting {jsonl} ({len(ds.records)} records){'' if embedder else ', no vectors'}")
    t0 = time.perf_counter()
    with citewise.open(settings=settings_for(ds.name), embedder=embedder) as engine:
        ingested = engine.ingest([jsonl], progress=progress)
        seconds = time.perf_counter() - t0
        if ingested.errors:
            raise RuntimeError(f"{ds.name}: ingest errors: {ingested.errors[:3]}")
        docs = engine.documents()
    chunks = sum(d.chunks for d in docs)
    log(f"{ds.name}: {len(docs)} documents, {chunks} chunks; {progress.done} embedded now; {seconds:.1f} s")
    info: JSON = json.loads(info_file.read_text()) if info_file.exists() else {}
    if ingested.ingested:
        run = {
            "documents": len(docs),
            "chunks": chunks,
            "ingested": ingested.ingested,
            "embedded": progress.done,
            "seconds": round(seconds, 1),
            "embedder": embedder.name if embedder is not None else None,
            "date": time.strftime("%Y-%m-%d"),
        }
        info["last_ingest"] = run
        if progress.done >= info.get("first_build", {}).get("embedded", 0):
            info["first_build"] = run  # the build that embedded the whole corpus
        info_file.write_text(json.dumps(info, indent=1))
    return {**info, "documents": len(docs), "chunks": chunks}
