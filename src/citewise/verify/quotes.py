"""Finding a generator's quote in the fragment it names, so that every citation of a quote-anchored
sentence has the exact character span of its quote.

Three ways to match, tried in order and reported as such:
- ``exact``: the quote is a substring of the fragment.
- ``normalised``: equal after Unicode NFC and compatibility folding of quotes, dashes and spaces, and
  with runs of whitespace collapsed (a model re-wraps lines and straightens quotes).
- ``tolerant``: equal word for word, ignoring case and punctuation, with "…"/"..." standing for an
  omission between pieces that appear in order. Every word, figure and diacritic of the quote is
  still in the source, in that order; nothing reworded passes.
A quote found no way is not in the fragment, and the sentence resting on it fails."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

EXACT, NORMALISED, TOLERANT = "exact", "normalised", "tolerant"

_FOLD = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2039": "<",
        "\u203a": ">",
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u00a0": " ",
        "\u202f": " ",
        "\u200b": "",
        "\ufeff": "",
    }
)
_GAP = re.compile(r"\s*(?:…|\.\.\.+|\[\s*(?:…|\.\.\.)\s*\])\s*")
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class QuoteMatch:
    start: int
    end: int
    """The span in the fragment's text, from the first to the last character matched."""
    kind: str
    """``exact``, ``normalised`` or ``tolerant``."""


def _normalise(text: str) -> tuple[str, list[int], list[int]]:
    """``text`` NFC-composed, folded and with whitespace collapsed, and for each character of the result
    the span in ``text`` it comes from (a base character with its combining marks is one unit)."""
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    space = False
    i = 0
    while i < len(text):
        j = i + 1
        while j < len(text) and unicodedata.combining(text[j]):
            j += 1
        for c in unicodedata.normalize("NFC", text[i:j]).translate(_FOLD):
            if c.isspace():
                if out and not space:
                    out.append(" ")
                    starts.append(i)
                    ends.append(j)
                space = True
                continue
            out.append(c)
            starts.append(i)
            ends.append(j)
            space = False
        i = j
    return "".join(out), starts, ends


def _words(text: str) -> list[tuple[str, int, int]]:
    """The words of ``text``, NFC-composed and case-folded, with their spans in ``text``."""
    return [(unicodedata.normalize("NFC", m.group()).casefold(), m.start(), m.end()) for m in _WORD.finditer(text)]


def _find_words(source: list[tuple[str, int, int]], piece: list[str], start: int) -> int:
    """The index in ``source`` from which ``piece`` follows word for word, at or after ``start``; -1 if none."""
    n = len(piece)
    for i in range(start, len(source) - n + 1):
        if all(source[i + j][0] == piece[j] for j in range(n)):
            return i
    return -1


def locate(quote: str, text: str) -> QuoteMatch | None:
    """Where ``quote`` is in ``text``, or ``None``."""
    quote = quote.strip().strip('"“”').strip()
    if not quote:
        return None
    at = text.find(quote)
    if at >= 0:
        return QuoteMatch(at, at + len(quote), EXACT)
    norm_text, starts, ends = _normalise(text)
    norm_quote = _normalise(quote)[0]
    at = norm_text.find(norm_quote)
    if at >= 0 and norm_quote:
        return QuoteMatch(starts[at], ends[at + len(norm_quote) - 1], NORMALISED)
    source = _words(text)
    pieces = [[w for w, _, _ in _words(p)] for p in _GAP.split(quote)]
    pieces = [p for p in pieces if p]
    if not pieces or sum(len(p) for p in pieces) < 3:
        return None  # too short to tell a quote from a coincidence
    first = last = -1
    pos = 0
    for piece in pieces:
        i = _find_words(source, piece, pos)
        if i < 0:
            return None
        if first < 0:
            first = i
        last, pos = i + len(piece) - 1, i + len(piece)
    return QuoteMatch(source[first][1], source[last][2], TOLERANT)


def context(text: str, match: QuoteMatch, sentences: list[tuple[int, int]]) -> tuple[int, int]:
    """The span of the sentence(s) of ``text`` that hold the quote: what a reader checks the claim against
    (a quote is often a clause whose subject stands earlier in its sentence)."""
    start = max((a for a, _ in sentences if a <= match.start), default=0)
    end = min((b for _, b in sentences if b >= match.end), default=len(text))
    return min(start, match.start), max(end, match.end)
