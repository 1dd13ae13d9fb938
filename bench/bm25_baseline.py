"""The baseline rows of the retrieval benchmark: plain bm25s (defaults: Lucene BM25, k1 1.5, b 0.75)
on each unit's raw text, outside citewise (no chunking, no context header), with four tokenizers."""

from __future__ import annotations

import itertools
import json
import logging
import re
import time
from collections.abc import Callable
from pathlib import Path

import bm25s
import numpy as np

from citewise.evaluate.benchsets import BenchSet, Unit
from common import log

_SYL = re.compile(r"\w+", re.UNICODE)


def tok_raw(text: str) -> list[str]:
    """Lower-cased whitespace split (punctuation stays on the tokens)."""
    return text.lower().split()


def tok_words_regex(text: str) -> list[str]:
    """Lower-cased ``\\w+`` runs: the brief's "raw tokens"."""
    return _SYL.findall(text.lower())


def tok_syllable_bigrams(text: str) -> list[str]:
    syl = _SYL.findall(text.lower())
    return syl + [f"{a}_{b}" for a, b in itertools.pairwise(syl)]


def tok_words(text: str) -> list[str]:
    """underthesea word segmentation (Vietnamese words of one or more syllables)."""
    from underthesea import word_tokenize

    return [w for w in word_tokenize(text, format="text").lower().split() if _SYL.search(w)]


class Bm25Baseline:
    """bm25s over the units' token lists; ``search`` returns the top 10 units with a positive score."""

    def __init__(self, units: list[Unit], token_lists: list[list[str]], tokenize: Callable[[str], list[str]]) -> None:
        logging.getLogger("bm25s").setLevel(logging.WARNING)  # bm25s sets its logger to DEBUG on import
        self.units = units
        self.tokenize = tokenize
        self.bm25 = bm25s.BM25()
        self.bm25.index([t or ["∅"] for t in token_lists], show_progress=False)
        self.vocab: dict[str, int] = self.bm25.vocab_dict

    def search(self, query: str) -> list[Unit]:
        toks = [t for t in self.tokenize(query) if t in self.vocab]
        if not toks:
            return []
        scores = np.asarray(self.bm25.get_scores(toks))
        top = np.argsort(-scores, kind="stable")[:10]
        return [self.units[i] for i in top if scores[i] > 0]


def word_tokens_cached(ds: BenchSet, units: list[Unit], folder: Path) -> list[list[str]]:
    """underthesea word tokens of every unit's raw text, cached in ``folder`` (segmentation takes minutes)."""
    path = folder / "baseline-words.json"
    cache: dict[str, list[str]] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    todo = [u for u in units if "\t".join(u) not in cache]
    if todo:
        log(f"{ds.name}: underthesea word segmentation of {len(todo)} units for the baseline")
        t0 = time.perf_counter()
        for u in todo:
            cache["\t".join(u)] = tok_words(ds.raw[u])
        log(f"{ds.name}: segmented in {time.perf_counter() - t0:.0f} s")
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(cache, ensure_ascii=False), encoding="utf-8")
    return [cache["\t".join(u)] for u in units]


Baseline = tuple[str, Callable[[str], list[str]], Callable[[], list[list[str]]]]


def baselines(ds: BenchSet, units: list[Unit], folder: Path, words: bool) -> list[Baseline]:
    """(row name, query tokenizer, corpus tokens) of each baseline row; ``words``: with the
    underthesea row (Vietnamese, full runs)."""
    texts = [ds.raw[u] for u in units]
    out: list[Baseline] = [
        ("bm25s raw whitespace", tok_raw, lambda: [tok_raw(t) for t in texts]),
        ("bm25s \\w+ tokens", tok_words_regex, lambda: [tok_words_regex(t) for t in texts]),
        ("bm25s syllables+bigrams", tok_syllable_bigrams, lambda: [tok_syllable_bigrams(t) for t in texts]),
    ]
    if words:
        out.insert(1, ("bm25s underthesea words", tok_words, lambda: word_tokens_cached(ds, units, folder)))
    return out
