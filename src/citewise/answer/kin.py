"""Whose case: a figure set for relatives the question does not name. A leave clause lists its cases by the relative
they befall ("b) Con đẻ, con nuôi kết hôn: nghỉ 01 ngày", "2. … nghỉ không hưởng lương 01 ngày … khi ông nội, bà nội,
… anh, chị, em ruột chết; cha hoặc mẹ kết hôn"); "Khi người lao động kết hôn thì được nghỉ bao nhiêu ngày?" is the
worker's own wedding ("a) Kết hôn: nghỉ 03 ngày"), and "Trong trường hợp anh chị chết …" is a sibling's death. A case
listing relatives (two or more, spouses alone aside: "vợ, chồng" are the parties of family law, not a case) and what
befalls them, whom the question names none of, is another's case."""

from __future__ import annotations

import re

from citewise.lang import nfc

_KIN = {
    "parent": (
        r"cha đẻ|mẹ đẻ|cha nuôi|mẹ nuôi|cha|mẹ|bố|ba mẹ|bố mẹ|má|parents?|mother|father|step-?parents?",
        r"cha|mẹ|bố|ba|má|bố mẹ|ba mẹ|phụ huynh|parents?|mother|father|mum|mom|dad",
    ),
    "child": (
        r"con đẻ|con nuôi|con ruột|con riêng|children|child|sons?|daughters?",
        r"con|con trai|con gái|children|child|kids?|sons?|daughters?",
    ),
    "sibling": (
        r"anh ruột|chị ruột|em ruột|anh, chị, em|anh chị em|siblings?|brothers?|sisters?",
        r"anh|chị|em|anh trai|chị gái|em trai|em gái|siblings?|brothers?|sisters?",
    ),
    "grandparent": (
        r"ông nội|bà nội|ông ngoại|bà ngoại|grandparents?|grandmother|grandfather",
        r"ông|bà|ông nội|bà nội|ông ngoại|bà ngoại|grandparents?|grandmother|grandfather|grandma|grandpa",
    ),
    "grandchild": (r"cháu nội|cháu ngoại|grandchild(?:ren)?", r"cháu|grandchild(?:ren)?|grandsons?|granddaughters?"),
    "spouse": (r"vợ|chồng|spouse|husband|wife|partner", r"vợ|chồng|spouse|husband|wife|partner"),
}
"""Per relative: the words a clause lists them by, and the words a question names them by (looser: "anh", "con")."""


def _compile(i: int) -> dict[str, re.Pattern[str]]:
    return {k: re.compile(rf"(?<![^\W_])(?:{v[i]})(?![^\W_])", re.I) for k, v in _KIN.items()}


_LISTED = _compile(0)
_NAMED = _compile(1)
_BOUNDS = re.compile(r"[;\n]|\.\s")
_EVENT = re.compile(
    r"(?<![^\W_])(?:chết|kết hôn|qua đời|tử vong|từ trần|ốm|nằm viện|sinh con|dies?|died|death|marr(?:y|ies|ied)|ill)"
    r"(?![^\W_])",
    re.I,
)
"""What befalls the relatives a case lists ("… anh, chị, em ruột chết", "Con đẻ, con nuôi kết hôn"): relatives named
without one are the parties of a rule ("Cha mẹ … gửi yêu cầu …", "trả … cho cha mẹ"), not its cases."""
EVENT_REACH = 80
"""Characters after a relative within which what befalls them is read."""


def _case_around(text: str, at: int) -> str:
    """The part of ``text`` that sets the figure at ``at`` its case: its list item or clause, from the last ";", line
    or sentence end before it to the next one after it ("b) Con đẻ, con nuôi kết hôn: nghỉ 01 ngày"; "… 01 ngày … khi
    ông nội, bà nội, … anh, chị, em ruột chết")."""
    start = max((m.end() for m in _BOUNDS.finditer(text, 0, at)), default=0)
    end = _BOUNDS.search(text, at)
    return text[start : end.start() if end else len(text)]


def others_case(question: str, text: str, at: int) -> bool:
    """Whether the figure at ``at`` of ``text`` is set for relatives (two or more listed, spouses alone aside, with
    what befalls them: ``_EVENT``) of whom ``question`` names none."""
    case = nfc(_case_around(text, at)).lower()
    found = [(k, m) for k, p in _LISTED.items() for m in p.finditer(case)]
    listed = {k for k, _ in found}
    if not listed - {"spouse"} or len(found) < 2:
        return False
    if not any(_EVENT.search(case, m.end(), m.end() + EVENT_REACH) for _, m in found):
        return False
    asked = nfc(question).lower()
    return not any(_NAMED[k].search(asked) for k in listed)
