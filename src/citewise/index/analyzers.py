"""Text analyzers for the lexical index, registered by name.

* ``whitespace``       lower-cased whitespace tokens (the plain baseline)
* ``syllable``         lower-cased word/syllable tokens, punctuation dropped
* ``syllable_bigram``  syllables + adjacent-syllable bigrams, so Vietnamese compounds match as units
* ``syllable_bigram_folded``  the same plus diacritic-folded syllables and bigrams, so questions
                       typed without diacritics still match
* ``syllable_bigram_folded_stemmed``  the same plus the Snowball English stem of each Latin word
                       whose stem differs ("cancelled", "cancellation" -> "cancel"), so English
                       inflections meet; Vietnamese syllables have no English suffixes and pass unchanged
                       (default: ObliQA nDCG@10 +0.027 on held-out questions, ALQAC unchanged;
                       docs/benchmarks.md, "Lexical analyzers: English stemming")
* ``word``             underthesea word segmentation (Vietnamese), syllables otherwise
* ``word_syllable_bigram``  underthesea words + syllables + bigrams (both)
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable
from typing import Any

from citewise.errors import MissingDependency
from citewise.lang import fold
from citewise.registry import Registry

Analyzer = Callable[[str], list[str]]
_TOKEN = re.compile(r"[^\W_]+(?:[.,/-][^\W_]+)*", re.UNICODE)
ANALYZERS: Registry[Analyzer] = Registry("analyzer")
"""Analyzers by name (each factory returns the analyzer); a plugin adds one under the entry-point
group ``citewise.analyzers``."""


def get_analyzer(name: str) -> Analyzer:
    return ANALYZERS.create(name)


def whitespace(text: str) -> list[str]:
    return text.lower().split()


def syllables(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def syllable_bigrams(text: str) -> list[str]:
    syl = syllables(text)
    return syl + [f"{a}_{b}" for a, b in itertools.pairwise(syl)]


def syllable_bigrams_folded(text: str) -> list[str]:
    """Syllables and bigrams, plus their diacritic-free forms where those differ."""
    out = syllable_bigrams(text)
    folded = syllable_bigrams(fold(text))
    return out + [f for f, o in zip(folded, out, strict=True) if f != o]


@functools.lru_cache(maxsize=200_000)
def _english_stem(word: str) -> str:
    return str(_stemmer().stemWord(word))


@functools.cache
def _stemmer() -> Any:
    try:
        import snowballstemmer
    except ImportError as e:  # pragma: no cover - snowballstemmer is a core dependency
        raise MissingDependency("snowballstemmer", purpose="English stemming in the lexical index") from e
    return snowballstemmer.stemmer("english")


def english_stems(text: str) -> list[str]:
    """The stems of the words of ``text`` that are Latin words of 4+ letters, not written in capitals
    (acronyms: "COBS", "GDPR"), and change when stemmed."""
    out = []
    for t in _TOKEN.findall(text):
        if len(t) > 3 and t.isascii() and t.isalpha() and not t.isupper():
            low = t.lower()
            s = _english_stem(low)
            if s != low:
                out.append(s)
    return out


def syllable_bigrams_folded_stemmed(text: str) -> list[str]:
    """Folded syllables and bigrams, plus English stems where they differ from the word."""
    out = syllable_bigrams_folded(text)
    return out + english_stems(text)


def _word_analyzer() -> Analyzer:
    try:
        from underthesea import word_tokenize
    except ImportError as e:  # pragma: no cover - underthesea is a core dependency
        raise MissingDependency("underthesea", purpose="Vietnamese word segmentation") from e

    def words(text: str) -> list[str]:
        if not any(ord(c) > 127 for c in text):
            return syllables(text)
        segmented = word_tokenize(text, format="text")
        return [t for t in (w.lower() for w in segmented.split()) if _TOKEN.search(t)]

    return words


ANALYZERS.register("whitespace", lambda: whitespace)
ANALYZERS.register("syllable", lambda: syllables)
ANALYZERS.register("syllable_bigram", lambda: syllable_bigrams)
ANALYZERS.register("syllable_bigram_folded", lambda: syllable_bigrams_folded)
ANALYZERS.register("syllable_bigram_folded_stemmed", lambda: syllable_bigrams_folded_stemmed)
ANALYZERS.register("word", _word_analyzer)


def _word_syllable_bigram() -> Analyzer:
    words = _word_analyzer()

    def both(text: str) -> list[str]:
        return ["w:" + w for w in words(text) if "_" in w] + syllable_bigrams_folded(text)

    return both


ANALYZERS.register("word_syllable_bigram", _word_syllable_bigram)
