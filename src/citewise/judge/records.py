"""Typed records of the judge: where the evidence states the answer, and how sure the judge is."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Passage:
    """A text the judge reads: a provision's text, where it starts in ``Document.text``, and its header
    (document title, provision path) for context."""

    text: str
    char_start: int = 0
    header: str = ""


@dataclass(frozen=True)
class AnswerSpan:
    """The sentence of one piece of evidence that answers the question, and the short answer in it."""

    evidence: int
    """Index of the evidence item (in the list the judge was given)."""
    char_start: int
    char_end: int
    """The sentence's span in ``Document.text``."""
    text: str
    """The sentence, verbatim."""
    answer_start: int | None = None
    answer_end: int | None = None
    """Offsets in ``text`` of the short answer inside the sentence (a duration, an amount, a date);
    ``None`` when the answer is the sentence itself."""


@dataclass(frozen=True)
class Unmet:
    """A figure of the asker's case (``case``, as written in the question) that the condition the answering sentence
    sets on the same quantity (``condition``, as written there) excludes (``judge.conditions``)."""

    case: str
    condition: str
    where: tuple[int, int, int] | None = None
    """The sentence holding the condition: (evidence index, as ``AnswerSpan.evidence``; its span in
    ``Document.text``)."""


@dataclass(frozen=True)
class Excluded(Unmet):
    """A figure of the asker's case (``case``) that meets the bound (``condition``) of an exclusion the evidence states
    ("leave my house empty for 3 months" / "unoccupied for more than 60 consecutive days, we will not pay …"):
    ``where`` is the exclusion's sentence."""

    outside: bool = False
    """The case falls outside the exception the exclusion makes, whose bound ``condition`` is ("mang thai 30 tuần" /
    "Thai sản, trừ biến chứng thai sản xảy ra trước tuần thứ 28"): the exclusion applies to it."""
    excepted: str = ""
    """The exception the exclusion makes for what the question speaks of, as written ("trừ tổn thất do cháy, sét đánh,
    nổ" asked about a fire in a home left empty for 70 days): the case meets the exclusion's bound, yet the exclusion
    does not apply to it."""


@dataclass
class Answerability:
    """Does the evidence state the answer: a score in [0, 1], the best sentence, and how it was judged."""

    score: float
    span: AnswerSpan | None
    qtype: str
    """The kind of answer the question asks for (``judge.qtype.TYPES``)."""
    tier: str
    """``features`` (the fast tier decided) or ``pair`` (the pair classifier read the best sentences)."""
    scores: dict[str, float] = field(default_factory=dict)
    """Each tier's score of the best sentence."""
    absent: list[str] = field(default_factory=list)
    """Figures and values (a month, a frequency, a sex) the question takes as given that the evidence never states
    (``judge.premise``): the score is then held under the threshold."""
    unmentioned: list[str] = field(default_factory=list)
    """Names the question asks about that the evidence never mentions ("Dogecoin"); the answer stage withholds the
    answer when the sources mention one nowhere."""
    unmet: list[Unmet] = field(default_factory=list)
    """Figures of the asker's case that the answering sentence's condition excludes ("delayed 8 hours" / "at least 12
    hours"): the score is then held under the threshold."""
    excluded: list[Excluded] = field(default_factory=list)
    """Figures of the asker's case that meet the bound of an exclusion: its sentence is then the answering one."""
    closest: list[AnswerSpan] = field(default_factory=list)
    """Each passage's sentence the fast tier scored best, best passage first: what a "no direct answer" quotes of each
    provision it lists (the closest it comes to the question, rather than its opening words)."""

    def answers(self, threshold: float) -> bool:
        return self.span is not None and self.score >= threshold
