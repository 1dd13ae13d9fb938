"""Typed records of the answer stage: ``Fragment`` (evidence given to a generator, with a short
id), ``Draft`` (what a generator wrote, with markers), and the ``Answer`` shown to people."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from citewise.retrieve.records import Evidence

REFUSAL = {
    "en": "The provided sources contain no answer to this question.",
    "vi": "Các tài liệu được cung cấp không có câu trả lời cho câu hỏi này.",
}
LOW_CONFIDENCE = {
    "en": "⚠ Low confidence: check the cited provisions before relying on this answer.",
    "vi": "⚠ Độ tin cậy thấp: hãy kiểm tra các điều khoản được trích dẫn trước khi sử dụng câu trả lời này.",
}


@dataclass
class Fragment:
    """One evidence text numbered for a generator: ``[F1]`` maps back to ``doc:ID#chunk:N``."""

    short: str
    evidence: Evidence

    @property
    def ref(self) -> str:
        return self.evidence.ref

    @property
    def text(self) -> str:
        return self.evidence.text or self.evidence.chunk.body


@dataclass
class DraftSentence:
    text: str
    """The sentence without its markers."""
    markers: list[str]
    """Markers as written: short ids ("F1") or stable refs ("doc:ab12#chunk:3")."""
    quote_span: tuple[int, int] | None = None
    """Extractive sentences: the exact span in the document they were copied from."""


@dataclass
class Draft:
    sentences: list[DraftSentence]
    generator: str
    raw: str = ""
    refused: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass
class Citation:
    marker: str
    """``doc:ID#chunk:N``."""
    doc_id: str
    chunk_id: int
    doc_title: str
    label: str
    pages: tuple[int | None, int | None]
    char_start: int
    char_end: int
    quote: str
    """The supporting text, exactly ``Document.text[char_start:char_end]``."""
    source_uri: str = ""


@dataclass
class ReferenceCheck:
    """A legal reference written in a sentence ("Article 6(1)", "khoản 2 Điều 17"), checked
    against the cited sources."""

    raw: str
    status: str
    """``valid`` (in a cited source, context matches) | ``mismatch`` (in a cited source, context
    differs) | ``invalid`` (in no cited source)."""
    source: str = ""
    """Title of the cited source that holds it."""
    context: float = 0.0
    """Similarity of the sentence around the reference to the source around it."""


@dataclass
class Verdict:
    """The zero-token checks of one sentence."""

    status: str
    """``supported`` | ``partial`` | ``unsupported``."""
    support: float
    failed: list[str] = field(default_factory=list)
    """Names of failed checks: marker, support, number, reference, url."""
    details: list[str] = field(default_factory=list)
    references: list[ReferenceCheck] = field(default_factory=list)
    evidence: str = ""
    """The cited text span that matches the sentence best."""


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

    @property
    def references(self) -> list[Citation]:
        """Distinct citations in order of first use: the numbered reference list."""
        seen: dict[str, Citation] = {}
        for s in self.sentences:
            for c in s.citations:
                seen.setdefault(f"{c.marker}@{c.char_start}", c)
        return list(seen.values())

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["references"] = [asdict(c) for c in self.references]
        return d
