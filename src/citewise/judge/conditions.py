"""A case the question states, read against the condition of the provision that answers it.

"My flight was delayed 8 hours, how much will I get?" of a policy that pays "if the departure … is delayed by at least
12 hours" is not answered by that provision: the asker's delay does not meet its condition, and stating "USD 40"
would be wrong. The figures of the asker's case are not premises the sources must state (``judge.premise``: a rule
answers a case it does not name), but when the answering sentence sets a bound on the same quantity — "at least 12
hours", "từ 06 giờ trở lên", "within 30 days", "aged 18 to 70" — the case is put to it. A bound counts only when the
words next to it share a content word with the words around the case's figure ("delayed 8 hours" / "flight is delayed
by at least 12 hours"), so a stay in hospital is not read against a notice period. Caps on what is paid ("up to USD
400", "tối đa 5.000.000 đồng") are limits of the benefit, not conditions of the case, and are not read.

A case that meets the bound of an exclusion ("leave my house empty for three months" / "If the home is unoccupied for
more than 60 consecutive days, we will not pay for …") is read the other way round (``met_exclusions``): the exclusion
states what becomes of it. An exclusion's bound is no condition a case must meet.

The same reading checks a sentence against its source (``swapped_bounds``): "less than 12 hours" of a source saying
"at least 12 hours" keeps the figure and states the opposite condition.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from citewise.figures import canon_number, with_digits
from citewise.judge.premise import RATE_UNITS, case_clauses, confirming
from citewise.judge.records import Excluded, Unmet
from citewise.judge.units import BEFORE_FIGURE, DAYS, currency_before, unit_occurrences
from citewise.lang import fold, nfc
from citewise.retrieve.wording import reworded
from citewise.textmatch import query_terms, short_keys

_LOWER = (
    r"at least|not less than|no less than|a minimum of|minimum of|tu|it nhat|toi thieu|khong duoi|khong it hon"
    r"|khong ngan hon|khong nho hon|khong thap hon"
)
_UPPER = (
    r"within|not more than|no more than|not exceeding|no later than|not later than|trong vong|trong thoi han"
    r"|khong (?:duoc )?(?:vuot )?qua|khong (?:dai|lau|nhieu|lon|cao) hon|cham nhat"
)
_BELOW = r"less than|under|fewer than|shorter than|below|duoi|chua du|chua duoc|chua den|(?:it|nho|thap|ngan) hon"
_ABOVE = (
    r"more than|over|exceeding|in excess of|longer than|greater than|above|tren|(?:vuot )?qua"
    r"|(?:lau|nhieu|dai|lon|cao) hon"
)
_CURRENCY = rf"(?:(?:{BEFORE_FIGURE})\s*)?"
_BEFORE: list[tuple[str, re.Pattern[str]]] = [
    (op, re.compile(rf"(?:^|\W)(?P<word>{words})\s+(?:(?:la|is|be)\s+)?{_CURRENCY}$"))
    for op, words in ((">=", _LOWER), ("<=", _UPPER), ("<", _BELOW), (">", _ABOVE))
]
"""Words right before a figure that make it a bound (folded lower-case text; "là" / "is" or a currency may stand
between: "tối thiểu là 01 năm"), tried in this order: a negated bound before the bound it negates ("not more than",
"không được quá", "không ngắn hơn")."""
_AFTER: list[tuple[str, re.Pattern[str]]] = [
    (">=", re.compile(r"\s*(?:or (?:more|longer|over|above)|tro len)\b")),
    ("<=", re.compile(r"\s*(?:or (?:less|fewer|shorter|under|below)|tro xuong)\b")),
]
"""Words right after a figure's unit that make it a bound ("12 hours or more", "06 giờ trở lên")."""
_NUM = r"(\d{1,3}(?:[.,]\d{3})+|\d+(?:[.,]\d+)?)"
_RANGE = re.compile(
    rf"(?:^|(?<=\W))(?:from|between|tu(?: du)?|aged?)\s+{_NUM}"
    rf"(?:\s*[^\W\d_]+){{0,2}}?\s*(?:to|and|den|toi|-|–)\s*{_NUM}"
)
"""A range: "from 18 to 70 years", "between 18 and 70", "từ 18 đến 70 tuổi", "aged 18-70" (the unit is the second
figure's)."""
_ASKED_BOUND = re.compile(
    rf"(?:^|\W)(?:{_LOWER}|{_ABOVE}|{_UPPER}|{_BELOW}|up to|to|toi da|equal to|exactly)\s+{_CURRENCY}$"
)
"""A figure of the question with a bound of its own ("more than 6 hours", "nhỏ hơn hoặc bằng mười lần") is a bound asked
about, not a case; so are those of a range ("phạt tù từ 05 năm đến 12 năm")."""
_ASKED_MARKED = re.compile(rf"(?:^|\W)(?:đến|tới|bằng)\s+{_CURRENCY}$")
"""Vietnamese words of a bound asked about read with their marks ("tới", not the "tôi" of "Bố tôi 72 tuổi")."""
_COMPOUND_BEFORE = re.compile(r"\d\s*(?:nam|thang|years?|months?|weeks?|tuan|days?|ngay)\s*$")
"""A figure after another and its unit is a compound duration's ("3 năm 7 tháng")."""
_MULTIPLES = frozenset({"times", "%"})
"""Units that multiply something else ("10 lần mức lương cơ sở"): not a quantity of the case."""
_SCALE = {"trieu": 1e6, "ty": 1e9, "nghin": 1e3, "ngan": 1e3, "million": 1e6, "thousand": 1e3, "billion": 1e9}
_SCALE_AFTER = re.compile(r"\s*(trieu|ty|nghin|ngan|million|thousand|billion)\b")
_CLAUSE_END = re.compile(r"[,;:()]|(?<!\d)\.(?!\d)|\b(?:if|where|unless|neu|thi|tru khi)\b")
_GENERIC = frozenset(
    {"bao", "hiem", "nguoi", "cong", "ty", "hop", "dong", "bi", "tro", "len", "xuong", "tu", "tren", "duoi", "vong"}
    | {"han", "nhat", "toi", "thieu", "qua", "insu", "poli", "comp", "leas", "more", "less", "with", "over", "unde"}
)
"""Words every clause of a policy shares, and the words of bounds (Vietnamese syllables whole, English words cut to
four letters): they do not tie a case to a bound."""
_AGE = "years of age"
"""A bound on age is about a person, as is an age the question states: they meet without a shared word when the question
states one age only."""
_AGE_AFTER = re.compile(r"[\s-]*(?:thang|months?|years?)[\s-]+(?:tuoi|old)\b")
"""An age in months or years: "06 tháng tuổi", "5-month-old", "80-year-old" (read in years)."""
_AGED = re.compile(r"\b(?:aged?|ages)\s+(?:(?:between|from)\s+)?(?:\d+\s*(?:to|and|-|–)\s*)?$")
"""A bare figure that is an age: "aged 79 or under", "ages 18 to 70"."""
_PERSON = (
    r"(?:i|he|she|(?:my|our|his|her|their) (?:\w+ )?"
    r"(?:(?:grand|step)?(?:mother|father|mum|mom|dad|son|daughter|parent|child)"
    r"|wife|husband|partner|brother|sister|friend|kid|baby|uncle|aunt|cousin|nephew|niece|grandma|grandpa|granny))"
)
_SAYS_AGE = re.compile(
    rf"\b{_PERSON}\s+(?:is|am|was|has just turned|just turned|turned|turns|will be)\s+(?:now\s+|nearly\s+|almost\s+)?$"
    rf"|\b{_PERSON}(?:, who is|,? aged?)\s+$|\b{_PERSON}['’](?:s|m)\s+$"
)
"""A bare figure of an English question that a person's age is ("My grandmother is 82, can she be covered?", "I'm 80",
"my son, who is 17, …"): closing its clause (``_AGE_END``), at most 120. Only the question's: "The excess is 250." is
no age."""
_AGE_END = re.compile(r"(?:\s*[,;.?!)]|\s*$|\s+(?:and|but|so|now|next|last|this|in|on)\b)")
_ORDINAL = re.compile(
    r"(?:^|(?<=\W))(?P<op>after|beyond|before|from|sau|truoc|tu)\s+(?:the\s+)?"
    r"(?:(?P<n1>\d+)(?:st|nd|rd|th)\s+(?P<u1>week|month|day)|(?P<u2>tuan|thang|ngay)\s+thu\s+(?P<n2>\d+))\b"
)
"""A bound on an ordinal: "after the 32nd week (of pregnancy)", "from the 61st day", "trước tuần thứ 28" (folded lower
case); read as a bound on the count of its unit ("after the 32nd week": more than 32 weeks)."""
_ORDINAL_UNIT = {"week": "weeks", "tuan": "weeks", "month": "months", "thang": "months", "day": "days", "ngay": "days"}
_ORDINAL_OP = {"after": ">", "beyond": ">", "sau": ">", "before": "<", "truoc": "<", "from": ">=", "tu": ">="}
_QUESTION_WINDOW = (5, 3)
"""Words before and after a case's figure that say what it measures ("flight was delayed 8 hours")."""


