"""The ``Answer`` people are shown: its sentences, each with its citations and verdict; how it was
reached (generator, attempts, timings, tokens) and how far to trust it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from citewise.retrieve.records import SearchResult
from citewise.verify.records import Citation, Verdict

ANSWERED, NO_DIRECT_ANSWER, REFUSED = "answered", "no_direct_answer", "refused"
OUTCOMES = (ANSWERED, NO_DIRECT_ANSWER, REFUSED)
NO_DIRECT = {
    "en": "The sources do not answer this question directly. The closest provisions are listed below.",
    "vi": "Các tài liệu không trả lời trực tiếp câu hỏi này. Dưới đây là các điều khoản gần nhất.",
}
NOT_STATED = {
    "en": "They do not state {figures}, which the question takes as given.",
    "vi": "Các tài liệu không nêu {figures} như câu hỏi đặt ra.",
}
"""Said after ``NO_DIRECT`` when the question rests on figures or values the evidence never states
(``judge.premise``)."""
NOT_MENTIONED = {
    "en": "They do not mention {names}.",
    "vi": "Các tài liệu không nhắc đến {names}.",
}
"""Said after ``NO_DIRECT`` when the question asks about names the index never mentions (``judge.premise``,
``Retriever.mentions``)."""
UNMET = {
    "en": "The case in the question does not meet a condition the sources set: the provision below says "
    "{condition}, the question states {case}.",
    "vi": "Trường hợp nêu trong câu hỏi không đáp ứng điều kiện mà tài liệu đặt ra: điều khoản dưới đây nêu "
    "{condition}, câu hỏi nêu {case}.",
}
"""Said instead of ``NO_DIRECT`` when a figure of the asker's case fails the condition of the sentence that would answer
(``judge.conditions``): the sources do speak to the case, through that condition, quoted first."""
EXCLUDED = {
    "en": "The case in the question meets the condition of an exclusion the sources set: the provision below says "
    "{condition}, the question states {case}.",
    "vi": "Trường hợp nêu trong câu hỏi thuộc điều kiện của một điều khoản loại trừ: điều khoản dưới đây nêu "
    "{condition}, câu hỏi nêu {case}.",
}
"""Said before an answer that quotes an exclusion whose bound a figure of the asker's case meets (``judge.conditions``):
what the exclusion takes away is in its quote."""
EXCLUDED_OUTSIDE = {
    "en": "The case in the question falls under an exclusion the sources set and outside the exception it makes: the "
    "provision below excepts only {condition}, the question states {case}.",
    "vi": "Trường hợp nêu trong câu hỏi thuộc một điều khoản loại trừ và nằm ngoài ngoại lệ của điều khoản đó: điều khoản "
    "dưới đây chỉ trừ {condition}, câu hỏi nêu {case}.",
}
"""Said instead of ``EXCLUDED`` when the case fails the bound of the exception an exclusion makes."""
EXCLUDED_EXCEPTED = {
    "en": "The case in the question meets the condition of an exclusion the sources set (the provision below says "
    "{condition}, the question states {case}), but that provision makes an exception: {excepted}.",
    "vi": "Trường hợp nêu trong câu hỏi thuộc điều kiện của một điều khoản loại trừ (điều khoản dưới đây nêu "
    "{condition}, câu hỏi nêu {case}), nhưng điều khoản đó có ngoại lệ: {excepted}.",
}
"""Said instead of ``EXCLUDED`` when the exclusion excepts what the question speaks of (``Excluded.excepted``): whether
the case is then covered is for the provisions that grant the cover to say."""
LOW_CONFIDENCE = {
    "en": "⚠ Low confidence: check the cited provisions before relying on this answer.",
    "vi": "⚠ Độ tin cậy thấp: hãy kiểm tra các điều khoản được trích dẫn trước khi sử dụng câu trả lời này.",
}


@dataclass
class AnswerSentence:
    text: str
    citations: list[Citation]
    verdict: Verdict


@dataclass
class Answer:
    question: str
    lang: str
    text: str
    """The answer as shown: sentences each ending with numbered references [1], [2]."""
    sentences: list[AnswerSentence]
    refused: bool
    reason: str
    confidence: float
    generator: str
    warning: str = ""
    partial: bool = False
    timings: dict[str, float] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)
    attempts: list[str] = field(default_factory=list)
    """What happened: "local: 1 sentence failed support", "retry", "fallback: extractive"."""
    verification: float = 1.0
    """Supported sentences / sentences of the draft the answer was taken from (before unsupported
    ones were dropped)."""
    flagged: bool = False
    """``verification`` is under the configured threshold."""
    report: str = ""
    """Path of the low-confidence report written for this answer, if any."""
    outcome: str = ANSWERED
    """``answered``; ``no_direct_answer`` (relevant provisions found, none states the answer: they are
    listed in ``closest``); ``refused`` (nothing relevant in the sources)."""
    closest: list[Citation] = field(default_factory=list)
    """For ``no_direct_answer``: the closest provisions, each cited by its opening sentence."""
    answerability: float | None = None
    """The judge's score that the evidence states the answer (``None`` when not judged)."""
    note: str = ""
    """For ``answered``: said before the sentences (and first in ``text``), how the asker's case stands against the
    provision quoted first (``EXCLUDED``); "" when there is nothing to say."""
    search: SearchResult | None = field(default=None, repr=False, compare=False)
    """The search the answer was built from (evaluation reads it instead of searching again); not in
    ``to_dict``."""

    @property
    def references(self) -> list[Citation]:
        """Distinct citations in order of first use: the numbered reference list."""
        seen: dict[str, Citation] = {}
        for s in self.sentences:
            for c in s.citations:
                seen.setdefault(f"{c.marker}@{c.char_start}", c)
        return list(seen.values())

    def to_dict(self) -> dict[str, Any]:
        d = asdict(replace(self, search=None))
        d.pop("search")
        d["references"] = [asdict(c) for c in self.references]
        return d
