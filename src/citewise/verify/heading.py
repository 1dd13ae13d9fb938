"""Words a sentence takes from the heading of the provision it cites.

A model answering "Công ty giải quyết bồi thường bảo hiểm du lịch trong bao lâu?" from a quote of the travel
rules writes "Công ty giải quyết bồi thường bảo hiểm du lịch trong thời hạn 15 ngày …". The quote says "Công ty
giải quyết bồi thường trong thời hạn 15 ngày …"; "bảo hiểm du lịch" is in the heading the citation shows with it
("[Quy tắc bảo hiểm du lịch quốc tế › Chương III. BỒI THƯỜNG › Điều 9. Thời hạn giải quyết bồi thường]").
A citation is read with its document and heading, so such a phrase is stated by the citation. The support
scorer reads the sentence without it.

Only phrases found word for word in a heading are removed. They must hold a content word the premise lacks, be
two words or more (or a capitalised name), and hold no figure, negation or modal word: "không", "phải", "may" or
"14" are never taken from a heading, nor the words next to a figure ("15 ngày" keeps "ngày"). A phrase opening a
clause is taken only as an introduction ("Under the Harbourview home policy, …"), never as the clause's subject
("Harbourview adds 5% interest …" is read as written: the quote calls the insurer "we"). A phrase that may not go
goes whole or not at all: no shorter phrase inside it is taken, nor the end of a name ("Luật Kinh doanh bảo hiểm"
keeps "Kinh doanh bảo hiểm" when the heading lacks "Luật").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from citewise.lang import fold
from citewise.textmatch import STOPWORDS
from citewise.verify.cues import NEGATION, OBLIGATION, PERMISSION

_TOKEN = re.compile(r"[^\W_]+")
_CLAUSE = re.compile(r"[,;:]")
_KEEP = frozenset(fold(w).lower() for group in (NEGATION, OBLIGATION, PERMISSION) for phrase in group for w in phrase)
"""Words never taken from a heading, folded as the sentence's words are ("chưa" → "chua"): every word of a negation
or modal phrase ("có thể" gives "co" and "the")."""
MIN_LEFT = 3
"""Content words the sentence must keep for a phrase to be removed."""


@dataclass(frozen=True)
class Reading:
    claim: str
    """The sentence as the support scorer reads it."""
    taken: tuple[str, ...]
    """The phrases removed, as written in the sentence."""


def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(fold(m.group()).lower(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def _removable(word: str) -> bool:
    return not any(c.isdigit() for c in word) and word not in _KEEP


def _in(run: list[str], heading: list[str]) -> bool:
    n = len(run)
    return any(heading[i : i + n] == run for i in range(len(heading) - n + 1))


def _whole(toks: list[tuple[str, int, int]], i: int, j: int, claim: str) -> bool:
    """Whether the run ``toks[i:j]`` may go: two words or more, or one capitalised word; no figure next to it; at
    the opening of a clause, only when punctuation follows it (an introduction, not the clause's subject)."""
    if j - i == 1 and not claim[toks[i][1]].isupper():
        return False
    near = [toks[k][0] for k in (i - 1, j) if 0 <= k < len(toks)]
    if any(c.isdigit() for w in near for c in w):
        return False
    if i >= 2 and claim[toks[i - 1][1]].isupper() and claim[toks[i][1]].isupper():
        return False  # inside a name ("Luật Kinh doanh bảo hiểm"): the name goes whole or not at all
    opens = i == 0 or bool(_CLAUSE.search(claim[toks[i - 1][2] : toks[i][1]]))
    return not opens or bool(_CLAUSE.match(claim[toks[j - 1][2] :].lstrip()))


def without_heading_words(claim: str, premise: str, headings: Sequence[str]) -> Reading:
    """``claim`` without the phrases it takes from ``headings`` that ``premise`` does not state (longest first,
    left to right); the claim unchanged when nothing qualifies or too little would be left."""
    toks = _tokens(claim)
    heads = [[w for w, _, _ in _tokens(h)] for h in headings if h]
    if not toks or not heads:
        return Reading(claim, ())
    stated = {w for w, _, _ in _tokens(premise)}
    cuts: list[tuple[int, int]] = []
    i = 0
    while i < len(toks):
        best = 0
        for j in range(i + 1, len(toks) + 1):
            run = [w for w, _, _ in toks[i:j]]
            if not _removable(run[-1]) or not any(_in(run, h) for h in heads):
                break
            if any(w not in stated and w not in STOPWORDS for w in run):
                best = j
        if best and _whole(toks, i, best, claim):
            cuts.append((toks[i][1], toks[best - 1][2]))
        i = best or i + 1
    if not cuts:
        return Reading(claim, ())
    kept, last = [], 0
    for a, b in cuts:
        kept.append(claim[last:a])
        last = b
    kept.append(claim[last:])
    reduced = re.sub(r"\s+([,.;:])", r"\1", re.sub(r"\s{2,}", " ", "".join(kept))).strip()
    left = [w for w, _, _ in _tokens(reduced) if w not in STOPWORDS]
    if len(left) < MIN_LEFT:
        return Reading(claim, ())
    return Reading(reduced, tuple(claim[a:b] for a, b in cuts))
