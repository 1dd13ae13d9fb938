"""The option of a multiple-choice question that the evidence states word for word.

An option is *stated* when its words occur, in order and nothing between them, in a piece of evidence found for the
question (case and punctuation aside; marks as typed). The answer names an option only when that decides it:

- exactly one option is stated and no "all of these" option includes it (the others may be true in other words);
- or the options an "all of these" option names ("Cả A, B đều đúng", "Cả 3 phương án trên", "All of the above") are
  exactly those stated, and that option is then the answer.

A stem that asks which option is *not* among what a provision lists ("không thuộc", "không bao gồm", "Đâu không phải
là điều kiện …", "is not one of") is answered by the one option left out when every other is stated in one piece of
evidence. Any other negative stem ("không được", "except", "KHÔNG … khi nào") is never answered this way, and neither
is an option that says the others are wrong ("Cả A, B đều sai"). The answer's first
sentence names the option; each stated option it rests on is quoted where the evidence states it, so every word of
the choice can be checked against its source."""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.answer.records import DraftSentence, Fragment
from citewise.judge.answerability import MAX_EVIDENCE
from citewise.lang import nfc
from citewise.retrieve.choices import split_choices

READ = MAX_EVIDENCE
"""Pieces of found evidence an option is looked for in: as many as the judge reads."""
CHOSEN = {"en": "The answer is option {}: {}.", "vi": "Phương án đúng là {}: {}."}
"""An option stated alone, named with its words (they are the quote's)."""
CHOSEN_ALL = {"en": "The answer is option {}.", "vi": "Phương án đúng là {}."}
"""An "all of these" option, named by its label: the options it names are quoted after it."""
LEFT_OUT = {
    "en": "The answer is option {0}: the provision quoted below states options {1}, not option {0}.",
    "vi": "Phương án đúng là {0}: điều khoản trích dẫn dưới đây nêu các phương án {1}, không nêu phương án {0}.",
}
"""A stem asking which option is not among what a provision lists: the one it leaves out, and the others it states
(the option left out is named by its label only: its words are in no quote)."""
STATED = "{}. {}"
"""A stated option (label, words), quoted as the evidence words it."""

_WORD = re.compile(r"[^\W_]+")
_ALL = re.compile(r"^(?:cả|tất cả|all|both)\b", re.I)
_WRONG = re.compile(r"\b(?:sai|wrong|incorrect|false|none)\b", re.I)
_EVERY = re.compile(
    r"\b(?:\d+|ba|bốn|hai)\s+(?:phương án|đáp án|ý)|\b(?:các )?(?:phương án|đáp án) trên\b|\babove\b", re.I
)
_LABELS = re.compile(r"\b([A-H])\b")
_NOT = re.compile(r"\b(?:không|chẳng|not|except|trừ|sai)\b", re.I)
_EXCLUDED = re.compile(
    r"\bkhông (?:thuộc|bao gồm|phải là (?:một trong|các|những )?(?:vai trò|điều kiện|nghĩa vụ|quyền|trách nhiệm|"
    r"nhiệm vụ|hành vi|nguyên tắc|nội dung|hồ sơ|giấy tờ|thành phần|đối tượng|loại|hình thức))"
    r"|\bkhông có (?:nhiệm vụ|nghĩa vụ|quyền|trách nhiệm)\b"
    r"|\b(?:is|are) not (?:one of|among|included|part of|a (?:duty|right|condition|requirement))\b|\bnot included\b",
    re.I,
)
"""A stem asking which option is not among what a provision lists (not "không được", which can ask for a listed
prohibition)."""


@dataclass(frozen=True)
class _Stated:
    label: str
    text: str
    fragment: Fragment
    start: int
    end: int
    """The option's words in ``Document.text``."""


