"""Recognisers for the markers that open a legal division, in Vietnamese and English.

Every pattern runs on diacritic-folded text (``lang.fold``), case-insensitively where the
field allows it, so "Điều 5", "DIỀU 5" and "Dieu 5" are the same marker. Offsets in the
folded line are offsets in the original line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.lang import fold

# Rank of each kind in the hierarchy: a node's parent is the nearest open node of lower rank.
RANK: dict[str, int] = {
    "part": 10,
    "annex": 10,
    "chapter": 20,
    "heading": 25,
    "section": 30,
    "subsection": 35,
    "article": 50,
    "recital": 50,
    "paragraph": 60,
    "point": 70,
    "subpoint": 80,
}
# Rank of a dotted number ("4.2", "3.2.1") grows with its depth; always above articles.
DOTTED_BASE = 36
UNIT_RANK_LIMIT = 60
"""Nodes ranked below this are divisions that can be chunk units; at or above, sub-provisions."""

VI_LETTERS = "a b c d đ e g h i k l m n o p q r s t u v x y".split()
EN_LETTERS = list("abcdefghijklmnopqrstuvwxyz")
ROMAN = re.compile(r"^(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$", re.I)
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_ORDINALS_VI = {
    "nhat": 1,
    "mot": 1,
    "hai": 2,
    "ba": 3,
    "tu": 4,
    "bon": 4,
    "nam": 5,
    "sau": 6,
    "bay": 7,
    "tam": 8,
    "chin": 9,
    "muoi": 10,
}
_ORDINALS_EN = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
}


def roman_to_int(s: str) -> int | None:
    s = s.lower()
    if not s or not ROMAN.match(s):
        return None
    total = 0
    for i, ch in enumerate(s):
        v = _ROMAN_VALUES[ch]
        nxt = _ROMAN_VALUES[s[i + 1]] if i + 1 < len(s) else 0
        total += -v if v < nxt else v
    return total


def number_key(raw: str) -> str:
    """Language-neutral form of a division number: roman and words to digits, lower case."""
    if raw.strip().lower() == "đ":
        return "dd"  # the Vietnamese letter after d, as Telex writes it
    s = fold(raw).strip().rstrip(".").lower()
    if s.isdigit():
        return str(int(s))
    r = roman_to_int(s)
    if r is not None and (len(s) > 1 or s in {"i", "v", "x"}):
        return str(r)
    words = s.replace("thu ", "").split()
    if words and words[-1] in _ORDINALS_VI:
        return str(_ORDINALS_VI[words[-1]])
    if words and words[-1] in _ORDINALS_EN:
        return str(_ORDINALS_EN[words[-1]])
    return s


@dataclass(frozen=True)
class Marker:
    """A division marker found at the start of a line."""

    kind: str
    number: str
    """As written ("17", "II", "a", "đ", "4.2", "2.3.LQ.17")."""
    word: str
    """The word as written ("Điều", "Article", "Chương", "" for bare "1." / "a)")."""
    heading: str
    """Title text after the marker on the same line (may be empty)."""
    body_offset: int
    """Offset in the line where the marker ends (title or body starts)."""
    dotted_depth: int = 0


_SEP = r"[ \t\u00a0]"
_FILENAME = re.compile(r"\.(docx?|pdf|xlsx?|rtf|odt)\s*$", re.I)
_TITLE_TAIL = rf"(?:{_SEP}*[.:\-–—]?{_SEP}*(?P<title>.*))?$"
# An annex title is set off by punctuation and a space, or starts with a letter (not "67.2023.nd.cp.docx").
_ANNEX_TAIL = rf"(?:{_SEP}*$|{_SEP}*[.:\-–—]{_SEP}+(?P<title>\S.*)$|{_SEP}+(?=[^\W\d])(?P<title2>.*)$)"

# Vietnamese divisions, on folded text.
_VI_DIV = [
    ("part", re.compile(rf"^(?P<word>phan){_SEP}+(?P<num>thu{_SEP}+\w+|[ivxlc]+|\d+)\b{_TITLE_TAIL}", re.I)),
    ("chapter", re.compile(rf"^(?P<word>chuong){_SEP}+(?P<num>[ivxlc]+|\d+)\b{_TITLE_TAIL}", re.I)),
    ("subsection", re.compile(rf"^(?P<word>tieu{_SEP}+muc){_SEP}+(?P<num>[ivxlc]+|\d+)\b{_TITLE_TAIL}", re.I)),
    ("section", re.compile(rf"^(?P<word>muc){_SEP}+(?P<num>[ivxlc]+|\d+)\b{_TITLE_TAIL}", re.I)),
    ("annex", re.compile(rf"^(?P<word>phu{_SEP}+luc)(?:{_SEP}+(?P<num>[ivxlc]+|\d+[a-z]?|[a-z]))?{_ANNEX_TAIL}", re.I)),
]
# "Điều 17." / "Điều 17:" / "Điều 2.3.LQ.17." (Pháp điển); the title follows on the line.
_VI_ARTICLE = re.compile(
    rf"^(?P<word>dieu){_SEP}+(?P<num>\d+(?:\.\d+)*(?:\.[A-Z]{{1,3}}(?:\.\d+)+)?[a-z]?)"
    rf"{_SEP}*(?P<sep>[.:]){_SEP}*(?P<title>.*)$",
    re.I,
)
_VI_ARTICLE_BARE = re.compile(rf"^(?P<word>dieu){_SEP}+(?P<num>\d+[a-z]?){_SEP}*$", re.I)
_KHOAN = re.compile(rf"^(?P<num>\d{{1,3}})(?P<sep>[.)])(?:{_SEP}+(?P<title>\S.*))?{_SEP}*$")
_DIEM = re.compile(rf"^(?P<num>[a-zđ]|[ivx]{{1,4}})\)(?:{_SEP}+(?P<title>\S.*))?{_SEP}*$")

# English divisions, on folded text.
_EN_DIV = [
    (
        "part",
        re.compile(
            rf"^(?P<word>part|title){_SEP}+(?P<num>[ivxlc]+|\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b{_TITLE_TAIL}",
            re.I,
        ),
    ),
    ("chapter", re.compile(rf"^(?P<word>chapter){_SEP}+(?P<num>[ivxlc]+|\d+)\b{_TITLE_TAIL}", re.I)),
    ("annex", re.compile(rf"^(?P<word>annex|appendix|schedule){_SEP}+(?P<num>[ivxlc]+|\d+|[a-z]){_ANNEX_TAIL}", re.I)),
    ("annex", re.compile(rf"^(?P<word>annex|appendix)(?P<num>){_SEP}*$", re.I)),
]
_EN_SECTION = re.compile(
    rf"^(?P<word>section|clause|rule|part){_SEP}+(?P<num>\d+(?:\.\d+)*|[ivxlc]+)\b{_TITLE_TAIL}", re.I
)
_EN_ARTICLE = re.compile(rf"^(?P<word>article|art\.){_SEP}*(?P<num>\d+[a-z]?){_SEP}*$", re.I)
_EN_ARTICLE_TITLED = re.compile(
    rf"^(?P<word>article|art\.){_SEP}*(?P<num>\d+[a-z]?){_SEP}*[.:\-–—]?{_SEP}+(?P<title>[A-Z].*)$"
)
_EN_PARA_NUM = re.compile(rf"^(?P<num>\d{{1,3}})\.(?:{_SEP}+(?P<title>\S.*))?{_SEP}*$")
_EN_PARA_PAREN = re.compile(rf"^\((?P<num>\d{{1,3}}[a-z]?)\){_SEP}*(?P<title>.*)$")
_EN_POINT = re.compile(rf"^\((?P<num>[a-z]{{1,2}}|[ivx]{{1,5}})\)(?:{_SEP}+(?P<title>\S.*))?{_SEP}*$")
_DOTTED = re.compile(rf"^(?P<num>[1-9]\d{{0,2}}(?:\.[1-9]\d{{0,2}}){{1,4}})\.?{_SEP}+(?P<title>\S.*)$")
_RECITAL = re.compile(rf"^(?:recital{_SEP}+)?\((?P<num>\d{{1,3}})\){_SEP}*(?P<title>.*)$", re.I)


def _mk(kind: str, m: re.Match[str], line: str, depth: int = 0) -> Marker:
    groups = m.groupdict()
    tname = next((g for g in ("title", "title2") if groups.get(g)), None)
    word = line[m.start("word") : m.end("word")] if groups.get("word") else ""
    num = line[m.start("num") : m.end("num")] if groups.get("num") else ""
    if tname is None:
        return Marker(kind, num, word, "", len(line), depth)
    start = m.start(tname)
    return Marker(kind, num, word, line[start:].strip(), start, depth)


def division_marker(line: str, lang: str) -> Marker | None:
    """A marker that opens a division or an article (never a clause or point)."""
    m = _division_marker(line, lang)
    if m is not None and not m.heading and line.rstrip().endswith((".", ",", ";")) and not m.number.endswith("."):
        if not (m.kind == "article" and lang == "vi"):
            return None  # "... in Section 2.3." wrapped onto its own line
    return m


def _division_marker(line: str, lang: str) -> Marker | None:
    f = fold(line)
    if lang == "vi":
        for kind, pat in _VI_DIV:
            m = pat.match(f)
            if m and _plausible_title(m) and _vi_word_ok(line[m.start("word") : m.end("word")]):
                return _mk(kind, m, line)
        m = _VI_ARTICLE.match(f) or _VI_ARTICLE_BARE.match(f)
        if m:
            return _mk("article", m, line)
        # English-style markers also occur in Vietnamese documents' annexes; fall through.
    for kind, pat in _EN_DIV:
        m = pat.match(f)
        if m and _plausible_title(m):
            return _mk(kind, m, line)
    m = _EN_ARTICLE.match(f) or _EN_ARTICLE_TITLED.match(f)
    if m and lang == "en":
        return _mk("article", m, line)
    m = _EN_SECTION.match(f)
    if m and lang == "en" and _plausible_title(m):
        num = m.group("num")
        return _mk("section", m, line, depth=num.count(".") + 1 if num[0].isdigit() else 0)
    return None


_VI_WORDS = {"phần", "chương", "mục", "tiểu mục", "phụ lục"}


def _vi_word_ok(word: str) -> bool:
    """The word as written: without diacritics anything goes ("muc"), with them it must be the
    division word itself ("Mục", not "Mức")."""
    w = " ".join(word.lower().split())
    return w.isascii() or w in _VI_WORDS


def _plausible_title(m: re.Match[str]) -> bool:
    """A heading's title is short, starts with a capital or a digit-free word, and is no file name."""
    title = (m.groupdict().get("title") or m.groupdict().get("title2") or "").strip()
    if not title:
        return True
    if len(title) > 160 or _FILENAME.search(title):
        return False
    return title[0].isupper() or title[0] in "“\"'"


