"""The no-context baseline: the same LLM asked the question with no fragments (reference-systems.md,
A), through the ``Generator`` port like every answer. Its sentences cite nothing, so they are
judged against the question's reference texts with the support scorer, as the assistant's own
sentences are (``reference_support``), and against the expected answer."""

from __future__ import annotations

import time
from collections.abc import Callable

from citewise.answer.base import Generator, GeneratorError
from citewise.evaluate.metrics import answer_match
from citewise.evaluate.records import BaselineOutcome
from citewise.figures import unsupported_numbers
from citewise.verify.scorer import SupportScorer


class ReferenceJudge:
    """Support of a sentence by the reference texts of a question: the best score over them."""

    def __init__(self, scorer: SupportScorer, thresholds: Callable[[str], tuple[float, float]]) -> None:
        self.scorer = scorer
        self.thresholds = thresholds

    def support(self, sentence: str, references: list[str]) -> float:
        return max((self.scorer.score(sentence, text).score for text in references), default=0.0)

    def supported(self, sentence: str, references: list[str], lang: str) -> bool:
        return self.support(sentence, references) >= self.thresholds(lang)[0]


def run_baseline(
    generator: Generator,
    question: str,
    lang: str,
    references: list[str],
    expected: str | None,
    judge: ReferenceJudge,
    clock: Callable[[], float] = time.perf_counter,
) -> BaselineOutcome:
    t = clock()
    try:
        draft = generator.generate(question, [], lang)
    except GeneratorError as e:
        return BaselineOutcome(False, "", latency_ms=(clock() - t) * 1000, error=str(e))
    ms = (clock() - t) * 1000
    texts = [s.text for s in draft.sentences]
    answered = not draft.refused and bool(texts)
    text = " ".join(texts) if answered else ""
    out = BaselineOutcome(answered, text, len(texts) if answered else 0, latency_ms=ms)
    if answered and references:
        out.supported = sum(judge.supported(s, references, lang) for s in texts)
        out.unsupported_figures = sum(bool(unsupported_numbers(s, references)) for s in texts)
    if expected is not None:
        out.answer_match = answer_match(expected, text) if answered else 0.0
    return out
