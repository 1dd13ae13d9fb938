"""Citation-aware rerank (reference-systems.md, E): a chunk that holds a reference named in the
question scores 0.4·exact + 0.3·context similarity + 0.3·proximity, per reference; the chunk's
citation score is 0.7·mean + 0.3·max over the question's references."""

from __future__ import annotations

import re

from citewise.lang import fold
from citewise.refs.keys import label_key
from citewise.retrieve.records import QueryRef
from citewise.types import Chunk

_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(fold(text).lower()) if len(w) > 1]


def _context(question: str, ref: QueryRef, width: int = 8) -> set[str]:
    before = _words(question[: ref.start])[-width:]
    after = _words(question[ref.end :])[:width]
    return set(before + after)


def _exact(ref: QueryRef, chunk: Chunk) -> bool:
    if ref.key is None:
        return False
    own = label_key(chunk.label)
    if own is not None and (own == ref.key or ref.key.startswith(own + "/") or own.startswith(ref.key + "/")):
        return True
    return fold(ref.raw).lower() in fold(chunk.body).lower()


def _proximity(ref: QueryRef, chunk: Chunk, terms: set[str]) -> float:
    words = _words(chunk.body)
    if not words or not terms:
        return 0.0
    ref_words = _words(ref.raw)
    anchor = 0
    for i in range(len(words) - len(ref_words) + 1):
        if words[i : i + len(ref_words)] == ref_words:
            anchor = i
            break
    dists = [abs(i - anchor) for i, w in enumerate(words) if w in terms]
    return 1.0 / (1.0 + min(dists) / 20.0) if dists else 0.0


def citation_scores(question: str, refs: list[QueryRef], chunks: list[Chunk]) -> list[float]:
    out: list[float] = []
    for chunk in chunks:
        per: list[float] = []
        body = set(_words(chunk.body))
        for ref in refs:
            ctx = _context(question, ref)
            sim = len(ctx & body) / len(ctx | body) * 4 if ctx else 0.0
            score = 0.4 * _exact(ref, chunk) + 0.3 * min(1.0, sim) + 0.3 * _proximity(ref, chunk, ctx)
            per.append(score)
        out.append(0.7 * sum(per) / len(per) + 0.3 * max(per) if per else 0.0)
    return out