@dataclass(frozen=True)
class Bound:
    """A condition a sentence sets on a quantity: ``low``/``high`` in ``unit`` (strict when ``open_low``/``open_high``),
    written ``text``; ``keys``: the content words next to it, which say what it bounds."""

    unit: str
    low: float | None
    high: float | None
    open_low: bool
    open_high: bool
    text: str
    keys: frozenset[str]

    def holds(self, value: float) -> bool:
        if self.low is not None and (value < self.low or (self.open_low and value == self.low)):
            return False
        return not (self.high is not None and (value > self.high or (self.open_high and value == self.high)))


@dataclass(frozen=True)
class _Figure:
    value: float
    unit: str
    start: int
    end: int
    written: int
    """Where its words start (a currency before it, or the "aged" that makes a bare figure an age, included)."""


def _figures(text: str, low: str, ages: bool = False) -> list[_Figure]:
    """The figures of ``text`` (``low``: its folded lower-case form) that carry a unit, with their values (a scale
    word after one multiplies it: "100 triệu đồng") and their spans, the unit word included; with ``ages`` (a
    question), a bare figure a person's age is too."""
    out = []
    for m, unit in unit_occurrences(text):
        a, b = m.span(1)
        aged = None if unit else _AGED.search(low[max(0, a - 20) : a])
        if aged is None and not unit and ages and _AGE_END.match(low, b) and float(canon_number(m.group(1))) <= 120:
            aged = _SAYS_AGE.search(low[max(0, a - 60) : a])
            aged = re.search(r"\S*$", aged.group(0)) if aged else None  # the figure's words: "82", not "is 82"
        bare = aged is not None
        unit = _AGE if aged is not None else unit
        if not unit or unit in _MULTIPLES:
            continue
        value = float(canon_number(m.group(1)))
        end = b
        scale = _SCALE_AFTER.match(low, b)
        if scale:
            value *= _SCALE[scale.group(1)]
            end = scale.end()
        currency = currency_before(low[max(0, a - 5) : a])
        age = _AGE_AFTER.match(low, end) if unit in ("months", "years") else None
        unit_word = age or re.match(r"[\s-]*[^\W\d_]+(?:/[^\W\d_]+)?(?:\s+(?:dong|days?))?", low[end:])
        if age is not None:
            value, unit = (value / 12 if unit == "months" else value), _AGE
        if unit == "cm":  # a depth or a distance, read in metres ("từ 20 cm trở lên", "within 50 metres")
            value, unit = value / 100, "metres"
        if unit_word and not currency and not bare:
            end += unit_word.end() if age is None else unit_word.end() - end
        written = a - len(currency.group(0)) if currency else a - len(aged.group(0)) if aged is not None else a
        out.append(_Figure(value, unit, a, end, written))
    return out


