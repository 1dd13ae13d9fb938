"""What a question rests on, read before it is answered.

Figures a question takes as given: "Why is the licence valid for up to 05 years?" presupposes 05 years. When the
evidence never states such a figure, it cannot answer the question as asked: the question rests on a premise the
sources do not hold ("the sources give 02 years"), and the honest outcome is "no direct answer" with the closest
provisions, whose figures the reader then sees. Two kinds of figures are not premises: those of a question that asks
*whether* ("Is it 48 hours?", "…, đúng không?": the answer is "no, 72 hours") and those that describe the asker's own
case ("Our cat is 11", "Bố tôi 72 tuổi", "if a company has 300 staff"): a rule answers a case it does not name.

Names a question asks about ("Is Dogecoin an accepted virtual asset?"): the judge reports those its evidence never
mentions, and the answer stage withholds the answer when the whole index never does (``Retriever.mentions``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from citewise.figures import MONTHS, NUMBER, canon_number, extract_numbers, with_digits
from citewise.judge.units import currency_before, figure_units
from citewise.lang import fold, nfc
from citewise.retrieve.choices import stem
from citewise.retrieve.wording import rewrite
from citewise.textmatch import COVER, question_type, words

_CONFIRM_TAGS = r"dung khong|phai khong|dung chu|dung ko|co dung|co phai"
_EN_TAGS = r"is (?:that|this|it) (?:right|true|correct|so)|right|true|correct|isn'?t it|aren'?t they|is that so"
_TAG = rf"\b(?:{_CONFIRM_TAGS}|hay khong|duoc khong|khong a|chua a|{_EN_TAGS})\s*\W*$"
"""A tag at the end of a question asking whether ("…, đúng không?", "…, được không?", "…, is that right?")."""
_CONFIRMING = re.compile(
    rf"\b(?:{_CONFIRM_TAGS}|{_EN_TAGS})\s*\W*$"
    r"|^(?:is it (?:right|true|correct) that|i (?:heard|read) that|toi nghe noi)\b",
    re.I,
)
"""A question that states something and asks to have it confirmed: a tag at its end ("…, đúng không?", "…, is that
right?"; not "được không", which asks whether one may) or an opening that states it ("Is it true that …", "Tôi nghe
nói …")."""
_WHETHER = re.compile(
    _TAG + r"|[,;:]\s*(?:is|are|does|do|did|can|could|may|must|shall|should|will|would|has|have|was|were)\s+\w", re.I
)
"""A question asking whether: a tag at its end or a verb opening its main clause after a comma ("If a death is
involved, does the provider still have 15 days?")."""
_CLAUSE = re.compile(r"[,;.:](?=\s|$)|[?!]|\bthi\b", re.I)
"""Where a clause ends: punctuation (not the separators inside "2.000.000" or "1,000") or "thì"."""
_CONDITION_WORDS = r"if|suppose|supposing|in case|nếu|giả sử|trường hợp"
_CONDITION = re.compile(rf"\b(?:{_CONDITION_WORDS})\b", re.I)
"""A clause that describes the asker's case as a condition ("if it happened in Paris", "nếu … 60 ngày"): its names
and figures are the case's, not what is asked. (A person speaking of themselves, "How do I get a fishing licence in
Norway?", still asks about the name; the answer stage looks names up in the whole index, so a name the story carries
into the question, "I work at Vinamilk, ...", withholds an answer only from an index that never mentions it.)"""
_CASE = re.compile(
    rf"\b(?:i|i'?m|i'?ve|i'?d|my|me|we|we'?re|our|us(?!\$)|mine|tôi|em|mình|chúng tôi|chúng em|{_CONDITION_WORDS})\b",
    re.I,
)
"""Words of a clause that describes the asker's case: a person speaking of themselves, a condition. Read with the
marks ("tôi" is not "tới" or "tội")."""
_NAME_YEAR = re.compile(
    r"\b(?:bo luat|luat|nghi dinh|thong tu|quyet dinh|hien phap|phap lenh|act|regulations?|directive|code|law|decree"
    r"|rules|convention)\b(?:\s+[^\W\d_]+){0,4}\s+(?:nam\s+|of\s+)?$",
    re.I,
)
"""The words before a year that is part of a document's name ("Bộ luật Hình sự năm 2017", "the Companies Act 2006")."""
RATE_UNITS = {"minutes", "hours", "days", "weeks", "months", "years"}
"""Units whose one is a rate, not a figure taken as given: "nghỉ bao lâu 1 năm" asks how long per year."""


def _clauses(text: str) -> list[tuple[int, int]]:
    """The spans of ``text``'s clauses (``_CLAUSE``), read on its folded form (one character per character, so the
    spans cut ``text`` as written)."""
    ends = [m.start() for m in _CLAUSE.finditer(fold(text))] + [len(text)]
    return list(zip([0, *ends[:-1]], ends, strict=True))


def _given_clauses(question: str) -> list[tuple[int, str]]:
    """The clauses of ``question`` (with their offsets) whose figures and values it takes as given: none when it asks
    whether something holds, else those that do not describe the asker's own case."""
    if asks_whether(question):
        return []
    return [(at, question[at:end]) for at, end in _clauses(question) if not _CASE.search(question[at:end].lower())]


def case_clauses(question: str, then: bool = False) -> list[tuple[int, int]]:
    """The spans of the clauses of ``question`` that describe the asker's case: a person speaking of themselves, a
    condition (``_CASE``); with ``then``, also a clause that "thì" closes and that asks nothing ("Máy bay bị hoãn 3
    tiếng thì được bồi thường bao nhiêu?": if the plane is delayed 3 hours; not "Vì sao phải đợi đủ 05 năm thì …?"), and
    every clause of a question asking whether something is covered (``asks_cover``). The premises read without
    ``then``: measured, its figures taken as the case cost two near-miss probes of ALQAC 2022 on dev and gained none."""
    folded = fold(question).lower()
    covering = then and asks_cover(question)
    return [
        (at, end)
        for at, end in _clauses(question)
        if covering
        or _CASE.search(question[at:end].lower())
        or (then and _THEN.match(folded, end) and not _ASKS.search(folded[at:end]))
    ]


_VI_COVER = re.compile(r"\bco (?:duoc )?(?:bao hiem|boi thuong|chi tra|tra tien|den bu|den)\b(?:.*\bkhong\b)")
"""The Vietnamese frame of a question asking whether something is covered ("… có được bồi thường không?"), on folded
lower-case text."""


def asks_cover(question: str) -> bool:
    """Whether ``question`` asks whether something is covered ("Is a storm with 60 km/h winds covered?", "Gió cấp 6 có
    được bồi thường không?"): its figures describe the case put to the cover (``case_clauses``), as a person's story
    does."""
    folded = fold(" ".join(question.split())).lower()
    return question_type(question) == "yes_no" and (COVER.search(folded) or _VI_COVER.search(folded)) is not None


_THEN = re.compile(r"thi\b")
"""The "thì" that closes a Vietnamese clause of condition."""
_ASKS = re.compile(r"\b(?:vi sao|tai sao|sao lai|bao nhieu|bao lau|the nao|ra sao|khi nao|luc nao|o dau|la gi|ai)\b")
"""Question words: a clause holding one asks rather than sets the case."""


def confirming(question: str) -> bool:
    """Whether ``question`` states something and asks to have it confirmed (``_CONFIRMING``): its figures are put to
    the test, even those of a clause in the first person ("Doanh nghiệp có 10 ngày … sau khi tôi rút lại đồng ý phải
    không?")."""
    return _CONFIRMING.search(fold(" ".join(question.split())).lower()) is not None


def asks_whether(question: str) -> bool:
    """Whether ``question`` asks if something holds (its figures are then put to the test, not taken as given)."""
    return question_type(question) == "yes_no" or _WHETHER.search(fold(" ".join(question.split())).lower()) is not None


@dataclass
class Premise:
    """A figure a question takes as given: canonical (``citewise.figures`` form, "%" apart), the units it is written
    with ("" for none), and its words in the question ("05 năm", "US$ 50")."""

    figure: str
    units: set[str] = field(default_factory=set)
    text: str = ""


def premises(question: str) -> list[Premise]:
    """The figures ``question`` takes as given: none for a question asking whether; otherwise those of clauses that
    do not describe the asker's own case, in its stem (a multiple-choice question's options are what it asks about,
    not what it takes as given). Provision numbers and document codes are not figures."""
    question = with_digits(nfc(stem(question)))
    out: dict[str, Premise] = {}
    for at, clause in _given_clauses(question):
        units = figure_units(clause)
        low = fold(clause).lower()
        years = {
            m.group(1) for m in NUMBER.finditer(low) if len(m.group(1)) == 4 and _NAME_YEAR.search(low[: m.start()])
        }
        for n in extract_numbers(clause):
            figure = n.rstrip("%")
            named = units.get(figure, {"%"} if n.endswith("%") else set())
            if n.startswith("code:") or figure in years or (figure == "1" and named and named <= RATE_UNITS):
                continue
            said = _words_of(question, low, at, figure, bool(named - {"", "%"}))
            out.setdefault(figure, Premise(figure, text=said)).units.update(named)
    # in the question's order (``extract_numbers`` gives a set, whose order changes from process to process)
    return sorted(out.values(), key=lambda p: question.find(p.text))


def _words_of(question: str, folded_clause: str, at: int, figure: str, unit_word: bool) -> str:
    """The figure's words in the question: the number (with its "%"), the currency sign before it, or, when it has a
    unit word (``unit_word``), the word after it."""
    for m in NUMBER.finditer(folded_clause):
        if canon_number(m.group(1)) != figure:
            continue
        a, b = at + m.start(), at + m.end()
        currency = currency_before(folded_clause[max(0, m.start() - 5) : m.start()])
        if currency:
            return question[a - len(currency.group(0)) : b].strip()
        after = re.match(r"\s*[^\W\d_]+", question[b:]) if unit_word else None
        return (question[a:b] + (after.group(0) if after else "")).strip()
    return figure


_VALUE_CLASSES: dict[str, dict[str, re.Pattern[str]]] = {
    "month": {
        m: re.compile(rf"\b{m}\b(?=\s*\d)|(?<=\d\s){m}\b" if m == "May" else rf"\b{m}\b")
        for m in (name.capitalize() for name in MONTHS)
    },
    "frequency": {
        value: re.compile(rf"(?<![\w-])(?:{pattern})\b", re.I)
        for value, pattern in {
            "daily": r"daily|every day|each day|once a day|hằng ngày|hàng ngày",
            "weekly": r"weekly|every week|each week|once a week|hằng tuần|hàng tuần",
            "monthly": r"monthly|every month|each month|once a month|hằng tháng|hàng tháng",
            "quarterly": r"quarterly|every quarter|each quarter|once a quarter|hằng quý|hàng quý",
            "half-yearly": r"semi-annual(?:ly)?|half-yearly|bi-annual(?:ly)?|twice a year|every six months",
            "annually": r"annually|yearly|every year|each year|once a year|hằng năm|hàng năm",
        }.items()
    },
    "sex": {
        value: re.compile(rf"(?<![\w-])(?:{pattern})(?![\w-])", re.I)
        for value, pattern in {
            "male": r"male|men|lao động nam|người nam|nam giới|nam công nhân",
            "female": r"female|women|lao động nữ|người nữ|nữ giới|phụ nữ|nữ công nhân",
        }.items()
    },
}
"""Closed classes of values a question can take as given besides figures: months, frequencies, a person's sex. Their
members stand for one another, so evidence that states one of them and never the question's has swapped it ("filed by
the end of June" of a rule giving the end of April; "lao động nam" of a rule for "lao động nữ")."""


def swapped_values(question: str, texts: Iterable[str]) -> list[str]:
    """The words of the values of ``_VALUE_CLASSES`` ``question`` takes as given (clauses about the asker's case and
    questions asking whether left out, as for figures; a multiple-choice question's stem) that none of ``texts`` states
    while they state another member of the same class."""
    asked: dict[str, dict[str, str]] = {}
    for _, clause in _given_clauses(nfc(stem(question))):
        for kind, members in _VALUE_CLASSES.items():
            for value, pattern in members.items():
                m = pattern.search(clause)
                if m:
                    asked.setdefault(kind, {}).setdefault(value, m.group(0))
    if not asked:
        return []
    joined = nfc(" ".join(texts))
    out: list[str] = []
    for kind, values in asked.items():
        stated = {v for v, pattern in _VALUE_CLASSES[kind].items() if pattern.search(joined)}
        if stated and not stated & set(values):
            out += values.values()
    return out


def absent_premises(question: str, texts: Iterable[str]) -> list[str]:
    """The words of the figures ``question`` takes as given that none of ``texts`` (the evidence read, with its
    headers) states, or states only with other units ("3 lần" where the evidence has 3 only as "3 tháng" or a bare
    enumerator), then those of the values it takes as given that ``texts`` swap for others (``swapped_values``)."""
    texts = list(texts)
    return _absent_figures(question, texts) + swapped_values(question, texts)


def _absent_figures(question: str, texts: list[str]) -> list[str]:
    given = premises(question)
    if not given:
        return []
    have: set[str] = set()
    units: dict[str, set[str]] = {}
    for text in texts:
        text = with_digits(text)
        have |= {n.rstrip("%") for n in extract_numbers(text)}
        for n, u in figure_units(text).items():
            units.setdefault(n, set()).update(u)
    out = []
    for p in given:
        named = p.units - {""}
        if p.figure not in have or (named and not named & units.get(p.figure, set())):
            out.append(p.text)
    return out


def without_conditions(question: str) -> str:
    """``question`` without its clauses of condition ("Nếu người được bảo hiểm mất trong 60 ngày gia hạn đóng phí thì
    gia đình có được nhận tiền không?" -> "gia đình có được nhận tiền không?")."""
    question = nfc(question)
    kept = [question[a:b] for a, b in _clauses(question) if not _CONDITION.search(question[a:b].lower())]
    return "".join(kept).strip(" ,;:")


_NAME_WORD = re.compile(r"[^\W\d_][\w'’-]*")


def _is_name(word: str) -> bool:
    """A capitalised word that is not an acronym ("Norway", "Vietcombank", "Mona"; not "FSRA", "WMDs", "MoU")."""
    return word[0].isupper() and sum(ch.isupper() for ch in word) == 1 and any(ch.islower() for ch in word)


def names(question: str, lang: str) -> list[str]:
    """The names ``question`` asks about: runs of capitalised words past a sentence's first word in its question
    sentences (greetings and the story before them left out, ``retrieve.wording``), outside conditions ("if it
    happened in Paris", ``_CONDITION``), and not the people of its story ("John wants to send a payment. … what term
    refers to John's wallet?": a name that opens one of its statements), nor a multiple-choice question's options."""
    question = nfc(stem(question))
    asked = nfc(rewrite(question, lang).question) if lang in ("vi", "en") else question
    sentences = re.split(r"(?<=[.!?])\s+", question.strip())
    story = {w for s in sentences if not s.endswith("?") for w in _leading_name(s)}
    out: list[str] = []
    for sentence in sentences:
        for start, end in _clauses(sentence):
            clause, first = sentence[start:end], start == 0
            if _CONDITION.search(clause.lower()):
                continue
            run: list[str] = []
            for i, m in enumerate(_NAME_WORD.finditer(clause)):
                if _is_name(m.group(0)) and not (first and i == 0):
                    run.append(m.group(0))
                    continue
                if run:
                    out.append(" ".join(run))
                run = []
            if run:
                out.append(" ".join(run))
    return [n for n in dict.fromkeys(out) if n in asked and not {_POSSESSIVE.sub("", w) for w in n.split()} <= story]


_POSSESSIVE = re.compile(r"['’]s$")


def _leading_name(sentence: str) -> list[str]:
    """The capitalised words that open ``sentence`` ("Mai Anh sent …" -> Mai, Anh)."""
    out: list[str] = []
    end = 0
    for m in _NAME_WORD.finditer(sentence):
        if sentence[end : m.start()].strip() or not _is_name(m.group(0)):
            break
        out.append(m.group(0))
        end = m.end()
    return out


def unmentioned(question: str, texts: Iterable[str], lang: str) -> list[str]:
    """The names ``question`` asks about that none of ``texts`` (the evidence read, with its headers) mentions: a
    name is mentioned when all its words are there ("Mount Everest" needs "everest")."""
    asked = names(question, lang)
    if not asked:
        return []
    have: set[str] = set()
    for text in texts:
        have.update(words(text))
    return [n for n in asked if not set(words(n)) <= have]
