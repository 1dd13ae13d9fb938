"""Sentence spans for Vietnamese and English legal text.

A line break ends a sentence when the line before ends a clause (".", ";", ":", "!", "?") or the
next line opens a clause, point or heading ("2.", "b)", "(c)", "Điều 5", "Article 6"); otherwise it
is a wrapped line (PDF) and the sentence goes on. A full stop ends a sentence unless it closes a
known abbreviation or a clause number (a number opening the sentence or line, or after "Điều", "Article", …
opening it; "... is USD 500. The ..." and "... theo Điều 11. Người ..." end one)."""

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
_END = re.compile(r"[.!?…]+[\"”’)]*(?=\s+[\"“(]?[A-ZĐÀ-Ỹ0-9])|[.!?…]+[\"”’)]*(?=\s*$)")
_OPENS = re.compile(
    r"^\s*(\d{1,3}[.)]\s|[a-zđ]\)\s|\([a-z0-9ivx]{1,4}\)|[-•*]\s|(Điều|Dieu)\s+[\d.]+[A-Za-z.\d]*[.:]\s"
    r"|(Article|Chương|Chapter|Section|Mục|Phần|Part|Annex|Phụ lục|Recital)\s+[\dIVXLC][\w.]*\s*$"
    r"|[A-ZĐ][A-ZĐÀ-Ỹ ]{6,}$|[^|\n]{1,80}\|)"
)
PROVISION_WORD = (
    r"(?:điều|dieu|khoản|khoan|điểm|diem|chương|mục|phần|phụ lục|article|art|section|chapter|part|rule|clause|"
    r"paragraph|point|annex|schedule|item|no)"
)
"""The words that name a provision by its number ("Điều 5", "Rule 2", "Art. 6"), as a regex group."""
_NUMBER_LABEL = re.compile(rf"(?:^|[\n(]|\b({PROVISION_WORD})\.?)\s*$", re.I)
"""What comes before a number whose full stop does not end the sentence: nothing, or a provision word opening the
sentence ("Điều 5. Phạm vi ..."); a provision named further on ends it ("... theo Điều 11. Người ...")."""
_CLOSES = re.compile(r"[.;:!?…]['\"”’)]*\s*$")
_HEADING = re.compile(
    r"^\s*(\d+(\.\d+)+\.?\s+\S|(Section|Part|Article|Chapter|Annex|Clause|Rule|Điều|Chương|Mục|Phụ lục)\s+\S+)"
)