def _bound_keys(low: str, at: int, vi: bool, marked: str) -> frozenset[str]:
    """The content words of ``low`` near offset ``at`` (a bound's figure), read in ``marked`` (the same text with its
    marks, one character per character): up to ``_BOUND_WINDOW`` words before and after it, inside its clause. What a
    bound measures is said next to it ("checked baggage is delayed by more than 12 hours"); the clause's other words
    may be about something else ("Loss of … baggage … must be reported to the carrier within 24 hours" bounds the
    report, not the baggage's delay)."""
    starts = [m.end() for m in _CLAUSE_END.finditer(low, 0, at)]
    start = starts[-1] if starts else 0
    end_m = _CLAUSE_END.search(low, at)
    end = end_m.start() if end_m else len(low)
    before = marked[start:at].split()[-_BOUND_WINDOW[0] :]
    after = marked[at:end].split()[: _BOUND_WINDOW[1]]
    return _keys(" ".join(before + after), vi)


_BOUND_WINDOW = (8, 3)
"""Words before and after a bound's figure that say what it bounds."""


def _keys(text: str, vi: bool) -> frozenset[str]:
    """The content words of ``text`` that can tie a case to a bound: English ones cut to four letters ("notified" /
    "notify"), Vietnamese syllables whole and with their marks ("mới" is not "mỗi"; ``_tie``)."""
    if vi:
        return frozenset(w for w in query_terms(text, marks=True)[0] if fold(w) not in _GENERIC)
    return frozenset(short_keys(text) - _GENERIC)


