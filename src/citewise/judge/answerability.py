"""Does the evidence state the answer to the question, and where?

``AnswerabilityJudge`` is the port; ``FeatureJudge`` the fast zero-token tier (boosted trees over
``judge.features`` for every sentence of the best evidence, shipped in ``judge/weights/``);
``TieredJudge`` asks a ``PairScorer`` (the small cross-encoder) about the best few sentences only when
the fast tier's score falls in its unsure band. The judge's score of the evidence is its best
sentence's score; the answer stage answers at or above the per-language threshold, says "no direct
answer — here are the closest provisions" below it, and refuses when retrieval found nothing relevant.
"""

from __future__ import annotations

import abc
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np

from citewise.chunk.sentences import lead_ins, sentence_spans
from citewise.judge.conditions import excludes, met_exclusions, unmet_conditions
from citewise.judge.features import FEATURES, pair_features
from citewise.judge.headings import named_instead
from citewise.judge.premise import absent_premises, unmentioned
from citewise.judge.qtype import VALUE_TYPES, answer_spans, question_type, states_value
from citewise.judge.records import Answerability, AnswerSpan, Excluded, Passage, Unmet
from citewise.judge.tables import KINDS_ASKED, find_cell, min_row_words
from citewise.lang import detect_language
from citewise.registry import Registry
from citewise.retrieve.choices import stem
from citewise.retrieve.records import Evidence
from citewise.retrieve.wording import expand
from citewise.textmatch import topic_keys
from citewise.trees import Forest, Tree, load_model

if TYPE_CHECKING:
    from citewise.judge.pair import PairClassifier

_Read = TypeVar("_Read", bound=Unmet)

DEFAULT_WEIGHTS = "answerability-features-v1.json"
MAX_EVIDENCE = 4
"""Evidence items (found, not supporting) whose sentences are judged."""
TYPED_POOL = 8
"""With ``typed``: among the fast tier's best this many sentences, those stating a value of the asked type."""


@dataclass(frozen=True)
class Candidate:
    """One sentence of one evidence item, with the fast tier's score."""

    evidence: int
    start: int
    end: int
    text: str
    score: float
    read: str = ""
    """What the tiers read when it is more than the sentence: a list item after its lead-in."""

    @property
    def reading(self) -> str:
        return self.read or self.text


class PairScorer(Protocol):
    """A pair classifier: P(the sentence states the answer to the question) for each sentence."""

    def score_pairs(self, question: str, sentences: Sequence[str]) -> list[float]: ...


class AnswerabilityJudge(abc.ABC):
    name: str = ""

    def answerable(self, question: str, evidence: Sequence[Evidence], lang: str | None = None) -> Answerability:
        """Score how well ``evidence`` (the found items, supporting ones skipped, the first ``MAX_EVIDENCE``)
        states the answer to ``question`` and find the sentence that does; ``span.evidence`` indexes
        ``evidence``."""
        found = read_evidence(evidence)
        lang = lang or detect_language(question)
        passages = [passage_of(e) for _, e in found]
        # a multiple-choice question is answered when its stem is: its options are what to choose among
        asked = stem(question)
        judged = self.judge(asked, passages, lang)
        closest = judged.closest
        judged = self._named(asked, passages, lang, judged)
        if not judged.answers(self.threshold(lang)):
            judged = table_answer(asked, passages, lang, judged, self.threshold(lang)) or judged
        judged = held_premises(question, passages, judged, self.threshold(lang), lang)
        judged = held_conditions(asked, passages, judged, self.threshold(lang))
        judged = exclusion_answer(asked, passages, judged, self.threshold(lang))
        if judged.span is not None:
            span = judged.span
            judged.span = AnswerSpan(
                found[span.evidence][0], span.char_start, span.char_end, span.text, span.answer_start, span.answer_end
            )
        judged.unmet = [_placed(u, found) for u in judged.unmet]
        judged.excluded = [_placed(u, found) for u in judged.excluded]
        judged.closest = [replace(c, evidence=found[c.evidence][0]) for c in closest]
        return judged

    def _named(self, question: str, passages: Sequence[Passage], lang: str, judged: Answerability) -> Answerability:
        """``judged``, or the judgment of the provisions ``question`` names by their heading when ``judged`` answers
        from a sentence under a heading it does not name and they answer too (``judge.headings``)."""
        if judged.span is None or not judged.answers(self.threshold(lang)):
            return judged
        named = named_instead(question, passages, judged.span.evidence)
        if not named:
            return judged
        again = self.judge(question, [passages[i] for i in named], lang)
        if again.span is None or not again.answers(self.threshold(lang)):
            return judged
        again.span = replace(again.span, evidence=named[again.span.evidence])
        return again

    @abc.abstractmethod
    def judge(self, question: str, passages: Sequence[Passage], lang: str) -> Answerability:
        """Score how well ``passages`` state the answer to ``question``; ``span.evidence`` indexes ``passages``."""

    @abc.abstractmethod
    def threshold(self, lang: str) -> float:
        """The score at or above which the evidence is taken to answer (chosen on dev data)."""


