"""How long the bundled local model (Qwen2.5-Coder-1.5B, llama.cpp) takes to answer, and how many of its answers
are shown as it wrote them: questions on the sample corpus (EN + VI), the system prompt evaluated once first
(``Engine.warm``, as the server does at start), each answer streamed.

Per question: seconds to the first checked sentence (the first draft sentence shown), seconds to the whole answer,
who wrote what is shown (the model, or the extractive fallback after the model's sentences failed their checks),
and whether the model stopped at its time budget. Targets (issue 14): first sentence p50 <= 8 s, whole p50 <= 12 s on
2 idle cores, and >= 70 % of the answers shown as written by the model with no shown sentence carrying a figure its
quotes lack; the load average is recorded with every answer, since on a shared machine the figures are not idle.

``--set nearmiss``: the answerable questions written about the sample corpus in bench/sets/legal_nearmiss.jsonl
(32, EN + VI, each with its gold answer): also whether the answer states the gold answer's figures and contains
its words. Results go to ``bench/results/local_latency[-nearmiss].json``; ``--no-docs`` leaves docs/benchmarks.md.

``--compare SETTING=A,B``: side by side, one engine per value of the local model's setting ``answer.llm.SETTING``
(a number, true/false, or a word: ``model=qwen2.5-coder-1.5b,qwen2.5-coder-0.5b``; ``answer.SETTING`` for a setting
of the answer section itself: ``answer.support_heading_words=false,true``),
each question asked of each engine in turn; results in ``bench/results/local_latency-SETTING[-nearmiss].json``. For
example ``grammar_top_k=0,40`` (0: llama-cpp-python's sampler tests the JSON grammar on the whole vocabulary; 40: on
the likeliest 40 tokens first; session 18's run is ``local_latency-grammar.json``) or ``prompt_tokens=150,100``.

    .venv/bin/python bench/local_latency.py [--limit N] [--set default|nearmiss] [--no-docs] [--compare SETTING=A,B]
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
from citewise.figures import extract_numbers, unsupported_numbers
from citewise.lang import folded_words
from citewise.settings import Settings
from common import command_line, loadavg, machine, md_table, write_results, write_section

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "src" / "citewise" / "samples" / "corpus"
RESULTS = ROOT / "bench" / "results" / "local_latency.json"
NEARMISS = ROOT / "bench" / "sets" / "legal_nearmiss.jsonl"
QUESTIONS = [
    "How many days do I have to notify Harbourview of damage to my home?",
    "Within how many hours must a personal data breach be notified to the Authority?",
    "What is the excess for a buildings claim?",
    "How long does the insurer have to settle a claim after receiving the documents?",
    "How much will the policy pay for a cancelled trip?",
    "Thời hạn thông báo tổn thất là bao lâu?",
    "Thời hạn giải quyết bồi thường bảo hiểm nhà ở là bao lâu?",
    "Mức khấu trừ trong bảo hiểm nhà ở tư nhân là bao nhiêu?",
    "Phí bảo hiểm du lịch được hoàn lại trong trường hợp nào?",
    "Người được bảo hiểm phải làm gì khi xảy ra tổn thất?",
]


def _value(v: str) -> int | bool | str:
    """A compared setting's value: a number, true/false, or a word."""
    if v.lstrip("-").isdigit():
        return int(v)
    return {"true": True, "false": False}.get(v, v)


