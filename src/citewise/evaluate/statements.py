"""An answer's templated direct statement read against a gold answer: whether an answer opens with one
(``answer.extractive.STATEMENT_OPENINGS``) and whether it states the gold (the answers benchmarks)."""

from __future__ import annotations

import re

from citewise.answer.extractive import STATEMENT_OPENINGS
from citewise.lang import folded_words

_OPENING = re.compile("|".join(re.escape(o) for o in STATEMENT_OPENINGS))
_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()


def opens_with_statement(sentence: str) -> bool:
    """Whether ``sentence`` is a templated direct statement ("The period is 72 hours.", "Phương án đúng là B: …")."""
    return _OPENING.match(sentence) is not None


def stated_gold(statement: str, gold: str) -> bool:
    """Whether a templated direct statement states the gold answer: the gold's words are in it, or what it states
    (the text after the template's opening) is in the gold ("The date is 1066." for "in 1066")."""
    m = _OPENING.match(statement)
    value = folded_words(statement[m.end() if m else 0 :].rstrip("."))
    g = folded_words(gold)
    same_day = _day(value) is not None and _day(value) == _day(g)
    return bool(g) and (g in folded_words(statement) or (bool(value) and value in g) or same_day)


def _day(text: str) -> tuple[int, int, int] | None:
    """(day, month, year mod 100) of a date written with its month's name, whatever the order ("may 7, 2009",
    "7-may-09": the answerability sample's dates went through a spreadsheet)."""
    words = re.findall(r"[a-z]+|\d+", text)
    months = [_MONTHS.index(w[:3]) + 1 for w in words if w[:3] in _MONTHS and len(w) >= 3]
    numbers = [int(w) for w in words if w.isdigit()]
    if len(months) != 1 or len(numbers) != 2:
        return None
    day, year = (numbers[0], numbers[1]) if numbers[0] <= 31 else (numbers[1], numbers[0])
    return day, months[0], year % 100