def _placed(case: _Read, found: list[tuple[int, Evidence]]) -> _Read:
    """``case`` with its sentence's place indexing the evidence instead of the passages read."""
    return case if case.where is None else replace(case, where=(found[case.where[0]][0], *case.where[1:]))


def read_evidence(evidence: Sequence[Evidence]) -> list[tuple[int, Evidence]]:
    """The evidence items a judgment reads, with their indexes in ``evidence``: the found ones (supporting ones
    skipped), the first ``MAX_EVIDENCE``."""
    return [(i, e) for i, e in enumerate(evidence) if not e.supporting][:MAX_EVIDENCE]


def passage_of(e: Evidence) -> Passage:
    if e.text:
        return Passage(e.text, e.char_start, e.chunk.header)
    return Passage(e.chunk.body, e.chunk.char_start, e.chunk.header)


LEAD_IN_WORDS = 40
"""A lead-in read before its list item is cut to its first words beyond this length (the pair classifier reads 160
tokens: the item must fit after it)."""


LEAD_IN_KEYS = 2
"""Topic words a lead-in must hold to be read before its items."""


def candidate_sentences(passages: Sequence[Passage]) -> list[tuple[int, int, int, str, str, str]]:
    """(passage index, start, end in Document.text, sentence, context, lead-in) of every judged sentence, headings and
    table rules left out; the lead-in is that of the list the sentence is an item of ("" when none), cut to its
    first ``LEAD_IN_WORDS`` words."""
    out: list[tuple[int, int, int, str, str, str]] = []
    for i, p in enumerate(passages):
        text, base = p.text, p.char_start
        context = f"{p.header} {text}"
        spans = sentence_spans(text)
        for (s, t), lead in zip(spans, lead_ins(text, spans), strict=True):
            sentence = " ".join(text[s:t].split())
            if len(sentence.split()) < 3 or set(sentence) <= set("|-: \n"):
                continue
            led = ""
            if lead is not None:
                words = text[slice(*spans[lead])].split()
                led = " ".join(words) if len(words) <= LEAD_IN_WORDS else " ".join(words[:LEAD_IN_WORDS]) + " …:"
            out.append((i, base + s, base + t, sentence, context, led))
    return out


def reading(question: str, sentence: str, lead_in: str, qtype: str = "") -> str:
    """What the tiers judge of a sentence: a list item after its lead-in when the item names something the question
    asks about that the lead-in does not ("(f) subsidence, heave or landslip …;" under "We will pay for loss of or
    damage to the buildings caused by any of the following events …:", asked "Does the policy cover subsidence?"), as
    a lawyer reads it; else the sentence alone (an item under a lead-in that holds all it shares with the question,
    "(a) non-payment of premium …" under "We may cancel this policy … such as:", asked "Can I cancel and get my money
    back?", would read as relevant as its lead-in; a lead-in with fewer than ``LEAD_IN_KEYS`` topic words)."""
    led = topic_keys(lead_in)
    if len(led) < LEAD_IN_KEYS:
        return sentence  # "You must then:" says nothing an item needs
    if qtype in VALUE_TYPES and states_value(qtype, lead_in):
        return sentence  # the lead-in's own figure ("by sending at least 30 days' notice … such as:") is no item's
    return f"{lead_in} {sentence}" if (topic_keys(question) & topic_keys(sentence)) - led else sentence


