"""Low-confidence reports (reference-systems.md, D): when an answer is refused, flagged (verification
score under the threshold) or of low confidence, a JSON file and a readable text file are written
to the index's ``reports/`` folder: the query analysis, the evidence and its scores, each
sentence's failed checks, and a recommendation for whoever maintains the corpus."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

from citewise.assistant.records import NO_DIRECT_ANSWER, Answer
from citewise.retrieve.records import SearchResult


def _recommendation(answer: Answer, result: SearchResult) -> str:
    failed = {f for s in answer.sentences for f in s.verdict.failed}
    if answer.refused and (result.weak or not result.evidence):
        return (
            "The corpus seems to hold no provision on this question: add the document that governs it, "
            "or check that its terms appear in the indexed text."
        )
    if "number" in failed:
        return "A figure could not be found in the cited provision: check the provision is current and complete."
    if "reference" in failed:
        return "A cited reference is missing from the sources: check that the referenced provision is indexed."
    if answer.refused:
        return (
            "Evidence was found but no answer sentence could be supported by it: the provisions may be "
            "too general, or the answer needs several provisions read together."
        )
    if answer.outcome == NO_DIRECT_ANSWER:
        return (
            "Relevant provisions were found, but none was read as stating the answer (or none of their sentences "
            "could be stated and checked): if the corpus should answer this question, check that the provision "
            "answering it is indexed, and whether the question's wording differs from the provision's."
        )
    return "The answer rests on weakly supporting evidence: review the cited provisions and the question's wording."


def build_report(answer: Answer, result: SearchResult, checked: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The report as a JSON-ready dict. ``checked`` lists every checked sentence of the draft (shown
    or dropped): ``{"text", "status", "support", "failed", "details"}``."""
    return {
        "question": answer.question,
        "lang": answer.lang,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "why": _why(answer),
        "answer": {
            "text": answer.text,
            "refused": answer.refused,
            "reason": answer.reason,
            "confidence": answer.confidence,
            "verification": answer.verification,
            "flagged": answer.flagged,
            "generator": answer.generator,
            "attempts": answer.attempts,
        },
        "query": result.analysis.to_dict(),
        "evidence": [
            {
                "ref": e.ref,
                "title": e.doc_title,
                "label": e.chunk.label,
                "score": round(e.score, 4),
                "dense": None if e.dense is None else round(e.dense, 4),
                "rankers": {k: round(v.score, 4) for k, v in e.rankers.items()},
                "reasons": e.reasons,
            }
            for e in result.evidence
        ],
        "weak": {"weak": result.weak, "reason": result.weak_reason},
        "sentences": checked
        if checked is not None
        else [
            {
                "text": s.text,
                "status": s.verdict.status,
                "support": s.verdict.support,
                "failed": s.verdict.failed,
                "details": s.verdict.details,
            }
            for s in answer.sentences
        ],
        "recommendation": _recommendation(answer, result),
    }


def _why(answer: Answer) -> str:
    if answer.refused:
        return "refused"
    if answer.outcome == NO_DIRECT_ANSWER:
        return "no direct answer"
    return "flagged" if answer.flagged else "low confidence"


def render_report(report: dict[str, Any]) -> str:
    a = report["answer"]
    lines = [
        f"Low-confidence report ({report['why']}) — {report['created']}",
        f"Question: {report['question']}",
        f"Language: {report['lang']}  Intent: {report['query'].get('intent', '')}",
        f"References in the question: {', '.join(r['raw'] for r in report['query'].get('refs', [])) or 'none'}",
        "",
        f"Answer ({a['generator']}): {'REFUSED: ' + a['reason'] if a['refused'] else a['text']}",
        f"Confidence {a['confidence']:.2f}  verification {a['verification']:.2f}"
        + ("  FLAGGED" if a["flagged"] else ""),
        f"Attempts: {'; '.join(a['attempts']) or 'none'}",
        "",
        "Evidence:" if report["evidence"] else "Evidence: none",
    ]
    for i, e in enumerate(report["evidence"], 1):
        dense = "" if e["dense"] is None else f" cosine {e['dense']:.3f}"
        lines.append(f"  {i}. {e['title']} › {e['label']}  score {e['score']:.4f}{dense}")
    if report["weak"]["weak"]:
        lines.append(f"  weak evidence: {report['weak']['reason']}")
    lines.append("")
    lines.append("Sentences:" if report["sentences"] else "Sentences: none")
    for s in report["sentences"]:
        failed = f"  failed: {', '.join(s['failed'])}" if s["failed"] else ""
        lines.append(f"  [{s['status']} {s['support']:.2f}] {s['text']}{failed}")
        lines.extend(f"      {d}" for d in s["details"])
    lines += ["", f"Recommendation: {report['recommendation']}", ""]
    return "\n".join(lines)


def write_report(folder: Path, report: dict[str, Any]) -> Path:
    """Write ``<time>-<hash>.json`` and ``.txt`` to ``folder``; returns the JSON path."""
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(f"{report['question']}\n{report['created']}".encode()).hexdigest()[:8]
    stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{digest}"
    path = folder / f"{stem}.json"
    path.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (folder / f"{stem}.txt").write_text(render_report(report), encoding="utf-8")
    return path
