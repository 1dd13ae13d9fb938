"""``citewise eval``, ``eval-convert`` and ``calibrate``: the evaluation commands (logic in
``citewise.evaluate``)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from citewise.cli.app import IndexOpt, JsonOpt, _emit, _fail, _settings, app, err, out
from citewise.cli.progress import RichProgress
from citewise.errors import CitewiseError
from citewise.evaluate.data import shared_data


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

    folder = source or shared_data() / DEFAULT_SOURCES.get(dataset, dataset)
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
