"""A sentence a question was written from, with its answer taken out. Vietnamese asks in place: "Việc định đoạt tài
sản phải do chủ thể nào thực hiện?" is the sentence "Việc định đoạt tài sản phải do người có năng lực hành vi dân sự
thực hiện …" with the party replaced by "chủ thể nào". The words just before the asking words and those just after
them stand in the sentence around the answer: that sentence answers the question, whatever a pair classifier or word
overlap makes of the others ("2. Việc định đoạt tài sản chung hợp nhất được thực hiện theo thỏa thuận …" shares as
many words)."""

from __future__ import annotations

import re

from citewise.lang import fold, nfc
from citewise.textmatch import coverage

_WORD = re.compile(r"[^\W_]+")
_ASKING = re.compile(
    r"\b(?:khi nao|luc nao|bao gio|bao lau|bao nhieu|nhu the nao|(?<!chu )the nao|ra sao|o dau|ai|gi|(?P<noun>nao))\b"
)
"""Asking words (folded); "nào" asks with the noun before it ("chủ thể nào", "điều nào"), left out of what leads in
("chủ thể nào" folds to the "thế nào" of "how")."""
SIDE = 2
"""Words read on each side of the asking words."""
SIDE_LAST = 4
"""Words read before asking words that end the question: "… có hiệu lực khi nào?" leads into "1. Di chúc có hiệu lực
từ thời điểm mở thừa kế.", not into "2. Di chúc không có hiệu lực toàn bộ …" (two words would). Before "là gì" / "là
ai", all of them: "Tên khai sinh thời nhỏ của Bác Hồ là gì" is not filled by "… mục tiêu chiến lược của Bác Hồ là
'Đánh cho Mỹ cút' …"."""
GAP = 40
"""Words the answer may take in the sentence, at most."""


def _words(text: str) -> list[str]:
    return _WORD.findall(fold(nfc(text)).lower())


_TOKEN = re.compile(r"[^\W_]+|[,;:.()]")


def _tokens(text: str) -> list[str]:
    """Words and the punctuation marks between them: the words leading into an answer are read within one clause ("…
    cho người lao động, trong đó ghi rõ …" does not hold "người lao động trong")."""
    return _TOKEN.findall(fold(nfc(text)).lower())


def fills(question: str, sentence: str) -> bool:
    """Whether ``sentence`` holds the ``SIDE`` words before the (Vietnamese) question's asking words and, when the
    question goes on after them, the ``SIDE`` words after, in that order with one to ``GAP`` words between: the
    answer; or, when the asking words end the question, its ``SIDE_LAST`` words before them followed by any word. A
    question that opens with its asking words ("Ai là …") or leads into them with fewer words has nothing to fill."""
    q = " ".join(_words(question))
    m = _ASKING.search(q)
    if m is None:
        return False
    before, after = q[: m.start()].split(), q[m.end() :].split()[:SIDE]
    side = SIDE if after else SIDE_LAST
    if not after and before[-1:] == ["la"]:
        side = max(side, len(before))  # "X là gì?": the sentence says "X là …", the whole X
    skips = (0,) if m.group("noun") is None else (1, 2)
    leads = [before[max(0, len(before) - side - n) : len(before) - n] for n in skips]
    words = _tokens(sentence)
    for lead in leads:
        if len(lead) < side:
            continue
        for i in range(len(words) - side + 1):
            if words[i : i + side] != lead:
                continue
            start = i + side
            if not after:
                if start < len(words) and words[start][0].isalnum():
                    return True
                continue
            for j in range(start + 1, min(len(words) - len(after), start + GAP) + 1):
                if words[j : j + len(after)] == after:
                    return True
    return False


CLOZE_MARGIN = 0.1
"""How much less of the question than the sentence saying most of it a sentence it could be written from may say:
"… thì phải bồi thường theo quy định …" holds "thì phải bồi thường" before a gap, but says half of "Nếu người lao
động gây thiệt hại không quá 10 tháng lương tối thiểu thì phải bồi thường bao nhiêu?" (0.54; the clause on damage
under 10 months' wages 0.91)."""


def written_from(question: str, sentences: list[str]) -> list[bool]:
    """For each of ``sentences``, whether the question could be written from it (``fills``) and it says about as much
    of the question as the one saying most (``CLOZE_MARGIN``)."""
    said = [coverage(question, s) for s in sentences]
    best = max(said, default=0.0)
    return [s >= best - CLOZE_MARGIN and fills(question, text) for text, s in zip(sentences, said, strict=True)]
