"""Hand-made per-question results for the summary, report, comparison and calibration tests."""

from __future__ import annotations

from typing import Any

from citewise.evaluate.records import CitedSentence, QuestionResult


def sentence(support: float = 1.0, relevant: list[bool] | None = None, **kw: Any) -> CitedSentence:
    relevant = [True] if relevant is None else relevant
    return CitedSentence(
        text=kw.pop("text", "A sentence."),
        support=support,
        status=kw.pop("status", "supported"),
        citations=[f"doc:d#chunk:{i}" for i in range(len(relevant))],
        relevant=relevant,
        **kw,
    )


def result(qid: str, **kw: Any) -> QuestionResult:
    base: dict[str, Any] = {
        "id": qid,
        "question": f"question {qid}?",
        "type": "factual",
        "lang": "en",
        "answerable": True,
        "expected": None,
        "references": [],
        "resolved": 0,
        "refused": False,
        "reason": "",
        "weak": False,
        "answer": "an answer",
        "generator": "extractive",
        "confidence": 0.0,
        "verification": 1.0,
        "latency_ms": 100.0,
    }
    base.update(kw)
    return QuestionResult(**base)
