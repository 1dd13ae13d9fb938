"""What a figure is counted per: "USD 50 a day", "20.000.000 đồng mỗi người mỗi chuyến", "USD 4,000 for each
condition in each policy year". A question that asks for a rate per one thing ("Phí bảo hiểm mỗi ngày là bao
nhiêu?", "How much does the policy cost per year?") is not answered by a figure counted per another ("tối thiểu
200.000 đồng mỗi chuyến đi"): the two are different figures, neither a wrong version of the other.

Read on folded lower-case text (``lang.fold``: one character per character, so offsets carry over)."""

from __future__ import annotations

import functools
import re

from citewise.lang import fold
from citewise.textmatch import PERCENT

_PER: dict[str, str] = {
    r"days?|nights?|ngay|dem": "day",
    r"weeks?|tuan": "week",
    r"months?|thang": "month",
    r"(?:(?:policy|benefit|insurance|calendar|school|academic|financial) )?years?|annum|nam(?: hoc| bao hiem)?": "year",
    r"trips?|journeys?|chuyen(?: di| du lich)?": "trip",
    r"persons?|people|travell?ers?|insured persons?|members?|students?|nguoi(?: duoc bao hiem)?|hoc sinh": "person",
    r"claims?|events?|incidents?|occurrences?|accidents?|losses|loss|vu(?: viec| ton that)?|su kien|tai nan": "event",
    r"conditions?|illness(?:es)?|injur(?:y|ies)|benh": "condition",
    r"items?|articles?|bags?|pieces? of (?:baggage|luggage)|sets?|pairs?|kien(?: hanh ly)?|mon(?: do)?|bo do": "item",
    r"visits?|treatments?|sessions?|lan kham|luot": "visit",
}
"""The things a figure is counted per, in their folded EN and VI wordings, each to one name."""
_UNIT = "|".join(f"(?:{p})" for p in _PER)
_NAMES = [(re.compile(rf"(?:{p})$"), name) for p, name in _PER.items()]
_TIME = r"days?|nights?|weeks?|months?|years?"
_MARK = r"(?:(?:for|in|of|cho|trong|tren) )?(?:per|each|every|moi|/)"
_RATE = rf"(?:{_MARK}\s*(?:{_UNIT})|an? (?:{_TIME}))"
"""A rate: "per day", "for each night", "in each benefit year", "mỗi chuyến đi", "/ngày", and "a day" ("a" only
before a time: "within 30 days of a claim" counts nothing per claim)."""
_TEXT_RATE = re.compile(rf"(?<![^\W_]){_RATE}(?![^\W_])")
_QUESTION_RATE = re.compile(rf"(?<![^\W_])(?:{_RATE}|mot (?:ngay|thang|nam|chuyen))(?![^\W_])")
"""In a question also "một năm" ("Phí bảo hiểm một năm là bao nhiêu?": what a year costs)."""
_EVERY = {
    "day": r"daily|hang ngay|hang dem",
    "week": r"weekly|hang tuan",
    "month": r"monthly|hang thang",
    "year": r"annual(?:ly)?|yearly|hang nam",
}
_QUESTION_EVERY = [(re.compile(rf"(?<![^\W_])(?:{p})(?![^\W_])"), name) for name, p in _EVERY.items()]
"""A rate a question names by one word: "the daily limit", "phí hằng năm" ("hằng" and "hàng" fold alike)."""
_TAIL = re.compile(rf"\s*,?\s*(?:(?:or|hoac) )?{_RATE}(?![^\W_])")
"""A rate right after a figure (and its unit), or after another rate it gives a choice of: "20.000.000 đồng| mỗi người",
"USD 60| for each night", "5.000.000 đồng cho mỗi món| hoặc mỗi bộ đồ"."""
_UNIT_WORD = re.compile(rf"\s*(?:%|(?:{PERCENT}|usd|eur|gbp|vnd|dong|(?:trieu|ty|nghin|ngan) dong|dollars?)\b)")
"""A figure's currency or unit ("%" needs no word boundary after it: "10%/năm")."""
_SPACE = re.compile(r"\s+")


def _name(match: str) -> str:
    unit = _SPACE.sub(" ", re.sub(rf"^(?:{_MARK}|an?|mot)\b", "", match).strip(" /"))
    return next((name for rx, name in _NAMES if rx.match(unit)), "")


@functools.lru_cache(maxsize=256)
def asked_per(question: str) -> frozenset[str]:
    """What ``question`` asks a figure per ("mỗi ngày" -> {"day"}); empty when it asks for no rate. Cached: read for
    every figure of every sentence an answer looks at."""
    low = fold(question).lower()
    every = {name for rx, name in _QUESTION_EVERY if rx.search(low)}
    return frozenset(({_name(m.group()) for m in _QUESTION_RATE.finditer(low)} | every) - {""})


_LEAD = re.compile(r"[,;:.!?\n]|\d")
"""Where the words leading into a figure start at the latest: its clause's or sentence's start, a comma, or the figure
before ("USD 50 a day for kennel fees, up to USD 750 for each trip": the day is the 50's)."""
LEAD_REACH = 60
"""Characters before a figure read for its rate, at most ("Phí tối thiểu cho mỗi chuyến đi là| 150.000 đồng")."""


def counted_per(text: str, start: int, end: int) -> set[str]:
    """What the figure at ``start:end`` of ``text`` is counted per, read from the words right after it (its
    currency or unit first) and from those leading into it within its clause: "20.000.000 đồng mỗi người mỗi
    chuyến" -> {"person", "trip"}, "phí tối thiểu cho mỗi chuyến đi là 150.000 đồng" -> {"trip"}; empty when it
    names no rate."""
    low = fold(text).lower()
    lead = low[max(0, start - LEAD_REACH) : start]
    cuts = list(_LEAD.finditer(lead))
    if cuts:
        lead = lead[cuts[-1].end() :]
    out = {_name(m.group()) for m in _TEXT_RATE.finditer(lead)}
    out |= {_name(m.group().strip(" ,")) for m in _tails(low, end)}
    return out - {""}


def _tails(low: str, end: int) -> list[re.Match[str]]:
    """The rates written one after another right after a figure ending at ``end`` of folded ``low``, past its
    currency or unit."""
    unit = _UNIT_WORD.match(low, end)
    at = unit.end() if unit else end
    found = []
    while m := _TAIL.match(low, at):
        found.append(m)
        at = m.end()
    return found


def rate_end(text: str, end: int) -> int:
    """Where the rate written right after a figure ending at ``end`` ends (its currency or unit included): "10%|/năm|",
    "USD 50| a day|", "20.000.000 đồng| mỗi người mỗi chuyến|"; ``end`` when none follows."""
    tails = _tails(fold(text).lower(), end)
    return tails[-1].end() if tails else end


def other_rate(question: str, text: str, span: tuple[int, int]) -> bool:
    """Whether the figure at ``span`` of ``text`` is counted per something other than what ``question`` asks for:
    both name a rate and share none ("mỗi ngày" asked, "mỗi chuyến đi" stated)."""
    asked = asked_per(question)
    if not asked:
        return False
    counted = counted_per(text, *span)
    return bool(counted) and not asked & counted