def nearmiss_questions() -> list[tuple[str, str]]:
    """(question, gold answer) of the answerable near-miss set's questions on the sample corpus."""
    rows = [json.loads(line) for line in NEARMISS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(r["question"], r["answer"]) for r in rows if r["source"] == "samples" and r["answerable"]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--set", choices=("default", "nearmiss"), default="default")
    ap.add_argument("--no-docs", action="store_true")
    ap.add_argument("--compare", default="", help="SETTING=A,B: values of answer.llm.SETTING compared side by side")
    args = ap.parse_args()
    items = [(q, "") for q in QUESTIONS] if args.set == "default" else nearmiss_questions()
    items = items[: args.limit] if args.limit else items
    if args.compare:
        setting, _, values = args.compare.partition("=")
        suffix = "" if args.set == "default" else f"-{args.set}"
        compare(
            items,
            setting,
            [_value(v) for v in values.split(",")],
            RESULTS.with_name(f"local_latency-{setting}{suffix}.json"),
        )
        return
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        engine = citewise.open(settings=Settings(index=Path(tmp) / "index"))
        engine.ingest([SAMPLES])
        t0 = time.perf_counter()
        engine.warm("local")
        warm_s = time.perf_counter() - t0
        print(f"warm-up (model load + system prompt) {warm_s:.1f} s", flush=True)
        for q, gold in items:
            rows.append(ask(engine, q, gold))
        engine.close()
    summary = summarise(rows)
    summary["warm_s"] = round(warm_s, 1)
    out = RESULTS if args.set == "default" else RESULTS.with_name("local_latency-nearmiss.json")
    result: dict[str, Any] = {
        "machine": machine(command_line("local_latency.py", None), False),
        "summary": summary,
        "rows": rows,
    }
    write_results(out, result)
    print(summary)
    if args.no_docs or args.set != "default":
        return
    docs(result)


def compare(items: list[tuple[str, str]], setting: str, values: list[int | str], out: Path) -> None:
    """Each question asked of one engine per value of ``answer.llm.<setting>`` in turn, on one ingested index."""
    rows: dict[int | str, list[dict[str, Any]]] = {k: [] for k in values}
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index"
        seed = citewise.open(settings=Settings(index=index))
        seed.ingest([SAMPLES])
        seed.close()
        engines = {}
        for k in values:
            section = {setting[len("answer.") :]: k} if setting.startswith("answer.") else {"llm": {setting: k}}
            engines[k] = citewise.open(settings=Settings(index=index, answer=section))
            engines[k].warm("local")
        for q, gold in items:
            for k, engine in engines.items():
                row = ask(engine, q, gold, f"{setting} {k}")
                rows[k].append(row)
        same = sum(
            rows[values[0]][i]["sentences"] == rows[k][i]["sentences"] for k in values[1:] for i in range(len(items))
        )
        for engine in engines.values():
            engine.close()
    result: dict[str, Any] = {
        "machine": machine(command_line("local_latency.py", None), False),
        "summary": {str(k): summarise(r) for k, r in rows.items()},
        "same_answers": f"{same}/{len(items) * (len(values) - 1)}",
        "rows": {str(k): r for k, r in rows.items()},
    }
    write_results(out, result)
    print(json.dumps(result["summary"], indent=1), "same answers", result["same_answers"])


def ask(engine: Any, q: str, gold: str, label: str = "") -> dict[str, Any]:
    """One streamed answer of the local model, timed, with what was shown and where its figures come from."""
    first: list[float] = []
    load = loadavg()
    t0 = time.perf_counter()
    answer = engine.ask(q, "local", on_sentence=lambda s, f=first, t=t0: f.append(time.perf_counter() - t))
    total = time.perf_counter() - t0
    by_model = answer.generator == "local"
    row = {
        "question": q,
        "first_sentence_s": round(first[0], 2) if first else None,
        "whole_s": round(total, 2),
        "shown_by": answer.generator,
        "attempts": answer.attempts,
        "refused": answer.refused,
        "outcome": answer.outcome,
        "sentences": [s.text for s in answer.sentences],
        "quotes": [[c.quote for c in s.citations] for s in answer.sentences],
        # a figure, date or reference of a sentence the model wrote that none of its quotes holds
        "figures_not_in_quotes": [
            n for s in answer.sentences if by_model for n in unsupported_numbers(s.text, [c.quote for c in s.citations])
        ],
        "tokens": answer.tokens,
        "load": load,
    }
    if gold:
        row["gold"] = gold
        row["contains_gold"] = folded_words(gold) in folded_words(answer.text)
        row["gold_figures_stated"] = bool(extract_numbers(gold)) and extract_numbers(gold) <= extract_numbers(
            answer.text
        )
    print(
        f"{row['first_sentence_s']} s / {row['whole_s']} s  {row['shown_by']:10}  load {load[0]:.2f}  {label}  {q}",
        flush=True,
    )
    return row


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    firsts = [r["first_sentence_s"] for r in rows if r["first_sentence_s"] is not None]
    summary: dict[str, Any] = {
        "questions": len(rows),
        "first_sentence_p50_s": round(statistics.median(firsts), 2) if firsts else None,
        "answers_with_a_first_sentence": len(firsts),
        "whole_p50_s": round(statistics.median(r["whole_s"] for r in rows), 2),
        "shown_as_written_by_the_model": sum(r["shown_by"] == "local" for r in rows),
        "shown_sentences_with_figures_not_in_their_quotes": sum(len(r["figures_not_in_quotes"]) > 0 for r in rows),
        "prompt_tokens_p50": statistics.median(r["tokens"].get("prompt", 0) for r in rows),
        "completion_tokens_p50": statistics.median(r["tokens"].get("completion", 0) for r in rows),
        "targets": {"first_sentence_p50_s": 8, "whole_p50_s": 12, "shown_as_written_share": 0.7},
    }
    golds = [r for r in rows if "gold" in r]
    if golds:
        with_figures = [r for r in golds if extract_numbers(r["gold"])]
        summary["answered"] = sum(r["outcome"] == "answered" for r in golds)
        summary["contains_gold"] = sum(r["contains_gold"] for r in golds)
        summary["gold_figures_stated"] = f"{sum(r['gold_figures_stated'] for r in with_figures)}/{len(with_figures)}"
    return summary


def docs(result: dict[str, Any]) -> None:
    summary, rows = result["summary"], result["rows"]
    table = md_table(
        ["question", "first sentence (s)", "whole (s)", "shown by", "load"],
        [
            [r["question"], str(r["first_sentence_s"]), str(r["whole_s"]), r["shown_by"], f"{r['load'][0]:.2f}"]
            for r in rows
        ],
    )
    m = result["machine"]
    write_section(
        "Local model latency",
        f"`{m['command']}` — {m['date']}, {m['cores']} cores, commit {m['revision']}. The bundled 1.5B model on the "
        "sample corpus, system prompt evaluated once first (as the server does), each answer streamed. Warm-up "
        f"{summary['warm_s']} s. First checked sentence p50 **{summary['first_sentence_p50_s']} s** "
        f"({summary['answers_with_a_first_sentence']} of {len(rows)} answers had one), whole answer p50 "
        f"**{summary['whole_p50_s']} s** (targets 8 s / 12 s on 2 idle cores); shown as written by the model: "
        f"{summary['shown_as_written_by_the_model']} of {len(rows)} (the others fell back to quotes after the "
        "model's sentences failed their checks or did not state what was asked).\n\n" + table,
    )


if __name__ == "__main__":
    main()
