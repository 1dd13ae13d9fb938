"""What ``citewise eval`` and ``citewise calibrate`` do, apart from printing: open the index, build
the generators by name, run a question set, write the JSON result and the HTML report."""

from __future__ import annotations

import json
from pathlib import Path

from citewise.engine import open_engine
from citewise.evaluate.questions import load_questions
from citewise.evaluate.records import EvalRun
from citewise.evaluate.report_html import render
from citewise.evaluate.runner import Evaluator
from citewise.progress import Progress
from citewise.settings import Settings


def baseline_generator_name(generator: str) -> str:
    """The LLM of the no-context baseline: the run's generator when it is an LLM, else ``local``."""
    return generator if generator != "extractive" else "local"


def run_set(
    settings: Settings,
    questions_path: Path,
    generator: str | None = None,
    baseline: str | None = None,
    limit: int | None = None,
    progress: Progress | None = None,
) -> EvalRun:
    """Run the question set at ``questions_path`` against the index of ``settings``."""
    questions = load_questions(questions_path)[:limit]
    name = generator or settings.answer.generator
    with open_engine(settings=settings) as engine:
        base = engine.generator(baseline) if baseline else None
        evaluator = Evaluator(engine, name, base)
        run = evaluator.run(questions, questions_path.stem, progress)
    run.meta["set_path"] = str(questions_path)
    return run


def write_run(run: EvalRun, out: Path) -> tuple[Path, Path]:
    """``out/result.json`` and ``out/report.html``."""
    out.mkdir(parents=True, exist_ok=True)
    result = out / "result.json"
    result.write_text(json.dumps(run.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8")
    html = out / "report.html"
    html.write_text(render(run), encoding="utf-8")
    return result, html


def read_run(path: Path) -> EvalRun:
    """A run from its ``result.json`` (or the folder holding it)."""
    if path.is_dir():
        path = path / "result.json"
    return EvalRun.from_dict(json.loads(path.read_text(encoding="utf-8")))
