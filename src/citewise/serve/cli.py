"""The ``citewise`` command line. Errors become one-line messages and exit codes here only."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.tree import Tree

from citewise.corpus import Corpus
from citewise.errors import CitewiseError, NotFound
from citewise.index.embedded import EmbeddedStore
from citewise.index.embedder import get_embedder
from citewise.serve.engine import Engine, open_store
from citewise.serve.rich_progress import RichProgress
from citewise.settings import Settings, load_settings
from citewise.types import Document, Node

app = typer.Typer(
    help="citewise: answers from authoritative documents, every sentence cited.",
    no_args_is_help=True,
    add_completion=False,
)
out = Console()
err = Console(stderr=True)

IndexOpt = Annotated[
    Path | None, typer.Option("--index", help="Index directory (default ./.citewise or $CITEWISE_INDEX).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def _settings(index: Path | None) -> Settings:
    return load_settings(index=index)


def _store(settings: Settings) -> EmbeddedStore:
    return open_store(settings)


def _emit(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


def _fail(e: Exception, code: int = 1) -> typer.Exit:
    err.print(f"[red]error:[/red] {e}")
    return typer.Exit(code)


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
        store = _store(settings)
        embedder = get_embedder(settings.store.embedder)
    except (CitewiseError, KeyError) as e:
        raise _fail(e) from e
    with RichProgress(err) as progress:
        report = Corpus(store, embedder, settings, progress).ingest(paths, sync=sync)
    docs = {d.source_uri: d for d in store.documents()}
    store.close()
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
    store = _store(settings)
    docs = store.documents()
    store.close()
    if as_json:
        _emit([asdict(d) for d in docs])
        return
    table = Table("id", "title", "type", "number", "lang", "provisions", "chunks", "status")
    for d in docs:
        table.add_row(
            d.doc_id[:12], d.title, d.doc_type or "", d.number or "", d.lang, str(d.provisions), str(d.chunks), d.status
        )
    out.print(table)


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
    store = _store(settings)
    try:
        summary = store.find_document(doc)
        document = store.load_document(summary.doc_id)
        node = None
        if provision:
            node = store.resolve_provision(summary.doc_id, provision)
            if node is None:
                raise NotFound(f"no provision {provision!r} in {summary.title}")
    except CitewiseError as e:
        raise _fail(e) from e
    finally:
        store.close()
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
    store = _store(settings)
    try:
        summary = store.find_document(doc)
        store.delete_document(summary.doc_id)
        store.refresh()
    except CitewiseError as e:
        raise _fail(e) from e
    finally:
        store.close()
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
    from citewise.retrieve.hybrid import Retriever

    settings = _settings(index)
    if rerank is not None:
        settings.retrieve.rerank = rerank
    store = _store(settings)
    try:
        retriever = Retriever(store, get_embedder(settings.store.embedder), settings.retrieve)
        result = retriever.search(question, k=k)
    except (CitewiseError, KeyError) as e:
        raise _fail(e) from e
    finally:
        store.close()
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
    try:
        engine = Engine(settings)
    except (CitewiseError, KeyError) as e:
        raise _fail(e) from e
    try:
        answer = engine.ask(question, generator)
    except (CitewiseError, KeyError) as e:
        raise _fail(e) from e
    finally:
        engine.close()
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
    extra = f" · {answer.reason}" if answer.refused else ""
    out.print(
        f"[dim]{answer.generator} · confidence {answer.confidence:.2f} · {answer.timings.get('total', 0):.0f} ms{extra}[/dim]"
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
    uvicorn.run(application, host=config.host, port=config.port, log_level="warning")


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
        audit = AuditLog(settings.index)
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
            x.question[:60],
            x.outcome,
            f"{x.confidence:.2f}",
            str(x.citations),
            f"{x.total_ms:.0f}",
            (x.review.status + (f": {x.review.note[:30]}" if x.review.note else "")) if x.review else "",
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
    table = Table("line", "verdict", "score", "claim", "missing figures")
    for v in verdicts:
        table.add_row(str(v.line), v.status, f"{v.score:.3f}", v.claim[:80], ", ".join(v.missing_figures))
    out.print(table)
    counts = {s: sum(v.status == s for v in verdicts) for s in ("supported", "partial", "unsupported")}
    out.print(", ".join(f"{n} {s}" for s, n in counts.items()), highlight=False)


@app.command("eval")
def evaluate(
    questions: Annotated[
        Path | None, typer.Argument(help="Question set (JSONL or CSV, see docs/evaluation.md).")
    ] = None,
    generator: Annotated[
        str | None, typer.Option("--generator", "-g", help="extractive (default) | local | openai")
    ] = None,
    baseline: Annotated[
        bool, typer.Option("--baseline", help="Also ask the LLM with no context and report the difference.")
    ] = False,
    baseline_generator: Annotated[
        str | None, typer.Option("--baseline-generator", help="LLM of the baseline (default: --generator, or local).")
    ] = None,
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Folder for result.json and report.html (default ./citewise-eval/SET).")
    ] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="Only the first N questions.")] = None,
    compare: Annotated[
        tuple[Path, Path] | None, typer.Option("--compare", help="Show drift between two runs: OLD NEW result files.")
    ] = None,
    index: IndexOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Measure retrieval, citations and refusals on a question set; write a JSON result and an HTML report."""
    from citewise.evaluate.compare import compare as drift
    from citewise.evaluate.session import baseline_generator_name, read_run, run_set, write_run

    if compare:
        try:
            report = drift(read_run(compare[0]), read_run(compare[1]))
        except (OSError, KeyError, ValueError) as e:
            raise _fail(e) from e
        if as_json:
            _emit(report)
            return
        table = Table("metric", "old", "new", "change", "drift")
        for m in report["metrics"]:
            delta = "" if m["delta"] is None else f"{m['delta']:+g}"
            table.add_row(m["metric"], str(m["old"]), str(m["new"]), delta, m["drift"])
        out.print(table)
        for c in report["changed"]:
            out.print(f"{c['id']}: {c['old']} → {c['new']}", highlight=False, markup=False)
        out.print(
            f"{report['shared_questions']} shared questions; worse: {', '.join(report['worse']) or 'none'}; "
            f"better: {', '.join(report['better']) or 'none'}",
            highlight=False,
        )
        return
    if questions is None:
        raise _fail(ValueError("give a question set (or --compare OLD NEW)"), code=2)
    settings = _settings(index)
    name = generator or settings.answer.generator
    base = (baseline_generator or baseline_generator_name(name)) if baseline else None
    try:
        with RichProgress(err) as progress:
            run = run_set(settings, questions, name, base, limit, progress)
        result, html = write_run(run, out_dir or Path("citewise-eval") / questions.stem)
    except (CitewiseError, KeyError, OSError) as e:
        raise _fail(e) from e
    if as_json:
        _emit({"result": str(result), "report": str(html), "summary": run.summary})
        return
    o = run.summary["overall"]
    r = o["retrieval"]
    out.print(
        f"{o['questions']} questions ({o['answerable']} answerable, {o['probes']} probes) · "
        f"Hit@1 {r['hit1']} · Hit@5 {r['hit5']} · MRR@10 {r['mrr10']} · nDCG@10 {r['ndcg10']}\n"
        f"answer rate {o['answer_rate']} · refusal correctness {o['refusal_correctness']} · "
        f"citation precision {o['citation_precision']} · citation recall {o['citation_recall']} · "
        f"p50 {o['latency_ms']['p50']} ms · p95 {o['latency_ms']['p95']} ms",
        highlight=False,
    )
    b = run.summary.get("baseline")
    if b:
        out.print(f"baseline ({run.meta['baseline']}): {json.dumps(b['baseline'])}", highlight=False, markup=False)
    if run.meta["unresolved_references"]:
        err.print(f"[yellow]{len(run.meta['unresolved_references'])} reference(s) name nothing in the index[/yellow]")
    out.print(f"result {result} · report {html}", highlight=False)


