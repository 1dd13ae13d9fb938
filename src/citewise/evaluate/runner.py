"""Run a question set through the assistant and record, per question, what retrieval ranked,
what was answered or refused, which citations hit the references, the verification scores,
figures caught, latency, and (optionally) the no-context baseline.

Each question is asked once through the engine (its latency is the one reported); the ranking
measures read the search the answer was built from (its top 10)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable

from citewise.answer.base import Generator
from citewise.assistant.records import Answer
from citewise.engine import Engine
from citewise.evaluate.baseline import ReferenceJudge, run_baseline
from citewise.evaluate.metrics import answer_match, dedupe, score_ranking
from citewise.evaluate.questions import EvalQuestion
from citewise.evaluate.records import CitedSentence, EvalRun, EvidenceView, QuestionResult
from citewise.evaluate.summary import summarize
from citewise.evaluate.targets import TargetResolver, Targets, resolve
from citewise.figures import unsupported_numbers
from citewise.progress import NullProgress, Progress
from citewise.retrieve.records import SearchResult

RANK_K = 10


class Evaluator:
    """Asks every question of a set; ``generator`` None is the settings' default (extractive)."""

    def __init__(
        self,
        engine: Engine,
        generator: str | None = None,
        baseline: Generator | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.engine = engine
        self.store = engine.store
        self.settings = engine.settings
        self.assistant = engine.assistant(generator)
        self.assistant.clock = clock
        self.baseline = baseline
        self.clock = clock
        self.targets = TargetResolver(engine.store)
        validator = self.assistant.validator
        self.judge = ReferenceJudge(validator.scorer, validator.thresholds)
        self._texts: dict[str, str] = {}
        self.unresolved: set[str] = set()
        """References that named nothing in the index (a set/corpus mismatch)."""

    def run(self, questions: list[EvalQuestion], name: str = "", progress: Progress | None = None) -> EvalRun:
        task = (progress or NullProgress()).task("questions", len(questions))
        results: list[QuestionResult] = []
        for q in questions:
            results.append(self.evaluate(q))
            task.advance()
        meta = {
            "set": name,
            "questions": len(questions),
            "generator": self.assistant.generator.name,
            "baseline": self.baseline.name if self.baseline is not None else None,
            "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "index": str(self.settings.index),
            "thresholds": {
                "weak_dense": dict(self.settings.retrieve.weak_dense),
                "weak_coverage": dict(self.settings.retrieve.weak_coverage),
                "support": {lang: self.assistant.validator.thresholds(lang)[0] for lang in ("en", "vi")},
            },
            "unresolved_references": sorted(self.unresolved),
        }
        return EvalRun(meta, results, summarize(results))

    def evaluate(self, q: EvalQuestion) -> QuestionResult:
        t0 = self.clock()
        answer = self.assistant.ask(q.question)
        latency = (self.clock() - t0) * 1000
        search = answer.search or self.engine.search(q.question, k=RANK_K)
        targets = resolve(self.targets, q.references)
        self.unresolved |= {str(r) for r, spans in zip(q.references, targets.spans, strict=True) if not spans}
        lang = q.lang or answer.lang
        strength = search.strength
        ref_texts = self._reference_texts(targets)
        sentences = self._sentences(answer, targets, ref_texts, lang)
        cited: set[int] = set()
        for s in answer.sentences:
            for c in s.citations:
                cited |= targets.hits(c.doc_id, c.char_start, c.char_end)
        result = QuestionResult(
            id=q.id,
            question=q.question,
            type=q.type,
            lang=lang,
            answerable=q.answerable,
            expected=q.answer,
            references=[str(r) for r in q.references],
            resolved=targets.resolved,
            refused=answer.refused,
            reason=answer.reason,
            weak=answer.refused and answer.reason.startswith("no answer in the sources"),
            answer=answer.text,
            generator=answer.generator,
            confidence=answer.confidence,
            verification=answer.verification,
            latency_ms=round(latency, 2),
            retrieval=self._ranking(search, targets) if q.answerable and targets.resolved else None,
            best_dense=None if strength.dense is None else round(strength.dense, 4),
            best_coverage=round(strength.coverage, 4),
            pinned=strength.pinned,
            searched=strength.searched,
            unrelated=None if strength.unrelated is None else round(strength.unrelated, 4),
            sentences=sentences,
            refs_cited=len(cited),
            draft_figure_failures=sum("number" in a for a in answer.attempts),
            answer_match=(answer_match(q.answer, answer.text) if answer.outcome == "answered" else 0.0)
            if q.answer is not None and q.answerable
            else None,
            timings={k: round(v, 2) for k, v in answer.timings.items()},
            evidence=self._evidence(search, targets),
            outcome=answer.outcome,
            answerability=answer.answerability,
        )
        if self.baseline is not None:
            result.baseline = run_baseline(
                self.baseline, q.question, lang, ref_texts, q.answer if q.answerable else None, self.judge, self.clock
            )
        return result

    def _ranking(self, search: SearchResult, targets: Targets) -> dict[str, float]:
        items = [
            (
                (e.chunk.doc_id, e.chunk.label or e.chunk.chunk_id),
                targets.hits(e.chunk.doc_id, e.char_start, e.char_end),
            )
            for e in search.evidence
            if not e.supporting
        ]
        return {k: round(v, 4) for k, v in score_ranking(dedupe(items, RANK_K), targets.resolved).items()}

    def _evidence(self, search: SearchResult, targets: Targets) -> list[EvidenceView]:
        return [
            EvidenceView(
                ref=e.ref,
                label=e.chunk.label,
                doc_title=e.doc_title,
                score=round(e.score, 4),
                dense=None if e.dense is None else round(e.dense, 4),
                pinned=e.pinned,
                hits=sorted(targets.hits(e.chunk.doc_id, e.char_start, e.char_end)),
                text=" ".join((e.text or e.chunk.body).split())[:300],
            )
            for e in search.evidence[:5]
        ]

    def _sentences(self, answer: Answer, targets: Targets, ref_texts: list[str], lang: str) -> list[CitedSentence]:
        out = []
        for s in answer.sentences:
            support = self.judge.support(s.text, ref_texts) if ref_texts else 0.0
            out.append(
                CitedSentence(
                    text=s.text,
                    support=s.verdict.support,
                    status=s.verdict.status,
                    failed=list(s.verdict.failed),
                    citations=[c.marker for c in s.citations],
                    relevant=[bool(targets.hits(c.doc_id, c.char_start, c.char_end)) for c in s.citations],
                    reference_support=round(support, 4) if ref_texts else None,
                    reference_supported=support >= self.judge.thresholds(lang)[0] if ref_texts else None,
                    figures_not_in_references=bool(unsupported_numbers(s.text, ref_texts)) if ref_texts else None,
                )
            )
        return out

    def _reference_texts(self, targets: Targets) -> list[str]:
        """The text of each resolved reference (its first span; whole documents cut to 20,000 chars)."""
        out = []
        for spans in targets.spans:
            if not spans:
                continue
            s = spans[0]
            if s.doc_id not in self._texts:
                self._texts[s.doc_id] = self.store.load_document(s.doc_id).text
            out.append(self._texts[s.doc_id][s.char_start : min(s.char_end, s.char_start + 20_000)])
        return out
