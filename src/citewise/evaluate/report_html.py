"""The self-contained HTML report of a run: headline figures, retrieval, per type and language,
the baseline comparison, plots (embedded PNGs), and the 20 worst questions with their evidence.
No script, no stylesheet or font from elsewhere."""

from __future__ import annotations

from html import escape
from typing import Any

from citewise.evaluate import plots
from citewise.evaluate.metrics import RANKING_METRICS
from citewise.evaluate.records import EvalRun, QuestionResult

WORST = 20

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccc;padding:.25rem .5rem;
text-align:left;vertical-align:top;font-size:.9rem}th{background:#f3f3f3}td.n{text-align:right}
.bad{color:#b00020}.ok{color:#1b7a1b}.muted{color:#777}img{max-width:100%}details{margin:.3rem 0}
.q{margin:1rem 0;padding:.5rem .8rem;border-left:4px solid #c44e52;background:#fafafa}
"""

_HEADLINE = (
    ("answer_rate", "answer rate (answerable answered)"),
    ("refusal_correctness", "refusal correctness (probes refused)"),
    ("refusal_precision", "refusal precision (refusals that were probes)"),
    ("citation_precision", "citation precision"),
    ("citation_recall", "citation recall"),
    ("answers_citing_reference", "answers citing a reference"),
    ("answer_match", "expected-answer word match"),
    ("fabricated_figure_rate", "drafts with fabricated figures"),
    ("shown_sentences_with_unsupported_figures", "shown sentences with unsupported figures"),
    ("zero_token_refusals", "zero-token refusals"),
)


def fmt(v: Any) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.4f}".rstrip("0").rstrip(".")
    return escape(str(v))


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>"
        + "".join(f'<td class="n">{fmt(c)}</td>' if not isinstance(c, str) else f"<td>{escape(c)}</td>" for c in r)
        + "</tr>"
        for r in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def severity(r: QuestionResult) -> int:
    """3: probe answered; 2: answerable refused; 1: answered without citing a reference; 0: fine."""
    if not r.answerable:
        return 0 if r.refused else 3
    if r.refused:
        return 2
    if r.resolved and r.relevant_citations == 0:
        return 1
    return 0


def worst(results: list[QuestionResult], n: int = WORST) -> list[QuestionResult]:
    """The questions that went worst: by severity, then reciprocal rank, then confidence."""

    def key(r: QuestionResult) -> tuple[int, float, float]:
        mrr = r.retrieval["mrr10"] if r.retrieval else 1.0
        return (-severity(r), mrr, -r.confidence)

    bad = [r for r in results if severity(r) > 0 or (r.retrieval is not None and r.retrieval["mrr10"] < 1.0)]
    return sorted(bad, key=key)[:n]


_SEVERITY = {3: "probe answered", 2: "answerable refused", 1: "no citation of a reference", 0: "reference ranked low"}


def _question_block(r: QuestionResult) -> str:
    parts = [
        f'<div class="q"><b>{escape(r.id)}</b> · {escape(r.type)} · {escape(r.lang)} · '
        f'<span class="bad">{_SEVERITY[severity(r)]}</span><br>{escape(r.question)}',
        f"<br><span class='muted'>references: {escape(', '.join(r.references) or 'none')}"
        + (f" · expected: {escape(r.expected)}" if r.expected else "")
        + (f" · MRR@10 {fmt(r.retrieval['mrr10'])}" if r.retrieval else "")
        + f" · confidence {fmt(r.confidence)} · {fmt(round(r.latency_ms))} ms</span>",
        f"<p>{escape(r.answer)}" + (f" <span class='muted'>({escape(r.reason)})</span>" if r.reason else "") + "</p>",
    ]
    rows = [
        [str(i + 1), e.label, e.doc_title[:50], e.score, e.dense, "yes" if e.hits else "", e.text[:200]]
        for i, e in enumerate(r.evidence)
    ]
    parts.append(
        "<details><summary>evidence</summary>"
        + _table(["#", "provision", "document", "score", "cosine", "reference", "text"], rows)
        + "</details></div>"
    )
    return "".join(parts)


def _group_table(groups: dict[str, dict[str, Any]], label: str) -> str:
    headers = [
        label,
        "questions",
        "answerable",
        "probes",
        "Hit@5",
        "MRR@10",
        "answer rate",
        "refusal corr.",
        "citation prec.",
        "citation rec.",
        "p50 ms",
    ]
    rows = [
        [
            g,
            s["questions"],
            s["answerable"],
            s["probes"],
            s["retrieval"]["hit5"],
            s["retrieval"]["mrr10"],
            s["answer_rate"],
            s["refusal_correctness"],
            s["citation_precision"],
            s["citation_recall"],
            s["latency_ms"]["p50"],
        ]
        for g, s in groups.items()
    ]
    return _table(headers, rows)


def render(run: EvalRun) -> str:
    s = run.summary
    o = s["overall"]
    m = run.meta
    out = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>citewise eval — {escape(str(m.get('set', '')))}</title><style>{_CSS}</style></head><body>",
        f"<h1>citewise eval: {escape(str(m.get('set', '')))}</h1>",
        f"<p class='muted'>{fmt(m.get('questions'))} questions · generator {escape(str(m.get('generator')))}"
        + (f" · baseline {escape(str(m['baseline']))}" if m.get("baseline") else "")
        + f" · index {escape(str(m.get('index')))} · {escape(str(m.get('date')))}</p>",
    ]
    if m.get("unresolved_references"):
        out.append(
            f"<p class='bad'>{len(m['unresolved_references'])} reference(s) name nothing in the index: "
            + escape(", ".join(m["unresolved_references"][:10]))
            + "</p>"
        )
    out.append("<h2>Answers and refusals</h2>")
    out.append(_table(["measure", "value"], [[label, o[key]] for key, label in _HEADLINE]))
    lat = o["latency_ms"]
    out.append(
        _table(
            ["latency", "p50 ms", "p90 ms", "p95 ms", "max ms"],
            [["ask", lat["p50"], lat["p90"], lat["p95"], lat["max"]]],
        )
    )
    out.append(
        f"<h2>Retrieval</h2><p class='muted'>{o['retrieval']['n']} answerable questions with resolved references</p>"
    )
    out.append(_table(list(RANKING_METRICS), [[o["retrieval"][k] for k in RANKING_METRICS]]))
    v = s["verification"]
    out.append("<h2>Verification</h2>")
    out.append(
        _table(
            [
                "sentences",
                "support mean",
                "support p10",
                "support p50",
                "statuses",
                "verification mean",
                "confidence mean",
                "reference support mean",
            ],
            [
                [
                    v["sentences"],
                    v["support_mean"],
                    v["support_p10"],
                    v["support_p50"],
                    ", ".join(f"{k} {n}" for k, n in sorted(v["statuses"].items())),
                    v["verification_mean"],
                    v["confidence_mean"],
                    v["reference_support_mean"],
                ]
            ],
        )
    )
    results = run.results
    support = [x.support for r in results for x in r.sentences]
    ref_support = [x.reference_support for r in results for x in r.sentences if x.reference_support is not None]
    confidence = [r.confidence for r in results if not r.refused]
    out.append(f"<img alt='score distributions' src='{plots.distributions(support, confidence, ref_support)}'>")
    out.append(f"<img alt='reliability curve' src='{plots.reliability_curve(s['reliability'])}'>")
    out.append("<h2>By question type</h2>" + _group_table(s["by_type"], "type"))
    out.append(f"<img alt='per-type bars' src='{plots.group_bars(s['by_type'], 'by question type')}'>")
    out.append("<h2>By language</h2>" + _group_table(s["by_lang"], "language"))
    out.append(f"<img alt='per-language bars' src='{plots.group_bars(s['by_lang'], 'by language')}'>")
    if s.get("baseline"):
        b = s["baseline"]
        keys = list(b["citewise"])
        out.append(f"<h2>Against the no-context baseline</h2><p class='muted'>{b['questions']} questions</p>")
        out.append(
            _table(
                ["measure", "citewise", "baseline", "difference"],
                [[k.replace("_", " "), b["citewise"][k], b["baseline"][k], b["delta"].get(k)] for k in keys],
            )
        )
    bad = worst(results)
    out.append(f"<h2>The {len(bad)} worst questions</h2>")
    out.extend(_question_block(r) for r in bad)
    out.append("</body></html>")
    return "\n".join(out)
