"""What kind of answer a question expects (English and Vietnamese), and whether a sentence holds one.

``question_type`` reads the question words ("how many days", "bao lâu", "who", "ai", "is ... covered",
"có được ... không"); ``holds_answer_type`` looks for an answer of that type in a sentence: a
duration for "bao lâu", an amount for "how much", a party for "who", a date for "when". The judge
uses both as features, and the answer stage picks its template by the type."""

from __future__ import annotations

import re

from citewise.lang import fold
from citewise.textmatch import TYPES, question_type

__all__ = ["TYPES", "VALUE_TYPES", "answer_spans", "holds_answer_type", "question_type", "states_value"]


_UNITS_EN = r"(?:(?:business|working|calendar|clear|consecutive|successive|full) )?(?:days?|hours?|weeks?|months?|years?|minutes?)"
_UNITS_VI = r"(?:ngay lam viec|ngay|gio|tuan|thang|nam|phut)"
UNIT_WORD = re.compile(rf"(?:{_UNITS_EN}|{_UNITS_VI})")
"""A unit of time, English or folded Vietnamese ("days", "ngay"), to be matched whole (``fullmatch``)."""
_VI_DIGIT = r"(?:mot|hai|ba|bon|nam|sau|bay|tam|chin)"
_VI_NUMBER = rf"(?:(?:{_VI_DIGIT}\s+)?muoi(?:\s+(?:{_VI_DIGIT}|tu|lam))?|{_VI_DIGIT})"
"""A number in Vietnamese words, folded: "ba", "mười", "mười lăm", "ba mươi", "hai mươi mốt"."""
_VI_NUMBER_WORDS = frozenset("một mốt hai ba bốn tư năm lăm sáu bảy tám chín mười mươi".split())
"""The same words with their marks: folded, "sau ngày" (after the day) reads as "sáu ngày" (six days)."""
_VI_FOLDED = frozenset(fold(w) for w in _VI_NUMBER_WORDS)
WORD_LIMIT = re.compile(r"without undue delay|immediately|promptly|ngay lap tuc|kip thoi", re.I)
"""A time limit with no number, folded ("ngay lập tức"): a duration ``answer_spans`` finds, but no count of units."""
_DURATION = re.compile(
    # a number word goes with a unit of its own language: folded "sáu đây" is no "six day"
    rf"\b(?:\d+\s*(?:\(\d+\)\s*)?(?:{_UNITS_EN}|{_UNITS_VI})"
    rf"|(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|fourteen|fifteen|thirty|sixty|ninety)"
    rf"\s*(?:\(\d+\)\s*)?{_UNITS_EN}"
    rf"|{_VI_NUMBER}\s*(?:\(\d+\)\s*)?{_UNITS_VI})\b"
    rf"|\b(?:{WORD_LIMIT.pattern})\b",
    re.I,
)
_AMOUNT = re.compile(
    r"(?:\b(?:usd|eur|vnd|gbp|us\$|dong|trieu|ty|nghin|ngan)\b|[$€£₫]|%|\bper ?cent\b|\bphan tram\b"
    r"|\b\d[\d.,]*\s*(?:dong|vnd|usd|eur|trieu|ty)\b)",
    re.I,
)
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)*\b")
_ENUMERATOR = re.compile(r"\s*(?:\(?\d{1,3}[.)]|\d{1,3}\.\d{1,3}\.?)\s")
_DATE = re.compile(
    r"\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b(?:19|20)\d{2}\b|\bngay \d{1,2} thang \d{1,2}\b"
    r"|\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b"
    r"|\b(?:before|after|within|from|until|by|prior to|truoc|sau|ke tu|trong thoi han|cham nhat)\b",
    re.I,
)
_PARTY = re.compile(
    r"\b(?:controller|processor|insurer|insured|policyholder|company|authority|commission|member state|"
    r"data subject|supervisory|provider|deployer|importer|distributor|operator|we|you|employer|employee|court|"
    r"ministry|agency|body|person|beneficiary|doanh nghiep|ben mua|ben ban|nguoi|to chuc|co quan|bo|chinh phu|"
    r"uy ban|toa an|ca nhan|chu the|ben)\b",
    re.I,
)
_PLACE = re.compile(r"\b(?:in|at|tai|o)\s+[A-Z\u00C0-\u1EF9][\w\u00C0-\u1EF9]+", re.U)
_LIST = re.compile(r"(?::\s*$|:\s*\n|\b(?:the following|as follows|bao gom|sau day|gom)\b|;\s)", re.I | re.M)
_REASON = re.compile(r"\b(?:because|since|due to|in order to|so that|vi|do|boi vi|nham|de)\b", re.I)
_DEFINITION = re.compile(r"\b(?:means|refers to|is defined as|shall mean|la viec|duoc hieu la|la)\b", re.I)


