"""Numbers, percentages, dates, amounts and codes, locale-aware: "1.000.000 đồng" = "1,000,000
VND", "0,08%" = "0.08%", "07 ngày" = "7 days", "01/5/2024" = "1 May 2024"."""

from __future__ import annotations

import re

from citewise.lang import fold, nfc

MONTHS = {
    m: i + 1
    for i, m in enumerate(
        "january february march april may june july august september october november december".split()
    )
}
_DATE_NUM = re.compile(r"\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\b")
_DATE_EN = re.compile(r"\b(\d{1,2})\s+(" + "|".join(MONTHS) + r")\s+(\d{4})\b", re.I)
_DATE_VI = re.compile(r"\bngay\s+(\d{1,2})\s+thang\s+(\d{1,2})\s+nam\s+(\d{4})\b", re.I)
_CODE = re.compile(r"\b\d{1,4}/\d{4}/[A-ZĐ][\w\-]*\b|\b[A-Z]{1,5}-\d{2,4}(?:/\d{1,4})?\b")
NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:[.,]\d{3})+|\d+(?:[.,]\d+)?)(?![\w])(\s*%)?")
REF_CONTEXT = re.compile(
    r"(dieu|khoan|diem|article|art\.?|articles|paragraph|point|section|rule|clause|chapter|chuong|annex|phu luc|recital|muc)\s*$",
    re.I,
)


_EN_ONES = dict(zip("one two three four five six seven eight nine".split(), range(1, 10), strict=True))
_EN_TENS = dict(zip("twenty thirty forty fifty sixty seventy eighty ninety".split(), range(20, 100, 10), strict=True))
_EN_WORDS = {
    **_EN_ONES,
    **dict(
        zip(
            "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(),
            range(10, 20),
            strict=True,
        )
    ),
    **_EN_TENS,
    **{f"{t}{sep}{o}": tv + ov for t, tv in _EN_TENS.items() for o, ov in _EN_ONES.items() for sep in ("-", " ")},
}
"""English numbers in words, one to ninety-nine ("thirty-four", "twenty one")."""
_VI_UNITS = dict(zip("một hai ba bốn năm sáu bảy tám chín".split(), range(1, 10), strict=True))
_VI_AFTER_TENS = {**{w: n for w, n in _VI_UNITS.items() if n not in (1, 5)}, "mốt": 1, "tư": 4, "lăm": 5}
"""Units after "mươi" / "mười": "hai mươi mốt", "ba mươi tư", "mười lăm"."""
_VI_TENS = {"mười": 10, **{f"{w} mươi": 10 * n for w, n in _VI_UNITS.items() if n > 1}}
_VI_WORDS = {
    **_VI_UNITS,
    **_VI_TENS,
    **{
        f"{t} {u}": tv + uv
        for t, tv in _VI_TENS.items()
        for u, uv in _VI_AFTER_TENS.items()
        if (t, u) != ("mười", "mốt")
    },
}
"""Vietnamese numbers in words, một to chín mươi chín ("mười lăm", "hai mươi tám", "ba mươi mốt")."""
_UNIT = (
    r"(?:calendar |business |working |consecutive )?(?:days?|weeks?|months?|years?|hours?|times|per ?cent)"
    r"|(?:ngày|tuần|tháng|năm|giờ|lần|phần trăm)"
)
_SPELLED = re.compile(
    r"(?<!\w)("
    + "|".join(sorted((*_EN_WORDS, *_VI_WORDS), key=len, reverse=True))
    + r")\s+(?=(?:"
    + _UNIT
    + r")(?!\w))"
)
"""A figure written in words before its unit ("two months", "mười lăm ngày"): read as the digits it
stands for, so "2 months" and "two months" meet and "within two months" is a figure to check."""
_SPELLED_ANY_CASE = re.compile(_SPELLED.pattern, re.I)


_SPELLED_WORD = re.compile(
    r"(?<!\w)(?:" + "|".join(sorted((*_EN_WORDS, *_VI_WORDS), key=len, reverse=True)) + r")(?!\w)", re.I
)


def spelled_numbers(text: str) -> list[tuple[int, int]]:
    """The spans of the numbers ``text`` writes in words ("một hình phạt chính", "two members"), whatever follows."""
    return [m.span() for m in _SPELLED_WORD.finditer(text)]


def _value(word: str) -> int:
    return _EN_WORDS.get(word) or _VI_WORDS[word]


def _spelled(text: str) -> set[str]:
    return {str(_value(m.group(1))) for m in _SPELLED.finditer(text.lower())}


def with_digits(text: str) -> str:
    """``text`` with each figure written in words before its unit in digits ("twelve months" -> "12 months", "ba
    lần" -> "3 lần"), case kept elsewhere."""
    return _SPELLED_ANY_CASE.sub(lambda m: f"{_value(m.group(1).lower())} ", text)


def canon_number(raw: str) -> str:
    """A figure as written ("1.000.000", "0,08", "07") in one form ("1000000", "0.08", "7")."""
    if re.fullmatch(r"\d{1,3}(?:[.,]\d{3})+", raw):
        return str(int(re.sub(r"[.,]", "", raw)))
    if re.fullmatch(r"\d+[.,]\d+", raw):
        return str(float(raw.replace(",", "."))).rstrip("0").rstrip(".")
    return str(int(raw))


def _iso(d: str, m: str, y: str) -> str:
    return f"{int(y):04d}-{int(m):02d}-{int(d):02d}"


def extract_numbers(text: str) -> set[str]:
    """Canonical forms of every figure in ``text`` that a reader could misquote. Numbers that
    name provisions ("Điều 17", "Article 6(1)") are left to the reference check."""
    out: set[str] = set()
    f = fold(text)
    spans: list[tuple[int, int]] = []
    for rx, order in ((_DATE_NUM, (1, 2, 3)), (_DATE_VI, (1, 2, 3))):
        for m in rx.finditer(f):
            try:
                out.add("date:" + _iso(m.group(order[0]), m.group(order[1]), m.group(order[2])))
            except ValueError:
                continue
            spans.append(m.span())
    for m in _DATE_EN.finditer(f):
        out.add("date:" + _iso(m.group(1), str(MONTHS[m.group(2).lower()]), m.group(3)))
        spans.append(m.span())
    for m in _CODE.finditer(text):
        out.add("code:" + fold(m.group(0)).lower())
        spans.append(m.span())
    for m in NUMBER.finditer(f):
        if any(s <= m.start() < e for s, e in spans):
            continue
        if REF_CONTEXT.search(f[max(0, m.start() - 12) : m.start()]) or (
            f[m.end() : m.end() + 1] == ")" and "(" in f[max(0, m.start() - 1) : m.start()]
        ):
            continue
        canon = canon_number(m.group(1))
        out.add(canon + ("%" if m.group(2) else ""))
    return out | _spelled(nfc(text))


def unsupported_numbers(sentence: str, sources: list[str]) -> list[str]:
    """Figures of ``sentence`` that none of ``sources`` contains."""
    have: set[str] = set()
    for s in sources:
        have |= extract_numbers(s)
    bare = {h.rstrip("%") for h in have}
    missing = []
    for n in sorted(extract_numbers(sentence)):
        if n in have or (n.endswith("%") and n.rstrip("%") in bare):
            continue
        missing.append(n)
    return missing
