"""Sentences that lean on the one before: "His or her role is to design the works ...", "As such, the current
high level of population has a large impact on this as well.", "Ông nổi tiếng với bài thơ Tống biệt hành",
"Theo đó, doanh nghiệp phải ...". Read alone, such a sentence does not say who or what it is about; a quote of it
needs the sentence it refers back to."""

from __future__ import annotations

import re

_EN = re.compile(
    r"(?:he|she|it|they|his|her|its|their|him|them|this|these|those|that|such|"
    r"the (?:latter|former|same)|as such|in (?:this|that|such) (?:case|event)s?|thereafter|thereupon)\b(?!-)",
    re.I,
)
"""English openings that point back: personal and possessive pronouns, demonstratives, "such", "the latter"."""
_ELLIPSIS = re.compile(
    r"(?:if (?:you|we|they|he|she|it) (?:do|does|did|have|has) not|if not|if so|otherwise|nếu không|nếu vậy)\s*,",
    re.I,
)
"""A condition that only negates or repeats the sentence before ("If you do not, we may reduce the amount we pay by up
to 20%.", "Nếu không, …")."""
_EN_NOT = re.compile(
    r"(?:it|this|that) (?:is|was) (?:not )?(?:necessary|prohibited|required|forbidden|permitted)\b", re.I
)
"""Impersonal openings, about what follows ("It is prohibited to ..."), not about the sentence before."""
_VI_PERSON = re.compile(r"(?:ông|bà|cô(?! lập)|họ(?! và tên| tên)|nó|hắn)\b\s*(?P<next>\w?)", re.I)
"""Vietnamese personal pronouns, unless a name follows ("Ông Đậu Quang Lành ..." names him; "Ông nổi tiếng ..."
does not). Not "chúng tôi" or "anh": a policy's "we" and England speak for themselves; nor "họ (và) tên" (full name)
or "cô lập" (isolated)."""
_VI = re.compile(
    r"(?:điều này|điều đó|việc này|việc đó|đây|đó là|như vậy|theo đó|khi đó|trường hợp này|trường hợp đó|"
    r"các (?:khoản|trường hợp|quy định) (?:này|trên))\b",
    re.I,
)
"""Vietnamese openings that point back: "điều này", "theo đó", "trường hợp này", …"""
_LEAD = re.compile(r"^[\s\"“'‘(\[]*")
_INTRODUCES = re.compile(r"(?:that|this|these|those)\s*[:,]", re.I)
"""A demonstrative introducing what follows ("These: (a) ..."), not pointing back."""


def refers_back(sentence: str) -> bool:
    """Whether the sentence opens by pointing back to what the sentence before it said."""
    s = sentence[_LEAD.match(sentence).end() :]  # type: ignore[union-attr]
    if _ELLIPSIS.match(s):
        return True
    if _EN.match(s):
        return not _EN_NOT.match(s) and not _INTRODUCES.match(s)
    person = _VI_PERSON.match(s)
    if person and not person.group("next").isupper():
        return True
    return bool(_VI.match(s))