_HOLDS: dict[str, re.Pattern[str]] = {
    "duration": _DURATION,
    "amount": _AMOUNT,
    "number": _NUMBER,
    "date": _DATE,
    "party": _PARTY,
    "place": _PLACE,
    "reason": _REASON,
    "definition": _DEFINITION,
    "list": _LIST,
}


def holds_answer_type(qtype: str, sentence: str) -> bool:
    """Whether ``sentence`` holds an answer of type ``qtype`` (always true for yes/no and other)."""
    pattern = _HOLDS.get(qtype)
    if pattern is None:
        return True
    text = sentence if qtype in ("place", "list") else fold(sentence)
    if qtype == "number":
        return bool(_NUMBER.search(text)) or bool(_DURATION.search(text))
    return bool(pattern.search(text))


VALUE_TYPES = ("duration", "amount", "number")
"""Question types asking for a value: a sentence that states no value of the type cannot answer them."""
_REFERENCE = re.compile(
    r"\b(?:dieu|khoan|diem|chuong|muc|phu luc|article|art|paragraph|point|section|chapter|annex|rule|regulation)"
    r"\.?\s+\(?[\w.]*\d[\w.]*\)?(?:\(\w{1,4}\))*",
    re.I,
)


def states_value(qtype: str, sentence: str) -> bool:
    """Whether ``sentence`` states a value of the asked type (a duration, an amount, a figure) once its enumerator
    ("1.", "(a)") and its references ("khoản 2 Điều 11", "Article 6(1)") are set aside; always true for questions
    that do not ask for a value."""
    if qtype not in VALUE_TYPES:
        return True
    m = _ENUMERATOR.match(sentence)
    text = _REFERENCE.sub(" ", fold(sentence[m.end() :] if m else sentence))
    return holds_answer_type(qtype, text)


_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
_DATE_VALUE = re.compile(
    rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{4}}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|{_MONTH}\s+\d{{4}}|\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{4}}"
    r"|ngay \d{1,2}(?:\s*[/-]\s*|\s+thang\s+)\d{1,2}(?:(?:\s*[/-]\s*|\s+nam\s+)\d{4})?"
    r"|thang \d{1,2}(?:\s*[/-]\s*|\s+nam\s+)\d{4}|nam \d{4}"
    r"|(?<![/.\d-])(?:1[1-9]|20)\d{2}(?![/.-]?\d))\b",
    re.I,
)
"""A date a reader can act on: "25 May 2018", "May 25, 2018", "May 2018", "01/07/2023", "ngày 01 tháng 7 năm 2023",
"tháng 7/2023", "năm 2023", or a year alone (1100-2099), on folded text; not the words "before" or "within" that
``_DATE`` counts as a sentence holding a time."""
_BARE_YEAR = re.compile(r"\d{4}")
_YEAR_CUE = re.compile(
    r"\b(?:in|since|until|till|by|from|before|after|of|during|around|circa|c\.|early|late|mid|year|nam|tu|den|vao)"
    r"\s+(?:the\s+)?(?:early\s+|late\s+)?$|[(,–-]\s*$",
    re.I,
)
"""The words a year alone follows when it is a year ("in 1993", "since 1962", "năm 1870", "(1998)")."""
_ACTOR_EN = re.compile(
    r"\b(?:shall|must|may|will|should|is|are)\s+(?:not\s+)?"
    r"(?=(?:be\s+)?(?:responsible|required|obliged|liable|entitled|competent|permitted|allowed)\b)"
    r"|\b(?:shall|must|may|will|should|has to|have to|(?:has|have) the (?:right|duty|obligation) to|bears?|pays?)\b",
    re.I,
)
DUTY_VI = r"phai|co trach nhiem|co nghia vu|co quyen|chiu trach nhiem|duoc quyen|co tham quyen"
"""Vietnamese words of a duty or a right (folded, lower case): "phải", "có trách nhiệm", "có quyền" …"""
_ACTOR_VI = re.compile(rf"\b(?:{DUTY_VI}|khong duoc)\b")
_PASSIVE = re.compile(r"^\s*(?:not\s+)?be\s+\w+(?:ed|en|wn|de|ne|id|lt)\b", re.I)
_SUBJECT_LEAD = re.compile(r"^(?:\(?[a-z0-9]{1,3}[.)]\s+|\d+(?:\.\d+)*\.?\s+)", re.I)
SUBJECT_WORDS = 8
"""Words a party named as a clause's subject may have, at most ("the supervisory authority of the Member State")."""


