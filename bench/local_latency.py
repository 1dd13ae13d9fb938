"""How long the bundled local model (Qwen2.5-Coder-1.5B, llama.cpp) takes to answer, and how many of its answers
are shown as it wrote them: questions on the sample corpus (EN + VI), the system prompt evaluated once first
(``Engine.warm``, as the server does at start), each answer streamed.

Per question: seconds to the first checked sentence (the first draft sentence shown), seconds to the whole answer,
who wrote what is shown (the model, or the extractive fallback after the model's sentences failed their checks),
and whether the model stopped at its time budget. Targets (issue 14): first sentence p50 <= 8 s, whole p50 <= 12 s on
2 idle cores; the load average is recorded with every answer, since on a shared machine the figures are not idle.

    .venv/bin/python bench/local_latency.py [--limit N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import citewise
from citewise.settings import Settings
from common import command_line, loadavg, machine, md_table, write_results, write_section

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "src" / "citewise" / "samples" / "corpus"
RESULTS = ROOT / "bench" / "results" / "local_latency.json"
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=len(QUESTIONS))
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        engine = citewise.open(settings=Settings(index=Path(tmp) / "index"))
        engine.ingest([SAMPLES])
        t0 = time.perf_counter()
        engine.warm("local")
        warm_s = time.perf_counter() - t0
        print(f"warm-up (model load + system prompt) {warm_s:.1f} s", flush=True)
        for q in QUESTIONS[: args.limit]:
            first: list[float] = []
            load = loadavg()
            t0 = time.perf_counter()
            answer = engine.ask(q, "local", on_sentence=lambda s, f=first, t=t0: f.append(time.perf_counter() - t))
            total = time.perf_counter() - t0
            row = {
                "question": q,
                "first_sentence_s": round(first[0], 2) if first else None,
                "whole_s": round(total, 2),
                "shown_by": answer.generator,
                "attempts": answer.attempts,
                "refused": answer.refused,
                "sentences": [s.text for s in answer.sentences],
                "load": load,
            }
            rows.append(row)
            print(
                f"{row['first_sentence_s']} s / {row['whole_s']} s  {row['shown_by']:10}  load {load[0]:.2f}  {q}",
                flush=True,
            )
        engine.close()
    firsts = [r["first_sentence_s"] for r in rows if r["first_sentence_s"] is not None]
    summary = {
        "questions": len(rows),
        "warm_s": round(warm_s, 1),
        "first_sentence_p50_s": round(statistics.median(firsts), 2) if firsts else None,
        "answers_with_a_first_sentence": len(firsts),
        "whole_p50_s": round(statistics.median(r["whole_s"] for r in rows), 2),
        "shown_as_written_by_the_model": sum(r["shown_by"] == "local" for r in rows),
        "targets": {"first_sentence_p50_s": 8, "whole_p50_s": 12},
    }
    result = {"machine": machine(command_line("local_latency.py", None), False), "summary": summary, "rows": rows}
    write_results(RESULTS, result)
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
        "model's sentences failed their checks).\n\n" + table,
    )
    print(summary)


if __name__ == "__main__":
    main()
