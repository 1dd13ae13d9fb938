"""The event a question about a duration counts from, and the figures that measure that event instead of what is
asked. "Nộp đủ giấy tờ rồi thì bao lâu tôi nhận được tiền bồi thường nhà?" counts from the papers handed in: "Thời hạn
nộp hồ sơ bồi thường là 60 ngày" is the time allowed to hand them in, not the time it takes to be paid ("Công ty giải
quyết và thanh toán bồi thường trong thời hạn 15 ngày làm việc kể từ ngày nhận được đầy đủ hồ sơ …")."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from citewise.judge.qtype import question_type
from citewise.lang import nfc
from citewise.textmatch import query_terms

_VI_AFTER = re.compile(r"sau khi\s+(?P<event>.+?)\s+thì\s+(?P<ask>.+)", re.I | re.S)
_VI_DONE = re.compile(r"(?P<event>.+?\s+(?:xong|rồi))\s+thì\s+(?P<ask>.+)", re.I | re.S)
"""An event done before what is asked: "Sau khi nộp hồ sơ thì …", "Báo tổn thất xong thì …"; not the offence of a
criminal code's statement ("Người nào … thì bị phạt cải tạo không giam giữ đến bao lâu?"), which says when a penalty
applies, not what it counts from, nor the case of a bare "khi" ("Khi người lao động kết hôn thì được nghỉ bao nhiêu
ngày?": the leave is for the wedding, "a) Kết hôn: nghỉ 03 ngày" answers it)."""
_EN_FIRST = re.compile(r"(?:after|once)\s+(?P<event>[^,?]+),\s*(?P<ask>.+)", re.I | re.S)
_EN_LAST = re.compile(r"(?P<ask>.+?)\s+(?:after|once)\s+(?P<event>[^,?]+)\??", re.I | re.S)
_CLAUSE_START = re.compile(r".*[;:,]|", re.S)
"""Up to the last mark that opens the clause a figure stands in."""


def _words(text: str) -> frozenset[str]:
    return query_terms(text, marks=True)[0]


@functools.lru_cache(maxsize=256)
def event_and_ask(question: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words only the event a duration question counts from says ("Nộp đủ giấy tờ rồi thì …": "nộp", "giấy", …;
    "After I submit the form, how long …") and the words of what it asks; none when it names no such event (the event
    part must not ask the duration itself: "Bao lâu thì công ty trả tiền?" counts from nothing it names)."""
    q = nfc(question).strip()
    if question_type(q) != "duration":
        return frozenset(), frozenset()
    for pattern in (_VI_AFTER, _VI_DONE, _EN_FIRST, _EN_LAST):
        m = pattern.fullmatch(q)
        if m is None:
            continue
        if question_type(m["ask"]) == "duration" and question_type(m["event"] + "?") != "duration":
            ask = _words(m["ask"])
            return _words(m["event"]) - ask, ask
    return frozenset(), frozenset()


def _measured(text: str, at: int) -> frozenset[str]:
    """The words of the clause of ``text`` before the figure at ``at``: what the figure is the time of ("Thời hạn nộp
    hồ sơ bồi thường là" 60 ngày)."""
    head = text[:at]
    m = _CLAUSE_START.match(head)
    return _words(head[m.end() if m else 0 :])


def of_the_event(question: str, figures: Sequence[tuple[str, int]]) -> list[bool]:
    """For each figure (its sentence, its offset in it) of an answer to ``question``, whether it measures the event the
    question counts from rather than what it asks: its clause says a word only the event says, and no more of what is
    asked than a figure whose clause says none of the event. Nothing when the question counts from no event, or when
    every figure's clause says a word of it."""
    event, ask = event_and_ask(question)
    if not event:
        return [False] * len(figures)
    measured = [_measured(text, at) for text, at in figures]
    clear = [len(m & ask) for m in measured if not m & event]
    if not clear:
        return [False] * len(figures)
    return [bool(m & event) and len(m & ask) <= max(clear) for m in measured]
