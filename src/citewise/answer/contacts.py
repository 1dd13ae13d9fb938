"""Questions asking for a contact detail: "What number do I call for an emergency abroad?", "Số điện thoại đường dây
nóng là gì?", "What is the email address of Bluewave Assist?". Their direct answer is the telephone number or email
address the quoted provision gives (``judge.qtype.answer_spans``: "phone", "email")."""

from __future__ import annotations

import re

from citewise.lang import fold

_PHONE_ASKED = re.compile(
    r"\b(?:(?:tele)?phone|contact|hotline|helpline|emergency|fax|whatsapp) numbers?\b|\b(?:what|which) numbers?\b(?! of)"
    r"|\bnumbers? (?:do|should|can|must|to) (?:i |we )?(?:call|ring|dial|phone|text)\b|\bhotline\b|\bhelpline\b"
    r"|\bso dien thoai\b|\bduong day nong\b|\bgoi (?:den |vao )?(?:so|so dien thoai) nao\b"
)
"""Asking for a telephone number, on folded text: "phone number", "what number", "hotline", "số điện thoại", "đường
dây nóng", "gọi số nào" — not "điện thoại" alone (a stolen phone) nor "số nào" alone ("cơ sở nào")."""
_EMAIL_ASKED = re.compile(
    r"\be-?mail address(?:es)?\b|\b(?:what|which)(?: is| 's|'s)?(?: the)? e-?mail\b|\be-?mail (?:do|should|can) (?:i|we)\b"
    r"|\bdia chi (?:e-?mail|thu dien tu)\b|\be-?mail (?:nao|la gi)\b|\bthu dien tu (?:nao|la gi)\b"
)
"""Asking for an email address, on folded text: "email address", "which email", "địa chỉ email", "email nào" — not an
email a story mentions."""
_WHETHER = re.compile(
    r"^\s*(?:can|could|may|do|does|should|must)\b|^\s*(?:is|are)\b(?! there)|\bco (?:the|duoc|phai)\b.*\bkhong\s*\??\s*$"
)
"""A question asking whether (it can be sent by email, ...): it asks for no contact detail; "is there a number …?" asks
for the number."""


def without_asking(question: str) -> str:
    """``question`` without the words asking for a contact detail ("phone number", "số điện thoại"): they name the kind
    of answer, not what it is about (a provision giving the number rarely says "phone number")."""
    q = " ".join(question.split())
    folded = fold(q).lower()
    if len(folded) != len(q):
        return question
    for pattern in (_PHONE_ASKED, _EMAIL_ASKED):
        folded_parts = [m.span() for m in pattern.finditer(folded)]
        for a, b in reversed(folded_parts):
            q, folded = q[:a] + q[b:], folded[:a] + folded[b:]
    return " ".join(q.split())


def asked_contact(question: str) -> str | None:
    """The contact detail ``question`` asks for: "email", "phone", or ``None`` (also for a question asking whether
    something can be done by telephone or email)."""
    folded = fold(" ".join(question.split())).lower()
    if _WHETHER.search(folded):
        return None
    if _EMAIL_ASKED.search(folded):
        return "email"
    if _PHONE_ASKED.search(folded):
        return "phone"
    return None
