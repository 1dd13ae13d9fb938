"""Masking what identifies a person in a question before it is kept (audit log, reports): e-mail
addresses, phone numbers, ID numbers (căn cước / CMND, passports), card and account numbers, and every
other figure. ``policy``: ``yes`` keeps the text, ``redacted`` masks it, ``no`` keeps nothing."""

from __future__ import annotations

import re

POLICIES = ("yes", "redacted", "no")

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(r"(?<!\w)(?:\+?\d{1,3}[\s.-]?)?(?:\(?\d{2,4}\)?[\s.-]?){2,4}\d{2,4}(?!\w)")
_ID = re.compile(r"(?<!\w)[A-Z]{0,2}\d{6,}(?!\w)")
_DIGITS = re.compile(r"\d+(?:[.,/]\d+)*")


def redact(text: str) -> str:
    """``text`` with e-mail addresses, phone numbers, ID numbers and figures masked."""
    text = _EMAIL.sub("[email]", text)
    text = _ID.sub("[id]", text)
    text = _PHONE.sub(lambda m: "[phone]" if sum(c.isdigit() for c in m.group(0)) >= 8 else m.group(0), text)
    return _DIGITS.sub("#", text)


def keep(text: str, policy: str) -> str:
    """What of ``text`` is kept under ``policy``."""
    if policy == "yes":
        return text
    if policy == "redacted":
        return redact(text)
    return ""
