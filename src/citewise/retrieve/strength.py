"""Evidence strength: how well what was found covers the question, measured once per search and
read by the weak-evidence rule (refuse without generating), the answer's confidence, evaluation and
calibration alike."""

from __future__ import annotations

from collections.abc import Sequence

from citewise.retrieve.records import Evidence, Strength
from citewise.retrieve.wording import wordings
from citewise.textmatch import case_coverage, without_cover

TOP = 3
"""How many of the best found (not supporting) items the strength reads."""


def read(evidence: Sequence[Evidence]) -> list[Evidence]:
    """The items the strength reads: the best ``TOP`` found (not supporting) ones."""
    return [e for e in evidence if not e.supporting][:TOP]


def measure(question: str, evidence: Sequence[Evidence], searched: bool = True) -> Strength:
    """Best cosine and best question coverage (in either of its wordings) of the top ``TOP`` found items, and whether
    any found item is of a provision the question names (pinned or not)."""
    found = [e for e in evidence if not e.supporting]
    if not searched or not found:
        return Strength(None, 0.0, False, False)
    top = read(found)
    dense = [e.dense for e in top if e.dense is not None]
    # "Is a storm with 60 km/h winds covered?" is asked of a clause on storms; in the question's words or in the
    # provisions' ("kẻ trộm không phá cửa" is "không có dấu hiệu đột nhập" in a policy)
    asked = [without_cover(w) for w in wordings(question)]
    cov = max(case_coverage(a, f"{e.chunk.header} {e.text}") for e in top for a in asked)
    return Strength(max(dense) if dense else None, cov, any(e.pinned or e.named for e in found), True)


def limits(lang: str, weak_dense: dict[str, float], weak_coverage: dict[str, float]) -> tuple[float, float]:
    """The (cosine, coverage) limits of ``lang``; a language without its own takes the lowest given."""
    dense = weak_dense.get(lang, min(weak_dense.values(), default=0.8))
    cov = weak_coverage.get(lang, min(weak_coverage.values(), default=0.5))
    return dense, cov
