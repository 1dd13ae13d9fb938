"""The clause of a criminal code's article that a question's case falls under. An article punishes its offence in
clause 1 ("1. Người nào trồng cây thuốc phiện … thì bị phạt tù từ 06 tháng đến 03 năm") and sets heavier or lighter
frames for cases in the clauses after it ("2. Phạm tội thuộc một trong các trường hợp sau đây, thì bị phạt tù từ 03
năm đến 07 năm: a) Có tổ chức; b) Với số lượng 3.000 cây trở lên; …"). "Người trồng cây cần sa có tổ chức thì bị
phạt tù từ bao lâu đến bao lâu?" states case a) of clause 2: its frame is the answer, not clause 1's."""

from __future__ import annotations

import itertools
import re

from citewise.figures import canon_number
from citewise.judge.units import DAYS, unit_occurrences
from citewise.textmatch import marked_words, short_keys

_CASE_CLAUSE = re.compile(r"^\s*(?:\d+\.\s*)?Phạm tội\b", re.I)
"""A clause that sets a frame for cases of the article's offence ("2. Phạm tội trong trường hợp …, thì …")."""

_ITEM = re.compile(r"(?:^|[:;.]\s+)[a-zđ]\)\s*([^;]+)")
_FIGURE = re.compile(r"\d")
_ALTERNATIVES = re.compile(r",\s*|\s+hoặc\s+")
_OWN = re.compile(r"Phạm tội\s+(?:trong trường hợp\s+)?(.+?)(?:,\s*|\s+)thì\b", re.I | re.S)

STATED = 0.8
"""Share of the words a case adds to what its article's clause says already that the question must hold."""
OWN_WORDS = 2
"""Words a case must add to that clause: "Có tổ chức" adds nothing to "… con dấu, tài liệu của cơ quan, tổ chức …"."""


def case_stated(question: str, text: str, known: str) -> float:
    """How fully ``question`` states one case that ``text`` (a clause, with its list of cases when it has one) sets
    its frame for: the best share, over the alternatives of its cases ("Là chỉ huy hoặc sĩ quan": "sĩ quan"), of the
    words (figures included) and figure pairs ("chết 03") an alternative adds to ``known`` (the clause the answer would
    otherwise come from, with its headings) that the question holds. "Phạm tội 02 lần trở lên" adds "02 lần trở lên", which "Người phạm tội lạm
    quyền …" does not say."""
    cases = [m.group(1) for m in _ITEM.finditer(text)]
    if not cases and (own := _OWN.search(text)) is not None:
        cases = [own.group(1)]
    said, asked = _words_and_pairs(known), _words_and_pairs(question)
    best = 0.0
    for alternative in (a for c in cases for a in _ALTERNATIVES.split(c)):
        added = _words_and_pairs(alternative) - said
        # two new words, or a figure set next to a new word ("Làm chết 03 người trở lên" after "c) … của 03 người trở
        # lên" of another case: "chết 03" is new, its words are not)
        if sum(isinstance(w, str) for w in added) < OWN_WORDS and not any(isinstance(p, tuple) for p in added):
            continue
        best = max(best, len(added & asked) / len(added))
    return best


def _words_and_pairs(text: str) -> set[str | tuple[str, str]]:
    """The words of ``text`` (with their marks) and its word pairs that hold a figure."""
    words = marked_words(text)
    return {*words, *(p for p in itertools.pairwise(words) if _FIGURE.search(" ".join(p)))}


def is_case_clause(text: str) -> bool:
    """Whether ``text`` is a clause setting a frame for cases of its article's offence ("2. Phạm tội …")."""
    return _CASE_CLAUSE.match(text) is not None


def case_clause(question: str, best: str, clauses: list[str]) -> int | None:
    """The index in ``clauses`` (the other clauses of ``best``'s article that open "Phạm tội", ``is_case_clause``;
    ``best`` with its headings) of the clause whose case ``question`` states (``STATED``); the most fully stated
    first, then the later (heavier) clause; ``None`` when none is."""
    scored = [(case_stated(question, c, best), i) for i, c in enumerate(clauses)]
    score, at = max(scored, default=(0.0, -1))
    return at if score >= STATED else None


_HEAVIEST = re.compile(
    r"(?<![^\W_])(?:tối đa|lên (?:đến|tới)|cao nhất|nặng nhất)(?![^\W_])"
    r"|\b(?:up to|at most|maximum|highest|heaviest)\b",
    re.I,
)
"""A question asking for the most an offence can bring ("có thể bị phạt tù lên đến bao nhiêu năm?", "tối đa")."""


PENALTIES = ("phat tu", "phat tien", "giam giu")
"""The penalties a figure can be a term or an amount of, as the two words before it read folded ("phạt tù từ 06 tháng
đến 03 năm", "phạt tiền từ …", "cải tạo không giam giữ đến 03 năm")."""


OWN_STATED = 0.5
"""Share of the words of a case of the answering clause's own list that a question asking for the most must hold to be
read as stating it (its own frame is then the answer): "từ 500 cây đến dưới 3.000 cây" without "Với số lượng"."""
OWN_WORDS_SAID = 2
"""Words of the answering clause's offence, beyond its article's heading, that such a question must say to be read as
putting that clause's case ("… gây hậu quả nghiêm trọng …" of "1. Người nào … gây hậu quả nghiêm trọng, thì …")."""
_THEN = re.compile(r",?\s+thì\s+", re.I)


def asks_heaviest(question: str, clause: str, heading: str) -> bool:
    """Whether ``question`` asks for the most its offence can bring (``_HEAVIEST``) and puts none of the cases that
    ``clause`` (the clause the answer would come from, with its list) sets its frame for, neither one of its list
    ("Người trồng từ 500 cây đến dưới 3.000 cây … thì bị phạt tù tối đa bao nhiêu năm?") nor the one its offence states
    beyond its article's ``heading`` ("… gây hậu quả nghiêm trọng …")."""
    if _HEAVIEST.search(question) is None or case_stated(question, clause, heading) >= OWN_STATED:
        return False
    offence = _THEN.split(clause, maxsplit=1)[0]
    return len((short_keys(offence) - short_keys(heading)) & short_keys(question)) < OWN_WORDS_SAID


def upper_bound(value: str) -> float | None:
    """The longest term ``value`` states, in days ("từ 02 năm đến 07 năm" -> 2556.75); ``None`` when it states none."""
    terms = [float(canon_number(m.group(1))) * DAYS[unit] for m, unit in unit_occurrences(value) if unit in DAYS]
    return max(terms) if terms else None