class FeatureJudge(AnswerabilityJudge):
    """The fast tier: boosted trees over zero-token features, per sentence; the best sentence decides."""

    name = "features"

    def __init__(self, weights: Path | str | None = None) -> None:
        model, self.source = load_model("citewise.judge", DEFAULT_WEIGHTS, weights, FEATURES, "answerability")
        self.model = model
        self.forest = Forest([Tree.from_dict(t) for t in model["trees"]])
        self.base = float(model["base"])
        self.rate = float(model["rate"])
        self.thresholds: dict[str, float] = dict(model["thresholds"])

    def threshold(self, lang: str) -> float:
        return self.thresholds.get(lang, self.thresholds.get("en", 0.5))

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        if len(rows) == 0:
            return np.zeros(0)
        z = self.base + self.rate * self.forest.predict_sum(rows)
        return np.asarray(1.0 / (1.0 + np.exp(-z)))

    def scores(self, question: str, qtype: str, sentences: Sequence[tuple[str, str]], lang: str) -> list[float]:
        """The fast tier's score of each (sentence, context)."""
        rows = np.array([pair_features(question, qtype, t, ctx, lang) for t, ctx in sentences], dtype=np.float64)
        return [float(p) for p in self.probabilities(rows.reshape(len(sentences), len(FEATURES)))]

    def candidates(self, question: str, passages: Sequence[Passage], lang: str) -> tuple[str, list[Candidate]]:
        """The question's type and every judged sentence with its fast-tier score, best first."""
        qtype = question_type(question)
        raw = [
            (i, a, b, s, ctx, reading(question, s, lead, qtype))
            for i, a, b, s, ctx, lead in candidate_sentences(passages)
        ]
        # the question as written and, when it uses spoken forms, with their legal wording added ("trả lãi" ->
        # "lãi suất"): each sentence scores the better of the two
        asked = [question] + ([f"{question} {' '.join(extra)}"] if (extra := expand(question, lang)) else [])
        alone = self._best(asked, qtype, [(s, ctx) for *_, s, ctx, _ in raw], lang)
        # an item read after its lead-in scores the better of its two readings: the trees were trained on sentences
        led = iter(self._best(asked, qtype, [(r, ctx) for *_, s, ctx, r in raw if r != s], lang))
        cands = [
            Candidate(i, a, b, s, max(p, next(led)), r) if r != s else Candidate(i, a, b, s, p)
            for (i, a, b, s, _, r), p in zip(raw, alone, strict=True)
        ]
        cands.sort(key=lambda c: -c.score)
        return qtype, cands

    def _best(self, asked: Sequence[str], qtype: str, sentences: Sequence[tuple[str, str]], lang: str) -> list[float]:
        """Each (sentence, context)'s best score over the wordings ``asked`` of one question."""
        return [max(p) for p in zip(*(self.scores(q, qtype, sentences, lang) for q in asked), strict=True)]

    def judge(self, question: str, passages: Sequence[Passage], lang: str) -> Answerability:
        qtype, cands = self.candidates(question, passages, lang)
        if not cands:
            return Answerability(0.0, None, qtype, self.name)
        best = cands[0]
        judged = Answerability(best.score, span_of(best, qtype), qtype, self.name, {"features": best.score})
        judged.closest = closest_spans(cands, qtype)
        return judged


