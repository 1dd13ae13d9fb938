"""A figure keeps its unit: "72 days" is not what "not later than 72 hours" says, nor is "50.000.000 ngày" what a cell
"50.000.000" in the column "Số tiền bảo hiểm tối đa (đồng)" says.

The figure check (``figures.unsupported_numbers``) finds each figure of a sentence in its sources; a small model can
copy the right figure and attach the wrong unit (the 1.5B model wrote "Thời hạn bảo hiểm tối đa cho mỗi chuyến đi là
50.000.000 ngày." from a row of the benefit table). Here each figure is read with its unit: the word after it ("14
ngày", "72 hours", "80%", "30-day"), the currency before it ("USD 250", "$5"), or, for a bare figure in a table cell,
its column's header ("Excess (USD)"). A sentence's figure with a unit the sources give that figure only with other
units is reported; a figure the sources also give bare, or not at all (the figure check's business), is not."""

from __future__ import annotations

import re

from citewise.figures import NUMBER, REF_CONTEXT, canon_number
from citewise.judge.tables import tables
from citewise.lang import fold
from citewise.textmatch import PERCENT

_AFTER: list[tuple[str, re.Pattern[str]]] = [
    (unit, re.compile(r"[\s-]*(?:" + pattern + r")(?![a-z])(?!\s*\d)"))
    for unit, pattern in [
        ("%", PERCENT),
        ("years of age", r"tuoi|years? old|years? of age"),
        ("minutes", r"minutes?|phut"),
        ("hours", r"hours?|gio|tieng"),
        ("days", r"(?:calendar |business |working |consecutive |clear )?days?|ngay"),
        ("weeks", r"weeks?|tuan"),
        ("months", r"months?|thang"),
        ("years", r"years?|nam"),
        ("times", r"times|lan"),
        ("cm", r"cm|centimet(?:er|re)s?|xen ?ti ?met"),
        ("metres", r"metres?|meters?|met"),
        ("km/h", r"km ?/ ?h|kph|km per hour|kilomet(?:er|re)s? (?:per|an) hour|km moi gio"),
        ("USD", r"usd|us dollars?|dollars?"),
        ("EUR", r"eur|euros?"),
        ("GBP", r"gbp|pounds?(?: sterling)?"),
        ("VND", r"vnd|dong|(?:trieu|ty|nghin|ngan) dong"),
    ]
]
"""Units written after a figure, on folded lower-case text. A unit word followed by a figure is a date's ("ngày 15 tháng 3
năm 2020": not 15 months nor 3 years)."""
DAYS = {"hours": 1 / 24, "days": 1.0, "weeks": 7.0, "months": 30.44, "years": 365.25}
"""The units of time of ``_AFTER`` in days: a case in months is read against a bound in days ("3 tháng" / "trên 60
ngày"), a frame in months against one in years ("từ 06 tháng đến 03 năm")."""
_WRITTEN_BEFORE = [
    ("USD", r"usd|us\$|\$"),
    ("EUR", r"eur|€"),
    ("GBP", r"gbp|£"),
    ("VND", r"vnd"),
    ("wind force", r"(?<!\w)(?:cap|force)"),
]
"""Currencies written before a figure ("USD 250", "$5"), and the Beaufort force of a wind ("gió cấp 8", "force 8"), on
folded lower-case text."""
_BEFORE: list[tuple[str, re.Pattern[str]]] = [(unit, re.compile(rf"(?:{p})\s*$")) for unit, p in _WRITTEN_BEFORE]
BEFORE_FIGURE = "|".join(p for _, p in _WRITTEN_BEFORE)
"""Any of the units written before a figure, as one pattern (``judge.conditions`` reads bounds around them)."""


_YEAR_BEFORE = re.compile(r"\b(?:nam|year)\s*$")
_A_YEAR = re.compile(r"(?:19|20)\d\d")
"""A figure of four digits after "năm" / "year" is a year ("năm 2026 ngày Tết"): it carries no unit the word after it
may seem to give."""


