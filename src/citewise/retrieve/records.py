"""Typed records of the retrieval stage: ``QueryAnalysis`` -> ``Evidence`` -> ``SearchResult``."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from citewise.refs.records import DocHint, QueryRef
from citewise.textmatch import content_words
from citewise.types import Chunk

__all__ = ["DocHint", "Evidence", "QueryAnalysis", "QueryRef", "RankerScore", "SearchResult", "Strength"]


LOOKUP_WORDS = 3
"""A question naming a provision with at most this many other content words looks it up."""


@dataclass
class QueryAnalysis:
    question: str
    lang: str
    intent: str
    """``legal`` (needs retrieval) or ``chitchat`` (greetings, thanks: no retrieval)."""
    refs: list[QueryRef] = field(default_factory=list)
    docs: list[DocHint] = field(default_factory=list)
    """Documents named without a provision ("theo Luật KDBH 2022")."""
    lexical: str = ""
    """What the lexical ranker searched when it was not the question as typed (``retrieve.wording``)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def beyond_references(self) -> set[str]:
        """The question's content words once the provisions and documents it names are taken out: a lookup
        ("khoản 2 Điều 9 Quy tắc 125/2024", "Article 6(1)(a) GDPR") leaves three or fewer."""
        rest = self.question
        for ref in sorted(self.refs, key=lambda r: -r.start):
            rest = rest[: ref.start] + " " + rest[ref.end :]
        for hint in [*self.docs, *(r.doc for r in self.refs if r.doc is not None)]:
            rest = rest.replace(hint.raw, " ")
        return {w for w in content_words(rest) if not w.isdigit()}


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
    named: bool = False
    """A chunk of a provision the question names (``pinned`` too when the question looks it up)."""
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

    @property
    def text_start(self) -> int:
        """Where the evidence text (``text``, else the chunk's body) starts in ``Document.text``."""
        return self.char_start if self.text else self.chunk.char_start

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["ref"] = self.ref
        d["chunk"] = self.chunk.to_dict()
        return d


@dataclass(frozen=True)
class Strength:
    """How well the evidence found covers the question (``retrieve.strength.measure``)."""

    dense: float | None
    """Best question/passage cosine among the top three found items (``None``: no dense ranker)."""
    coverage: float
    """Best coverage of the question's content words and word pairs by one of those items."""
    pinned: bool
    """A provision the question names was found (and put first when the question looks it up)."""
    searched: bool
    """Something was searched and found (not chit-chat, not an empty index)."""
    unrelated: float | None = None
    """The cosine questions about unrelated things reach in this index (``retrieve.unrelated``), when it was read: the
    cosine limit is at least this."""

    def is_weak(self, dense_limit: float, coverage_limit: float) -> bool:
        """The weak-evidence rule: never when a provision the question names was found; with a cosine, weak when both the
        cosine and the coverage are under their limits (the cosine limit raised to ``unrelated``); without one, when the
        coverage is."""
        if not self.searched:
            return True
        if self.pinned:
            return False
        if self.dense is not None:
            return self.dense < self.dense_limit(dense_limit) and self.coverage < coverage_limit
        return self.coverage < coverage_limit

    def dense_limit(self, configured: float) -> float:
        """The cosine limit in force: ``configured``, or what unrelated questions reach in the index when higher."""
        return configured if self.unrelated is None else max(configured, round(self.unrelated, 4))

    def why_weak(self, dense_limit: float, coverage_limit: float) -> str:
        """The reason shown for a weak result ("" when it is not weak)."""
        if not self.is_weak(dense_limit, coverage_limit):
            return ""
        if not self.searched:
            return "no evidence found"
        if self.dense is not None:
            limit = self.dense_limit(dense_limit)
            index = " (what unrelated questions reach in this index)" if limit != dense_limit else ""
            return (
                f"best evidence: cosine {_below(self.dense, 3)} < {limit}{index}, coverage {_below(self.coverage, 2)} < "
                f"{coverage_limit}"
            )
        return f"best evidence covers {_below(self.coverage, 2)} of the question's words (< {coverage_limit})"


def _below(value: float, places: int) -> str:
    """``value`` cut (not rounded) to ``places`` decimals: a cosine of 0.8598 under a limit of 0.86 reads "0.859", not
    "0.860 < 0.86"."""
    return f"{math.floor(value * 10**places + 1e-9) / 10**places:.{places}f}"


@dataclass
class SearchResult:
    analysis: QueryAnalysis
    evidence: list[Evidence]
    weak: bool
    """True when the best evidence is below the calibrated threshold (likely no answer)."""
    weak_reason: str = ""
    timings: dict[str, float] = field(default_factory=dict)
    """Milliseconds per step."""
    strength: Strength = field(default_factory=lambda: Strength(None, 0.0, False, False))
    """What the weak rule read: best cosine and coverage of the top found items, pinned or not."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "analysis": self.analysis.to_dict(),
            "weak": self.weak,
            "weak_reason": self.weak_reason,
            "strength": asdict(self.strength),
            "timings": self.timings,
            "evidence": [e.to_dict() for e in self.evidence],
        }