class TieredJudge(AnswerabilityJudge):
    """The fast tier, and the pair classifier on its ``top`` best sentences when its score is in the
    unsure band ``[low, high)``; the pair classifier's best score then decides (weighted with the
    fast tier's by ``mix``). With ``typed``, a question asking for a value (how long, how much, how many) is
    read against the best sentences that state a value of that type, when the fast tier's best ``TYPED_POOL``
    hold any. With ``stop``, the sentences are read one at a time in the fast tier's order and the reading
    stops at the first whose score reaches ``stop`` or the language's threshold, whichever is higher: that
    sentence is the answer and its score the judge's (the outcome is the one reading them all gives; fewer pairs
    are read)."""

    name = "tiered"

    def __init__(
        self,
        fast: FeatureJudge,
        pair: PairScorer,
        thresholds: dict[str, float],
        band: tuple[float, float] = (0.0, 1.01),
        top: int = 3,
        mix: float = 0.0,
        name: str = "tiered",
        typed: bool = False,
        stop: float | None = None,
        reads: dict[str, int] | None = None,
    ) -> None:
        """``reads``: per language, how many of the fast tier's best sentences the pair classifier reads, in place of
        ``top``."""
        self.fast, self.pair = fast, pair
        self.thresholds = thresholds
        self.band, self.top, self.mix = band, top, mix
        self.name, self.typed, self.stop = name, typed, stop
        self.reads = dict(reads or {})

    def threshold(self, lang: str) -> float:
        return self.thresholds.get(lang, self.thresholds.get("en", 0.5))

    def judge(self, question: str, passages: Sequence[Passage], lang: str) -> Answerability:
        qtype, cands = self.fast.candidates(question, passages, lang)
        if not cands:
            return Answerability(0.0, None, qtype, self.fast.name)
        best = cands[0]
        closest = closest_spans(cands, qtype)
        low, high = self.band
        if not low <= best.score < high:
            judged = Answerability(best.score, span_of(best, qtype), qtype, self.fast.name, {"features": best.score})
            judged.closest = closest
            return judged
        pool = cands
        if self.typed and qtype in VALUE_TYPES:
            pool = [c for c in cands[:TYPED_POOL] if states_value(qtype, c.text)] or cands
        chosen = pool[: self.reads.get(lang, self.top)]
        sure = None if self.stop is None else max(self.stop, self.threshold(lang))
        pair_scores, combined = self._read(question, chosen, sure)
        k = int(np.argmax(combined))
        scores = {"features": best.score, "pair": float(max(pair_scores)), "pairs_read": float(len(pair_scores))}
        judged = Answerability(float(combined[k]), span_of(chosen[k], qtype), qtype, "pair", scores)
        judged.closest = closest
        return judged

    def _read(self, question: str, chosen: Sequence[Candidate], sure: float | None) -> tuple[list[float], list[float]]:
        """The pair classifier's scores of the chosen sentences (as ``Candidate.reading``), and those scores mixed
        with the fast tier's: all in one call, or with ``sure`` one at a time until one reaches it."""
        if sure is None:
            pair_scores = self.pair.score_pairs(question, [c.reading for c in chosen])
            return pair_scores, [self._mixed(p, c) for p, c in zip(pair_scores, chosen, strict=True)]
        pair_scores, combined = [], []
        for c in chosen:
            pair_scores += self.pair.score_pairs(question, [c.reading])
            combined.append(self._mixed(pair_scores[-1], c))
            if combined[-1] >= sure:
                break
        return pair_scores, combined

    def _mixed(self, pair_score: float, c: Candidate) -> float:
        return (1 - self.mix) * pair_score + self.mix * c.score


class Thresholded(AnswerabilityJudge):
    """A judge with thresholds set in the settings (``answer.answer_threshold``) for some languages."""

    def __init__(self, inner: AnswerabilityJudge, thresholds: dict[str, float]) -> None:
        self.inner, self.thresholds, self.name = inner, thresholds, inner.name

    def threshold(self, lang: str) -> float:
        return self.thresholds.get(lang, self.inner.threshold(lang))

    def judge(self, question: str, passages: Sequence[Passage], lang: str) -> Answerability:
        return self.inner.judge(question, passages, lang)


def table_answer(
    question: str, passages: Sequence[Passage], lang: str, judged: Answerability, threshold: float
) -> Answerability | None:
    """The evidence states the answer when the question names a row and a column of a table in it ("the excess
    for a buildings claim"): a table row read alone says too little for the sentence tiers. Its span is the
    row, its answer the cell; its score the threshold (or the sentence tiers' score, if higher). Yes/no
    questions are left to the sentence tiers: a cell states a value, not whether a case is covered."""
    if judged.qtype == "yes_no":
        return None
    kinds = KINDS_ASKED.get(judged.qtype, [])
    for i, p in enumerate(passages):
        cell = find_cell(question, p.text, kinds, min_row_words(lang), lang)
        if cell is None:
            continue
        (a, b), (va, vb) = cell.row_span, cell.value_span
        span = AnswerSpan(i, p.char_start + a, p.char_start + b, p.text[a:b], va - a, vb - a)
        score = max(judged.score, threshold)
        return Answerability(score, span, judged.qtype, "table", {**judged.scores, "table": score})
    return None