_PARTY_NOUN = re.compile(_PARTY.pattern.replace(r")\b", r")s?\b", 1), re.I)
"""``_PARTY``'s nouns, plurals too ("providers and deployers")."""


def party_spans(sentence: str) -> list[tuple[int, int]]:
    """The party a provision puts under a duty or gives a right to: the subject of its first "shall" / "must" /
    "is responsible for" / "phải" / "có trách nhiệm" clause (after the last comma before it, an enumerator left
    out), when that subject names a party ("the controller", "doanh nghiệp bảo hiểm", "the Authority") and the
    clause is not passive ("the authority shall be informed" names who is told, not who tells)."""
    folded = fold(sentence)
    if len(folded) != len(sentence):
        return []
    actor = _ACTOR_VI if not sentence.isascii() else _ACTOR_EN
    m = actor.search(folded.lower() if actor is _ACTOR_VI else folded)
    if m is None or _PASSIVE.match(folded[m.end() :]):
        return []
    start = max(folded.rfind(c, 0, m.start()) for c in ",;:") + 1
    lead = _SUBJECT_LEAD.match(folded[start:].lstrip())
    start += len(folded[start:]) - len(folded[start:].lstrip()) + (lead.end() if lead else 0)
    subject = folded[start : m.start()].strip()
    words = subject.split()
    if not words or len(words) > SUBJECT_WORDS or not _PARTY_NOUN.search(subject) or words[0].lower() in _NOT_SUBJECT:
        return []
    return [(start, start + len(subject))]


_NOT_SUBJECT = frozenset(
    "if where when unless neu khi truong hop tru it this that which who there you we they he she i ban chung toi".split()
)
"""Words a clause's subject does not open with: the clause is a condition, or its subject is a pronoun (a policy's
"you" and "we" are stated as the sentence quoted after, not as a party named)."""


_WHO_VERB = re.compile(r"^\s*who\s+([a-z]+)\b", re.I)
_AUX = frozenset(
    "is are was were be been do does did has have had will would can could shall should may might must".split()
)
_PRONOUN = frozenset("he she it they this that these those there which we you i his her its their one".split())
_NAME_LINK = frozenset("of the al el de da di du von van der bin ibn la le and y và của".split())
AGENT_WORDS = 6


def agent_spans(question: str, sentence: str) -> list[tuple[int, int]]:
    """Who did what a "who" question says: for "Who proved that air is necessary for combustion?", the words before
    "proved" in "In the late 17th century, Robert Boyle proved that air …" (after the last comma); for "Thuyết … do
    ai phát triển?" / "… được ký kết bởi ai?" / "Ai phát hiện …?", the words before "phát triển" / "ký kết" /
    "phát hiện" (a tense word such as "đã" left out). They must read as a name (each word capitalised but for "of",
    "al", "von", "và" …) or name a party, in at most ``AGENT_WORDS`` words, and not be a pronoun; a question whose
    verb is an auxiliary ("Who was …", "Who did …", "Ai là …") gets none."""
    verb = _asked_verb(question)
    if verb is None:
        return []
    at_verb = re.search(rf"(?<!\w){re.escape(verb)}(?!\w)", sentence, re.I)
    if at_verb is None:
        return []
    start = max(sentence.rfind(c, 0, at_verb.start()) for c in ",;:(") + 1
    subject = _VI_TENSE_END.sub("", sentence[start : at_verb.start()]).strip()
    words = subject.split()
    if not words or len(words) > AGENT_WORDS or words[0].lower() in _PRONOUN | _NOT_SUBJECT:
        return []
    named = words[0][:1].isupper() and all(w[:1].isupper() or w.lower() in _NAME_LINK for w in words[1:])
    if not (named or _PARTY_NOUN.search(fold(subject))):
        return []
    at = sentence.index(subject, start)
    return [(at, at + len(subject))]


_VI_ASKED = (
    re.compile(r"\b(?:do|boi) ai\s+(?:da\s+)?(\w+ \w+)"),  # "do ai phát triển", "bởi ai đã ký"
    re.compile(r"(\w+ \w+)\s+boi ai\b"),  # "được ký kết bởi ai"
    re.compile(r"^\s*ai\s+(?:da\s+)?(?!la\b|duoc\b|co\b)(\w+ \w+)"),  # "Ai phát hiện ra …"
)
_VI_TENSE_END = re.compile(r"(?:\s+(?:đã|đang|sẽ|cũng|vẫn|mới|lại|đều))+\s*$", re.I)