def _tie(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two sets of ``_keys`` share a word: with its marks, or without when one side is typed without them (a
    question "nha toi bi trom" is read against "nhà ở")."""
    if a & b:
        return True
    bare_a, bare_b = {w for w in a if w.isascii()}, {w for w in b if w.isascii()}
    return bool(bare_a & {fold(w) for w in b}) or bool(bare_b & {fold(w) for w in a})


def bounds(sentence: str) -> list[Bound]:
    """The conditions ``sentence`` sets on quantities with units: a figure after "at least", "more than", "within",
    "từ … trở lên", "dưới" …, or a range ("from 18 to 70 years", "từ 18 đến 70 tuổi")."""
    text = with_digits(nfc(sentence))
    low = fold(text).lower()
    vi = low != text.lower()  # marks: Vietnamese
    marked = _aligned(text, low)
    figures = _figures(text, low)
    out: list[Bound] = []
    taken: list[tuple[int, int]] = []
    for m in _RANGE.finditer(low):
        last = next((f for f in figures if f.start == m.start(2)), None)
        if last is None:
            continue
        unit = _AGE if last.unit == "years" and m.group(0).lstrip(" (").startswith("age") else last.unit
        head = next((f for f in figures if f.start == m.start(1)), None)
        if head is None:  # "from 18 to 70 years": the unit (and scale) of the second
            first: float | None = float(canon_number(m.group(1))) * last.value / float(canon_number(m.group(2)))
        else:  # "từ đủ 06 tháng tuổi đến 80 tuổi" reads both in years; other units bound nothing here
            first = head.value if head.unit == unit else None
        taken.append((m.start(), last.end))
        keys = _bound_keys(low, m.start(1), vi, marked)
        out.append(Bound(unit, first, last.value, False, False, text[m.start() : last.end].strip(" ,"), keys))
    for f in figures:
        if any(a <= f.start < b for a, b in taken):
            continue
        before = low[max(0, f.start - 30) : f.start]
        op, at = "", f.start
        for name, rx in _BEFORE:
            word = rx.search(before)
            if word:
                op, at = name, f.start - len(before) + word.start("word")
                break
        after = next(((name, tail) for name, rx in _AFTER if (tail := rx.match(low, f.end))), None)
        end = f.end
        if after is not None:
            op = after[0] if op in ("", ">=", "<=") else op
            end = after[1].end()
        if not op:
            continue
        low_v = f.value if op in (">=", ">") else None
        high_v = f.value if op in ("<=", "<") else None
        keys = _bound_keys(low, f.start, vi, marked)
        at = min(at, f.written)
        out.append(Bound(f.unit, low_v, high_v, op == ">", op == "<", text[at:end].strip(" ,"), keys))
    for m in _ORDINAL.finditer(low):
        op, figure = _ORDINAL_OP[m.group("op")], "n1" if m.group("n1") else "n2"
        value, unit = float(m.group(figure)), _ORDINAL_UNIT[m.group("u1") or m.group("u2")]
        keys = _bound_keys(low, m.start(figure), vi, marked)
        low_v, high_v = (value, None) if op in (">", ">=") else (None, value)
        out.append(Bound(unit, low_v, high_v, op == ">", op == "<", text[m.start("op") : m.end()], keys))
    return out


def case_figures(question: str) -> list[tuple[float, str, str, frozenset[str]]]:
    """The figures with units of ``question`` that state the asker's case: (value, unit, as written, the content words
    around it), read in the clauses that tell it (a person speaking of themselves, a condition: "My flight was
    delayed 8 hours", "nếu … 60 ngày"); the figures of its other clauses are premises (``judge.premise``), which the
    sources must state. None when the question asks to confirm what it states ("Doanh nghiệp có 10 ngày … sau khi tôi
    rút lại đồng ý phải không?": its figures are put to the test). Left out: figures with a bound of their own ("more
    than 6 hours", "up to USD 500"), those of a range, and a compound duration ("3 năm 7 tháng"). A clause that "thì"
    closes and that asks nothing tells the case too ("Máy bay bị hoãn 3 tiếng thì …")."""
    text = with_digits(nfc(question))
    low = fold(text).lower()
    vi = low != text.lower()
    spans = [] if confirming(text) else case_clauses(text, then=True)
    if not spans:
        return []
    figures = _figures(text, low, ages=not vi)
    ranges = [m.span() for m in _RANGE.finditer(low)]
    marked = _aligned(text, low)
    out = []
    for f in figures:
        compound = _COMPOUND_BEFORE.search(low[max(0, f.start - 16) : f.start]) or re.match(r"\s*\d", low[f.end :])
        rate = f.value == 1 and f.unit in RATE_UNITS  # "bao nhiêu một tháng" asks for a rate
        if compound or rate or not any(a <= f.start < b for a, b in spans) or any(a <= f.start < b for a, b in ranges):
            continue
        if (
            _ASKED_BOUND.search(low[max(0, f.start - 30) : f.start])
            or _ASKED_MARKED.search(marked[max(0, f.start - 30) : f.start])
        ) or any(rx.match(low, f.end) for _, rx in _AFTER):
            continue
        before = marked[: f.start].split()[-_QUESTION_WINDOW[0] :]
        after = marked[f.end :].split()[: _QUESTION_WINDOW[1]]
        words = re.split(r"[,;:?.!]", " ".join(before))[-1] + " " + re.split(r"[,;:?.!]", " ".join(after))[0]
        keys = _keys(words, vi)
        out.append((f.value, f.unit, text[f.written : f.end].strip(), keys))
    return out


def _aligned(text: str, low: str) -> str:
    """``text`` in lower case with its marks, one character per character of ``low`` (its folded lower-case form), so
    that spans found in one cut the other; ``low`` itself in the rare case lower-casing changes the length."""
    marked = text.lower()
    return marked if len(marked) == len(low) else low


def measures_the_case(question: str, sentence: str, span: tuple[int, int]) -> bool:
    """Whether the figure of ``sentence`` inside ``span`` (offsets in it) measures what a case ``question`` states
    does: its unit (any unit of time for one of time) and a content word next to it shared with the words around the
    case's figure, as for a bound (``unmet_conditions``). True when the question states no case. "Nhà tôi bị trộm, 3
    ngày sau mới phát hiện thì có được bồi thường không?" is not measured by the "06 tháng" of the rent paid while a
    home is repaired; "Nhà bỏ trống 3 tháng …" is by the "60 ngày" of "nhà ở bị bỏ trống liên tục trên 60 ngày"."""
    cases = case_figures(question)
    if not cases:
        return True
    text = nfc(sentence)
    low = fold(text).lower()
    figure = next((f for f in _figures(text, low) if f.start < span[1] and span[0] < f.end), None)
    if figure is None:
        return False
    keys = _bound_keys(low, figure.start, low != text.lower(), _aligned(text, low))
    return any(
        (unit == figure.unit or {unit, figure.unit} <= DAYS.keys()) and _tie(case, keys) for _, unit, _, case in cases
    )


Where = tuple[int, int, int]
"""A sentence's place: (evidence index, start, end)."""


def unmet_conditions(
    question: str, sentences: Sequence[tuple[str, Where | None]], elsewhere: Iterable[tuple[str, Where | None]] = ()
) -> list[Unmet]:
    """The figures of the asker's case in ``question`` that every bound ``sentences`` (the answering sentence, with its
    place) set on the same quantity excludes: same unit, a content word shared between the case's words and the words
    next to the bound. A case those sentences set no such bound on is read against the bounds of ``elsewhere`` (the other
    sentences of the evidence: the clause behind a benefit table's row)."""
    cases = case_figures(question)
    if not cases:
        return []
    near = [(b, where) for text, where in sentences for b in bounds(text)]
    far: list[tuple[Bound, Where | None]] | None = None
    ages = sum(unit == _AGE for _, unit, _, _ in cases)
    out: list[Unmet] = []
    for value, unit, written, keys in cases:
        these = _related(near, unit, keys, ages == 1)
        if not these:
            far = far if far is not None else [(b, where) for text, where in elsewhere for b in bounds(text)]
            these = _related(far, unit, keys, ages == 1)
        if these and not any(b.holds(value) for b, _ in these):
            out.append(Unmet(written, these[0][0].text, these[0][1]))
    return out


def _related(
    found: list[tuple[Bound, Where | None]], unit: str, keys: frozenset[str], one_age: bool
) -> list[tuple[Bound, Where | None]]:
    """The bounds of ``found`` on a case's quantity: its unit, a word next to it shared with the case's (an age needs
    none when the question states one age only). Another unit of time is not read against it: measured, "5 năm" read
    against "trong thời hạn 5 ngày" (both a "thời hạn") lost an answerable legal near-miss."""
    return [(b, w) for b, w in found if b.unit == unit and (_tie(keys, b.keys) or (unit == _AGE and one_age))]


_EXCLUDING = re.compile(
    r"\bexclu|\b(?:we|insurer|company) (?:will|shall|do|does) not (?:pay|cover|be liable)"
    r"|\bnot (?:be )?(?:covered|insured)\b|\bno (?:cover|benefit) (?:is|will be) (?:paid|provided)"
    r"|loai tru|khong (?:chiu trach nhiem )?(?:boi thuong|chi tra)|khong (?:duoc|thuoc pham vi) bao hiem"
)
"""Words of an exclusion ("we will not pay", "Loại trừ bảo hiểm", "không chịu trách nhiệm bồi thường"), on folded
lower-case text: in the sentence, its list's lead-in or its provision's heading."""
_EXCEPT = re.compile(r"\b(?:except|other than|unless|trừ(?: trường hợp| khi)?)\b")
"""Where an exclusion's own exceptions start ("…, trừ tổn thất do cháy, sét đánh, nổ"), on lower-case text with its
marks (folded, "trừ" would also be the "trú" of "cư trú")."""
_CONVERTED_MARGIN = 0.1
"""A case converted to the bound's unit meets it only this far (relative) past its figure: "2 months" is no clear case
of "more than 60 days"."""


def met_exclusions(question: str, sentences: Iterable[tuple[str, str, Where | None]]) -> list[Excluded]:
    """The figures of the asker's case in ``question`` that meet the bound of an exclusion among ``sentences`` (each a
    sentence, the words around it that may make it an exclusion — its list's lead-in, its provision's heading —, and
    its place; read only for a question stating a case): "leave my house empty for three months" of "If the home is unoccupied for more than 60 consecutive
    days, we will not pay for loss or damage caused by theft …". The bound is on the case's quantity as for
    ``unmet_conditions`` (a shared word next to it; the question's spoken forms also read in the provisions' wording:
    "empty" / "unoccupied"); another unit of time is converted ("3 tháng" / "trên 60 ngày"), away from the bound's figure
    only. When the question speaks of what an exclusion excepts ("…, trừ tổn thất do cháy" asked about a fire), the
    exception decides: a case its own bound clearly leaves out is excluded (``Excluded.outside``: "mang thai 30 tuần" of
    "Thai sản, trừ biến chứng thai sản xảy ra trước tuần thứ 28"), any other is not read."""
    cases = case_figures(question)
    if not cases:
        return []
    lang_vi = fold(question) != question
    in_legal_words = reworded(question, "vi" if lang_vi else "en")
    legal = case_figures(in_legal_words)
    if len(legal) == len(cases):
        cases = [(v, u, w, k | other[3]) for (v, u, w, k), other in zip(cases, legal, strict=True)]
    words = _keys(in_legal_words, lang_vi) | _keys(nfc(question).lower(), lang_vi)
    out: list[Excluded] = []
    for text, around, where in sentences:
        if not excludes(text, around):
            continue
        plain = with_digits(nfc(text))
        marked = plain.lower()
        cut = _EXCEPT.search(marked)
        if cut is None:
            found = bounds(text)
        elif _tie(words, _keys(marked[cut.end() :], lang_vi) - _keys(marked[: cut.start()], lang_vi)):
            excepted = bounds(plain[cut.end() :])
            outside = _outside(cases, excepted, where, {e.case for e in out})
            out.extend(outside or _excepted(cases, plain, cut, excepted, where, {e.case for e in out}))
            continue
        else:
            found = bounds(plain[: cut.start()])  # the exclusion's own bounds, not its exception's
        for value, unit, written, keys in cases:
            bound = next((b for b in found if _tie(keys, b.keys) and _meets(b, value, unit)), None)
            if bound is not None and written not in {e.case for e in out}:
                out.append(Excluded(written, bound.text, where))
    return out


def _outside(
    cases: list[tuple[float, str, str, frozenset[str]]], excepted: list[Bound], where: Where | None, said: set[str]
) -> list[Excluded]:
    """The cases of a question that speaks of what an exclusion excepts ("…, trừ biến chứng thai sản xảy ra trước tuần
    thứ 28") that the exception's own bound clearly leaves out ("mang thai 30 tuần"): the exclusion applies to them. A
    case the exception's bound takes in, or one it sets no bound on, is not said to be excluded."""
    out = []
    for value, unit, written, keys in cases:
        related = [b for b in excepted if keys & b.keys and (b.unit == unit or {b.unit, unit} <= DAYS.keys())]
        if related and written not in said and all(_fails(b, value, unit) for b in related):
            out.append(Excluded(written, related[0].text, where, outside=True))
    return out


def _excepted(
    cases: list[tuple[float, str, str, frozenset[str]]],
    plain: str,
    cut: re.Match[str],
    excepted: list[Bound],
    where: Where | None,
    said: set[str],
) -> list[Excluded]:
    """The cases of a question that speaks of what an exclusion excepts (``plain``, its exception from ``cut`` on) and
    that meet the exclusion's own bound, the exception setting none on them: "Nhà tôi bỏ trống 70 ngày thì bị cháy" of
    "… bỏ trống liên tục trên 60 ngày …, trừ tổn thất do cháy, sét đánh, nổ" (``Excluded.excepted``)."""
    own = bounds(plain[: cut.start()])
    out = []
    for value, unit, written, keys in cases:
        if written in said or any(_tie(keys, b.keys) and b.unit == unit for b in excepted):
            continue
        bound = next((b for b in own if _tie(keys, b.keys) and _meets(b, value, unit)), None)
        if bound is not None:
            out.append(Excluded(written, bound.text, where, excepted=plain[cut.start() :].strip(" ,;.")))
    return out


def _fails(b: Bound, value: float, unit: str) -> bool:
    """Whether a case of ``value`` ``unit`` clearly falls outside ``b`` (a unit of time converted to the bound's)."""
    if unit == b.unit:
        return not b.holds(value)
    days = value * DAYS[unit] / DAYS[b.unit]
    below = b.low is not None and days < b.low * (1 - _CONVERTED_MARGIN)
    return below or (b.high is not None and days > b.high * (1 + _CONVERTED_MARGIN))


def excludes(sentence: str, around: str = "") -> bool:
    """Whether ``sentence`` is an exclusion: it, or ``around`` (its list's lead-in, its provision's heading), says so
    ("we will not pay", "What is not covered", "Loại trừ bảo hiểm"). Its bounds say when it applies, not what a case
    must meet to be answered."""
    return any(_EXCLUDING.search(fold(t).lower()) for t in (sentence, around) if t)


def _meets(b: Bound, value: float, unit: str) -> bool:
    """Whether a case of ``value`` ``unit`` meets ``b``, a unit of time converted to the bound's (clearly past its
    figure)."""
    if unit == b.unit:
        return b.holds(value)
    if unit not in DAYS or b.unit not in DAYS:
        return False
    days = value * DAYS[unit] / DAYS[b.unit]
    low = None if b.low is None else b.low * (1 + _CONVERTED_MARGIN)
    high = None if b.high is None else b.high * (1 - _CONVERTED_MARGIN)
    return (low is None or days >= low) and (high is None or days <= high) and b.holds(days)


def _side(b: Bound) -> str:
    return "range" if b.low is not None and b.high is not None else "low" if b.low is not None else "high"


def swapped_bounds(claim: str, sources: Sequence[str]) -> list[str]:
    """The bounds of ``claim`` whose figure ``sources`` bound on another side only: "less than 12 hours" of a source
    saying "at least 12 hours", "trên 06 giờ" of one saying "không quá 06 giờ". A figure and unit unchanged pass the
    figure check; the condition they state is the opposite. Strictness is not read ("more than 12 hours" restates
    "at least 12 hours" closely enough), nor a bound the sources state without a bound word."""
    stated = bounds(claim)
    if not stated:
        return []
    given = [b for text in sources for b in bounds(text)]
    out = []
    for b in stated:
        same = [g for g in given if g.unit == b.unit and {g.low, g.high} - {None} == {b.low, b.high} - {None}]
        if same and all(_side(g) != _side(b) for g in same):
            out.append(f"{b.text} (the source: {same[0].text})")
    return out