def currency_before(before: str) -> re.Match[str] | None:
    """The currency written at the end of ``before`` (folded lower-case text ending where a figure starts), if any."""
    return next((m for _, rx in _BEFORE if (m := rx.search(before))), None)


_HEADER_UNIT = re.compile(r"\(([^()]{1,12})\)\s*$")
"""A column header's unit, in brackets at its end: "Limit (USD)", "Mức khấu trừ (đồng)"."""


def _unit_of(words: str) -> str:
    """The unit ``words`` name when they are nothing but a unit ("USD", "đồng", "ngày"), else ""."""
    for unit, rx in _AFTER:
        m = rx.match(words)
        if m and m.end() == len(words):
            return unit
    return ""


def _column_units(low: str) -> dict[tuple[int, int], str]:
    """Each table cell's span -> the unit its column's header names in brackets."""
    out: dict[tuple[int, int], str] = {}
    for table in tables(low):
        header = table[0]
        for j, (a, b) in enumerate(header.cells):
            m = _HEADER_UNIT.search(low[a:b])
            unit = _unit_of(m.group(1).strip()) if m else ""
            if unit:
                for row in table[1:]:
                    if j < len(row.cells):
                        out[row.cells[j]] = unit
    return out


def figure_units(text: str, within: list[tuple[int, int]] | None = None) -> dict[str, set[str]]:
    """Each figure of ``text`` (canonical, as the figure check writes it, without "%") -> the units it is written
    with ("" for a bare figure); with ``within``, only figures inside those spans (quotes), read in the whole text
    (a table row's header lies outside its quote). Figures that name provisions ("Điều 12") are left out."""
    out: dict[str, set[str]] = {}
    for m, unit in unit_occurrences(text):
        a, b = m.span(1)
        if within is None or any(s <= a and b <= e for s, e in within):
            out.setdefault(canon_number(m.group(1)), set()).add(unit)
    return out


def unit_occurrences(text: str) -> list[tuple[re.Match[str], str]]:
    """Each figure of ``text`` (its ``NUMBER`` match on the folded lower-case text, one character per character of
    ``text``) with the unit this occurrence is written with ("" for none); figures that name provisions left out."""
    low = fold(text).lower()
    cells = _column_units(low)
    out = []
    for m in NUMBER.finditer(low):
        a, b = m.span(1)
        before = low[max(0, a - 12) : a]
        if REF_CONTEXT.search(before):
            continue
        if _YEAR_BEFORE.search(before) and _A_YEAR.fullmatch(m.group(1)):
            out.append((m, ""))  # "năm 2026 ngày Tết": a year, not 2026 days
            continue
        unit = "%" if m.group(2) else next((u for u, rx in _AFTER if rx.match(low, b)), "")
        unit = unit or next((u for u, rx in _BEFORE if rx.search(before)), "")
        if not unit:
            unit = next((u for (s, e), u in cells.items() if s <= a and b <= e and low[s:e].strip() == m.group(1)), "")
        out.append((m, unit))
    return out


def unit_mismatches(sentence: str, sources: list[tuple[str, list[tuple[int, int]] | None]]) -> list[str]:
    """Figures of ``sentence`` written with a unit that ``sources`` (texts, each with the spans it is quoted in, or
    ``None`` for all of it) give that figure only with other units: "50000000 ngày (the source: VND)"."""
    have: dict[str, set[str]] = {}
    for text, spans in sources:
        for n, units in figure_units(text, spans).items():
            have.setdefault(n, set()).update(units)
    out = []
    for n, units in sorted(figure_units(sentence).items()):
        seen = have.get(n)
        if not seen or "" in seen:
            continue
        for unit in sorted(units - {""} - seen):
            out.append(f"{n} {unit} (the source: {', '.join(sorted(seen))})")
    return out
