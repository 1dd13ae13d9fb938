"""Typed records of the retrieval stage: ``QueryAnalysis`` -> ``Evidence`` -> ``SearchResult``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from citewise.refs.records import DocHint, QueryRef
from citewise.types import Chunk

__all__ = ["DocHint", "Evidence", "QueryAnalysis", "QueryRef", "RankerScore", "SearchResult"]


@dataclass
class QueryAnalysis:
    question: str
    lang: str
    intent: str
    """``legal`` (needs retrieval) or ``chitchat`` (greetings, thanks: no retrieval)."""
    refs: list[QueryRef] = field(default_factory=list)
    docs: list[DocHint] = field(default_factory=list)
    """Documents named without a provision ("theo Luật KDBH 2022")."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class RankerScore:
    score: float
    rank: int


@dataclass
class Evidence:
    """A provision's text found for a question, with every reason it was chosen."""

    chunk: Chunk
    doc_title: str
    score: float
    """Final score (fused, boosted, reranked); evidence is sorted by it."""
    rank: int = 0
    rankers: dict[str, RankerScore] = field(default_factory=dict)
    """Each ranker's score and rank ("lexical", "dense")."""
    fused: float = 0.0
    reasons: list[str] = field(default_factory=list)
    """Why it is here beyond its scores: "pinned: Điều 12 named in the question", "boosted: ..."."""
    pinned: bool = False
    supporting: bool = False
    """Added because a chosen provision refers to it (cross-reference), not by search."""
    merged: list[int] = field(default_factory=list)
    """Chunk ids of overlapping windows of the same provision merged into this one."""
    char_start: int = 0
    char_end: int = 0
    text: str = ""
    """The evidence text (merged windows joined), ``Document.text[char_start:char_end]``."""
    dense: float | None = None
    """Cosine similarity of the question and the chunk (when dense search is on)."""

    @property
    def ref(self) -> str:
        return self.chunk.ref

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["ref"] = self.ref
        d["chunk"] = self.chunk.to_dict()
        return d


@dataclass
class SearchResult:
    analysis: QueryAnalysis
    evidence: list[Evidence]
    weak: bool
    """True when the best evidence is below the calibrated threshold (likely no answer)."""
    weak_reason: str = ""
    timings: dict[str, float] = field(default_factory=dict)
    """Milliseconds per step."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "analysis": self.analysis.to_dict(),
            "weak": self.weak,
            "weak_reason": self.weak_reason,
            "timings": self.timings,
            "evidence": [e.to_dict() for e in self.evidence],
        }