def dotted_marker(line: str) -> Marker | None:
    m = _DOTTED.match(fold(line))
    if not m:
        return None
    title = m.group("title")
    if not title[0].isupper():
        return None
    num = m.group("num")
    return Marker("dotted", num, "", line[m.start("title") :].strip(), m.start("title"), num.count(".") + 1)


def clause_marker(line: str, lang: str) -> Marker | None:
    """A clause (khoản / paragraph) opening a line: "1. ...", "(1) ..."."""
    f = fold(line)
    m = _KHOAN.match(f) if lang == "vi" else (_EN_PARA_NUM.match(f) or _EN_PARA_PAREN.match(f))
    if not m:
        return None
    if lang == "vi" and m.group("sep") == ")":
        return None
    return _mk("paragraph", m, line)


def point_marker(line: str, lang: str) -> Marker | None:
    """A point (điểm / point / subpoint) opening a line: "a) ...", "đ) ...", "(a) ...", "(ii) ..."."""
    f = fold(line)
    m = (_DIEM.match(f) if lang == "vi" else None) or _EN_POINT.match(f)
    if not m:
        return None
    num = line[m.start("num") : m.end("num")].lower()
    mark = _mk("point", m, line)
    return Marker("point", num, "", mark.heading, mark.body_offset)


def recital_marker(line: str) -> Marker | None:
    m = _RECITAL.match(fold(line))
    if not m:
        return None
    return _mk("recital", m, line)


def next_letter(prev: str | None, lang: str) -> set[str]:
    """Letters that may follow ``prev`` as the next point (both alphabets accepted)."""
    if prev is None:
        return {"a"}
    out: set[str] = set()
    for alphabet in (VI_LETTERS, EN_LETTERS):
        if prev in alphabet:
            i = alphabet.index(prev)
            if i + 1 < len(alphabet):
                out.add(alphabet[i + 1])
    return out
