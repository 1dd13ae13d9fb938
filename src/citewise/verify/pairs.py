"""Score a file of claim/source pairs with a support scorer (``citewise verify PAIRS.jsonl``): one
JSON object a line with ``claim`` and ``source`` (other keys, such as ``id`` or ``label``, are
carried through). Each pair gets a verdict (supported / partial / unsupported), the score, the
figures of the claim the source lacks, what the explicit checks found when it is not supported (findings.py), and
the source span that matches best."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from citewise.errors import PairsFileError
from citewise.figures import unsupported_numbers
from citewise.jsonlines import JsonLineError, json_lines
from citewise.judge.conditions import swapped_bounds
from citewise.verify.findings import findings
from citewise.verify.scorer import SupportScorer


@dataclass
class PairVerdict:
    line: int
    claim: str
    status: str
    score: float
    evidence: str
    missing_figures: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    """What the explicit checks found (parties, counterparts, negation, modality, scope), for a pair not supported."""
    extra: dict[str, Any] = field(default_factory=dict)
    """The other keys of the input object (``id``, ``label``...)."""
    ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def read_pairs(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open(encoding="utf-8") as fh:
        try:
            lines = list(json_lines(fh))
        except JsonLineError as e:
            raise PairsFileError(f"{path}:{e.line}: not JSON ({e.msg})") from None
        for n, obj in lines:
            if (
                not isinstance(obj, dict)
                or not isinstance(obj.get("claim"), str)
                or not isinstance(obj.get("source"), str)
            ):
                raise PairsFileError(f'{path}:{n}: expected an object with string "claim" and "source"')
            yield n, obj


def verify_pair(scorer: SupportScorer, claim: str, source: str, line: int = 0) -> PairVerdict:
    t = time.perf_counter()
    scored = scorer.score(claim, source)
    missing = unsupported_numbers(claim, [source])
    sides = swapped_bounds(claim, [source])
    status = scorer.status(scored.score, scored.lang)
    if missing or sides:
        status = "unsupported"
    found = [f"bounded on another side than in the source: {b}" for b in sides]
    found += findings(claim, source, scored.span) if status != "supported" else []
    ms = (time.perf_counter() - t) * 1000
    a, b = scored.span
    return PairVerdict(line, claim, status, round(scored.score, 4), source[a:b], missing, found, ms=round(ms, 3))


def verify_pairs(path: Path, scorer: SupportScorer) -> Iterator[PairVerdict]:
    for n, obj in read_pairs(path):
        v = verify_pair(scorer, obj["claim"], obj["source"], n)
        v.extra = {k: val for k, val in obj.items() if k not in ("claim", "source")}
        yield v
