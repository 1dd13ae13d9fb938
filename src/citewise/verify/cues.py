"""Polarity and modality cues of English and Vietnamese legal text: negation ("not", "không",
"chưa"), obligation ("shall", "must", "phải") and permission ("may", "có thể", "có quyền").

Cues are found on lower-cased NFC tokens, with diacritics: folded "chua" is both "chưa" (not yet)
and "chứa" (contain), so only unambiguous folded forms ("khong") are accepted for Vietnamese
typed without diacritics."""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.lang import nfc

_TOKEN = re.compile(r"[^\W_]+")

NEGATION: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split())
    for p in (
        "not",
        "no",
        "never",
        "nor",
        "neither",
        "none",
        "cannot",
        "without",
        "không",
        "khong",
        "chưa",
        "chẳng",
        "chớ",
        "đừng",
        "cấm",
    )
)
OBLIGATION: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split())
    for p in (
        "shall",
        "must",
        "required",
        "obliged",
        "obligated",
        "has to",
        "have to",
        "phải",
        "phai",
        "bắt buộc",
        "có trách nhiệm",
        "có nghĩa vụ",
    )
)
PERMISSION: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split())
    for p in (
        "may",
        "can",
        "permitted",
        "entitled",
        "allowed",
        "có thể",
        "có quyền",
        "được phép",
        "được quyền",
    )
)
# "không phải" (is not) and "không thể" (cannot) are negations, not obligations or permissions.
_NOT_MODAL_AFTER = {"không", "khong", "not", "chưa"}


@dataclass(frozen=True)
class Cues:
    tokens: tuple[str, ...]
    negation: tuple[int, ...]
    """Token positions right after each negation cue (where its scope starts)."""
    obligation: tuple[int, ...]
    permission: tuple[int, ...]


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(nfc(text).lower().replace("n't", " not").replace("’t", " not"))


def _find(toks: list[str], phrases: tuple[tuple[str, ...], ...]) -> list[int]:
    """End positions of every phrase occurrence."""
    out = []
    for i in range(len(toks)):
        for p in phrases:
            if tuple(toks[i : i + len(p)]) == p:
                out.append(i + len(p))
                break
    return out


def cues(text: str) -> Cues:
    toks = tokens(text)
    neg = _find(toks, NEGATION)
    obl = [e for e in _find(toks, OBLIGATION) if not (e >= 2 and toks[e - 2] in _NOT_MODAL_AFTER)]
    perm = [e for e in _find(toks, PERMISSION) if not (e >= 2 and toks[e - 2] in _NOT_MODAL_AFTER)]
    return Cues(tuple(toks), tuple(neg), tuple(obl), tuple(perm))


def scoped_words(c: Cues, starts: tuple[int, ...], scope: int = 4) -> set[str]:
    """Words within ``scope`` tokens after the cues that end at ``starts``."""
    out: set[str] = set()
    for start in starts:
        out.update(c.tokens[start : start + scope])
    return out


def negated_words(c: Cues, scope: int = 4) -> set[str]:
    return scoped_words(c, c.negation, scope)
