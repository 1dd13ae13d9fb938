"""Question in, cited answer or honest refusal out: retrieve -> (zero-token refusal when the
evidence is weak) -> generate -> validate every sentence -> retry once with the top-3 fragments
and stricter rules -> keep the supported sentences (partial) -> fall back to the extractive
answer -> refuse. An unvalidated sentence is never shown."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from citewise.answer.base import Generator, GeneratorError
from citewise.answer.extractive import ExtractiveGenerator, names_a_conflict, states_figure_asked
from citewise.answer.injection import addresses_the_assistant, overlaps, tainted_lines
from citewise.answer.llama_local import LlamaCppGenerator
from citewise.answer.options import chosen_option
from citewise.answer.records import REFUSAL, Draft, DraftSentence, Fragment
from citewise.assistant.records import (
    EXCLUDED,
    EXCLUDED_EXCEPTED,
    EXCLUDED_OUTSIDE,
    LOW_CONFIDENCE,
    NO_DIRECT,
    NO_DIRECT_ANSWER,
    NOT_MENTIONED,
    NOT_STATED,
    REFUSED,
    UNMET,
    Answer,
    AnswerSentence,
)
from citewise.assistant.relevance import OFF_TOPIC, off_topic, same_sentence
from citewise.assistant.report import build_report, write_report
from citewise.chunk.sentences import sentence_spans
from citewise.judge.answerability import AnswerabilityJudge, excluded_cases, lacking_premises
from citewise.judge.llm import LlmTier
from citewise.judge.records import Answerability, Excluded, Unmet
from citewise.redact import keep
from citewise.retrieve.hybrid import Retriever
from citewise.retrieve.records import LOOKUP_WORDS, Evidence, SearchResult
from citewise.retrieve.scope import in_scope
from citewise.settings import AnswerSettings
from citewise.textmatch import topic_left_out
from citewise.verify.entailment import LlamaCppJudge
from citewise.verify.records import Citation
from citewise.verify.references import render_references
from citewise.verify.scorer import SupportScorer, get_scorer
from citewise.verify.validator import CheckedSentence, Validator


class Assistant:
    def __init__(
        self,
        retriever: Retriever,
        generator: Generator | None = None,
        settings: AnswerSettings | None = None,
        validator: Validator | None = None,
        clock: Callable[[], float] = time.perf_counter,
        reports: Path | None = None,
        judge: AnswerabilityJudge | None = None,
        question_policy: str = "yes",
        scorer: SupportScorer | None = None,
    ) -> None:
        """``reports``: the folder low-confidence reports are written to (the index's ``reports/``);
        ``None`` writes none. ``scorer``: the support scorer of the validator (default: the one the settings
        name, loaded here)."""
        self.settings = settings or AnswerSettings()
        self.retriever = retriever
        self.fallback = ExtractiveGenerator(max_sentences=self.settings.max_sentences)
        self.generator = generator or self.fallback
        self.validator = validator or Validator(
            self.settings.support_threshold,
            self.settings.partial_threshold,
            scorer or get_scorer(self.settings.support_scorer),
            self.settings.reference_context,
            heading_words=self.settings.support_heading_words,
            **self._llm_check(),
        )
        self.clock = clock
        self.reports = reports
        self.judge = judge
        if isinstance(judge, LlmTier) and isinstance(self.generator, LlamaCppGenerator):
            generator = self.generator
            judge.reader.share(lambda: generator.llm)  # one model for the judge's question and the answer
        self.question_policy = question_policy
        """How the question is kept in reports (``redact.keep``): ``yes``, ``redacted`` or ``no`` (no report)."""
        """Decides between an answer and "no direct answer"; ``None``: every relevant search is answered."""

    def _llm_check(self) -> dict[str, Any]:
        """The validator's arguments of the optional LLM entailment check (``llm_check`` in settings)."""
        if not self.settings.llm_check:
            return {}
        shared = self.generator.llm if isinstance(self.generator, LlamaCppGenerator) else None
        out: dict[str, Any] = {
            "judge": LlamaCppJudge(llm=shared, settings=self.settings.llm),
            "judge_from": self.settings.llm_check_from,
        }
        if self.settings.llm_check_threshold is not None:
            out["judge_threshold"] = self.settings.llm_check_threshold
        return out

    def ask(self, question: str, on_sentence: Callable[[AnswerSentence], None] | None = None) -> Answer:
        """``on_sentence``: called with each sentence of the generator's first draft as soon as it is
        written and has passed every check (streaming); the returned answer is the one to show."""
        t0 = self.clock()
        # as many as a search returns by default (the answer carries its search, and evaluation ranks
        # its top 10), never fewer than the fragments given to the generator
        result = self.retriever.search(question, k=max(self.settings.fragments, 5, self.retriever.settings.k))
        timings = {f"retrieve.{k}": v for k, v in result.timings.items()}
        lang = result.analysis.lang
        if result.weak:
            why = result.weak_reason or "weak evidence"
            refusal = self._refusal(question, lang, f"no answer in the sources ({why})", timings, t0, tokens_used=False)
            return self._report(refusal, result, [])
        searched = result  # reported whole; the answer reads the documents the question names (``in_scope``)
        result = replace(result, evidence=in_scope(question, result.evidence))
        fragments = [Fragment(f"F{i + 1}", e) for i, e in enumerate(result.evidence[: self.settings.fragments])]
        judged = self._judge(question, result, lang, timings)
        threshold = self.judge.threshold(lang) if self.judge else 0.0
        absent, names = self._premises(question, result, lang, judged)
        unknown = [n for n in names if not self.retriever.mentions(n)]
        unanswered = judged is not None and not judged.answers(threshold)
        unmet = judged.unmet if judged is not None else []
        # a figure of the case a condition excludes is said once, as that ("Máy bay bị hoãn 3 tiếng thì …")
        absent = [a for a in absent if a not in {u.case for u in unmet}]
        if unanswered and not unmet and chosen_option(question, fragments, lang):
            # a multiple-choice question whose options the evidence decides word for word is answered by it, though
            # its stem read alone ("… không thuộc các trường hợp chấm dứt bảo lãnh?") looks unanswered to the judge
            unanswered = False
        if unanswered or absent or unknown:
            reasons = [f"the sources do not mention {', '.join(unknown)}"] if unknown else []
            if judged is not None and unanswered:
                reasons.insert(
                    0,
                    f"no evidence sentence states the answer (answerability {judged.score:.2f} "
                    f"< {threshold:.2f}, {judged.qtype} question)",
                )
            if absent:
                reasons.append(f"the question takes as given {', '.join(absent)}, which the evidence does not state")
            reasons += [f"the question states {u.case}; the answering provision requires {u.condition}" for u in unmet]
            why = "; ".join(reasons)
            score = None if judged is None else judged.score
            notes = _notes(lang, absent, unknown)
            first = unmet[0].where if unmet else None
            opening = _case_note(UNMET, lang, unmet[0]) if unmet else None
            answer = self._no_direct(
                question,
                lang,
                result,
                why,
                score,
                timings,
                t0,
                notes=notes,
                first=first,
                opening=opening,
                judged=judged,
            )
            return self._report(answer, searched, [])
        excluded = self._excluded(question, result, judged)
        if judged is not None and judged.span is not None:
            span = judged.span
            focus = (span.char_start, span.char_end)
            fragments = focus_on(fragments, result.evidence[span.evidence], focus, stated=bool(excluded))
        elif excluded and excluded[0].where is not None:
            at, start, end = excluded[0].where
            fragments = focus_on(fragments, result.evidence[at], (start, end), stated=True)
        elif self.generator is not self.fallback:
            fragments = self._extractive_focus(question, fragments, lang)
        # a case an exclusion reaches is answered by quoting the exclusion, under the note that says how the case stands:
        # a model's own sentence could state the cover the exclusion takes away
        generator = self.fallback if any(f.stated for f in fragments) else self.generator
        # a model reads its first fragment first: the judge's answering provision leads, when it is on topic
        mine = fragments if generator is self.fallback else lead_with_focus(question, fragments)
        attempts: list[str] = []
        tokens = {"prompt": 0, "completion": 0}
        checked, used = self._attempt(generator, question, mine, lang, False, attempts, tokens, timings, on_sentence)
        over = any("budget" in a for a in attempts)
        if checked is not None and not _mostly_ok(checked) and generator is not self.fallback and not over:
            attempts.append("retry: top-3 fragments, stricter prompt")
            retry, used2 = self._attempt(generator, question, mine[:3], lang, True, attempts, tokens, timings)
            if retry is not None and (all(c.ok for c in retry) or _score(retry) > _score(checked)):
                checked, used = retry, used2
        drafted = list(checked or [])
        partial = False
        if checked is not None and not all(c.ok for c in checked):
            kept = [c for c in checked if c.ok]
            if _mostly_ok(checked):
                attempts.append(f"dropped {len(checked) - len(kept)} unsupported sentence(s)")
                checked, partial = kept, True
            else:
                checked = None
        if checked is not None and generator is not self.fallback:
            better = self._extractive_instead(question, lang, checked, fragments, tokens, timings)
            if better is not None:
                checked, used, tried = better
                attempts.extend(tried)
                partial = False
        if checked is None and generator is not self.fallback:
            attempts.append("fallback: extractive")
            checked, used = self._attempt(self.fallback, question, fragments, lang, False, attempts, tokens, timings)
            if checked is not None:
                drafted = drafted or list(checked)
                checked = [c for c in checked if c.ok] or None
        if not checked:
            # the evidence is relevant (not weak) but no sentence of it could be stated and supported: its
            # provisions are the closest the sources hold, not a refusal
            why = "no sentence could be stated and supported from the evidence"
            score = None if judged is None else judged.score
            closest = self._no_direct(question, lang, result, why, score, timings, t0, attempts, tokens, judged=judged)
            closest.verification = round(_score(drafted), 3) if drafted else 0.0
            return self._report(closest, searched, drafted)
        confidence = self._confidence(result, checked)
        answer = self._compose(question, lang, checked, used, confidence, partial, timings, t0, tokens, attempts)
        answer.verification = round(_score(drafted or checked), 3)
        answer.flagged = answer.verification < self.settings.verification_flag
        answer.answerability = None if judged is None else round(judged.score, 4)
        if excluded:
            case = excluded[0]
            wording = EXCLUDED_OUTSIDE if case.outside else EXCLUDED_EXCEPTED if case.excepted else EXCLUDED
            answer.note = _case_note(wording, lang, case)
            answer.text = f"{answer.note}\n{answer.text}"
            answer.reason = (
                f"the question states {case.case}; the exclusion's exception requires {case.condition}"
                if case.outside
                else f"the question states {case.case}; an exclusion applies to {case.condition}"
                + (f", {case.excepted}" if case.excepted else "")
            )
        return self._report(answer, searched, drafted or checked)

    def _report(self, answer: Answer, result: SearchResult, drafted: list[CheckedSentence]) -> Answer:
        """Attach the search; write a low-confidence report when the answer is refused, flagged or of
        low confidence."""
        answer.search = result
        if self.reports is None or result.analysis.intent != "legal":
            return answer
        if not (answer.refused or answer.flagged or answer.confidence < self.settings.low_confidence):
            return answer
        sentences: list[dict[str, Any]] = [
            {
                "text": c.draft.text,
                "status": c.verdict.status,
                "support": c.verdict.support,
                "failed": c.verdict.failed,
                "details": c.verdict.details,
            }
            for c in drafted
        ]
        if self.question_policy == "no":
            return answer
        report = build_report(answer, result, sentences)
        report["question"] = keep(report["question"], self.question_policy)
        answer.report = str(write_report(self.reports, report))
        return answer

    # -- steps --------------------------------------------------------------------------
    def _judge(self, question: str, result: SearchResult, lang: str, timings: dict[str, float]) -> Answerability | None:
        """The judge's view of whether the evidence states the answer (``None``: not judged — no judge,
        or a question that only names a provision, which the pinned provision answers)."""
        if self.judge is None or is_lookup(result):
            return None
        t = self.clock()
        judged = self.judge.answerable(question, result.evidence[: self.settings.fragments], lang)
        timings["judge"] = (self.clock() - t) * 1000
        return judged

    def _premises(
        self, question: str, result: SearchResult, lang: str, judged: Answerability | None
    ) -> tuple[list[str], list[str]]:
        """The figures and values ``question`` takes as given that the evidence does not state, and the names it asks
        about that the evidence never mentions: the judge's reading, or without a judge the same reading of the same
        evidence (a question that only names a provision is not read: the pinned provision answers it)."""
        if judged is not None:
            return judged.absent, judged.unmentioned
        if is_lookup(result):
            return [], []
        return lacking_premises(question, result.evidence[: self.settings.fragments], lang)

    def _excluded(self, question: str, result: SearchResult, judged: Answerability | None) -> list[Excluded]:
        """The figures of the asker's case that meet an exclusion's bound: the judge's reading, or without a judge the
        same reading of the same evidence (a question that only names a provision is not read)."""
        if judged is not None:
            return judged.excluded
        if self.judge is not None or is_lookup(result):
            return []
        return excluded_cases(question, result.evidence[: self.settings.fragments])

    def _extractive_focus(self, question: str, fragments: list[Fragment], lang: str) -> list[Fragment]:
        """With no judge's answering sentence, the sentence the extractive answer would quote first (chosen by
        the kind of answer the question asks for) is the fragments' focus: a model is shown it first."""
        try:
            draft = self.fallback.generate(question, fragments, lang)
        except GeneratorError:
            return fragments
        for sentence in draft.sentences:
            span = sentence.quote_span
            home = next((f for f in fragments if span and f.ref in sentence.markers), None)
            if span is not None and home is not None:
                return focus_on(fragments, home.evidence, span)
        return fragments

    def _extractive_instead(
        self,
        question: str,
        lang: str,
        checked: list[CheckedSentence],
        fragments: list[Fragment],
        tokens: dict[str, int],
        timings: dict[str, float],
    ) -> tuple[list[CheckedSentence], str, list[str]] | None:
        """The extractive answer (its shown sentences, generator, attempts) when the model's checked sentences hold
        but do not answer, and it does: the sources give conflicting figures for what is asked (the model states
        one, the extractive answer names both); none states the duration or amount asked for; they leave out what
        the question is about (``relevance``). ``None``: the model's sentences stay (the extractive answer is
        drafted only when one of these can be so)."""
        mine = [c.draft.text for c in checked]
        figure = states_figure_asked(question, mine)
        left_out = topic_left_out(question, " ".join(mine)) >= OFF_TOPIC
        if figure is None and not left_out:
            return None  # no figure asked for, nothing left out: no conflict of figures to name either
        tried: list[str] = []
        alt, used = self._attempt(self.fallback, question, fragments, lang, False, tried, tokens, timings)
        shown = [c for c in alt or [] if c.ok]
        if not shown:
            return None
        theirs = [c.draft.text for c in shown]
        why = ""
        if names_a_conflict(theirs[0]) and not any(names_a_conflict(m) for m in mine):
            why = "the sources give different figures for what is asked"
        elif figure is False and states_figure_asked(question, theirs):
            why = "the model's sentences do not state the figure asked for"
        elif left_out and off_topic(question, mine, theirs) and not same_sentence(checked, shown[0]):
            why = "the model's sentences leave out what the question is about"
        return (shown, used, [*tried, f"{why}: extractive answer shown"]) if why else None

    def _no_direct(
        self,
        question: str,
        lang: str,
        result: SearchResult,
        reason: str,
        answerability: float | None,
        timings: dict[str, float],
        t0: float,
        attempts: list[str] | None = None,
        tokens: dict[str, int] | None = None,
        notes: str = "",
        first: tuple[int, int, int] | None = None,
        opening: str | None = None,
        judged: Answerability | None = None,
    ) -> Answer:
        """The honest middle outcome: relevant provisions, none stating the answer (as the judge read them, or
        as no sentence could be stated and supported from them), listed with their opening sentences as
        citations; ``notes``: said after the opening line (what the question rests on that they lack); ``first``:
        a sentence to cite first (evidence index, span in ``Document.text``); ``opening``: said instead of
        ``NO_DIRECT``; ``judged``: the judge's reading, whose closest sentence of each provision it read is quoted
        for that provision (its opening sentences otherwise)."""
        indexed = [(i, e) for i, e in enumerate(result.evidence) if not e.supporting]
        found = [e for _, e in indexed]
        # a sentence addressing the reader's assistant is data, never quoted as what a provision says
        nearest = {
            c.evidence: c for c in (judged.closest if judged is not None else []) if not addresses_the_assistant(c.text)
        }
        closest = [
            Citation.of(e, span.char_start, span.char_end) if (span := nearest.get(i)) else closest_citation(e)
            for i, e in indexed
        ]
        if first is not None and first[0] < len(result.evidence):
            held = result.evidence[first[0]]
            others = (c for c, e in zip(closest, found, strict=True) if e is not held)
            closest = [Citation.of(held, first[1], first[2]), *others]
        closest = [c for c in closest if not addresses_the_assistant(c.quote)][: self.settings.closest]
        lines = [f"[{i}] {c.doc_title} — {c.label}" for i, c in enumerate(closest, start=1)]
        lead = f"{opening or NO_DIRECT[lang]} {notes}".strip()
        timings["total"] = (self.clock() - t0) * 1000
        return Answer(
            question=question,
            lang=lang,
            text="\n".join([lead, *lines]),
            sentences=[],
            refused=False,
            reason=reason,
            confidence=0.0,
            generator="none",
            timings=timings,
            tokens=tokens or {"prompt": 0, "completion": 0},
            attempts=attempts or [],
            outcome=NO_DIRECT_ANSWER,
            closest=closest,
            answerability=None if answerability is None else round(answerability, 4),
        )

    def _attempt(
        self,
        generator: Generator,
        question: str,
        fragments: list[Fragment],
        lang: str,
        strict: bool,
        attempts: list[str],
        tokens: dict[str, int],
        timings: dict[str, float],
        on_sentence: Callable[[AnswerSentence], None] | None = None,
    ) -> tuple[list[CheckedSentence] | None, str]:
        t = self.clock()

        def checked_sink(sentence: DraftSentence) -> None:
            assert on_sentence is not None
            c = self.validator.check(Draft([sentence], generator.name), fragments)[0]
            if c.ok:
                on_sentence(AnswerSentence(c.draft.text.rstrip(), c.citations, c.verdict))

        try:
            # passed only when streaming, so a plugin written before streaming still works without it
            streaming = {"on_sentence": checked_sink} if on_sentence is not None else {}
            draft = generator.generate(question, fragments, lang, strict=strict, **streaming)
        except GeneratorError as e:
            attempts.append(f"{generator.name}: error: {e}")
            return None, generator.name
        finally:
            key = f"generate.{generator.name}" + (".retry" if strict else "")
            timings[key] = (self.clock() - t) * 1000
        tokens["prompt"] += draft.prompt_tokens
        tokens["completion"] += draft.completion_tokens
        if draft.stopped:
            attempts.append(f"{generator.name}: {draft.stopped}")
        if draft.refused or not draft.sentences:
            attempts.append(f"{generator.name}: refused")
            return None, generator.name
        t = self.clock()
        checked = self.validator.check(draft, fragments)
        timings["verify"] = timings.get("verify", 0.0) + (self.clock() - t) * 1000
        bad = [c for c in checked if not c.ok]
        attempts.append(
            f"{generator.name}: {len(checked)} sentence(s), {len(bad)} failed"
            + (f" ({'; '.join(sorted({f for c in bad for f in c.verdict.failed}))})" if bad else "")
        )
        return checked, generator.name

    def _confidence(self, result: SearchResult, checked: list[CheckedSentence]) -> float:
        support = sum(c.verdict.support for c in checked) / len(checked)
        st = result.strength
        cov = st.coverage
        retrieval = cov if st.dense is None else 0.5 * cov + 0.5 * min(1.0, max(0.0, (st.dense - 0.75) / 0.15))
        if st.pinned:
            retrieval = max(retrieval, 0.9)
        return round(0.5 * support + 0.5 * retrieval, 3)

    def _compose(
        self,
        question: str,
        lang: str,
        checked: list[CheckedSentence],
        generator: str,
        confidence: float,
        partial: bool,
        timings: dict[str, float],
        t0: float,
        tokens: dict[str, int],
        attempts: list[str],
    ) -> Answer:
        numbers: dict[str, int] = {}
        parts: list[str] = []
        sentences: list[AnswerSentence] = []
        for c in checked:
            cites: list[Citation] = c.citations
            marks = []
            for cite in cites:
                key = f"{cite.marker}@{cite.char_start}"
                numbers.setdefault(key, len(numbers) + 1)
                marks.append(f"[{numbers[key]}]")
            text = c.draft.text.rstrip()
            parts.append(f"{render_references(text, c.verdict.references)} {''.join(marks)}")
            sentences.append(AnswerSentence(text, cites, c.verdict))
        warning = LOW_CONFIDENCE[lang] if confidence < self.settings.low_confidence else ""
        timings["total"] = (self.clock() - t0) * 1000
        return Answer(
            question=question,
            lang=lang,
            text=" ".join(parts),
            sentences=sentences,
            refused=False,
            reason="",
            confidence=confidence,
            generator=generator,
            warning=warning,
            partial=partial,
            timings=timings,
            tokens=tokens,
            attempts=attempts,
        )

    def _refusal(
        self,
        question: str,
        lang: str,
        reason: str,
        timings: dict[str, float],
        t0: float,
        tokens_used: bool = True,
        attempts: list[str] | None = None,
        tokens: dict[str, int] | None = None,
    ) -> Answer:
        timings["total"] = (self.clock() - t0) * 1000
        return Answer(
            question=question,
            lang=lang,
            text=REFUSAL[lang],
            sentences=[],
            refused=True,
            reason=reason,
            confidence=0.0,
            outcome=REFUSED,
            generator=self.generator.name if tokens_used else "none",
            timings=timings,
            tokens=tokens or {"prompt": 0, "completion": 0},
            attempts=attempts or [],
        )


def focus_on(
    fragments: list[Fragment], evidence: Evidence, focus: tuple[int, int], stated: bool = False
) -> list[Fragment]:
    """The fragments in their order, the one holding the answering sentence (``focus``, its span in
    ``Document.text``) marking it as its focus (added last when the judge read evidence beyond the fragments
    given to the generator); ``stated``: see ``Fragment.stated``."""
    out = [
        Fragment(f.short, f.evidence, focus, stated) if f.evidence is evidence else Fragment(f.short, f.evidence)
        for f in fragments
    ]
    if not any(f.evidence is evidence for f in fragments):
        out.append(Fragment(f"F{len(fragments) + 1}", evidence, focus, stated))
    return out


def lead_with_focus(question: str, fragments: list[Fragment]) -> list[Fragment]:
    """The fragment holding the judge's answering sentence first (renumbered F1, F2, ...), for a generator that
    reads in order; unchanged when that sentence, with its provision's heading, leaves out more of what the
    question is about than the first fragment does (the judge reads a sentence alone and can be drawn to one
    about a neighbouring step)."""
    k = next((i for i, f in enumerate(fragments) if f.focus is not None), 0)
    if k == 0:
        return fragments
    lead, first = fragments[k], fragments[0]
    assert lead.focus is not None
    base = lead.evidence.char_start
    sentence = lead.text[lead.focus[0] - base : lead.focus[1] - base]
    if topic_left_out(question, f"{lead.evidence.chunk.header} {sentence}") > topic_left_out(
        question, f"{first.evidence.chunk.header} {first.text}"
    ):
        return fragments
    order = [lead, *fragments[:k], *fragments[k + 1 :]]
    return [Fragment(f"F{i + 1}", f.evidence, f.focus, f.stated) for i, f in enumerate(order)]


def is_lookup(result: SearchResult) -> bool:
    """A question that names a provision and asks nothing more of it ("khoản 2 Điều 9 Quy tắc 125/2024",
    "Article 6(1)(a) GDPR"): the pinned provision is the answer."""
    a = result.analysis
    if not result.strength.pinned or not a.refs:
        return False
    return len(a.beyond_references()) <= LOOKUP_WORDS


def closest_citation(evidence: Evidence) -> Citation:
    """A provision cited by its opening sentence(s), up to about 300 characters; the sentences of lines addressing the
    reader's assistant left out (the quote starts after them, or ends before them)."""
    text = evidence.text or evidence.chunk.body
    base = evidence.text_start
    tainted = tainted_lines(text)
    start = end = None
    for s, e in sentence_spans(text):
        if overlaps((s, e), tainted):
            if end is not None:
                break
            continue
        if start is None:
            start = s
        elif e - start > 300:
            break
        end = e
    if start is None or end is None:
        start, end = 0, min(len(text), 300)
    return Citation.of(evidence, base + start, base + end)


def _score(checked: list[CheckedSentence]) -> float:
    return sum(c.ok for c in checked) / max(1, len(checked))


def _mostly_ok(checked: list[CheckedSentence]) -> bool:
    """At least half the sentences of a draft, and at least one, passed every check: the rest are dropped
    and the draft is shown without asking the model again (a second draft costs as much as the first)."""
    kept = sum(c.ok for c in checked)
    return kept > 0 and kept >= len(checked) / 2


def _notes(lang: str, figures: list[str], names: list[str]) -> str:
    """What a question rests on that the evidence lacks, said in ``lang``: figures it takes as given, names it asks
    about."""
    notes = [NOT_STATED[lang].format(figures=_quoted(figures))] if figures else []
    notes += [NOT_MENTIONED[lang].format(names=_quoted(names))] if names else []
    return " ".join(notes)


def _case_note(wording: dict[str, str], lang: str, case: Unmet) -> str:
    """What is said of a figure of the asker's case and the bound it was read against (``UNMET``, ``EXCLUDED``)."""
    excepted = _quoted([case.excepted]) if isinstance(case, Excluded) and case.excepted else ""
    return wording[lang].format(condition=_quoted([case.condition]), case=_quoted([case.case]), excepted=excepted)


def _quoted(items: list[str]) -> str:
    return ", ".join(f"“{i}”" for i in items)
