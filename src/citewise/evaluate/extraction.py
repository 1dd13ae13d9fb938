"""How faithfully text was extracted from a file, against a reference text: word recall and
precision (as multisets), a word-sequence similarity and a character similarity, all on
NFC-normalised text. The ingest benchmark measures the parsers (PDF backends, HTML) with them."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter

_WORD = re.compile(r"\w+")


def norm_ws(text: str) -> str:
    """NFC, table cell separators removed, whitespace collapsed (for text comparison)."""
    return " ".join(unicodedata.normalize("NFC", text).replace("|", " ").split())


def word_scores(reference: str, extracted: str) -> dict[str, float | int | None]:
    """Multiset word recall/precision and a word-sequence similarity of ``extracted`` vs ``reference``
    (recall None for an empty reference, precision None for an empty extraction)."""
    ref = _WORD.findall(unicodedata.normalize("NFC", reference))
    ext = _WORD.findall(unicodedata.normalize("NFC", extracted))
    common = sum((Counter(ref) & Counter(ext)).values())
    seq = difflib.SequenceMatcher(None, ref, ext, autojunk=False).ratio()
    return {
        "ref_words": len(ref),
        "extracted_words": len(ext),
        "word_recall": round(common / len(ref), 4) if ref else None,
        "word_precision": round(common / len(ext), 4) if ext else None,
        "word_sequence_ratio": round(seq, 4),
    }


def char_ratio(reference: str, extracted: str) -> float:
    """difflib ratio on whitespace-normalised text (autojunk off: every character counts)."""
    return difflib.SequenceMatcher(None, norm_ws(reference), norm_ws(extracted), autojunk=False).ratio()
