"""The option of a multiple-choice question that the evidence states word for word.

An option is *stated* when its words occur, in order and nothing between them, in a piece of evidence found for the
question (case and punctuation aside; marks as typed). The answer names an option only when that decides it:

- exactly one option is stated and no "all of these" option includes it (the others may be true in other words);
- or the options an "all of these" option names ("Cả A, B đều đúng", "Cả 3 phương án trên", "All of the above") are
  exactly those stated, and that option is then the answer.

A stem that asks which option is *not* so ("Đâu không phải …", "… KHÔNG …", "Which is not …", "except") is never
answered this way, and neither is an option that says the others are wrong ("Cả A, B đều sai"). The answer's first
sentence names the option; each stated option it rests on is quoted where the evidence states it, so every word of
the choice can be checked against its source."""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.answer.records import DraftSentence, Fragment
from citewise.lang import nfc
from citewise.retrieve.choices import split_choices

READ = 4
"""Pieces of found evidence an option is looked for in (as many as the judge reads)."""
CHOSEN = {"en": "The answer is option {}: {}.", "vi": "Phương án đúng là {}: {}."}
"""An option stated alone, named with its words (they are the quote's)."""
CHOSEN_ALL = {"en": "The answer is option {}.", "vi": "Phương án đúng là {}."}
"""An "all of these" option, named by its label: the options it names are quoted after it."""
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
    if choices is None or _NOT.search(nfc(choices.stem)):
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


def _stated(label: str, text: str, fragments: list[Fragment]) -> _Stated | None:
    """Where the first of ``fragments`` states ``text`` word for word."""
    want = [w.lower() for w in _WORD.findall(nfc(text))]
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