def chosen_option(question: str, fragments: list[Fragment], lang: str) -> list[DraftSentence]:
    """The sentences naming the option the evidence decides (see the module), each stated option quoted; none when
    the question has no options or the evidence does not decide."""
    choices = split_choices(question)
    if choices is None:
        return []
    stem = nfc(choices.stem)
    excluded = _EXCLUDED.search(stem) is not None
    if _NOT.search(stem) and not excluded:
        return []
    found = [f for f in fragments if not f.evidence.supporting][:READ]
    combos: dict[str, frozenset[str]] = {}
    plain: list[tuple[str, str]] = []
    for label, text in choices.options:
        covered = _covers(text, [lab for lab, _ in choices.options if lab != label])
        if covered is None:
            plain.append((label, text))
        elif covered:
            combos[label] = covered
    every = frozenset(label for label, _ in plain)
    combos = {label: every if covered == _EVERYTHING else covered & every for label, covered in combos.items()}
    stated = {s.label: s for s in (_stated(label, text, found) for label, text in plain) if s is not None}
    if excluded:
        return _left_out(plain, stated, lang) if not combos else []
    if not stated:
        return []
    named = set(stated)
    whole = [label for label, covered in combos.items() if covered == named and len(covered) > 1]
    if len(whole) == 1:
        label = whole[0]
        quotes = [stated[lab] for lab, _ in plain if lab in named]
    elif len(stated) == 1 and not any(named <= covered for covered in combos.values()):
        label = next(iter(stated))
        quotes = list(stated.values())
    else:
        return []
    first = quotes[0]
    if label == first.label:
        lead = CHOSEN.get(lang, CHOSEN["en"]).format(label, first.text.rstrip(" ."))
    else:
        lead = CHOSEN_ALL.get(lang, CHOSEN_ALL["en"]).format(label)
    out = [DraftSentence(lead, [first.fragment.ref], quote_span=(first.start, first.end))]
    if label != first.label:
        out += [DraftSentence(STATED.format(s.label, s.text), [s.fragment.ref], (s.start, s.end)) for s in quotes]
    return out


_EVERYTHING = frozenset({"*"})


def _left_out(plain: list[tuple[str, str]], stated: dict[str, _Stated], lang: str) -> list[DraftSentence]:
    """A stem asking which option is *not* among what a provision lists ("không thuộc", "không bao gồm", "không phải
    là", "is not one of"): the one option left out when every other is stated, all in one piece of evidence (one
    provision's list). The answer says so and quotes the others where that provision states them."""
    missing = [label for label, _ in plain if label not in stated]
    if len(plain) < 3 or len(missing) != 1 or len({s.fragment.ref for s in stated.values()}) != 1:
        return []
    label = missing[0]
    others = [stated[lab] for lab, _ in plain if lab in stated]
    lead = LEFT_OUT.get(lang, LEFT_OUT["en"]).format(label, ", ".join(s.label for s in others))
    first = others[0]
    return [
        DraftSentence(lead, [first.fragment.ref], quote_span=(first.start, first.end)),
        *(DraftSentence(STATED.format(s.label, s.text), [s.fragment.ref], (s.start, s.end)) for s in others),
    ]


def _covers(text: str, others: list[str]) -> frozenset[str] | None:
    """The labels an "all of these" option names (``_EVERYTHING`` for "all of the above", "cả 3 phương án trên"); an
    empty set for one that says they are wrong; None for an option that is not one."""
    text = nfc(text).strip()
    if not _ALL.match(text):
        return None
    if _WRONG.search(text):
        return frozenset()
    labels = frozenset(lab for lab in _LABELS.findall(text) if lab in others)
    if labels:
        return labels
    return _EVERYTHING if _EVERY.search(text) else None


def option_stating(question: str, value: str) -> str | None:
    """The label of the one option of a multiple-choice question that states ``value`` and nothing more ("A. 06
    tháng" for "06 tháng"); None for a question without options, or when no option, or more than one, does."""
    choices = split_choices(question)
    if choices is None:
        return None
    want = _words(value)
    labels = [label for label, text in choices.options if _words(text) == want]
    return labels[0] if len(labels) == 1 else None


def _words(text: str) -> list[str]:
    """``text``'s words as options are matched: lower case, marks as typed, punctuation left out."""
    return [w.lower() for w in _WORD.findall(nfc(text))]


def _stated(label: str, text: str, fragments: list[Fragment]) -> _Stated | None:
    """Where the first of ``fragments`` states ``text`` word for word."""
    want = _words(text)
    if len(want) < 2:
        return None
    for f in fragments:
        words = [(nfc(m.group(0)).lower(), m.start(), m.end()) for m in _WORD.finditer(f.text)]
        for i in range(len(words) - len(want) + 1):
            if all(words[i + j][0] == w for j, w in enumerate(want)):
                a, b = words[i][1], words[i + len(want) - 1][2]
                base = f.evidence.char_start
                return _Stated(label, " ".join(f.text[a:b].split()), f, base + a, base + b)
    return None
