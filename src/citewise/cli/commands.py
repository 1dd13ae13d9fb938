"""The ``citewise`` command line. Errors become one-line messages and exit codes here only."""

from __future__ import annotations

import sys
import time
import unicodedata
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table
from rich.tree import Tree

from citewise.assistant.records import AnswerSentence
from citewise.cli.app import IndexOpt, JsonOpt, _emit, _fail, _open, _settings, app, err, out
from citewise.cli.progress import RichProgress
from citewise.errors import CitewiseError, NotFound
from citewise.types import Document, Node


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files or folders (recursive).")],
    index: IndexOpt = None,
    sync: Annotated[bool, typer.Option("--sync", help="Remove documents whose files are gone from FOLDERs.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Parse, chunk, embed and index documents (PDF, DOCX, HTML, Markdown, text, JSONL)."""
    settings = _settings(index)
    try:
        engine = _open(settings)
    except CitewiseError as e:
        raise _fail(e) from e
    with engine, RichProgress(err) as progress:
        report = engine.ingest(paths, sync=sync, progress=progress)
        docs = {d.source_uri: d for d in engine.documents()}
    if as_json:
        _emit({**asdict(report), "documents": len(docs)})
    else:
        for line in report.errors:
            sys.stderr.write(line + "\n")  # one line per bad file, never wrapped
        out.print(
            f"ingested {report.ingested} (new {len(report.added)}, replaced {len(report.replaced)}), "
            f"unchanged {len(report.skipped)}, removed {len(report.removed)}, failed {len(report.errors)}; "
            f"{report.chunks} chunks; index {settings.index} holds {len(docs)} documents"
        )
    if report.ingested == 0 and report.errors:
        raise typer.Exit(1)


@app.command("ls")
def list_documents(index: IndexOpt = None, as_json: JsonOpt = False) -> None:
    """List indexed documents: title, type, number, language, provisions, chunks, status."""
    settings = _settings(index)
    with _open(settings, dense=False) as engine:
        docs = engine.documents()
        done, total = engine.store.embedding_progress()
    if as_json:
        _emit([asdict(d) for d in docs])
        return
    table = Table("id", "title", "type", "number", "lang", "provisions", "chunks", "status")
    for d in docs:
        table.add_row(
            d.doc_id[:12], d.title, d.doc_type or "", d.number or "", d.lang, str(d.provisions), str(d.chunks), d.status
        )
    out.print(table)
    if done < total and settings.store.embedder not in ("none", ""):
        out.print(
            f"embedding: {done} of {total} chunk texts have vectors; search is lexical until all do "
            "(`citewise ingest` again resumes it)"
        )


def _node_text(doc: Document, node: Node) -> str:
    return doc.text[node.char_start : node.char_end]


def _node_json(doc: Document, node: Node) -> dict[str, Any]:
    return {
        **node.to_dict(),
        "path": [a.label for a in doc.ancestors(node)] + [node.label],
        "text": _node_text(doc, node),
    }


@app.command()
def show(
    doc: Annotated[str, typer.Argument(help="Document id (or prefix), number, alias or title.")],
    provision: Annotated[
        str | None, typer.Argument(help='A provision: "Điều 17", "khoản 2 Điều 17", "Article 6(1)".')
    ] = None,
    index: IndexOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Show a document's structure, or one provision with its path, pages and text."""
    settings = _settings(index)
    engine = _open(settings, dense=False)
    try:
        summary = engine.document(doc)
        document = engine.store.load_document(summary.doc_id)
        node = None
        if provision:
            node = engine.store.resolve_provision(summary.doc_id, provision)
            if node is None:
                raise NotFound(f"no provision {provision!r} in {summary.title}")
    except CitewiseError as e:
        raise _fail(e) from e
    finally:
        engine.close()
    if node is not None:
        if as_json:
            _emit(_node_json(document, node))
            return
        path = " › ".join([a.label for a in document.ancestors(node)] + [node.label])
        pages = f"pages {node.page_start}–{node.page_end}" if node.page_start else "no pages"
        out.print(f"[bold]{document.title}[/bold] › {path}", highlight=False)
        out.print(
            f"{pages} · chars {node.char_start}–{node.char_end}"
            + (f" · alias {', '.join(node.aliases)}" if node.aliases else "")
        )
        out.print(_node_text(document, node), highlight=False, markup=False)
        return
    if as_json:
        _emit({**asdict(summary), "nodes": [n.to_dict() for n in document.nodes]})
        return
    head = f"{document.title} · {summary.doc_type or ''} {summary.number or ''} · {document.lang} · {summary.provisions} provisions"
    tree = Tree(head, highlight=False)
    branches: dict[int, Tree] = {}
    for n in document.nodes:
        if n.kind in ("paragraph", "point", "subpoint"):
            continue
        parent = branches.get(n.parent_id) if n.parent_id is not None else None
        text = f"{n.label}" + (f". {n.heading}" if n.heading and n.heading != n.label else "")
        if n.page_start:
            text += f"  (p. {n.page_start}{'–' + str(n.page_end) if n.page_end != n.page_start else ''})"
        branches[n.node_id] = (parent or tree).add(text, highlight=False)
    out.print(tree)


@app.command()
def rm(
    doc: Annotated[str, typer.Argument(help="Document id (or prefix), number, alias or title.")],
    index: IndexOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Remove a document from the index."""
    settings = _settings(index)
    engine = _open(settings, dense=False)
    try:
        summary = engine.remove(doc)
    except CitewiseError as e:
        raise _fail(e) from e
    finally:
        engine.close()
    if as_json:
        _emit({"removed": summary.doc_id, "title": summary.title})
    else:
        out.print(f"removed {summary.doc_id[:12]} {summary.title}")


@app.command()
def search(
    question: Annotated[str, typer.Argument(help="A question, in English or Vietnamese.")],
    k: Annotated[int, typer.Option("-k", help="How many provisions to return.")] = 10,
    index: IndexOpt = None,
    rerank: Annotated[bool | None, typer.Option("--rerank/--no-rerank", help="Citation-aware rerank.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Rank the provisions that answer a question, with labels, pages, scores and reasons."""
    settings = _settings(index)
    if rerank is not None:
        settings.retrieve.rerank = rerank
    try:
        with _open(settings) as engine:
            result = engine.search(question, k=k)
    except CitewiseError as e:
        raise _fail(e) from e
    if as_json:
        _emit(result.to_dict())
        return
    a = result.analysis
    refs = ", ".join(r.raw for r in a.refs) or "none"
    out.print(
        f"[dim]lang {a.lang} · intent {a.intent} · references {refs} · {result.timings.get('total', 0):.0f} ms[/dim]"
    )
    if result.weak:
        out.print(f"[yellow]weak evidence: {result.weak_reason}[/yellow]")
    table = Table("#", "provision", "document", "pages", "score", "lexical", "dense", "why")
    for ev in result.evidence:
        c = ev.chunk
        pages = f"{c.page_start}" + (f"–{c.page_end}" if c.page_end != c.page_start else "") if c.page_start else ""
        lex = ev.rankers.get("lexical")
        den = ev.rankers.get("dense")
        table.add_row(
            str(ev.rank),
            c.label,
            ev.doc_title[:40],
            pages,
            f"{ev.score:.4f}",
            f"{lex.score:.2f} #{lex.rank}" if lex else "",
            f"{den.score:.3f} #{den.rank}" if den else (f"{ev.dense:.3f}" if ev.dense is not None else ""),
            "; ".join(ev.reasons)[:60],
        )
    out.print(table)


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="A question, in English or Vietnamese.")],
    generator: Annotated[
        str | None, typer.Option("--generator", "-g", help="extractive (default) | local | openai")
    ] = None,
    index: IndexOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Answer with every sentence cited, or say that the sources hold no answer."""
    settings = _settings(index)
    started = time.perf_counter()

    def preview(sentence: AnswerSentence) -> None:
        """A model's sentence as soon as it is written and checked; the final answer follows."""
        elapsed = time.perf_counter() - started
        out.print(f"[dim]… {escape(sentence.text)} ({elapsed:.1f} s)[/dim]", highlight=False)

    try:
        with _open(settings) as engine:
            answer = engine.ask(question, generator, on_sentence=None if as_json else preview)
    except CitewiseError as e:
        raise _fail(e) from e
    if as_json:
        _emit(answer.to_dict())
        return
    if answer.warning:
        out.print(f"[yellow]{answer.warning}[/yellow]")
    out.print(answer.text, highlight=False, markup=False)
    for i, c in enumerate(answer.references, start=1):
        pages = ""
        if c.pages[0]:
            pages = f", p. {c.pages[0]}" + (f"–{c.pages[1]}" if c.pages[1] != c.pages[0] else "")
        quote = " ".join(c.quote.split())
        out.print(f"[{i}] {c.doc_title} — {c.label}{pages}: “{quote}”", highlight=False, markup=False)
    for i, c in enumerate(answer.closest, start=1):
        quote = " ".join(c.quote.split())
        out.print(f"    [{i}] “{quote}”", highlight=False, markup=False)
    extra = f" · {answer.reason}" if answer.outcome != "answered" else ""
    out.print(
        f"[dim]{answer.outcome.replace('_', ' ')} · {answer.generator} · confidence {answer.confidence:.2f} · "
        f"{answer.timings.get('total', 0):.0f} ms{extra}[/dim]"
    )


@app.command()
def serve(
    host: Annotated[str | None, typer.Option("--host", help="Address to listen on (default 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option("--port", help="Port to listen on (default 8000).")] = None,
    index: IndexOpt = None,
) -> None:
    """Serve the HTTP API and the web page. Beyond loopback, CITEWISE_API_TOKEN is required."""
    from citewise.serve.config import ServeSettings, binding_problem

    config = ServeSettings()
    config.host = host or config.host
    config.port = port or config.port
    problem = binding_problem(config)
    if problem:
        raise _fail(ValueError(problem), code=2)
    import uvicorn

    from citewise.serve.api import create_app

    settings = _settings(index)
    try:
        application = create_app(settings, config)
    except (CitewiseError, KeyError) as e:
        raise _fail(e) from e
    shown = f"[{config.host}]" if ":" in config.host else config.host
    auth = "bearer token required" if config.token else "no token (loopback only)"
    out.print(
        f"citewise: serving index {settings.index} at http://{shown}:{config.port}/ ({auth}; API docs at /docs). "
        "Ctrl+C stops.",
        highlight=False,
        soft_wrap=True,
    )
    # X-Forwarded-For is believed only from the configured proxies (uvicorn trusts loopback by default)
    proxies = ",".join(config.trusted_proxies)
    uvicorn.run(
        application,
        host=config.host,
        port=config.port,
        log_level="warning",
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
    )


def printable(text: str) -> str:
    """Text from the audit log made safe for a terminal: control characters (escape sequences included)
    shown as the replacement character."""
    return "".join("\ufffd" if unicodedata.category(ch) in ("Cc", "Cf") and ch not in "\n\t" else ch for ch in text)


@app.command("log")
def audit_log(
    limit: Annotated[int, typer.Option("--limit", "-n", help="How many answers, latest first.")] = 50,
    review: Annotated[
        str | None, typer.Option("--review", help="Only verified | flagged | unreviewed answers.")
    ] = None,
    answer_id: Annotated[int | None, typer.Option("--id", help="Show one answer in full.")] = None,
    index: IndexOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List the audit log of answers given through the API, with their reviews."""
    from citewise.serve.audit import AuditLog

    settings = _settings(index)
    try:
        audit = AuditLog(settings.index, settings.privacy.store_questions, settings.privacy.retention_days)
        try:
            if answer_id is not None:
                _emit(audit.get(answer_id))
                return
            entries = audit.entries(limit, review)
        finally:
            audit.close()
    except (CitewiseError, ValueError) as e:
        raise _fail(e) from e
    if as_json:
        _emit([{**asdict(x), "outcome": x.outcome} for x in entries])
        return
    table = Table("id", "asked (UTC)", "lang", "question", "outcome", "conf.", "cites", "ms", "review")
    for x in entries:
        table.add_row(
            str(x.id),
            x.asked_at.replace("T", " ")[:19],
            x.lang,
            printable(x.question)[:60],
            x.outcome,
            f"{x.confidence:.2f}",
            str(x.citations),
            f"{x.total_ms:.0f}",
            (x.review.status + (f": {printable(x.review.note)[:30]}" if x.review.note else "")) if x.review else "",
        )
    out.print(table)


@app.command()
def verify(
    pairs: Annotated[Path, typer.Argument(help='JSONL file: one {"claim": ..., "source": ...} object a line.')],
    scorer: Annotated[str, typer.Option("--scorer", help="Support scorer: trained | lexical.")] = "trained",
    as_json: JsonOpt = False,
) -> None:
    """Score claim/source pairs with the support scorer: verdict and score per pair."""
    from citewise.verify.pairs import verify_pairs
    from citewise.verify.scorer import get_scorer

    try:
        verdicts = list(verify_pairs(pairs, get_scorer(scorer)))
    except (CitewiseError, OSError) as e:
        raise _fail(e) from e
    if as_json:
        _emit([v.to_dict() for v in verdicts])
        return
    table = Table("line", "verdict", "score", "claim", "missing figures", "checks")
    for v in verdicts:
        table.add_row(
            str(v.line), v.status, f"{v.score:.3f}", v.claim[:80], ", ".join(v.missing_figures), "; ".join(v.findings)
        )
    out.print(table)
    counts = {s: sum(v.status == s for v in verdicts) for s in ("supported", "partial", "unsupported")}
    out.print(", ".join(f"{n} {s}" for s, n in counts.items()), highlight=False)


# the evaluation commands register themselves on ``app``
from citewise.cli import evaluation  # noqa: E402, F401


def main() -> None:
    app()


if __name__ == "__main__":
    main()
