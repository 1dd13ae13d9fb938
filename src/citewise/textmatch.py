"""Word-level matching shared by retrieval (weak evidence), the extractive generator and the
support check: diacritic-folded words, stop words of both languages, a light English stemmer,
and coverage of one text's content words and word pairs by another."""

from __future__ import annotations

import itertools
import re

from citewise.lang import fold

_WORD = re.compile(r"[^\W_]+")
STOPWORDS = frozenset(
    (
        "the a an of to in on for and or is are was were be been by with what which who whom whose when where why how "
        "does do did that this these those as at from it its shall may must will can could would should there their "
        "not if than any all many much have has had my me i you your we our us they them he she his her about "
        "under into per each such other"
        " la cua va cac nhung duoc cho trong khi thi co khong nao gi ai bao nhieu lau nhu the theo ve voi mot tai ra "
        "nay do toi minh ban hay phai sao nhe a"
    ).split()
)


def stem(word: str) -> str:
    """A light English stemmer (plural, -ed, -ing, then a final -e, so "become", "becoming" and
    "becomes" meet); Vietnamese syllables pass unchanged."""
    if len(word) > 4 and word.isascii():
        for suffix, repl in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                if suffix == "s" and word.endswith(("ss", "us", "is")):
                    break  # process, status, analysis
                word = word[: -len(suffix)] + repl
                break
        if word.endswith("e") and len(word) > 4:
            word = word[:-1]
    return word


def words(text: str) -> list[str]:
    """Folded, lower-cased, stemmed words of ``text`` (single letters dropped, digits kept)."""
    return [stem(w) for w in _WORD.findall(fold(text).lower()) if len(w) > 1 or w.isdigit()]


def content_words(text: str) -> set[str]:
    return {w for w in words(text) if w not in STOPWORDS}


def coverage(query: str, text: str) -> float:
    """How much of ``query`` the ``text`` holds: the mean of the shares of its content words and
    of its word pairs found in ``text``. Pairs matter for Vietnamese, where single syllables
    ("người", "minh") occur everywhere."""
    q = words(query)
    uni = {w for w in q if w not in STOPWORDS}
    if not uni:
        return 0.0
    t = words(text)
    u = len(uni & set(t)) / len(uni)
    pairs = {p for p in itertools.pairwise(q) if not (p[0] in STOPWORDS or p[1] in STOPWORDS)}
    if not pairs:
        return u
    return 0.5 * u + 0.5 * len(pairs & set(itertools.pairwise(t))) / len(pairs)
