"""The answer options of a multiple-choice question ("… bị cấm? A. … B. … C. … D. …").

An exam question lists its options after its stem, one per line or on one line, labelled A, B, C … in order. The
options are part of what is asked (the search reads them: the provision is the one they come from), but not what the
question takes as given: a figure of a wrong option ("B. 04 tháng") is not a premise the sources must state."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_LABEL = re.compile(r"(?:^|(?<=\s))\(?([A-H])(?:[.):]|\s*[-–])\s+(?=\S)", re.M)
"""An option's label: "A.", "A)", "(A)", "A:", "A -", at a line's start or after a space."""
_INSTRUCTION_WORDS = 8
"""At most this many words after the stem's question mark read as an instruction ("Chọn câu trả lời đúng nhất.")."""
_LINE_OPTIONS = 3
"""Options that each open a line make a list of options without a question mark from this many on."""


@dataclass(frozen=True)
class Choices:
    stem: str
    """The question without its options."""
    options: tuple[tuple[str, str], ...]
    """(label, text) in order."""


@lru_cache(maxsize=256)
def split_choices(question: str) -> Choices | None:
    """The stem and the options of ``question`` when it lists at least two options labelled A, B, … in order after a
    stem ending with a question mark or a colon, or with a short instruction after its question mark, or three options
    or more that each open a line; None otherwise."""
    labels = list(_LABEL.finditer(question))
    # the first "A" that starts a run B, C, … in order after a stem
    for i, m in enumerate(labels):
        if m.group(1) != "A":
            continue
        before = question[: m.start()].rstrip()
        run = [m]
        for n in labels[i + 1 :]:
            if ord(n.group(1)) == ord(run[-1].group(1)) + 1:
                run.append(n)
        # a stem with no question mark ("Cha mẹ KHÔNG có nghĩa vụ … khi nào") counts when three options or more
        # each open a line
        lines = len(run) >= _LINE_OPTIONS and all(_opens_line(question, lab.start()) for lab in run)
        if len(run) < 2 or not before or not (_stem_ends(before) or lines):
            continue
        options = []
        for j, lab in enumerate(run):
            end = run[j + 1].start() if j + 1 < len(run) else len(question)
            text = " ".join(question[lab.end() : end].split()).rstrip(" ;,")
            if not text:
                return None
            options.append((lab.group(1), text))
        return Choices(before, tuple(options))
    return None


def _stem_ends(before: str) -> bool:
    """Whether ``before`` reads as a stem: it ends with "?" or ":", or its question is followed only by a short
    instruction ("… dưới đây? Chọn câu trả lời đúng nhất.", "… apply? Choose one.")."""
    if not before:
        return False
    if before[-1] in "?:？":
        return True
    asked = max(before.rfind("?"), before.rfind("？"))
    return asked >= 0 and len(before[asked + 1 :].split()) <= _INSTRUCTION_WORDS


def _opens_line(text: str, at: int) -> bool:
    return at == 0 or text[at - 1] == "\n"


def stem(question: str) -> str:
    """``question`` without its answer options (itself when it lists none)."""
    found = split_choices(question)
    return question if found is None else found.stem