def _paragraphs(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of logical lines: wrapped lines joined, clause starts kept apart."""
    out: list[tuple[int, int]] = []
    cur: tuple[int, int] | None = None
    for m in re.finditer(r"[^\n]+", text[start:end]):
        s, e = start + m.start(), start + m.end()
        line = text[s:e]
        if not line.strip():
            continue
        prev = text[cur[0] : cur[1]] if cur is not None else ""
        heading = ("\n" not in prev and len(prev) < 100 and bool(_HEADING.match(prev))) or " | " in prev
        if cur is not None and not heading and not _CLOSES.search(prev) and not _OPENS.match(line):
            cur = (cur[0], e)
            continue
        if cur is not None:
            out.append(cur)
        cur = (s, e)
    if cur is not None:
        out.append(cur)
    return out


BRACKET = 40
"""Characters within which a bracket opened before a full stop must close for the full stop not to end the
sentence."""


def _inside_brackets(text: str, start: int, at: int, end: int) -> bool:
    """Whether the full stop at ``at`` lies inside a round bracket opened in the sentence (from ``start``) that
    closes within ``BRACKET`` characters, before any other full stop."""
    before = text[start:at]
    if before.count("(") <= before.count(")"):
        return False
    after = text[at + 1 : min(end, at + 1 + BRACKET)]
    close = after.find(")")
    return close >= 0 and "(" not in after[:close] and not re.search(r"[.!?]\s+[A-ZĐ]", after[:close])


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Spans (absolute offsets) of the sentences of ``text[start:end]``, whitespace trimmed."""
    end = len(text) if end is None else end
    spans: list[tuple[int, int]] = []
    for ps, pe in _paragraphs(text, start, end):
        cur = ps
        for m in _END.finditer(text, ps, pe):
            word = re.search(r"([\w.]+)\.?$", text[cur : m.start() + 1])
            tail = (word.group(1) if word else "").lower().rstrip(".")
            if tail in _ABBREV:
                continue
            if re.fullmatch(r"\d{1,3}", tail or "x") and text[m.start()] == "." and word is not None:
                before = text[cur : m.start() + 1 - len(word.group(0))]
                label = _NUMBER_LABEL.search(before)
                # a provision word counts only opening the sentence: "... theo Điều 11. 1. Mức ..." ends at "11."
                if label and not (label.group(1) and before[: label.start()].strip()):
                    continue  # "1. ", "Điều 5. ", "Article 6. ": a clause number, not the end of "... USD 500."
            if _inside_brackets(text, cur, m.start(), pe):
                continue  # "Doctor of Pharmacy (Pharm. D.) degree": a full stop inside a short bracket
            spans.append((cur, m.end()))
            cur = m.end()
        if cur < pe:
            spans.append((cur, pe))
    out: list[tuple[int, int]] = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((s, e))
    return out


LIST_ITEM = re.compile(r"\s*(?:\(?[a-zđ]{1,2}\)|\(?[ivx]{1,4}\)|\d{1,2}\)|[-–•·*])\s")
"""A list item's marker at the start of a line: "(a)", "b)", "(iv)", "2)", "-", "•"."""
NUMBERED_ITEM = re.compile(r"\s*\d{1,2}[.)]\s")
"""A numbered line: an item of a list led into by a colon ("… sau đây:" then "1. …"), else a clause."""
_LEAD_IN = re.compile(r":\s*$")
_ITEM_END = re.compile(r";(?:\s*(?:and|or|và|hoặc))?\s*$", re.I)
"""How an item ends when its marker was never in the text (a Word bullet, a PDF's dropped glyph): "…;", "…; or"."""


def _marker_kind(sentence: str) -> str | None:
    if NUMBERED_ITEM.match(sentence):
        return "number"
    m = LIST_ITEM.match(sentence)
    if m is None:
        return None
    return "mark" if m.group(0).strip()[0] in "-–•·*" else "letter"


def lead_ins(text: str, spans: list[tuple[int, int]]) -> list[int | None]:
    """For each sentence span of ``text`` (``sentence_spans``' order), the index of the sentence that leads into
    it when it is an item of a list ("We will pay for … caused by any of the following events:" for "(f)
    subsidence, heave or landslip …;"), else None. A list is the run of sentences after a lead-in ending with a
    colon that open with the same kind of marker as its first ("(a)", "b)", "1.", "-"); anything else ends it, so
    the "2." of the next clause after "1. … sau đây: a) …; b) …" is no item of clause 1's list. Lines with no marker
    that end with ";" are items too (Word keeps its bullets out of the text: "including:" then "hospital … fees;",
    "emergency dental treatment …, up to USD 500;"), up to the first that does not, the list's last."""
    out: list[int | None] = []
    lead: int | None = None
    kind: str | None = None
    for i, (s, e) in enumerate(spans):
        sentence = text[s:e]
        marker = _marker_kind(sentence)
        last = False
        if marker is None and lead is not None and kind in (None, "unmarked"):
            last = _ITEM_END.search(sentence) is None
            marker = None if last and kind is None else "unmarked"
        if lead is not None and marker is not None and kind in (None, marker):
            kind = marker
            out.append(lead)
            if last:
                lead, kind = None, None
        else:
            out.append(None)
            lead, kind = None, None
        if _LEAD_IN.search(sentence):
            lead, kind = i, None
    return out