@app.command("eval-convert")
def eval_convert(
    dataset: Annotated[
        str, typer.Argument(help="alqac2022 | alqac2023 | obliqa | answerability-en | answerability-vi | contractnli")
    ],
    out_dir: Annotated[Path, typer.Argument(help="Folder for corpus.jsonl and questions.jsonl.")],
    source: Annotated[
        Path | None, typer.Option("--source", help="The data set's folder (default ../shared/data/<set>).")
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", help="Only the first N questions (contracts for contractnli).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Convert a shared benchmark data set to a corpus to ingest and a question set to evaluate."""
    from citewise.evaluate.datasets import DEFAULT_SOURCES, convert

    folder = source or _shared_data() / DEFAULT_SOURCES.get(dataset, dataset)
    try:
        done = convert(dataset, folder, out_dir, limit)
    except (CitewiseError, OSError, KeyError, ValueError) as e:
        raise _fail(e) from e
    if as_json:
        _emit(asdict(done))
        return
    counts = ", ".join(f"{v} {k}" for k, v in done.counts.items())
    out.print(f"{dataset}: {counts}; questions {done.questions}; corpus {done.corpus}", highlight=False)
    for note in done.notes:
        out.print(note, highlight=False)
    if done.corpus is not None:
        out.print(
            f"next: citewise ingest {done.corpus} --index INDEX && citewise eval {done.questions} --index INDEX",
            highlight=False,
        )


def _shared_data() -> Path:
    import os

    env = os.environ.get("CITEWISE_SHARED_DATA")
    if env:
        return Path(env)
    local = Path.cwd().parent / "shared" / "data"
    return local if local.is_dir() else Path("/work/shared/data")


@app.command()
def calibrate(
    questions: Annotated[Path, typer.Argument(help="Question set with probes (or a result.json of an earlier run).")],
    target: Annotated[float, typer.Option("--target", help="Refusal precision to reach.")] = 0.9,
    generator: Annotated[
        str | None, typer.Option("--generator", "-g", help="extractive (default) | local | openai")
    ] = None,
    settings_file: Annotated[
        Path, typer.Option("--settings-file", help="Settings file to write the thresholds to.")
    ] = Path("citewise.toml"),
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the thresholds; write nothing.")] = False,
    index: IndexOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Pick the weak-retrieval and support thresholds that reach a target refusal precision; write them to the settings."""
    from citewise.evaluate.calibrate import calibrate as pick
    from citewise.evaluate.session import read_run, run_set
    from citewise.evaluate.settings_file import update_settings_file

    settings = _settings(index)
    try:
        if questions.name.endswith(".json") and not questions.name.endswith(".jsonl"):
            run = read_run(questions)
        else:
            with RichProgress(err) as progress:
                run = run_set(settings, questions, generator, None, None, progress)
        cal = pick(run, target)
        written = None
        if not dry_run and cal.settings_update():
            update_settings_file(settings_file, cal.settings_update())
            written = str(settings_file)
    except (CitewiseError, KeyError, OSError, ValueError) as e:
        raise _fail(e) from e
    if as_json:
        _emit({**cal.to_dict(), "written": written})
        return
    for lang, row in cal.per_lang.items():
        now, best = row["current"], row["picked"]
        out.print(
            f"{lang}: now dense {now['weak_dense']} / coverage {now['weak_coverage']}: answer rate {now['answer_rate']},"
            f" refusal correctness {now['refusal_correctness']}, precision {now['refusal_precision']}"
            + (
                f"; picked dense {best['weak_dense']} / coverage {best['weak_coverage']}: answer rate"
                f" {best['answer_rate']}, refusal correctness {best['refusal_correctness']}, precision"
                f" {best['refusal_precision']}"
                if best
                else "; none reaches the target"
            ),
            highlight=False,
        )
    if cal.support_threshold is not None:
        out.print(f"support threshold {cal.support_threshold}", highlight=False)
    for note in cal.notes:
        out.print(note, highlight=False)
    out.print(f"written to {written}" if written else "nothing written", highlight=False)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
