"""Extractive generator (offline, instant): quotes the evidence sentences that answer the
question, verbatim, each with its marker. Relevance from the question's words and word pairs and
the evidence's own rank; diversity by maximal marginal relevance; a sentence budget.

When the question asks for a duration, an amount or a figure and the best sentence holds one, the
answer opens with a short direct statement of it ("The period is 14 days." / "Thời hạn là 14 ngày."),
cited to the exact span it was taken from. When it names a row and a column of a table in the evidence
("the excess for a buildings claim"), the answer opens with that cell ("Buildings — Excess: USD 250."),
cited to its row, and quotes the header and the row. A sentence that leads into a list ("because of:", "bao gồm:")
is quoted with its items. Text that addresses the reader's assistant instead of stating a rule
("ignore previous instructions", "SYSTEM:", "Note to the AI") is never quoted."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

from citewise.answer.base import Generator, SentenceSink
from citewise.answer.cases import PENALTIES, asks_heaviest, case_clause, is_case_clause, upper_bound
from citewise.answer.cloze import written_from
from citewise.answer.conflicts import Stated, same_statement
from citewise.answer.contacts import asked_contact, without_asking
from citewise.answer.counts import (
    counted,
    counted_as_asked,
    counts_the_asked,
    item_number,
    ordinal,
    uncounted,
    word_limit,
)
from citewise.answer.defining import defining
from citewise.answer.event import of_the_event
from citewise.answer.injection import addresses_the_assistant, tainted_lines
from citewise.answer.kin import others_case
from citewise.answer.openings import case_contradicted, case_not_put, case_stated, set_for
from citewise.answer.options import CHOSEN, CHOSEN_ALL, LEFT_OUT, chosen_option, option_stating
from citewise.answer.records import Draft, DraftSentence, Fragment
from citewise.chunk.referents import refers_back
from citewise.chunk.sentences import LIST_ITEM, NUMBERED_ITEM, PROVISION_WORD, sentence_spans
from citewise.figures import spelled_numbers
from citewise.judge.conditions import excludes, measures_the_case
from citewise.judge.premise import without_conditions
from citewise.judge.qtype import (
    CONTACT_TYPES,
    DUTY_VI,
    UNIT_WORD,
    VALUE_TYPES,
    agent_spans,
    answer_spans,
    question_type,
)
from citewise.judge.tables import KINDS_ASKED, SEP, find_cell, min_row_words, one_line
from citewise.judge.units import figure_units
from citewise.lang import detect_language, fold, nfc
from citewise.rates import other_rate, rate_end
from citewise.retrieve.choices import split_choices, stem
from citewise.retrieve.definitions import asked_term, defines
from citewise.retrieve.wording import reworded, statement_of, wordings
from citewise.textmatch import (
    COVER,
    PERCENT,
    Terms,
    asked_percent,
    content_words,
    overlap,
    query_terms,
    text_terms,
    topic_left_out,
    without_frame,
    word_jaccard,
)
from citewise.textmatch import UNIT as _UNIT
from citewise.textmatch import asked_keys as _topic
from citewise.textmatch import short_keys as _keys

DIRECT = {
    "duration": {"en": "The period is {}.", "vi": "Thời hạn là {}."},
    "amount": {"en": "The amount is {}.", "vi": "Mức tiền là {}."},
    "percent": {"en": "The percentage is {}.", "vi": "Tỷ lệ là {}."},
    "number": {"en": "The figure is {}.", "vi": "Con số là {}."},
    "date": {"en": "The date is {}.", "vi": "Thời điểm là {}."},
    "party": {"en": "The party is {}.", "vi": "Chủ thể là {}."},
    "stated": {"en": "The provision states {}.", "vi": "Điều khoản nêu {}."},
    "phone": {"en": "The number is {}.", "vi": "Số điện thoại là {}."},
    "email": {"en": "The email address is {}.", "vi": "Địa chỉ email là {}."},
}
"""Templates of the direct answer, per question type and language; ``stated``: a yes/no question that names a
duration or an amount ("Is the fine capped at 4%?") is answered with the figure the provision states, for the
reader to compare (no yes or no is inferred); ``percent``: an amount that is a percentage ("Tỷ lệ là 30%.", not
"Mức tiền là 30%.": a share, not a sum of money)."""
TABLE = "{} — {}: {}."
"""The direct answer read from a table: row, column, value, each as the table writes it (both languages), but
for a unit the column names in brackets, which goes with the value ("Excess (USD)", "250" -> "Excess: USD 250")."""
_COLUMN_UNIT = re.compile(r"(?P<name>.*?\S)\s*\((?P<unit>[^()]{1,12})\)\s*$")
_CURRENCY_BEFORE = {"usd", "eur", "gbp", "us$", "$", "€", "£"}
_CURRENCY_AFTER = {"vnd", "vnđ", "đồng", "%"}


TABLE_SCORE = 0.6
"""Share of the best fragment's score a fragment must have for a table in it to answer: "Về nước rồi thì có bao lâu để
nộp hồ sơ bồi thường?" names the row "Hồ sơ bồi thường" of a data-retention table in the sixth fragment (0.79 against
1.71), whose "10 năm" is how long claim files are kept, not the time to file one."""


def table_statement(row: str, column: str, value: str) -> str:
    """The table answer's text, the column's bracketed unit put with the value when it is a currency or a unit
    of time and the value does not already say it ("Buildings — Excess: USD 250.", "Nhà — Mức khấu trừ:
    2.000.000 đồng.")."""
    m = _COLUMN_UNIT.fullmatch(column)
    if m and any(ch.isdigit() for ch in value):
        unit = m.group("unit").strip()
        if unit.lower() not in value.lower():
            if unit.lower() in _CURRENCY_BEFORE:
                return TABLE.format(row, m.group("name"), f"{unit} {value}")
            if unit.lower() in _CURRENCY_AFTER or _UNIT.fullmatch(unit):
                return TABLE.format(row, m.group("name"), f"{value}{'' if unit == '%' else ' '}{unit}")
    return TABLE.format(row, column, value)


CONFLICT = {
    "en": ("The sources give different figures: one provision states {}.", "Another states {}."),
    "vi": ("Các tài liệu nêu số liệu khác nhau: một điều khoản nêu {}.", "Điều khoản khác nêu {}."),
}
"""The two sentences stating conflicting figures, each cited to its own span."""
CONFLICT_DOCS = {
    "en": ("The documents give different figures: one states {}.", "Another document states {}."),
    "vi": ("Các tài liệu nêu số liệu khác nhau: một tài liệu nêu {}.", "Tài liệu khác nêu {}."),
}
"""The same when the two figures come from two documents (two policies of one insurer, a law and a decree): the
figures may belong to two products rather than contradict each other, and the citations say which is which."""
OPTION = {"en": " (option {})", "vi": " (phương án {})"}
"""Said after a direct statement's value when it is, word for word, one of a multiple-choice question's options."""


STATEMENT_OPENINGS = tuple(
    t.split("{")[0]
    for t in [
        *(t for by_lang in DIRECT.values() for t in by_lang.values()),
        *(first for table in (CONFLICT, CONFLICT_DOCS) for first, _ in table.values()),
        *(t for table in (CHOSEN, CHOSEN_ALL, LEFT_OUT) for t in table.values()),
    ]
)
"""How the templated direct statements open (a value, two figures in conflict, a multiple-choice option named): what
an evaluation reads as the answer stated first."""


def names_a_conflict(sentence: str) -> bool:
    """Whether ``sentence`` is the opening of a stated conflict of figures (``CONFLICT``)."""
    return sentence.startswith(
        tuple(first.split("{")[0] for table in (CONFLICT, CONFLICT_DOCS) for first, _ in table.values())
    )


RIVALS = 0.45
"""Sentences at least this relevant (relative to the best) are compared with the direct answer's figure."""


def _answer_like(kind: str, text: str, span: tuple[int, int]) -> bool:
    """A span that can be the answer: not a provision's number ("Rule 2"), not a figure borrowed from another
    provision ("the 30 days required by paragraph (a)": that sentence says what follows when the limit is missed,
    paragraph (a) states it), and an amount with its figure (the "đồng" of "hợp đồng" is no sum of money)."""
    if _LABEL.search(text[: span[0]]) or _BORROWED.match(text, span[1]) or item_number(text, span):
        return False
    return kind != "amount" or any(ch.isdigit() for ch in text[span[0] : span[1]])


def _kinds(question: str, asked: dict[str, list[str]] = KINDS_ASKED) -> list[str]:
    """Answer types to look for, in order: by the question type (``asked``: the figures of ``KINDS_ASKED``, or
    ``DIRECT_KINDS`` for the direct statement), or for a yes/no question the kinds of figure it names itself."""
    qtype = question_type(question)
    if qtype == "yes_no":
        # a figure of a condition ("Nếu … mất trong 60 ngày gia hạn thì … có được nhận tiền không?") is the case's, not
        # the one put to the test: the provision's figure of that kind would answer nothing asked
        tested = without_conditions(question)
        return [k for k in ("amount", "duration") if any(_answer_like(k, tested, sp) for sp in answer_spans(k, tested))]
    return asked.get(qtype, [])


DIRECT_KINDS = {**KINDS_ASKED, "date": ["date", "duration"], "party": ["party"]}
"""Kinds of answer stated directly, per question type: a value, a date (or the period a "when" question is answered
by: "within 72 hours"), the party under a duty."""
_ASKS = {
    "date": re.compile(
        r"^\s*(?:(?:by|since|until|from) )?when\b|\b(?:since|until|by|from) when\s*\??\s*$"
        r"|^\s*(?:on |in |by )?what (?:date|day|year|month)\b|^\s*in which year\b",
        re.I,
    ),
    "party": re.compile(
        r"^\s*(?:who|whom|whose)\b|^\s*(?:to|by|for|from|with|on) whom\b"
        r"|^\s*which (?:body|authority|party|person|entity|organi[sz]ation)\b",
        re.I,
    ),
}
"""An English question asks for a date or a party when it opens with its question word: "Who does a processor
have to notify when it becomes aware of a breach?" asks for a party, whatever its "when"."""


def _direct_kinds(question: str) -> list[str]:
    """The kinds of answer the direct statement may state for ``question`` (``DIRECT_KINDS``): a date or a party
    only when an English question asks for it with its opening words; the contact detail a question asks for
    (``answer.contacts``)."""
    contact = asked_contact(question)
    if contact is not None:  # "What number do I call …?": the number, not a figure of the provision
        return [contact]
    qtype = question_type(question)
    if qtype in _ASKS and detect_language(question) == "en" and not _ASKS[qtype].search(question):
        return []
    return _kinds(question, DIRECT_KINDS)


_ASKS_DUTY = re.compile(rf"\b(?:{DUTY_VI})\b")


@functools.lru_cache(maxsize=256)
def _asks_duty(question: str) -> bool:
    """Whether a Vietnamese question asks who bears a duty or holds a right ("Ai phải thông báo …?", "… ai có trách
    nhiệm …"): only it is answered by the subject of a provision's duty (``qtype.party_spans``). Of the five Vietnamese
    party statements on this project's dev answers without it, none was right ("Ai là người quản lý di sản khi di chúc
    không chỉ định …?" → "Chủ thể là người lập di chúc.", from "Người lập di chúc có quyền sau đây")."""
    return _ASKS_DUTY.search(fold(question).lower()) is not None


_COMMON_LEAD = frozenset("the a an each any every doanh bên người tổ cơ cá chủ công nhà".split())


def _in_sentence(party: str) -> str:
    """A party phrase as it reads inside a sentence: "The controller" -> "the controller", "Doanh nghiệp bảo
    hiểm" -> "doanh nghiệp bảo hiểm", "Providers and deployers" -> "providers and deployers"; a name keeps its
    capital ("the Authority", "Bộ Tài chính", "Congress")."""
    words = party.split()
    common = words[0].lower() in _COMMON_LEAD or (len(words) > 1 and words[1][:1].islower() and not words[0].isupper())
    return party[0].lower() + party[1:] if common else party


def states_figure_asked(question: str, sentences: list[str]) -> bool | None:
    """Whether one of ``sentences`` states a figure of the kind ``question`` asks for (a duration for
    "how long", an amount for "how much"); ``None`` when the question asks for no figure."""
    kinds = _kinds(question)
    if not kinds:
        return None
    return any(_answer_like(k, s, sp) for s in sentences for k in kinds for sp in answer_spans(k, s))


_LIST_LEAD = re.compile(r"(?::|\b(?:the following|as follows|sau đây|bao gồm|gồm))\s*$", re.I)


_PERCENT = re.compile(rf"(?<![a-z])(?:{PERCENT})(?![a-z])")
"""A percentage (``textmatch.PERCENT``), on folded lower-case text."""


def _percent(text: str, asked: bool = False) -> set[str]:
    """{"%"} when ``text`` states a percentage (``asked``: when a question asks for one, ``textmatch.asked_percent``)."""
    found = asked_percent(text) if asked else _PERCENT.search(fold(text).lower())
    return {"%"} if found else set()


def _rank(question: str, text: str, span: tuple[int, int]) -> tuple[int, int, int, int, int, int, int, int, int, int]:
    """Answers in the unit or of the thing the question names first ("how many hours" -> "72 hours", "capped at 4%" ->
    "7 %", "how many men" -> "30,000 men" before "300 ships"), a range for a question asking one ("từ bao nhiêu đến bao
    nhiêu năm?"), a term of the penalty the question names ("phạt tù lên đến bao nhiêu năm?": "phạt tù từ 06 tháng
    đến 03 năm", not the "cải tạo không giam giữ đến 03 năm" before it), figures before words,
    then the one led into by the words the question puts before its asking word (``_led``), then one set for a case
    the question puts ("từ tháng thứ 07 hoặc từ tháng thứ 06 nếu làm việc ở vùng cao, …" asked of the highlands: 06),
    before one set for no case and one set for a case it does not put, then the one the
    question's own words lead into ("Escape of water USD 250" in a row of excesses), then the one whose clause says most
    of what the question asks ("settle ... within 15 business days of receiving the documents" over "return the
    documents within 60 days" in one list of time limits)."""
    value = text[span[0] : span[1]]
    asked = _asked_units(question) | _percent(question, asked=True)
    units = {u.lower().rstrip("s") for u in _UNIT.findall(value)} | _percent(value)
    # the question's topic words in its own wording and in the provisions' ("pay my claim": "settle the claim")
    topic = frozenset().union(*map(_topic, wordings(question)))
    near = len(topic & _keys(_left(text, span[0], NEAR_REACH)))
    led = _led(question, text, span[0])
    case = set_for(question, text, span)
    clause = len(topic & _keys(_clause(text, span)))
    follows = _follows(question, text, span[1])
    extra = _unasked(question, _clause(text, span))
    # "how many men": the count of the thing asked for ("30,000 men", not the "300" ships after it)
    named = asked & units or (question_type(question) == "number" and counted(question, text, span[1]) > span[1])
    ranged = _ASKS_RANGE.search(fold(question).lower()) is not None and _RANGE_VALUE.search(fold(value).lower())
    return (
        0 if named else 1,
        0 if ranged else 1,
        0 if _penalty_named(question, text, span[0]) else 1,
        0 if any(ch.isdigit() for ch in value) else 1,
        0 if led else 1,
        case,
        -near,
        -clause,
        -follows,
        extra,
    )


def _penalty_named(question: str, text: str, at: int) -> bool:
    """Whether the figure at ``at`` of ``text`` is of a penalty (``cases.PENALTIES``) that ``question`` names."""
    pair = fold(" ".join(_words_before(text, at)))
    return pair in PENALTIES and f" {pair} " in f" {' '.join(_WORD.findall(fold(question).lower()))} "


_FIGURE_UNIT = re.compile(rf"\d\s*(?:{_UNIT.pattern})", re.I)


@functools.lru_cache(maxsize=256)
def _asked_units(question: str) -> frozenset[str]:
    """The units of time ``question`` asks in: those after its question word ("chưa được 12 tháng thì … bao nhiêu
    ngày?" asks in days; its "12 tháng" is the asker's case), else those it gives a figure in ("Is the notice period 14
    days?"), else every one it names. Not one after "hằng", "mỗi", "per" ("nghỉ hằng năm" is leave per year), and the
    "ngày" of "ban ngày" (daytime) is no unit asked for."""
    named = [
        (m.start(), m.group(1).lower().rstrip("s"))
        for m in _UNIT.finditer(question)
        if not _PER.search(question[: m.start()])
    ]
    asked = {u for at, u in named if _ASKING_UNIT.search(question[:at])}
    with_figure = {m.end() for m in _FIGURE_UNIT.finditer(question)}
    given = {u for at, u in named if any(at < end <= at + len(u) + 1 for end in with_figure)}
    return frozenset(asked or given or {u for _, u in named})


_ASKING_UNIT = re.compile(r"(?:bao nhiêu|mấy|how many|number of|số)\s+(?:[^\W\d_]+\s+)?$", re.I)
"""The words asking for a count right before a unit ("bao nhiêu ngày", "how many working days")."""


_PER = re.compile(r"\b(?:hằng|hàng|mỗi|per|each|a)\s*$", re.I)
"""Words before a unit that make it a rate ("nghỉ hằng năm", "per day"), not a unit the question asks in."""
_ASKS_RANGE = re.compile(r"\btu bao (?:nhieu|lau)\b.*\bden bao (?:nhieu|lau)\b|\bfrom how (?:many|much|long)\b")
"""A question asking for a range ("bị phạt tù từ bao nhiêu đến bao nhiêu năm?"), on folded lower-case text."""
_RANGE_VALUE = re.compile(r"\b(?:tu|from|between)\b.*\d.*\b(?:den|to|and)\b.*\d")
"""A value stating a range ("từ 03 tháng đến 02 năm", "from 18 to 70"), on folded lower-case text."""


_CLAUSE_END = re.compile(r";|(?:^|\s)\(?[a-z]{1,2}\)\s|\n\s*\(?[a-z0-9]{1,3}[.)]\s")
CLAUSE_REACH = 120
"""Characters read on each side of a figure for its clause, at most (cut at ";" and list items "(a)", "b)")."""


NEAR_REACH = 60
"""Characters read before a figure for the words that lead into it, within its clause."""


def _left(text: str, at: int, reach: int) -> str:
    """The ``reach`` characters before ``at``, from the start of their clause or list item on: "…về thời điểm nghỉ
    hưu; trước 03 tháng" leads into 03 with nothing of the clause before the ";"."""
    left = text[max(0, at - reach) : at]
    cuts = list(_CLAUSE_END.finditer(left))
    return left[cuts[-1].end() :] if cuts else left


_ASKING_WORD = re.compile(r"\b(?:bao lau|bao nhieu|bao gio|khi nao|ngay nao|how (?:long|many|much|soon))\b")
LED_WORDS = 2
"""Words before a question's asking word compared with those before a figure."""


@functools.lru_cache(maxsize=256)
def _asking(question: str) -> tuple[tuple[str, ...], tuple[str, ...], frozenset[str]] | None:
    """The question's folded words before its asking word, those after it (its unit left out: "bao nhiêu năm đối với
    …" -> "đối với …"), and all its words; read once per question, not once per figure ranked (``_rank``). ``None``
    when it has no asking word."""
    q = fold(nfc(question)).lower()
    m = _ASKING_WORD.search(q)
    if m is None:
        return None
    after = _WORD.findall(q[m.end() :])
    if after and UNIT_WORD.fullmatch(after[0]):
        after = after[1:]
    return tuple(_WORD.findall(q[: m.start()])), tuple(after), frozenset(_WORD.findall(q))


def _led(question: str, text: str, at: int) -> bool:
    """Whether the two words just before the question's asking word are the two just before the figure at ``at``
    (folded): "… thì bị phạt cải tạo không giam giữ đến bao lâu?" is led into "… phạt cải tạo không giam giữ đến 03 năm
    hoặc phạt tù từ 06 tháng đến 03 năm" before "03 năm", not before the prison range. Two figures led into alike are
    told apart by the words around them: "Giờ làm thêm không quá bao nhiêu giờ trừ những trường hợp …" leads into the
    "không quá 12 giờ trong 01 ngày" of a case and the "không quá 200 giờ trong 01 năm, trừ trường hợp …" asked."""
    read = _asking(question)
    if read is None:
        return False
    asked = list(read[0][-LED_WORDS:])
    lead = _WORD.findall(fold(text[max(0, at - 20 * LED_WORDS) : at]).lower())
    return len(asked) >= LED_WORDS and asked == lead[-LED_WORDS:]


def _follows(question: str, text: str, end: int) -> int:
    """How many words after a figure ending at ``end``, in its clause, are those after the question's asking word (and
    its unit), in order: "… bao nhiêu năm đối với tội phạm nghiêm trọng?" is followed by all six in "b) 10 năm đối với
    tội phạm nghiêm trọng;", by four in "a) 05 năm đối với tội phạm ít nghiêm trọng;"."""
    read = _asking(question)
    if read is None:
        return 0
    right = text[end : end + CLAUSE_REACH]
    cut = _CLAUSE_END.search(right)
    said = _WORD.findall(fold(right[: cut.start()] if cut else right).lower())
    same = [a == b for a, b in zip(read[1], said, strict=False)]
    return same.index(False) if False in same else len(same)


def _unasked(question: str, clause: str) -> int:
    """How many words of a figure's clause (``_clause``, the figure left out) the question never says, figures aside."""
    read = _asking(question)
    asked = read[2] if read is not None else frozenset(_WORD.findall(fold(nfc(question)).lower()))
    return sum(1 for w in _WORD.findall(fold(clause).lower()) if w not in asked and not w.isdigit())


def _clause(text: str, span: tuple[int, int]) -> str:
    """The words around a figure within its clause or list item, the figure left out."""
    left = _left(text, span[0], CLAUSE_REACH)
    right = text[span[1] : span[1] + CLAUSE_REACH]
    cut = _CLAUSE_END.search(right)
    return f"{left} {right[: cut.start()] if cut else right}"


def _on_topic(question: str, sentence: str) -> bool:
    """Whether a sentence says more than half of what the question asks about (its topic words), in the question's
    words or in the provisions' (``wording.wordings``): a figure from a sentence about something else is no answer
    ("85 %" of a rebuilding clause for the pay-out of a cancelled trip)."""
    keys = _keys(sentence)
    return any(not topic or 2 * len(topic & keys) > len(topic) for topic in map(_topic, wordings(question)))


def _left_out(question: str, text: str) -> int:
    """How many of the question's topic words ``text`` never says, in the wording that finds most of them."""
    return min(topic_left_out(q, text) for q in wordings(question))


_LABEL = re.compile(rf"\b{PROVISION_WORD}\.?\s*$", re.I)
"""Words before a provision's number: "Rule 2" is a label, never the answer to "how many"."""

_BORROWED = re.compile(
    r"\s+(?:(?:as\s+)?(?:required|referred\s+to|set\s+out|specified|stated|mentioned|laid\s+down|provided(?:\s+for)?|"
    r"prescribed|fixed|given)\s+(?:in|by|under)|under|in|quy\s+định\s+tại|nêu\s+tại|nói\s+tại|ghi\s+tại)\s+"
    rf"(?:(?:this|that)\s+{PROVISION_WORD}\b|(?:the\s+)?(?:sub-?)?{PROVISION_WORD}\.?\s*(?:\d|\([0-9a-z]{{1,4}}\)|[IVXLC]+\b|này\b))",
    re.I,
)
"""What follows a figure taken from another provision, read from its end: "... required by paragraph (a)", "...
under Article 33", "... quy định tại khoản 1 Điều này". Not after a comma: "within 30 days, as required by Section 4"
states the duty with its figure and says where it is set."""


def _of_the_case(question: str, found: tuple[str, str, _Candidate, int]) -> bool:
    """Whether a figure stated for a yes/no question (``found``: its kind, value, sentence and start, as ``_value``
    gives them) measures what the asker's case does (``measures_the_case``): a figure of another quantity read as the
    answer misleads."""
    _, value, cand, start = found
    at = start - cand.start
    return measures_the_case(question, cand.text, (at, at + len(value)))


def _given(question: str, value: str) -> bool:
    """Whether ``value`` is a figure the question itself states, in the same unit: "Người lao động làm việc chưa được 12
    tháng thì … nghỉ hằng năm bao nhiêu ngày?" is not answered "12 tháng" (a yes/no question's figures are put to the
    test and may be stated back: ``direct_answer``; so are a statement's to check and a multiple-choice question's
    options)."""
    asked = _stated_figures(question)
    return any(units & asked.get(figure, set()) - {""} for figure, units in figure_units(value).items())


@functools.lru_cache(maxsize=256)
def _stated_figures(question: str) -> dict[str, set[str]]:
    """The figures ``question`` states in its stem, with their units, that ``_given`` keeps from being its answer (read
    once per question: every span of every candidate sentence is put to it); none for a yes/no question or a statement
    to check ("…, đúng hay sai?"), whose figures may be stated back. Not to be changed by callers (remembered)."""
    if question_type(question) == "yes_no" or statement_of(question) != question:
        return {}
    return figure_units(stem(question))  # a multiple-choice question's options are what it asks about


_CHANGE = re.compile(
    r"(?:\b(?:discount|reduction|rebate|increase|loading|surcharge|refund)s?\s+of|"
    r"\b(?:reduced|increased|discounted|lowered|raised|cut)\s+by|\b(?:refunds?|refunded|repays?|repaid)|"
    r"(?<![^\W_])(?:giảm|tăng|chiết khấu|hoàn lại|hoàn trả|trả lại)(?:\s+(?:thêm|tối đa|tối thiểu))?)"
    r"\s*(?:usd|vnd|\$)?\s*$"
)
"""Words leading into a figure that is a change of the thing, not the thing, on lower-case NFC text (Vietnamese with
its marks: "tầng" is no "tăng"): "được giảm 15% phí bảo hiểm" is no premium, "a discount of 5%" no price, "được
hoàn lại 80% phí bảo hiểm" (a refund) no premium either."""
_CHANGE_ASKED = re.compile(
    r"\b(?:discount|reduc|rebate|increas|loading|surcharge|cheaper|dearer|less|more|refund|repaid|repay|back)|"
    r"(?<![^\W_])(?:giảm|tăng|chiết|hoàn|trả lại|lấy lại|nhận lại)"
)


@functools.lru_cache(maxsize=256)
def _asks_change(question: str) -> bool:
    return bool(_CHANGE_ASKED.search(nfc(question).lower()))


def _a_change(question: str, text: str, span: tuple[int, int]) -> bool:
    """Whether the figure at ``span`` of ``text`` changes another (``_CHANGE``) and ``question`` asks for no change."""
    return bool(_CHANGE.search(nfc(text[max(0, span[0] - 40) : span[0]]).lower())) and not _asks_change(question)


_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")


def _figures(text: str) -> set[str]:
    return set(_DIGITS.findall(text))


def _words_before(text: str, at: int) -> tuple[str, ...]:
    """The two words before offset ``at`` of ``text``, lower case: what a figure there is of ("phạt tù", "chức vụ nhất
    định")."""
    return tuple(w.lower() for w in _WORD.findall(text[:at])[-2:])


def _penalty(text: str, value: str) -> tuple[str, ...]:
    """The two words before ``value`` in ``text`` (``_words_before``)."""
    return _words_before(text, text.find(value))


def _with_list(c: _Candidate) -> str:
    """``c``'s text, with the items of the list it leads into when it ends with ":" and is quoted without them."""
    if not c.text.rstrip().endswith(":"):
        return c.text
    ev = c.fragment.evidence
    end = c.end - ev.char_start
    return c.text + ev.text[end : list_end(ev.text, end)]


def _stated(c: _Candidate, value: str) -> Stated:
    return Stated(c.text, c.start, c.end, c.fragment.evidence.chunk, value)


def list_end(text: str, end: int, limit: int = 1200) -> int:
    """Where the list led into by the sentence ending at ``end`` stops: its item lines, up to ``limit``
    characters, stopping at a blank line or a new clause/heading number."""
    pos = end
    lines = text[end : end + limit].split("\n")
    if lines and not lines[0].strip():
        pos += len(lines[0]) + 1
        lines = lines[1:]
    taken = 0
    listed = False  # items marked ("(a)", "b)", "-") or closed by ";": a full stop then ends the list
    # "... đối với:" then "1. ...", "2. ...": numbered lines are the list's items, not the next clause
    item = NUMBERED_ITEM if lines and _FIRST_NUMBER.match(lines[0]) else LIST_ITEM
    for i, line in enumerate(lines):
        if (
            not line.strip()
            or addresses_the_assistant(line)
            or (item is LIST_ITEM and re.match(r"\s*\d+\.\s", line))
            or re.match(r"\s*(?:Điều\s|Article\s|Section\s|\d+(?:\.\d+)+\s)", line)
        ):
            break
        taken += len(line) + 1
        stripped = line.rstrip()
        listed = listed or bool(item.match(line)) or stripped.endswith(";")
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if listed and stripped.endswith(".") and following.strip() and not item.match(following):
            break  # the last item; the next line is a paragraph of its own (a PDF keeps no blank line)
    return min(len(text), pos + taken) if taken else end


_FIRST_NUMBER = re.compile(r"\s*1[.)]\s")


@dataclass
class _Candidate:
    fragment: Fragment
    start: int
    end: int
    text: str
    relevance: float
    order: tuple[int, int]
    lead_says: float = 0.0
    """For a list quoted with its items: how much of the question its lead-in says (0 for a sentence)."""
    focused: bool = False
    """Ranked first because the answerability judge found the answer in it (``_focused``), or because it defines the
    term the question asks the meaning of (``_defining``)."""
    leans: bool = False
    """Quoted with the sentence before it, which it refers back to ("His or her role is ...";
    ``chunk.referents``); ranked by its own words."""


_WORD = re.compile(r"[^\W_]+")


FOCUS = 1.25
"""The judge's answering sentence is ranked this far above the most relevant sentence by word overlap."""


def _focused(question: str, cands: list[_Candidate], floor: float) -> list[_Candidate]:
    """The sentence the answerability judge found to state the answer (``Fragment.focus``) first: it read the
    question and the sentence together, where the words the two share may point elsewhere. Not when it leaves
    out more of what the question is about than the most relevant sentence by word overlap does (with their
    headings): the judge reads a sentence alone, and "Thời hạn nộp hồ sơ bồi thường là 60 ngày" looks like the
    answer to "Thời hạn giải quyết bồi thường là bao lâu?" until one sees that it is about filing, not settling. A focus
    to be stated (``Fragment.stated``) comes first whatever it leaves out, and at ``floor`` (the least relevance a
    sentence is quoted with) at least."""
    top = max(cands, key=lambda c: c.relevance, default=None)
    if top is None:
        return cands

    def missing(c: _Candidate) -> int:
        return _left_out(question, f"{c.fragment.evidence.chunk.header} {c.text}")

    def off(c: _Candidate) -> int:  # how far a sentence's span is from its fragment's focus
        focus = c.fragment.focus
        return abs(c.start - focus[0]) + abs(c.end - focus[1]) if focus is not None else -1

    # the sentence to be stated is the focus itself, not the list holding it
    stated = min((c for c in cands if c.fragment.stated and off(c) >= 0), key=off, default=None)
    out = []
    for c in cands:
        focus = c.fragment.focus
        near = focus is not None and c.start < focus[1] and focus[0] < c.end and not c.fragment.stated
        if c is stated:
            c = replace(c, relevance=max(c.relevance, top.relevance, floor) * FOCUS, focused=True)
        elif near and missing(c) <= missing(top):
            c = replace(c, relevance=max(c.relevance, top.relevance) * FOCUS, focused=True)
        out.append(c)
    return out


def _defining(question: str, lang: str, cands: list[_Candidate]) -> list[_Candidate]:
    """For a question asking what a term means ("Theo Bộ luật Dân sự 2015, hoa lợi được hiểu như thế nào?"), the
    sentences defining it ("1. Hoa lợi là sản vật tự nhiên mà tài sản mang lại.", ``retrieve.definitions``) first,
    above the judge's sentence: sentences using the term ("Bên ngay tình trong việc thu hoa lợi, lợi tức …", "Vật phụ
    là … một bộ phận của vật chính") share as many of its words."""
    term = asked_term(question, lang)
    if term is None:
        return cands
    top = max((c.relevance for c in cands), default=0.0)
    return [replace(c, relevance=top * FOCUS, focused=True) if defines(c.text, term, True) else c for c in cands]


def _defining_one(question: str, lang: str, cands: list[_Candidate]) -> _Candidate | None:
    """The sentence (or list point: "a) Một năm là ba trăm sáu mươi lăm ngày;") defining the term the question
    asks the meaning of (``_defining``, ``defining.defining``): it is the answer, stated as the provision says it, not
    a party or a figure singled out of it ("Người thực hành là ai?" is not "Chủ thể là người đồng phạm không.")."""
    focused = [c for c in cands if c.focused]
    at = defining(question, lang, [(c.text, c.fragment.evidence.chunk.header) for c in focused])
    return None if at is None else focused[at]


def _opening(question: str, lang: str, chosen: list[_Candidate], stating: bool) -> list[_Candidate]:
    """``chosen`` in the order they are quoted: one opening with the opposite of the asker's case ("giao ít hơn" asked
    of "nhiều hơn", ``openings.case_contradicted``) last; in Vietnamese, which asks in place and puts its case in the
    provisions' words, the one the question was written from (``cloze.written_from``) first, then one setting its rule
    for the case the question states (``openings.case_stated``) — not for a question with options, which holds the
    options' words too; then, when no figure is ``stating`` (a direct statement), the judge's sentence; then reading
    order."""
    read = lang == "vi" and split_choices(question) is None
    cloze = written_from(question, [c.text for c in chosen]) if read else [False] * len(chosen)
    keyed = [
        (
            case_contradicted(question, c.text),
            not filled,
            not (read and case_stated(question, c.text)),
            stating or not c.focused,
            c.order,
        )
        for c, filled in zip(chosen, cloze, strict=True)
    ]
    return [c for _, c in sorted(zip(keyed, chosen, strict=True), key=lambda kc: kc[0])]


_CLOSING = tuple(".;:?!,)…\"”'’")


def _heading(sentence: str) -> bool:
    """A title on a line of its own: short, no closing punctuation, fewer than 12 words."""
    t = sentence.strip()
    return "\n" not in t and len(t) < 120 and not t.endswith(_CLOSING) and len(_WORD.findall(t)) < 12


def _past_heading_lines(text: str, s: int, e: int) -> int:
    """Where the sentence ``text[s:e]`` starts once title lines run into it are left out ("Harbourview Mutual
    Home Insurance Policy / Policy wording HM-2025/04 / Effective date: 1 January 2025 / This document is ...": the
    lines have no full stop, so the sentence splitter reads them as one sentence)."""
    while True:
        nl = text.find("\n", s, e)
        rest = text[nl + 1 : e].lstrip() if nl >= 0 else ""
        # a title line is short and the next line starts anew; a line of wrapped text runs to the margin and goes on
        if nl < 0 or nl - s >= TITLE_LINE or not _heading(text[s:nl]) or not rest[:1].isupper():
            return s
        s = nl + 1


TITLE_LINE = 70
"""Characters a title line has at most when it runs into a sentence (wrapped lines of a page are longer)."""


def _within(a: _Candidate, b: _Candidate) -> bool:
    """Whether ``a``'s span lies inside ``b``'s, in the same document."""
    same = a.fragment.evidence.chunk.doc_id == b.fragment.evidence.chunk.doc_id
    return same and b.start <= a.start and a.end <= b.end


def _with_their_lists(chosen: list[_Candidate], cands: list[_Candidate]) -> list[_Candidate]:
    """``chosen`` with each list item replaced by its list when the list's lead-in says something of the question
    ("We will pay up to USD 50,000 ... including:" for "hospital, surgical and medical treatment fees;"): an item
    read alone does not say what it is an item of. A lead-in that says nothing of it ("the following definitions
    apply:") leaves the item alone."""
    out: list[_Candidate] = []
    for c in chosen:
        holder = next((x for x in cands if x.lead_says > 0 and x is not c and _within(c, x)), None)
        c = holder or c
        if not any(c is x or _within(c, x) for x in out):
            out = [x for x in out if not _within(x, c)]
            out.append(c)
    return out


def _stated_first(stated: _Candidate, chosen: list[_Candidate], cands: list[_Candidate]) -> list[_Candidate]:
    """``chosen`` with the sentence to be stated (``Fragment.stated``) first and, when it is an item of a list, after
    the list's lead-in only ("Công ty không chịu trách nhiệm bồi thường đối với:" then "5. Tổn thất xảy ra khi nhà ở
    bị bỏ trống liên tục trên 60 ngày …"), not with the other items; its list is not quoted again. The other sentences
    quoted are those of its provision only ("If you expect the home to be unoccupied for longer than 60 days you must
    tell us beforehand …"): what the rest of the evidence shares with the question is not about the case."""
    holder = next((x for x in cands if x is not stated and not x.leans and _within(stated, x)), None)
    rest = [
        c
        for c in chosen
        if c is not stated
        and c.fragment.evidence is stated.fragment.evidence
        and not (holder is not None and _within(c, holder))
    ]
    if holder is None:
        return [stated, *rest]
    f, base = holder.fragment, holder.fragment.evidence.char_start
    lead = next(((s, e) for s, e in sentence_spans(f.text) if base + s == holder.start), None)
    if lead is None:
        return [stated, *rest]
    return [replace(_quote(f, holder.order[0], lead), focused=True), stated, *rest]


def _under_their_headings(chosen: list[_Candidate]) -> list[_Candidate]:
    """``chosen`` with the heading line of an exclusions section quoted before the first sentence quoted from it, when
    none of them says it excludes: "pregnancy or childbirth after the 32nd week of pregnancy;" read alone reads as
    cover, under "2.4 What is not covered" as what it is (a list whose only lead-in is its heading)."""
    out: list[_Candidate] = []
    headed: set[int] = set()
    for c in chosen:
        f = c.fragment
        line = f.text.split("\n", 1)[0]
        start = f.evidence.char_start
        if (
            id(f.evidence) not in headed
            and c.start > start
            and _heading(line)
            and excludes(line)
            # nor when a sentence quoted from it says so itself (its lead-in: "Công ty không chịu trách nhiệm …:")
            and not any(x.fragment.evidence is f.evidence and (x.start == start or excludes(x.text)) for x in chosen)
        ):
            headed.add(id(f.evidence))
            out.append(_quote(f, c.order[0], (0, len(line.rstrip()))))
        out.append(c)
    return out


def _others(c: _Candidate, chosen: list[_Candidate]) -> list[_Candidate]:
    """The chosen sentences ``c`` does not quote: all, but for a sentence quoted with the one it refers back to,
    that one (``c`` says it again, as its context, not as a repeat)."""
    return [x for x in chosen if not (c.leans and _within(x, c))]


def _referent(text: str, spans: list[tuple[int, int]], si: int, tainted: list[tuple[int, int]]) -> int | None:
    """Where the sentence before sentence ``si`` starts, when a sentence referring back to it can be quoted with it:
    a statement of its own (not a heading, not a line addressing the reader's assistant), in the same fragment."""
    if si == 0:
        return None
    s, e = spans[si - 1]
    if s == 0:  # a document's title block runs into its first sentence
        s = _past_heading_lines(text, s, e)
    prev = text[s:e]
    if _heading(prev) or len(_WORD.findall(prev)) < 4 or addresses_the_assistant(prev):
        return None
    if any(s < b and a < e for a, b in tainted):
        return None
    return s


@dataclass(frozen=True)
class _Asked:
    """The question's terms as written and, when its everyday words have a legal wording, in that wording; with their
    Vietnamese marks when the question is typed with them, and then also without (``folded``, set only then), for
    texts typed without marks."""

    written: Terms
    legal: Terms | None
    folded: _Asked | None = None

    @classmethod
    def of(cls, question: str, lang: str) -> _Asked:
        legal = reworded(question, lang)
        folded = cls.read(question, legal, False)
        # a Vietnamese question typed with its marks is read with them: folded, "báo công an" is "bao" (a stop
        # word) and "an", and "nhà trống" is "nha trong"
        if lang == "vi" and not question.isascii():
            return replace(cls.read(question, legal, True), folded=folded)
        return folded

    @classmethod
    def read(cls, question: str, legal: str, marks: bool) -> _Asked:
        written, in_legal_words = query_terms(question, marks), query_terms(legal, marks)
        return cls(written, None if in_legal_words == written else in_legal_words)

    def covered(self, text: str) -> float:
        if self.folded is not None and text.isascii():
            return self.folded.covered(text)
        found = text_terms(text, marks=self.folded is not None)
        return max(overlap(self.written, found), 0.0 if self.legal is None else overlap(self.legal, found))


_STATES_COVER = re.compile(rf"(?:{COVER.pattern})|\b(?:cover|exclu\w+|reimburs\w+)\b")
"""A lead-in stating what a policy covers or leaves out ("We will not pay for:", "The following are excluded:"), on
folded lower-case text: a question's coverage frame (``COVER``), or "cover" and an exclusion said any way."""


def _cover_says(question: str, lang: str) -> float:
    """How much of an English coverage question (``textmatch.COVER``: "Do you pay for damage caused by termites?")
    its frame is: what a list's lead-in stating the cover says of it. The frame is cut from the question's topic (it
    matches every section of a policy), yet "We will not pay for:" is the clause that answers yes or no. 0 for
    other questions."""
    if question_type(question) != "yes_no":
        return 0.0
    m = COVER.search(fold(question.lower()))
    return _Asked.of(question, lang).covered(m.group(0)) if m else 0.0


def _holds(c: _Candidate, ref: str, at: int) -> bool:
    """Whether ``c`` quotes the place ``at`` (an offset in the document) of fragment ``ref``."""
    return c.fragment.ref == ref and c.start <= at < c.end


def _shortest_holding(cands: list[_Candidate], ref: str, at: int) -> _Candidate | None:
    return min((c for c in cands if _holds(c, ref, at)), key=lambda c: c.end - c.start, default=None)


def _quote(f: Fragment, fi: int, span: tuple[int, int]) -> _Candidate:
    """A span of fragment ``fi``'s text (a table's header or row) as a sentence to quote, in reading order."""
    si = next((i for i, (s, e) in enumerate(sentence_spans(f.text)) if s <= span[0] < e), 0)
    base = f.evidence.char_start
    return _Candidate(f, base + span[0], base + span[1], f.text[span[0] : span[1]], 1.0, (fi, si))


class ExtractiveGenerator(Generator):
    name = "extractive"

    def __init__(
        self, max_sentences: int = 3, min_relevance: float = 0.15, relative: float = 0.5, mmr_lambda: float = 0.7
    ) -> None:
        self.relative = relative
        self.max_sentences = max_sentences
        self.min_relevance = min_relevance
        self.mmr_lambda = mmr_lambda

    def candidates(self, question: str, fragments: list[Fragment], lang: str) -> list[_Candidate]:
        out: list[_Candidate] = []
        # "thông báo tổn thất", not the "thời hạn" all time limits share; in the question's words, and in the
        # provisions' ("leave my house empty" is "unoccupied" in a policy)
        asked = _Asked.of(without_frame(question), lang)
        cover = _cover_says(question, lang)
        for fi, f in enumerate(fragments):
            if f.evidence.supporting:
                continue
            text, base = f.text, f.evidence.char_start
            first_line_end = text.find("\n")
            prior = 1.0 / (1 + fi * 0.15) * (1.15 if f.evidence.pinned else 1.0)
            tainted = tainted_lines(text)
            spans = sentence_spans(text)
            for si, (s, e) in enumerate(spans):
                cut = min((a for a, b in tainted if s < b and a < e), default=None)
                if cut is not None:  # keep what comes before a tainted line, never the line itself
                    e = len(text[s:cut].rstrip()) + s
                    if e <= s:
                        continue
                if s == 0:  # a document's title block runs into its first sentence
                    s = _past_heading_lines(text, s, e)
                sent = text[s:e]
                if (s == 0 and 0 <= first_line_end <= e and len(sent) < 160 and "\n" not in sent) or _heading(sent):
                    continue  # a heading line ("Điều 9. Thông báo tổn thất", "Personal data breaches and fines")
                if len(_WORD.findall(sent)) < 4 or set(sent) <= set("|- "):
                    continue
                if addresses_the_assistant(sent):
                    continue
                lead = ""
                if _LIST_LEAD.search(sent.rstrip()):
                    lead = sent
                    e = list_end(text, e)
                    sent = text[s:e].rstrip()
                    e = s + len(sent)
                own = asked.covered(sent)
                if not own and not lead:
                    continue  # says nothing of the question but under its heading ("a) Giấy yêu cầu bồi thường;")
                rel = asked.covered(f"{f.evidence.chunk.header} {sent}") * 0.4 + own * 0.6
                says = 0.0
                if lead and e > s + len(lead):
                    # a list counts as much as its lead-in says of the question: "if you must cancel your trip
                    # because of:" is quoted whole, "the following definitions apply:" leaves its items to speak
                    says = asked.covered(lead)
                    if cover and _STATES_COVER.search(fold(lead.lower())):
                        says = max(says, cover)
                    rel = (rel + says) / 2
                before = _referent(text, spans, si, tainted) if refers_back(sent) else None
                if before is not None:
                    s, sent = before, text[before:e]
                cand = _Candidate(f, base + s, base + e, sent, rel * prior, (fi, si), says, leans=before is not None)
                out.append(cand)
        return _defining(question, lang, _focused(question, out, self.min_relevance))

    def generate(
        self,
        question: str,
        fragments: list[Fragment],
        lang: str,
        strict: bool = False,
        on_sentence: SentenceSink | None = None,
    ) -> Draft:
        cands = self.candidates(question, fragments, lang)
        # the floor follows word overlap: the judge's sentence ranks first, it does not push the others out
        top = max((c.relevance / FOCUS if c.focused else c.relevance for c in cands), default=0.0)
        floor = max(self.min_relevance, self.relative * top)
        # rivals of the direct answer's figure: a schedule row restating a rule shares few of its words
        pool = sorted((c for c in cands if c.relevance >= RIVALS * top), key=lambda c: -c.relevance)
        everything = cands
        cands = [c for c in cands if c.relevance >= floor]
        chosen: list[_Candidate] = []
        # a sentence quoted with the one it refers back to counts as the two sentences it is
        while cands and sum(2 if c.leans else 1 for c in chosen) < self.max_sentences:
            best = max(
                cands,
                key=lambda c: (
                    self.mmr_lambda * c.relevance
                    - (1 - self.mmr_lambda)
                    * max((word_jaccard(c.text, x.text) for x in _others(c, chosen)), default=0.0)
                ),
            )
            cands.remove(best)
            others = _others(best, chosen)
            if any(word_jaccard(best.text, x.text) > 0.8 and _figures(best.text) == _figures(x.text) for x in others):
                continue  # a repeat; the same sentence with other figures is kept (the sources conflict)
            if any(_within(best, x) or _within(x, best) for x in others):
                continue  # a list and one of its items: the first chosen says it
            chosen = [*others, best]  # the sentence ``best`` refers back to, chosen alone first, is quoted in it
        if not chosen:
            return Draft([], self.name, refused=True)
        stated = next((c for c in chosen if c.focused and c.fragment.stated), None) or _defining_one(
            question, lang, everything
        )
        chosen = _with_their_lists(chosen, everything) if stated is None else _stated_first(stated, chosen, everything)
        options = None if stated is not None else chosen_option(question, fragments, lang)
        table = None if options or stated is not None else self.table_answer(question, fragments, lang)
        if stated is not None:
            direct = []  # the provision to be stated is the answer, quoted: no figure or party of it is singled out
        elif options:
            direct = options
        elif table is not None:
            direct = [table[0]]
            # the table's header and row stand for the whole table: quoting it too would repeat the row
            chosen = [c for c in chosen if not any(_within(q, c) for q in table[1])]
            taken = {(c.start, c.end) for c in chosen}
            chosen.extend(c for c in table[1] if (c.start, c.end) not in taken)
        else:
            direct = self.direct_answer(question, chosen, lang, pool, everything)
        for sentence in direct:  # the sentence a stated figure comes from is quoted too (each of two in conflict)
            if sentence.quote_span is None:
                continue
            at, ref = sentence.quote_span[0], sentence.markers[0]
            if not any(_holds(c, ref, at) for c in chosen):
                # the shortest ranked sentence holding it; a clause of the case the question states (``_of_its_case``)
                # may rank too low to be one
                holder = _shortest_holding(pool, ref, at) or _shortest_holding(everything, ref, at)
                if holder is not None:
                    chosen.append(holder)
        # grouped by provision, in reading order; with no direct statement, the judge's answering sentence opens
        # the answer ("The most we will pay for any single item ... is USD 500" before "We will pay up to USD 2,500
        # for your baggage ..." for the most paid for a single item), after those read from the question (``_opening``)
        chosen = _opening(question, lang, chosen, direct != [])
        chosen = _under_their_headings(chosen)
        sentences = [
            DraftSentence(" ".join(c.text.split()), [c.fragment.ref], quote_span=(c.start, c.end)) for c in chosen
        ]
        draft = Draft([*direct, *sentences], self.name)
        if on_sentence is not None:
            for sentence in draft.sentences:
                on_sentence(sentence)  # all at once: there is nothing to wait for
        return draft

    def table_answer(
        self, question: str, fragments: list[Fragment], lang: str
    ) -> tuple[DraftSentence, list[_Candidate]] | None:
        """The cell of a table in the fragments (best ranked first) that the question names by row and column: a
        direct answer cited to its row, and the header and the row as quotes. Every fragment ranked near the best
        (``TABLE_SCORE``) is looked at, not only those of the sentences chosen by word overlap: a row read alone shares
        few words with the question."""
        kinds = _kinds(question)
        top = max((f.evidence.score for f in fragments if not f.evidence.supporting), default=0.0)
        for fi, f in enumerate(fragments):
            if f.evidence.supporting or f.evidence.score < TABLE_SCORE * top:
                continue
            cell = find_cell(question, f.text, kinds, min_row_words(lang), lang)
            if cell is None:
                continue
            row = _quote(f, fi, cell.row_span)
            text = table_statement(one_line(cell.row_label), one_line(cell.column), one_line(cell.value))
            return DraftSentence(text, [f.ref], quote_span=(row.start, row.end)), [_quote(f, fi, cell.header_span), row]
        return None

    def direct_answer(
        self,
        question: str,
        chosen: list[_Candidate],
        lang: str,
        pool: list[_Candidate] | None = None,
        everything: list[_Candidate] | None = None,
    ) -> list[DraftSentence]:
        """A short statement of the duration, amount, figure, date or party that the most relevant chosen sentence
        holding one states, cited to the exact span it was taken from; the frame a clause of its article sets for the
        case the question states, when there is one among ``everything`` (``_of_its_case``). When two chosen sentences
        say the same thing with different figures, both figures are stated, each cited, and the conflict is named."""
        kinds = _direct_kinds(question)  # read once: every chosen sentence and rival is looked at for them
        found = [v for v in (self._value(question, c, kinds) for c in chosen) if v is not None]
        qtype = question_type(question)
        if not found and qtype in VALUE_TYPES:
            found = self._left_aside(question, chosen, everything or [], kinds)
        yes_no = qtype == "yes_no"
        if yes_no:
            # the figure of the judge's answering sentence, else of the provision quoted first, as the answer reads:
            # "Mức khấu trừ cho tổn thất do lũ lụt là 2 triệu đồng mỗi vụ phải không?" is answered by the flood
            # clause's 10 %, not by the general 2.000.000 đồng quoted above it (which says "trừ trường hợp ... khoản 2")
            found.sort(key=lambda v: (not v[2].focused, v[2].order))
            found = [v for v in found if _of_the_case(question, v)]
        if not found:
            return []
        if not yes_no:
            # a figure measuring the event the question counts from ("Nộp đủ giấy tờ rồi thì bao lâu …": the time
            # allowed to hand the papers in) after those measuring what it asks (the time to be paid)
            event = of_the_event(question, [(c.text, at - c.start) for _, _, c, at in found])
            found = [v for v, _ in sorted(zip(found, event, strict=True), key=lambda x: x[1])]
            found[0] = self._of_its_case(question, found[0], everything or [], kinds)
        kind, value, best, start = found[0]
        rivals = [v for v in (self._value(question, c, kinds) for c in (pool or []) if c is not best) if v is not None]
        for other_kind, other, cand, other_start in [*found[1:], *rivals]:
            if (
                other_kind == kind
                and other != value
                and same_statement(question, lang, _stated(best, value), _stated(cand, other))
            ):
                two_docs = best.fragment.evidence.chunk.doc_id != cand.fragment.evidence.chunk.doc_id
                pair = (CONFLICT_DOCS if two_docs else CONFLICT)[lang if lang in CONFLICT else "en"]
                first, second = (t.format(" ".join(v.split())) for t, v in zip(pair, (value, other), strict=True))
                return [
                    DraftSentence(first, [best.fragment.ref], quote_span=(start, start + len(value))),
                    DraftSentence(second, [cand.fragment.ref], quote_span=(other_start, other_start + len(other))),
                ]
        templates = DIRECT["stated" if yes_no else "percent" if kind == "amount" and _percent(value) else kind]
        template = templates.get(lang, templates["en"])
        stated = " ".join(value.split())
        label = option_stating(question, stated)
        if label is not None:
            stated += OPTION.get(lang, OPTION["en"]).format(label)
        text = template.format(_in_sentence(stated) if kind == "party" else stated)
        if kind == "duration" and not yes_no and word_limit(stated):
            text = f"{stated[0].upper()}{stated[1:]}."  # "Immediately.", not "The period is immediately."
        return [DraftSentence(text, [best.fragment.ref], quote_span=(start, start + len(value)))]

    def _left_aside(
        self, question: str, chosen: list[_Candidate], everything: list[_Candidate], kinds: list[str]
    ) -> list[tuple[str, str, _Candidate, int]]:
        """The value asked for, of the most relevant sentence holding one that ranks as high as a quoted sentence but
        was left out for being like one quoted ("1. Người sử dụng lao động sử dụng từ 10 người lao động trở lên phải
        đăng ký nội quy lao động …" beside the judge's "2. Trong thời hạn 10 ngày …", asked "… khi có bao nhiêu lao
        động?"): none when no quoted sentence holds it and no such sentence does either."""
        least = min((c.relevance / FOCUS if c.focused else c.relevance for c in chosen), default=0.0)
        quoted = {(c.fragment.ref, c.start, c.end) for c in chosen}
        aside = [c for c in everything if (c.fragment.ref, c.start, c.end) not in quoted and c.relevance >= least]
        for c in sorted(aside, key=lambda c: -c.relevance):
            value = self._value(question, c, kinds)
            if value is not None:
                return [value]
        return []

    def _of_its_case(
        self, question: str, found: tuple[str, str, _Candidate, int], everything: list[_Candidate], kinds: list[str]
    ) -> tuple[str, str, _Candidate, int]:
        """``found`` (a figure, as ``_value`` gives it), or the figure of the same kind that a clause of its article
        sets for the case the question states (``cases.case_clause``: "Người trồng cây cần sa có tổ chức thì bị phạt
        tù từ bao lâu đến bao lâu?" is answered by clause 2's "từ 03 năm đến 07 năm", not clause 1's frame)."""
        best = found[2]
        clauses = [
            c
            for c in everything
            if c.fragment is best.fragment and is_case_clause(c.text) and not (_within(c, best) or _within(best, c))
        ]
        header, listed = best.fragment.evidence.chunk.header, _with_list(best)
        at = case_clause(question, f"{header} {listed}", [_with_list(c) for c in clauses])
        if at is None and asks_heaviest(question, listed, header):
            return self._heaviest(question, found, clauses, kinds)
        other = None if at is None else self._value(question, clauses[at], kinds)
        if other is None or other[0] != found[0] or _penalty(best.text, found[1]) != _penalty(other[2].text, other[1]):
            return found
        return other

    def _heaviest(
        self, question: str, found: tuple[str, str, _Candidate, int], clauses: list[_Candidate], kinds: list[str]
    ) -> tuple[str, str, _Candidate, int]:
        """Of ``found`` and the figures of the same kind and penalty that ``clauses`` (its article's clauses for cases
        of the offence) set, the one with the longest term: a question asking for the most an offence can bring and
        stating no case ("Chiếm đoạt di vật của tử sĩ có thể bị phạt tù lên đến bao nhiêu năm?") is answered by the
        heaviest frame (clause 2's "từ 02 năm đến 07 năm"), not by clause 1's."""
        heaviest, most = found, upper_bound(found[1])
        if most is None:
            return found
        for clause in clauses:
            other = self._value(question, clause, kinds)
            if (
                other is None
                or other[0] != found[0]
                or _penalty(found[2].text, found[1]) != _penalty(clause.text, other[1])
            ):
                continue
            bound = upper_bound(other[1])
            if bound is not None and bound > most:
                heaviest, most = other, bound
        return heaviest

    def _value(self, question: str, cand: _Candidate, kinds: list[str]) -> tuple[str, str, _Candidate, int] | None:
        """(answer type, value, sentence, start of the value in Document.text) of the first answer of one of
        ``kinds`` (``_direct_kinds`` of the question) that ``cand`` holds, in the unit the question names first; not a
        figure counted per something other than the question asks for (``rates``: "mỗi chuyến đi" for "mỗi ngày"), nor a
        change of the thing asked ("giảm 15% phí bảo hiểm" for the premium)."""
        about = without_asking(question) if kinds and kinds[0] in CONTACT_TYPES else question
        if not _on_topic(about, f"{cand.fragment.evidence.chunk.header} {cand.text}"):
            return None
        if SEP in cand.text:  # a table's row: its value is stated by its row and column (``table_answer``)
            return None
        if case_not_put(question, cand.text):
            return None
        for kind in kinds:
            found = [
                sp
                for sp in answer_spans(kind, cand.text)
                if _answer_like(kind, cand.text, sp)
                and not _given(question, cand.text[sp[0] : sp[1]])
                and not other_rate(question, cand.text, sp)
                and not _a_change(question, cand.text, sp)
                and not case_not_put(question, cand.text, sp[0])
                and not others_case(question, cand.text, sp[0])
                and counts_the_asked(question, cand.text, sp)
                and not uncounted(question, cand.text[sp[0] : sp[1]])
            ]
            if kind == "party" and not cand.text.isascii() and not _asks_duty(question):
                found = []  # "Ai là người quản lý di sản khi …?" asks who holds a role, not who bears a duty
            if kind == "party" and not found:  # "Who proved …?" of "… Robert Boyle proved …"
                found = agent_spans(question, cand.text)
            if kind == "number" and not found:  # "… chỉ bị áp dụng một hình phạt chính …"
                found = [sp for sp in spelled_numbers(cand.text) if counts_the_asked(question, cand.text, sp)]
            if kind in ("party", "date"):  # a party or date the question names is not the one it asks for
                found = [sp for sp in found if not content_words(cand.text[sp[0] : sp[1]]) <= content_words(question)]
            spans = sorted(found, key=lambda sp: _rank(question, cand.text, sp))
            if spans:
                a, b = spans[0]
                if kind == "number":
                    b = (
                        counted(question, cand.text, b)
                        if cand.text[a].isdigit()
                        else counted_as_asked(question, cand.text, b)
                    )
                    begins = ordinal(question, cand.text, a)  # "tháng thứ 07", as the question asks it
                    a = a if begins is None else begins
                if kind in ("amount", "duration"):  # "10%/năm", "12 ngày mỗi năm": the figure with its rate
                    b = rate_end(cand.text, b)
                value = cand.text[a:b].strip()
                return kind, value, cand, cand.start + cand.text.index(value, a)
        return None
