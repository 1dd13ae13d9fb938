"""Clauses that open with the case they set their rule for: "3. Đối với tổn thất ước tính từ 100.000.000 đồng trở lên,
…", "…; trường hợp theo tuần thì …", "If the trip is cancelled by the carrier, …". The figure such a clause states is
that case's: the answer to a question that puts the case, neither the answer nor a rival figure for one that does not.
"""

from __future__ import annotations

import re

from citewise.retrieve.wording import wordings
from citewise.textmatch import marked_words, short_keys

_CASE_WORD = r"tr[ưu][ờo]ng h[ợo]p|n[ếe]u|if|where|in (?:the )?case(?: of)?|in the event of"
"""Words opening a case ("trường hợp", "nếu", "if" …), typed with their marks or not."""
_ITEM_LABEL = r"(?:\(?[a-zđ0-9]{1,3}[.)]\s+)?"
_CASE_END = r"(?:,|\s+th[ìi]\b)"
_OPENING = re.compile(rf"\s*{_ITEM_LABEL}(?:đối với|{_CASE_WORD})\s+(?P<case>[^,;:]{{1,200}}?){_CASE_END}", re.I)
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


_CONTRASTS = (
    "ít nhiều",
    "trước sau",
    "tăng giảm",
    "thấp cao",
    "thiếu thừa",
    "chậm sớm",
    "ngắn dài",
    "less more",
    "fewer more",
    "before after",
    "increase decrease",
    "lower higher",
    "below above",
    "shorter longer",
    "late early",
)


def _opposites(pairs: tuple[str, ...]) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for pair in pairs:
        one, other = marked_words(pair)
        out.setdefault(one, set()).add(other)
        out.setdefault(other, set()).add(one)
    return {w: frozenset(o) for w, o in out.items()}


_OPPOSITE = _opposites(_CONTRASTS)
"""Words whose case is the other's opposite ("giao ít hơn" / "giao … nhiều hơn"), as ``marked_words`` reads them."""


def case_contradicted(question: str, text: str) -> bool:
    """Whether the case ``text`` opens with says the opposite of the question's: "2. Trường hợp bên bán giao ít hơn số
    lượng đã thỏa thuận thì …" for "Bên mua có quyền gì khi bên bán giao số lượng tài sản nhiều hơn …?" (a word of the
    case whose opposite the question says, and which the question does not say itself)."""
    case = opening_case(text)
    if case is None:
        return False
    asked = set(marked_words(question))
    return any(w not in asked and _OPPOSITE[w] & asked for w in marked_words(case) if w in _OPPOSITE)


_ANY_CASE = re.compile(
    rf"(?:^|[,;:]\s*){_ITEM_LABEL}(?:khi|{_CASE_WORD})\s+(?P<case>[^,;:]{{3,200}}?){_CASE_END}", re.I
)
"""A case opening a clause of a sentence, up to the comma or the "thì" that ends it; not one inside a clause ("… ngay
cả khi áp dụng kỹ thuật hỗ trợ sinh sản, …")."""
CASE_WORDS = 4
"""Words a case must have to be read as stated by a question: "Khi nghỉ hằng năm, …" is any question's about leave."""
CASE_STATED = 0.8
"""Share of a case's words the question must say."""


def case_stated(question: str, text: str) -> bool:
    """Whether ``text`` sets its rule for a case (of at least ``CASE_WORDS`` words) that ``question`` states in its
    words ("Phần bổ sung mâu thuẫn với một phần của di chúc đã lập thì phần nào có hiệu lực?" of "… nếu một phần của
    di chúc đã lập và phần bổ sung mâu thuẫn nhau thì chỉ phần bổ sung có hiệu lực pháp luật")."""
    asked = set(marked_words(question))
    for m in _ANY_CASE.finditer(text):
        words = set(marked_words(m.group("case")))
        if len(words) >= CASE_WORDS and len(words & asked) >= CASE_STATED * len(words):
            return True
    return False