PREMISE_MARGIN = 0.01
"""How far under the threshold a judged score is set when the evidence does not hold what the question takes as
given."""


def held_premises(
    question: str, passages: Sequence[Passage], judged: Answerability, threshold: float, lang: str = "en"
) -> Answerability:
    """``judged``, under the threshold when the question takes as given a figure ("why … up to 05 years?") that none of
    ``passages`` states (``judge.premise``): they cannot answer it as asked. The figures are kept in ``absent``
    (whether the score was under the threshold already or not: the answer names them), and the names the question
    asks about that the passages never mention in ``unmentioned`` (whether the sources mention them anywhere is the
    answer stage's to find out: it holds the index)."""
    absent, names = _lacking(question, passages, lang)
    if not absent:
        return replace(judged, unmentioned=names) if names else judged
    return _held(judged, threshold, "premise", absent=absent, unmentioned=names)


def _held(judged: Answerability, threshold: float, check: str, **found: Any) -> Answerability:
    """``judged`` with what a check found (``found``: fields of ``Answerability``), its score set just under the
    threshold (and recorded under ``check`` in ``scores``) when it was at or above it."""
    if judged.score < threshold:
        return replace(judged, **found)
    score = threshold - PREMISE_MARGIN
    return replace(judged, score=score, scores={**judged.scores, check: score}, **found)


def held_conditions(
    question: str, passages: Sequence[Passage], judged: Answerability, threshold: float
) -> Answerability:
    """``judged``, under the threshold when a figure of the asker's case fails the condition its answering sentence sets
    on the same quantity ("delayed 8 hours" / "delayed by at least 12 hours": ``judge.conditions``), or, when that
    sentence sets none (a benefit table's row), every condition ``passages`` set on it; the figures and conditions
    kept in ``unmet``. Exclusions set no condition here (``exclusion_answer`` reads them)."""
    if judged.span is None:
        return judged
    span = judged.span
    # an exclusion's bound says when it applies: a case outside it is not excluded, not unmet
    near = (
        []
        if excludes(span.text, passages[span.evidence].header)
        else [(span.text, (span.evidence, span.char_start, span.char_end))]
    )
    far = (  # read only for a case the answering sentence sets no bound on
        (p.text[a:b], (i, p.char_start + a, p.char_start + b))
        for i, p in enumerate(passages)
        for a, b in sentence_spans(p.text)
        if not excludes(p.text[a:b], p.header)
    )
    unmet = unmet_conditions(question, near, far)
    return _held(judged, threshold, "condition", unmet=unmet) if unmet else judged


def exclusion_answer(
    question: str, passages: Sequence[Passage], judged: Answerability, threshold: float
) -> Answerability:
    """``judged`` answered by an exclusion's sentence when a figure of the asker's case meets its bound ("What happens if
    I leave my house empty for three months?" / "If the home is unoccupied for more than 60 consecutive days, we will
    not pay for …": ``judge.conditions.met_exclusions``): that sentence states what becomes of the case, whatever
    else the evidence says of it. A case whose answering condition is unmet is left as it is."""
    if judged.unmet:
        return judged
    excluded = _exclusions(question, passages)
    if not excluded or excluded[0].where is None:
        return judged
    i, s, e = excluded[0].where
    base = passages[i].char_start
    span = AnswerSpan(i, s, e, passages[i].text[s - base : e - base])
    score = max(judged.score, threshold)
    return replace(judged, span=span, score=score, scores={**judged.scores, "exclusion": score}, excluded=excluded)


def _exclusions(question: str, passages: Sequence[Passage]) -> list[Excluded]:
    def sentences() -> Iterator[tuple[str, str, tuple[int, int, int]]]:
        # split only when asked for: most questions state no case, and ``met_exclusions`` reads none of them then
        for i, s, e, t, _, led in candidate_sentences(passages):
            yield t, f"{passages[i].header} {led}", (i, s, e)

    return met_exclusions(question, sentences())


