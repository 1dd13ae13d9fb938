"""Typed records of an evaluation run: one ``QuestionResult`` per question (what was retrieved,
answered, cited, how long it took, and the no-context baseline's outcome), and the ``EvalRun``
holding them with the run's settings. Both round-trip through JSON (``to_dict``/``from_dict``),
so ``--compare`` and ``calibrate`` read earlier runs."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class CitedSentence:
    text: str
    support: float
    status: str
    failed: list[str] = field(default_factory=list)
    citations: list[str] = field(default_factory=list)
    """``doc:ID#chunk:N`` markers."""
    relevant: list[bool] = field(default_factory=list)
    """Per citation: its quoted span overlaps one of the question's references."""
    reference_support: float | None = None
    """Support of the sentence by the reference texts (None: no reference resolved)."""
    reference_supported: bool | None = None
    """``reference_support`` reaches the scorer's "supported" threshold."""
    figures_not_in_references: bool | None = None
    """The sentence has figures absent from the reference texts."""


@dataclass
class EvidenceView:
    ref: str
    label: str
    doc_title: str
    score: float
    dense: float | None
    pinned: bool
    hits: list[int]
    """Indices of the references this evidence overlaps."""
    text: str
    """The first 300 characters of the evidence."""


@dataclass
class BaselineOutcome:
    """The same LLM asked with no context (no fragments)."""

    answered: bool
    text: str
    sentences: int = 0
    supported: int | None = None
    """Sentences supported by the reference texts (None: no reference resolved)."""
    unsupported_figures: int | None = None
    """Sentences with figures absent from the reference texts (None: no reference resolved)."""
    answer_match: float | None = None
    latency_ms: float = 0.0
    error: str = ""


@dataclass
class QuestionResult:
    id: str
    question: str
    type: str
    lang: str
    answerable: bool
    expected: str | None
    references: list[str]
    resolved: int
    """How many references resolved to text in the index."""
    refused: bool
    reason: str
    weak: bool
    """Retrieval called the evidence weak (zero-token refusal)."""
    answer: str
    generator: str
    confidence: float
    verification: float
    latency_ms: float
    retrieval: dict[str, float] | None = None
    """Ranking measures (answerable questions with resolved references)."""
    best_dense: float | None = None
    best_coverage: float = 0.0
    pinned: bool = False
    searched: bool = True
    """False for chit-chat and empty results: the weak thresholds do not apply."""
    unrelated: float | None = None
    """The cosine questions about unrelated things reach in the index, when the search read it (the cosine limit is at
    least this: ``retrieve.unrelated``)."""
    sentences: list[CitedSentence] = field(default_factory=list)
    refs_cited: int = 0
    """References overlapped by at least one citation."""
    draft_figure_failures: int = 0
    """Drafts whose figures were not in the cited text (caught by the validator)."""
    answer_match: float | None = None
    timings: dict[str, float] = field(default_factory=dict)
    evidence: list[EvidenceView] = field(default_factory=list)
    baseline: BaselineOutcome | None = None
    outcome: str = ""
    """``answered``, ``no_direct_answer`` or ``refused`` (empty in results written before outcomes)."""
    answerability: float | None = None
    """The judge's score that the evidence states the answer."""

    @property
    def answered(self) -> bool:
        """A direct answer was shown (not refused, not "no direct answer")."""
        return self.outcome == "answered" if self.outcome else not self.refused

    @property
    def citations(self) -> int:
        return sum(len(s.citations) for s in self.sentences)

    @property
    def relevant_citations(self) -> int:
        return sum(sum(s.relevant) for s in self.sentences)

    @property
    def correct(self) -> bool | None:
        """For answered questions: a probe answered is wrong; an answerable one is right when it
        cites a reference (or, without references, matches half the expected answer's words).
        None when refused or when nothing tells."""
        if not self.answered:
            return None
        if not self.answerable:
            return False
        if self.resolved:
            return self.relevant_citations > 0
        if self.answer_match is not None:
            return self.answer_match >= 0.5
        return None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> QuestionResult:
        d = dict(d)
        d["sentences"] = [CitedSentence(**s) for s in d.get("sentences", [])]
        d["evidence"] = [EvidenceView(**e) for e in d.get("evidence", [])]
        d["baseline"] = BaselineOutcome(**d["baseline"]) if d.get("baseline") else None
        return cls(**d)


@dataclass
class EvalRun:
    meta: dict[str, Any]
    """Set name, index, generator, baseline generator, date, thresholds in force, warnings."""
    results: list[QuestionResult]
    summary: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"meta": self.meta, "summary": self.summary, "questions": [r.to_dict() for r in self.results]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> EvalRun:
        return cls(d["meta"], [QuestionResult.from_dict(q) for q in d["questions"]], d.get("summary", {}))
