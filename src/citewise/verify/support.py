"""Lexical support of a sentence by its cited text: coverage of the sentence's content words and
word pairs by the best-matching cited sentences (the baseline scorer until a trained one is set)."""

from __future__ import annotations

from citewise.chunk.sentences import sentence_spans
from citewise.textmatch import content_words, coverage


def best_window(sentence: str, source: str, width: int = 2) -> tuple[float, tuple[int, int]]:
    """Support of ``sentence`` by the best run of up to ``width`` consecutive sentences of
    ``source``, and that run's span in ``source``."""
    spans = sentence_spans(source) or [(0, len(source))]
    best = (0.0, spans[0])
    for i in range(len(spans)):
        for j in range(i, min(i + width, len(spans))):
            s, e = spans[i][0], spans[j][1]
            score = lexical_support(sentence, source[s:e])
            if score > best[0]:
                best = (score, (s, e))
    return best


def lexical_support(sentence: str, source: str) -> float:
    """Coverage of the sentence's content words and word pairs by ``source`` (1.0 when the
    sentence has no content words)."""
    return coverage(sentence, source) if content_words(sentence) else 1.0
