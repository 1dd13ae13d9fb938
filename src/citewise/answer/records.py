"""Typed records of the answer stage: ``Fragment`` (evidence given to a generator, with a short
id) and ``Draft`` (what a generator wrote, with markers); ``REFUSAL``, the words of a refusal."""

from __future__ import annotations

from dataclasses import dataclass, field

from citewise.retrieve.records import Evidence

REFUSAL = {
    "en": "The provided sources contain no answer to this question.",
    "vi": "Các tài liệu được cung cấp không có câu trả lời cho câu hỏi này.",
}


@dataclass
class Fragment:
    """One evidence text numbered for a generator: ``[F1]`` maps back to ``doc:ID#chunk:N``."""

    short: str
    evidence: Evidence
    focus: tuple[int, int] | None = None
    """The sentence of this fragment that the answerability judge found to state the answer (its span in
    ``Document.text``); ``None`` when no judge ran or it chose another fragment."""
    stated: bool = False
    """The focus is to be stated however few words it shares with the question: an exclusion whose bound the asker's
    case meets ("leave my house empty for three months" / "unoccupied for more than 60 consecutive days")."""

    @property
    def ref(self) -> str:
        return self.evidence.ref

    @property
    def text(self) -> str:
        return self.evidence.text or self.evidence.chunk.body


@dataclass(frozen=True)
class Quote:
    """Words a generator says it copied from a fragment, as it wrote them; the validator finds them."""

    marker: str
    """The fragment's short id ("F1") or stable ref."""
    text: str


@dataclass
class DraftSentence:
    text: str
    """The sentence without its markers."""
    markers: list[str]
    """Markers as written: short ids ("F1") or stable refs ("doc:ab12#chunk:3")."""
    quote_span: tuple[int, int] | None = None
    """Extractive sentences: the exact span in the document they were copied from."""
    quotes: list[Quote] = field(default_factory=list)
    """LLM sentences: the verbatim quotes each rests on (quote-anchored generation)."""


@dataclass
class Draft:
    sentences: list[DraftSentence]
    generator: str
    raw: str = ""
    refused: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0
    stopped: str = ""
    """Why writing stopped before the model had finished (a time budget); empty when it finished."""
