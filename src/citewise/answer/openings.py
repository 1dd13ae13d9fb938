"""Clauses that open with the case they set their rule for: "3. Đối với tổn thất ước tính từ 100.000.000 đồng trở lên,
…", "…; trường hợp theo tuần thì …", "If the trip is cancelled by the carrier, …". The figure such a clause states is
that case's: the answer to a question that puts the case, neither the answer nor a rival figure for one that does not.
"""

from __future__ import annotations

import re

from citewise.retrieve.wording import wordings
from citewise.textmatch import short_keys

_OPENING = re.compile(
    r"\s*(?:\(?[a-zđ0-9]{1,3}[.)]\s+)?"
    r"(?:đối với|tr[ưu][ờo]ng h[ợo]p|n[ếe]u|if|where|in (?:the )?case(?: of)?|in the event of)\s+"
    r"(?P<case>[^,;:]{1,200}?)(?:,|\s+th[ìi]\b)",
    re.I,
)
"""The words opening a case and the case, up to the comma or the "thì" that ends it."""


def opening_case(text: str, start: int = 0, end: int | None = None) -> str | None:
    """The case the clause of ``text`` beginning at ``start`` opens with, when it ends before ``end``."""
    m = _OPENING.match(text, start, len(text) if end is None else end)
    return None if m is None else m.group("case")


def case_put(question: str, case: str, said: str = "") -> bool:
    """Whether ``question`` puts ``case``: it shares a word with it (units included: "theo tuần"), in its own wording or
    the provisions' ("Nhà bị ngập lụt thì … tự chịu bao nhiêu?" puts "tổn thất do lũ lụt"; "If you cancel before the trip
    starts, …" is put by "… if I cancel?"; "Bao lâu thì công ty trả tiền bồi thường?" does not put "tổn thất ước tính
    từ 100.000.000 đồng trở lên"); a word ``said`` holds too (what the case's sentence says before it) is not the
    case's own."""
    keys = short_keys(case) - short_keys(said)
    return any(short_keys(q) & keys for q in wordings(question))


def case_not_put(question: str, text: str, at: int | None = None) -> bool:
    """Whether the clause of ``text`` holding position ``at`` (its clause begins after the last ";" before it; the
    first clause when ``at`` is None) opens with a case ``question`` does not put: its figures are that case's. "Thời
    gian làm việc bình thường trong một ngày là bao nhiêu giờ?" is not answered by "…; trường hợp theo tuần thì thời
    giờ làm việc bình thường không quá 10 giờ trong 01 ngày"."""
    start = 0 if at is None else text.rfind(";", 0, at) + 1
    case = opening_case(text, start, at)
    return case is not None and not case_put(question, case)


_TRAILING = re.compile(r"[^\W\d_%]*\s+(?:nếu|if|where)\s+([^;,.]{2,120})", re.I)
"""The case a figure is set for, right after it ("06 nếu làm việc ở vùng cao, …", "USD 500 if the item is …")."""


def set_for(question: str, text: str, span: tuple[int, int]) -> int:
    """0 when the figure at ``span`` of ``text`` is set for a case the question puts (``case_put`` by its words after
    "nếu"/"if" that its sentence does not say before it: "vùng cao, vùng sâu, …", not the whole sentence's "làm việc"),
    2 for a case it does not put, 1 for none."""
    trailing = _TRAILING.match(text, span[1])
    if trailing is None:
        return 1
    return 0 if case_put(question, trailing.group(1), said=text[: span[0]]) else 2