def excluded_cases(question: str, evidence: Sequence[Evidence]) -> list[Excluded]:
    """Without a judge: the figures of the asker's case that meet an exclusion's bound in the evidence a judge would
    read (``exclusion_answer`` reads the same for a judge), each placed in ``evidence``."""
    found = read_evidence(evidence)
    return [_placed(e, found) for e in _exclusions(question, [passage_of(x) for _, x in found])]


def lacking_premises(question: str, evidence: Sequence[Evidence], lang: str) -> tuple[list[str], list[str]]:
    """Without a judge: the figures ``question`` takes as given that the evidence a judge would read does not state,
    and the names it asks about that this evidence never mentions (``held_premises`` reads the same for a judge)."""
    return _lacking(question, [passage_of(e) for _, e in read_evidence(evidence)], lang)


def _lacking(question: str, passages: Sequence[Passage], lang: str) -> tuple[list[str], list[str]]:
    texts = [t for p in passages for t in (p.header, p.text)]
    return absent_premises(question, texts), unmentioned(question, texts, lang)


def closest_spans(cands: Sequence[Candidate], qtype: str) -> list[AnswerSpan]:
    """The best-scored sentence of each passage (``cands`` best first), in that order."""
    seen: set[int] = set()
    out: list[AnswerSpan] = []
    for c in cands:
        if c.evidence not in seen:
            seen.add(c.evidence)
            out.append(span_of(c, qtype))
    return out


def span_of(c: Candidate, qtype: str) -> AnswerSpan:
    """The answer span of a judged sentence: the sentence, and inside it the first answer of the asked type."""
    spans = answer_spans(qtype, c.text)
    if not spans:
        return AnswerSpan(c.evidence, c.start, c.end, c.text)
    # ``c.text`` is the sentence with its whitespace squeezed; find the answer in the document's spacing
    s, e = spans[0]
    return AnswerSpan(c.evidence, c.start, c.end, c.text, answer_start=s, answer_end=e)


def shipped_tiered(
    kind: str = "tiered",
    directory: Path | None = None,
    classifier: PairClassifier | None = None,
    stop: float | None = None,
    thresholds: dict[str, float] | None = None,
    reads: dict[str, int] | None = None,
) -> TieredJudge:
    """The pair classifier shipped in ``judge/weights/`` used as its manifest says (chosen on dev data):
    ``pair`` — it decides alone on the fast tier's best sentences; ``tiered`` — the fast tier first, the pair
    classifier inside the unsure band, scores mixed. ``classifier``: an already loaded one to share; ``stop``:
    stop reading sentences at the first that reaches it or the threshold (``TieredJudge``); ``thresholds``: per
    language, in place of the manifest's; ``reads``: per language, the sentences read in place of the manifest's
    ``top``."""
    from citewise.errors import MissingDependency
    from citewise.judge.pair import PairClassifier

    clf = classifier or PairClassifier(directory)
    cfg = clf.manifest.get("judges", {}).get(kind)
    if cfg is None:
        raise MissingDependency(f"a '{kind}' entry in the pair classifier's manifest", purpose=f"the {kind} judge")
    band = (float(cfg["band"][0]), float(cfg["band"][1]))
    thresholds = {**{k: float(v) for k, v in cfg["thresholds"].items()}, **(thresholds or {})}
    return TieredJudge(
        FeatureJudge(),
        clf,
        thresholds,
        band,
        int(cfg["top"]),
        float(cfg["mix"]),
        kind,
        bool(cfg.get("typed")),
        stop,
        reads,
    )


def pair_judge(
    directory: Path | None = None,
    classifier: PairClassifier | None = None,
    stop: float | None = None,
    thresholds: dict[str, float] | None = None,
    reads: dict[str, int] | None = None,
) -> TieredJudge:
    """The pair classifier on the fast tier's best sentences, deciding alone."""
    return shipped_tiered("pair", directory, classifier, stop, thresholds, reads)


JUDGES: Registry[AnswerabilityJudge] = Registry(
    "answerability judge",
    {
        "features": "citewise.judge.answerability:FeatureJudge",
        "pair": "citewise.judge.answerability:pair_judge",
        "tiered": "citewise.judge.answerability:shipped_tiered",
    },
    group="citewise.judges",
)
"""Answerability judges by name; a plugin adds one under the entry-point group ``citewise.judges``."""
