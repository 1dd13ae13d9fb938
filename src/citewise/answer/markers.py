"""Citation markers in generated text: ``[doc:ID#chunk:N]``, ``[F1]``, ``[F1, F3]``, ``[F1][F2]``."""

from __future__ import annotations

import re

MARKER = re.compile(
    r"\[\s*((?:doc:[0-9a-f]{4,64}#chunk:\d+|F\d{1,3})(?:\s*[,;]\s*(?:doc:[0-9a-f]{4,64}#chunk:\d+|F\d{1,3}))*)\s*\]"
)
_ANY_BRACKET = re.compile(r"\[[^\]\n]{0,40}\]")


def split_markers(sentence: str) -> tuple[str, list[str]]:
    """The sentence without markers, and the markers in order (duplicates removed)."""
    found: list[str] = []
    for m in MARKER.finditer(sentence):
        for part in re.split(r"\s*[,;]\s*", m.group(1)):
            if part not in found:
                found.append(part)
    text = MARKER.sub("", sentence)
    text = re.sub(r"\s+([.,;:!?])", r"\1", text)
    return " ".join(text.split()), found


def stray_brackets(sentence: str) -> list[str]:
    """Bracketed tokens that look like markers but are not valid ones ("[F]", "[source 2]")."""
    clean = MARKER.sub("", sentence)
    return [m.group(0) for m in _ANY_BRACKET.finditer(clean) if re.search(r"(?i)f\d|doc|source|chunk|\d", m.group(0))]