def _asked_verb(question: str) -> str | None:
    """The verb a "who" question asks about, as written in the question ("proved", "phát triển"); ``None`` when
    it asks "who is" or has no such verb."""
    m = _WHO_VERB.match(question)
    if m is not None:
        return None if m.group(1).lower() in _AUX else m.group(1)
    q = " ".join(question.split())
    folded = fold(q).lower()
    if len(folded) != len(q):
        return None
    for pattern in _VI_ASKED:
        found = pattern.search(folded)
        if found is not None:
            return q[found.start(1) : found.end(1)]
    return None


_PHONE = re.compile(
    r"(?<![\w.,/+-])(?:\+?\d{1,4}(?:[ -]\d{2,5}){1,4}|\d{7,12})(?![\w/-]|[.,]\d|\s*(?:vnd|dong|usd|eur|gbp|%))", re.I
)
"""A telephone number on folded text: "+1 555 0190", "1900 5588", "024-3824-5678", "0912345678" (seven digits or
more; not an amount, "15 000 000 VND", nor a date or a code)."""
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
CONTACT_TYPES = ("phone", "email")
"""Kinds of contact detail a question may ask for (``answer.contacts``), found by ``answer_spans``."""


def _phones(folded: str) -> list[tuple[int, int]]:
    return [m.span() for m in _PHONE.finditer(folded) if 7 <= sum(ch.isdigit() for ch in m.group()) <= 15]


def answer_spans(qtype: str, sentence: str) -> list[tuple[int, int]]:
    """Character spans in ``sentence`` of answers of type ``qtype`` (durations, amounts, dates, figures, the
    party under a duty, telephone numbers, email addresses), in reading order; empty for types without a short span."""
    if qtype == "party":
        return party_spans(sentence)
    if qtype == "email":
        return [m.span() for m in _EMAIL.finditer(sentence)]
    pattern = {"duration": _DURATION, "amount": _AMOUNT, "number": _NUMBER, "date": _DATE_VALUE}.get(qtype)
    if pattern is None and qtype != "phone":
        return []
    folded = fold(sentence)  # fold keeps one character per character, so spans carry over
    if len(folded) != len(sentence):
        return []
    if pattern is None:
        return _phones(folded)
    spans = [m.span() for m in pattern.finditer(folded)]
    if qtype == "duration":
        spans = [(s, e) for s, e in spans if _marked_right(sentence[s:e])]
    if qtype == "date":  # a year alone is a year when a word says so: "in 1993", not "1401 Fulton Street"
        spans = [(s, e) for s, e in spans if not _BARE_YEAR.fullmatch(folded[s:e]) or _YEAR_CUE.search(folded[:s])]
    if qtype == "number":  # a clause or point number opening the sentence ("3. ", "(2)") is no answer
        lead = _ENUMERATOR.match(folded)
        spans = [(s, e) for s, e in spans if not (lead and s < lead.end())]
    if qtype == "amount":
        spans = [_widen_amount(folded, s, e) for s, e in spans]
    if qtype in ("duration", "amount"):
        spans = [_range_of(folded, s, e) for s, e in spans]
    merged: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return merged


_RANGE_FROM = re.compile(
    r"\b(?:tu|from|between)\s+\d+(?:[.,]\d+)*\s*(?:\(\d+\)\s*)?[^\W\d_]{0,12}(?:\s+[^\W\d_]{1,6})?"
    r"\s*(?:\bden\b|\btoi\b|\bto\b|\band\b|–|-)\s*$",
    re.I,
)
"""The first end of a range and its connector, just before a value: "từ 01 năm đến ", "from 1 to ", "between 3 and "."""


def _range_of(folded: str, s: int, e: int) -> tuple[int, int]:
    """The span of a value widened to the range it ends ("từ 01 năm đến 05 năm", "from 1 to 5 years"): a range's upper
    end stated alone would say less than the text (the lower end is what the reader must also meet)."""
    m = _RANGE_FROM.search(folded[max(0, s - 48) : s])
    return (max(0, s - 48) + m.start(), e) if m else (s, e)


def _marked_right(span: str) -> bool:
    """A duration in Vietnamese number words keeps their marks ("sáu ngày", not "sau ngày")."""
    for word in span.lower().split():
        if fold(word) not in _VI_FOLDED:
            return True
        if word not in _VI_NUMBER_WORDS:
            return False
    return True


def _widen_amount(text: str, start: int, end: int) -> tuple[int, int]:
    """An amount's currency or per-cent sign with its figure ("USD 5,000", "20%", "50 triệu đồng")."""
    m = re.search(r"[\d.,]*\d\s*$", text[max(0, start - 20) : start])
    if m:
        start = max(0, start - 20) + m.start()
    m = re.match(r"\s*\d(?:[\d.,]*\d)?", text[end:])
    if m:
        end += m.end()
    return start, end
