"""A claim that states a value ("The notice period is 14 days.", "Thời hạn thông báo tổn thất là 14 ngày."), read
against the clause of its source that gives that value ("The insured must notify the company within 14 days of the
loss."). Word coverage cannot read such a restatement: "notice period" is not what the source writes, and what the
source writes ("must notify the company") is not in the claim. Read explicitly instead:

- the claim is a subject, "is" / "are" / "là", and a short value holding a figure with its unit;
- the source gives that figure with a unit (a duration or an amount) in a clause: the words from the value before it
  (or the clause's start) to the value after it, or the next "and" / "và" / ";" / sentence end;
- every content word of the subject, leaving out the words that name a value's frame ("period", "deadline", "limit",
  "thời hạn", "mức"), is in that clause, compared on their first four letters ("notice" / "notify", "cancellation" /
  "cancel") and through the paraphrase classes ("tell" / "notify");
- the bounds agree: a source's "at least" / "ít nhất" is said by the claim too, and a claim's "minimum" / "tối thiểu"
  or "maximum" / "tối đa" is not said of a source value bounded the other way.

The support scorer lets the reading decide such a claim either way (verify/scorer.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.chunk.sentences import sentence_spans
from citewise.figures import extract_numbers
from citewise.judge.qtype import answer_spans
from citewise.lang import fold, nfc
from citewise.textmatch import short_keys
from citewise.verify.cues import LOWER_BOUNDS, NEGATION, UPPER_BOUNDS, tokens
from citewise.verify.paraphrase import canonical_words

_FORM = {
    "en": re.compile(
        r"^\s*(?P<subject>\S.{2,150}?)\s+(?:is|are|lasts|will be)\s+(?P<value>(?:[^.;:,]|[.,](?=\d)){1,60}?)\s*\.?\s*$",
        re.I,
    ),
    "vi": re.compile(r"^\s*(?P<subject>\S.{2,150}?)\s+là\s+(?P<value>(?:[^.;:,]|[.,](?=\d)){1,60}?)\s*\.?\s*$", re.I),
}
_FRAME = re.compile(
    r"\b(?:time limit|deadline|period|limit|maximum|minimum|length|duration|amount|sum|cap|the most|the least"
    r"|thoi han|thoi gian|khoang thoi gian|han muc|muc|so tien|toi da|toi thieu)\b"
)
"""Words naming the frame of a value (folded): left out of the subject's words to be found in the source."""
_UPPER = re.compile(r"\b(?:" + "|".join(fold(b) for b in UPPER_BOUNDS) + r")\b")
_LOWER = re.compile(r"\b(?:" + "|".join(fold(b) for b in LOWER_BOUNDS) + r")\b")
_CONDITION = re.compile(r"\b(?:if|unless|except|provided|where|when|neu|tru|khi|truong hop)\b")
"""A value or subject with a condition is more than a value statement: the scorer reads it."""
_NEGATING = frozenset(" ".join(p) for p in NEGATION) - {"cấm", "without"}
"""Words that negate a value statement: the negation cues but "cấm", a prohibition that is a subject's word ("thời hạn
cấm huy động vốn"), and "without", a value's manner ("without undue delay")."""
_MODAL = frozenset({"may", "might", "can", "could", "must", "shall", "should", "phải", "thể", "quyền"})
"""A subject with a modal verb is a rule, not a value's name ("bắt buộc", compulsory, names an insurance)."""
_RANGE = frozenset({"den", "to", "-", "–", "toi", "and", "va"})
"""What joins the two ends of a range of values (folded)."""
_CLAUSE_END = re.compile(r";|\band\b|\bva\b")
_NEAR = 30
"""Characters before a source's value read for its bound ("at least", "không quá")."""


@dataclass(frozen=True)
class ValueReading:
    holds: bool
    why: str
    """What was found: the clause that states the value, or what the claim says that its source does not."""


def _bound(text: str) -> str:
    """``lower``, ``upper`` or ``""`` for folded ``text``: a lower bound wins (it is the one a restatement drops)."""
    if _LOWER.search(text):
        return "lower"
    return "upper" if _UPPER.search(text) else ""


def _keys(text: str) -> set[str]:
    return short_keys(text) | short_keys(" ".join(canonical_words(text)))


def _values(sentence: str) -> list[tuple[int, int]]:
    """Spans of the figures with a unit (durations, amounts) of ``sentence``: "lao động" is no amount in đồng."""
    spans = answer_spans("duration", sentence) + answer_spans("amount", sentence)
    return sorted(sp for sp in set(spans) if any(ch.isdigit() for ch in sentence[sp[0] : sp[1]]))


def read_value_statement(claim: str, source: str, lang: str) -> ValueReading | None:
    """The reading of ``claim`` as a value statement against ``source`` (module docstring); ``None`` when the claim
    is not one, its subject names nothing beyond the frame ("The period is 14 days."), or the source gives none of
    its figures with a unit (the scorer decides alone)."""
    m = _FORM["vi" if lang == "vi" else "en"].match(nfc(claim))
    if m is None or _NEGATING & set(tokens(claim)):  # "... không là từ 01 năm đến 03 năm": the scorer reads it
        return None
    value, subject = m.group("value"), m.group("subject")
    numbers = extract_numbers(value)
    if not numbers or len(value.split()) > 8 or _CONDITION.search(fold(value + " " + subject).lower()):
        return None
    if _MODAL & set(tokens(subject)):  # "Member States may provide for a lower age, provided that it is ..."
        return None
    wanted = _keys(_FRAME.sub(" ", fold(subject).lower())) - numbers
    if not wanted:
        return None
    claim_bound = _bound(fold(claim).lower())
    text = nfc(source)
    tried = False
    for s, e in sentence_spans(text) or [(0, len(text))]:
        sentence = text[s:e]
        spans = _values(sentence)
        low = fold(sentence).lower()
        for i, (a, b) in enumerate(spans):
            if not numbers & extract_numbers(sentence[a:b]):
                continue
            j = i  # a range reads as one value: "từ 01 năm đến 03 năm", "from 6 to 12 months"
            while j + 1 < len(spans) and low[spans[j][1] : spans[j + 1][0]].strip() in _RANGE:
                j += 1
            b = spans[j][1]
            if not numbers <= extract_numbers(sentence[a:b]):
                continue
            tried = True
            start = max([spans[i - 1][1]] if i else [0])
            start = max([start] + [x.end() for x in re.finditer(";", low[:a])])
            after = low[b:]
            stop = _CLAUSE_END.search(after)
            end = b + (stop.start() if stop else len(after))
            if j + 1 < len(spans):
                end = min(end, spans[j + 1][0])
            clause = sentence[start:end]
            source_bound = _bound(low[max(start, a - _NEAR) : a])
            if wanted - _keys(clause):
                continue
            if source_bound == "lower" and claim_bound != "lower":
                return ValueReading(False, f"states {value.strip()} without the lower bound of “{clause.strip()}”")
            if claim_bound == "lower" and source_bound != "lower":
                return ValueReading(False, f"states a lower bound that “{clause.strip()}” does not")
            return ValueReading(True, f"states the value of “{clause.strip()}”")
    if not tried:
        return None
    return ValueReading(False, f"its source gives {value.strip()} for something other than “{subject.strip()}”")
