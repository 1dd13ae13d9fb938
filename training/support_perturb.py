"""Reworded near-misses: the supported claims of the written support pairs (and each premise itself), edited
into claims their premise does not support — a figure changed, a counterpart swapped (a party, a bound, an
exception: ``cues.FLIPS``), a negation added or dropped, an obligation made a permission (or back), a
condition dropped, a fact of another provision spliced on.

Why: the written pairs' supported claims are all reworded and their unsupported ones mostly near-verbatim
edits of the premise, so a pair classifier trained on them learns "reworded means supported" (runs r8/r8b/r9,
docs/judge-training.md, session 10). Here the same reworded claim is on both sides of the line, so only the
edit tells them apart. Deterministic (a fixed seed); each pair keeps its row's split (train / dev by article)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from citewise.verify.cues import FLIPS
from training.support_pairs import WRITTEN, Pair, _first_sub
from training.support_synth import _drop_negation, _number

_EN_NEG = [
    (r"\b(must|shall|may|will|should) not\b", r"\1"),
    (r"\bcannot\b", "can"),
    (r"\bdoes not have to\b", "has to"),
    (r"\b(must|shall|may|will|should|can)\b", r"\1 not"),
    (r"\bhas to\b", "does not have to"),
    (r"\bhave to\b", "do not have to"),
    (r"\b(is|are)\b", r"\1 not"),
]
_EN_MOD = [
    (r"\b(must|shall|has to|have to|is required to|are required to)\b", "may"),
    (r"\bmay\b", "must"),
    (r"\bcan\b", "must"),
]
_VI_NEG = [
    (r"\bkhông được\b", "được"),
    (r"\bkhông phải\b", "phải"),
    (r"\bphải\b", "không phải"),
    (r"\bđược\b", "không được"),
    (r"\bcó thể\b", "không thể"),
    (r"\bcó\b", "không có"),
]
_VI_MOD = [(r"\bphải\b", "có thể"), (r"\bbắt buộc\b", "có thể"), (r"\bcó thể\b", "phải"), (r"\bđược\b", "phải")]
_COND = {
    "en": re.compile(
        r",?\s*\b(?:if|where|unless|provided that|as long as|only if|when|before|after|within)\b[^,.;]{3,}[,]?",
        re.I,
    ),
    "vi": re.compile(
        r",?\s*\b(?:nếu|trừ trường hợp|trừ khi|trong trường hợp|khi|trước khi|sau khi|trong thời hạn|trong vòng)"
        r"\b[^,.;]{3,}[,]?",
        re.I,
    ),
}
_JOIN = {"en": ", and ", "vi": ", đồng thời "}


def _has(term: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(term)}(?!\w)", text, re.I) is not None


def _flip(claim: str, premise: str, rng: random.Random) -> str | None:
    """A counterpart swapped in (a party, a bound, an exception, a direction) that the premise does not name: with
    both parties in the premise ("the controller and the processor"), naming the other one may still be true."""
    found = [(a, b) for a, b in FLIPS if _has(a, claim) and not _has(b, premise)]
    found += [(b, a) for a, b in FLIPS if _has(b, claim) and not _has(a, premise)]
    if not found:
        return None
    a, b = rng.choice(sorted(found))
    m = re.search(rf"(?<!\w){re.escape(a)}(?!\w)", claim, re.I)
    return None if m is None else claim[: m.start()] + b + claim[m.end() :]


def _negate(claim: str, lang: str) -> str | None:
    return _first_sub(_VI_NEG if lang == "vi" else _EN_NEG, claim, re.I) or _drop_negation(claim, lang)


def _modal(claim: str, lang: str) -> str | None:
    return _first_sub(_VI_MOD if lang == "vi" else _EN_MOD, claim, re.I)


def _drop_condition(claim: str, lang: str) -> str | None:
    """The claim without its first condition or time clause, when enough of it is left to be a statement."""
    m = _COND[lang].search(claim)
    if m is None:
        return None
    out = (claim[: m.start()] + " " + claim[m.end() :]).strip()
    out = re.sub(r"\s+([,.;])", r"\1", re.sub(r"\s{2,}", " ", out)).strip(" ,")
    if len(out.split()) < 5 or len(out.split()) > len(claim.split()) - 2:
        return None
    return out[:1].upper() + out[1:]


def _splice(claim: str, other: str, lang: str) -> str:
    return claim.rstrip(" .") + _JOIN[lang] + other[:1].lower() + other[1:].rstrip(" .") + "."


def perturbed_pairs(lang: str, folder: Path = WRITTEN, seed: int = 29) -> Iterator[Pair]:
    """For every supported written claim and every premise (as a claim of itself): each edit above that applies,
    unsupported by the premise. Kinds ``pert-<edit>``; dataset ``written-pert-<lang>``."""
    path = folder / f"support_written_{lang}.jsonl"
    if not path.exists():
        return
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rng = random.Random(seed)
    edits: dict[str, Callable[[str, str], str | None]] = {  # (claim, premise) -> the edited claim, or None
        "figure": lambda c, _p: _number(c, rng),
        "flip": lambda c, p: _flip(c, p, rng),
        "negation": lambda c, _p: _negate(c, lang),
        "modality": lambda c, _p: _modal(c, lang),
        "condition": lambda c, _p: _drop_condition(c, lang),
    }
    premises: dict[str, dict[str, str]] = {}
    for r in rows:
        premises.setdefault(r["premise"], r)
    claims = [(r["claim"], r) for r in rows if r["label"] == "supported"]
    claims += [(p, r) for p, r in premises.items()]
    dataset = f"written-pert-{lang}"
    for claim, r in claims:
        premise = r["premise"]
        group = f"written:{premise[:80]}"
        seen = {claim}
        for name, edit in edits.items():
            out = edit(claim, premise)
            if out and out not in seen:
                seen.add(out)
                yield Pair(out, premise, "unsupported", dataset, r["split"], f"pert-{name}", group)
        others = [o for o, q in claims if q["premise"] != r["premise"] and q["split"] == r["split"]]
        if others:
            spliced = _splice(claim, rng.choice(others), lang)
            yield Pair(spliced, premise, "unsupported", dataset, r["split"], "pert-splice", group)
