"""Language facts shared by every stage: NFC normalisation, diacritic folding, vi/en detection."""

from __future__ import annotations

import re
import unicodedata

_VI_ONLY = set("ăâđêôơưĂÂĐÊÔƠƯ")
_WORD = re.compile(r"[^\W\d_]+")
_VI_MARKS = frozenset("\u0302\u0306\u0309\u0323\u031b")
"""Marks of Vietnamese letters that French, German or Spanish names do not carry together with them: circumflex,
breve, hook above, dot below, horn ("Frédéric", "Kraków", "Rüdesheim" are not Vietnamese)."""
_CONTRACTION = re.compile(r"(?<=[A-Za-z])['’](?:ve|s|t|ll|re|d|m)\b", re.I)
# Frequent Vietnamese syllables that survive diacritic loss ("dieu", "khoan" are not English words).
_VI_FOLDED_HINTS = {
    "cua",
    "va",
    "cac",
    "nhung",
    "trong",
    "duoc",
    "khong",
    "theo",
    "quy",
    "dinh",
    "dieu",
    "khoan",
    "diem",
    "luat",
    "nghi",
    "thong",
    "tu",
    "bao",
    "hiem",
    "nguoi",
    "doanh",
    "nghiep",
    "hop",
    "dong",
    "thi",
    "la",
    "co",
    "cho",
    "ve",
    "voi",
    "mot",
    "nay",
    "phai",
    "tai",
    "viec",
    "chuong",
    "muc",
}
_EN_HINTS = {
    # question words and pronouns of people's questions that are no Vietnamese syllable without its marks
    "how",
    "what",
    "when",
    "where",
    "who",
    "why",
    "does",
    "did",
    "will",
    "would",
    "should",
    "you",
    "your",
    "have",
    "has",
    "was",
    "were",
    "if",
    "much",
    "many",
    "the",
    "of",
    "and",
    "to",
    "in",
    "shall",
    "be",
    "is",
    "for",
    "by",
    "or",
    "that",
    "with",
    "on",
    "article",
    "section",
    "any",
    "may",
    "this",
    "which",
    "are",
    "as",
    "not",
    "such",
    "policy",
}


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


_INVISIBLE = {
    cp: " " for cp in (0x00AD, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2060, 0xFEFF, *range(0x202A, 0x202F))
}


def visible(text: str) -> str:
    """Soft hyphens, zero-width and direction marks read as spaces, keeping the length (offsets
    still hold): sources exported from right-to-left-aware systems write "Rule \u200e9.1.1"."""
    return text.translate(_INVISIBLE)


def _fold_char(ch: str) -> str:
    if ch in "đĐ":
        return "d" if ch == "đ" else "D"
    decomposed = unicodedata.normalize("NFD", ch)
    return decomposed[0] if decomposed else ch


# Latin letters with diacritics (Latin-1, Extended-A/B, IPA, Extended Additional, where every
# Vietnamese letter lives): one base letter each. Characters outside the table are kept as they are.
_FOLD = {
    code: folded
    for code in [*range(0x80, 0x300), *range(0x1E00, 0x1F00)]
    if (folded := _fold_char(chr(code))) != chr(code)
}


def fold(text: str) -> str:
    """Remove diacritics keeping the length: ``fold(s)[i]`` is the base letter of ``s[i]``.

    Input should be NFC; every precomposed Vietnamese letter maps to one ASCII letter,
    so offsets found in the folded text are offsets in the original.
    """
    if text.isascii():
        return text
    return text.translate(_FOLD)


def folded_words(text: str) -> str:
    """``text`` without diacritics, lower case, its words joined by single spaces: the form in which phrases are
    looked up in other text (offsets are not kept)."""
    return " ".join(fold(text).lower().split())


def detect_language(text: str, sample: int = 20000) -> str:
    """``vi`` or ``en`` for a document or a question (typed with or without diacritics)."""
    head = text[:sample]
    letters = [c for c in head if c.isalpha()]
    if not letters:
        return "en"
    wide = [c for c in letters if not c.isascii()]
    marks = [unicodedata.normalize("NFD", c)[1:] for c in wide]  # each letter's combining marks
    marked = sum(1 for c, m in zip(wide, marks, strict=True) if c in _VI_ONLY or not _VI_MARKS.isdisjoint(m))
    if marked / len(letters) > 0.02:
        return "vi"
    # "I've", "Bluewave's", "don't": English; their tails ("ve", "s") would read as Vietnamese syllables
    contractions = len(_CONTRACTION.findall(head))
    words = [w.lower() for w in _WORD.findall(fold(_CONTRACTION.sub(" ", head)))]
    if not words:
        return "en"
    vi = sum(1 for w in words if w in _VI_FOLDED_HINTS)
    en = contractions + sum(1 for w in words if w in _EN_HINTS)
    if vi != en:
        return "vi" if vi > en else "en"
    # no word decides ("xin chào"): other marks on letters ("à", "é") then say Vietnamese
    return "vi" if any(marks) else "en"
