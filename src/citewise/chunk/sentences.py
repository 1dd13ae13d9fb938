"""Sentence spans for Vietnamese and English legal text. Line breaks always end a sentence;
a full stop ends one unless it closes a known abbreviation or sits inside a number."""

from __future__ import annotations

import re

_ABBREV = {
    "art",
    "arts",
    "no",
    "nos",
    "para",
    "paras",
    "p",
    "pp",
    "e.g",
    "i.e",
    "etc",
    "cf",
    "vs",
    "mr",
    "mrs",
    "ms",
    "dr",
    "st",
    "co",
    "ltd",
    "inc",
    "u.s",
    "e.u",
    "sec",
    "ch",
    "vol",
    "fig",
    "tp",
    "ts",
    "ths",
    "ks",
    "đ",
    "v.v",
    "reg",
    "dir",
    "approx",
    "incl",
    "ibid",
}
_END = re.compile(r"[.!?…;]+[\"”’)]*(?=\s+[\"“(]?[A-ZĐÀ-Ỹ0-9])|[.!?…]+[\"”’)]*(?=\s*$)")


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Spans (absolute offsets) of the sentences of ``text[start:end]``, whitespace trimmed."""
    end = len(text) if end is None else end
    spans: list[tuple[int, int]] = []
    pos = start
    for line_m in re.finditer(r"[^\n]+", text[start:end]):
        ls, le = start + line_m.start(), start + line_m.end()
        cur = ls
        for m in _END.finditer(text, ls, le):
            cut = m.end()
            if text[m.start()] == ";":
                continue
            word = re.search(r"([\w.]+)\.?$", text[cur : m.start() + 1])
            tail = (word.group(1) if word else "").lower().rstrip(".")
            if tail in _ABBREV or (re.fullmatch(r"\d{1,3}", tail or "x") and text[m.start()] == "."):
                continue
            spans.append((cur, cut))
            cur = cut
        if cur < le:
            spans.append((cur, le))
        pos = le
    del pos
    out: list[tuple[int, int]] = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((s, e))
    return out
