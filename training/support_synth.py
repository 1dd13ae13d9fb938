"""Constructed claim/source pairs from law texts, for training the support scorer on what answer
sentences do to their sources: restate one list item under its lead-in, keep one item of an
enumeration, drop a parenthesis (supported) — or flip an exception ("trừ" -> "kể cả", "except"
-> "including"), swap a bound or a direction ("tối đa" -> "tối thiểu", "before" -> "after"),
change a figure, insert or drop a negation, swap "shall"/"may", cite the most similar other
article, or splice two provisions (unsupported).

Texts are read by path from the shared data sets (ALQAC 2022 laws and the Vietnamese insurance
law for Vietnamese; GDPR and the EU AI Act for English); nothing is copied. ALQAC 2023 laws are
never used: its natural true/false statements are the held-out Vietnamese test. The pairs are
made deterministically (a fixed seed) and split by article like the natural sets."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

from citewise.chunk.sentences import sentence_spans
from citewise.figures import extract_numbers
from citewise.jsonlines import json_lines
from citewise.textmatch import content_words, coverage
from citewise.verify.cues import FLIPS
from training.support_pairs import _EN_MODAL, _EN_NEGATE, _VI_MODAL, _VI_NEGATE, Pair, _first_sub, split_of

_LABEL = re.compile(r"^\s*(?:\d+[.)]|[a-zđ][.)]|\([a-z0-9]+\)|[-–•])\s*", re.I)
_LEAD_TAIL = re.compile(r"\s*(?:sau đây|như sau|sau|the following|as follows)?\s*:\s*$", re.I)
_PAREN = re.compile(r"\s*\([^()]{3,80}\)")
_DOUBLE_NEGATION = re.compile(r"\b(?:không|chưa|not) (?:không|not)\b", re.I)
SOURCE_CHARS = 900
"""Sources are cut to about the size of a cited fragment around the sentence."""


def _jsonl(path: Path) -> Iterator[dict[str, str]]:
    with path.open(encoding="utf-8") as f:
        for _, r in json_lines(f):
            yield r


def _units_vi(root: Path) -> Iterator[tuple[str, str]]:
    for law in json.loads((root / "alqac2022" / "law.json").read_text(encoding="utf-8")):
        for a in law["articles"]:
            yield f"alqac2022-law:{law['id']}:{a['id']}", a["text"]
    for r in _jsonl(root / "vn_insurance_law_phapdien" / "phapdien_kinh_doanh_bao_hiem_articles.jsonl"):
        yield f"phapdien:{r['phapdien_id']}", r["text"]


def _units_en(root: Path) -> Iterator[tuple[str, str]]:
    for name, path in (
        ("gdpr", root / "gdpr_en" / "gdpr_en_units.jsonl"),
        ("aiact", root / "eu_ai_act" / "eu_ai_act_en_units.jsonl"),
    ):
        for r in _jsonl(path):
            yield f"{name}:{r['id']}", r["text"]


def _window(text: str, spans: list[tuple[int, int]], i: int) -> str:
    """The sentence ``i`` with neighbours on both sides, up to about ``SOURCE_CHARS``."""
    lo, hi = i, i
    while True:
        grown = False
        if lo > 0 and spans[hi][1] - spans[lo - 1][0] <= SOURCE_CHARS:
            lo, grown = lo - 1, True
        if hi + 1 < len(spans) and spans[hi + 1][1] - spans[lo][0] <= SOURCE_CHARS:
            hi, grown = hi + 1, True
        if not grown:
            return text[spans[lo][0] : spans[hi][1]]


def _clean(s: str) -> str:
    s = _LABEL.sub("", s.strip()).strip()
    s = s.rstrip(";,.:") + "."
    return s[:1].upper() + s[1:]


def _supported(sents: list[str], i: int, lang: str, rng: random.Random) -> tuple[str, str] | None:
    """An answer-like restatement of sentence ``i``: its list item under the lead-in, one item of
    an enumeration, or the sentence without a parenthesis or its label."""
    s = sents[i]
    lead = next((sents[j] for j in range(i - 1, max(-1, i - 12), -1) if sents[j].rstrip().endswith(":")), None)
    if lead and _LABEL.match(s):
        head = _LEAD_TAIL.sub("", _LABEL.sub("", lead.strip()))
        item = _LABEL.sub("", s.strip()).rstrip(";,.")
        joiner = ": " if rng.random() < 0.5 else (" là " if lang == "vi" else " includes ")
        return "lead-item", head + joiner + item[:1].lower() + item[1:] + "."
    parts = [p for p in re.split(r";\s+", s) if len(p.split()) >= 5]
    if len(parts) >= 2:
        return "one-of-list", _clean(rng.choice(parts))
    if _PAREN.search(s):
        return "no-parenthesis", _clean(_PAREN.sub("", s, count=1))
    return "restated", _clean(s)


_DROPPABLE = {
    "vi": ("các", "những", "của", "thì", "việc", "đó", "đầy", "sau đây", "trong thời hạn"),
    "en": ("the", "a", "an", "having", "also", "such", "in particular", "where relevant", "any"),
}
_SAME = {
    "vi": (("phải", "có nghĩa vụ"), ("có quyền", "được quyền"), ("kể từ ngày", "kể từ khi"), ("đầy đủ", "đủ")),
    "en": (("shall", "must"), ("may", "can"), ("in accordance with", "under"), ("not later than", "no later than")),
}
_TRAILING_REF = re.compile(
    r",?\s*(?:theo quy định (?:tại|của) [^,.;]+|của (?:Bộ luật|Luật|Nghị định) này|"
    r"as (?:required|referred to|provided for|laid down) (?:by|in) [^,.;]+|of this (?:Regulation|Directive))\s*\.$",
)


def _harmless(claim: str, lang: str, rng: random.Random) -> str:
    """What an answer does to a provision without changing what it says: a function word
    dropped, an equivalent phrasing, an inflection, a trailing reference left out, the opening
    clause moved to the end."""
    edits = rng.sample(range(5), 2)
    for e in edits:
        if e == 0:
            options = [w for w in _DROPPABLE[lang] if re.search(rf"(?<!\w){w}\s", claim[1:])]
            if options:
                w = rng.choice(options)
                claim = re.sub(rf"(?<=\s){w}\s", "", claim, count=1)
        elif e == 1:
            same = [(a, b) for a, b in _SAME[lang] if re.search(rf"(?<!\w){a}(?!\w)", claim)]
            if same:
                a, b = rng.choice(same)
                claim = re.sub(rf"(?<!\w){a}(?!\w)", b, claim, count=1)
        elif e == 2 and lang == "en":
            claim = re.sub(r"\b(\w{3,})ed\b", r"\1ing", claim, count=1) if rng.random() < 0.5 else claim
        elif e == 3:
            claim = _TRAILING_REF.sub(".", claim)
        elif e == 4:
            head, sep, rest = claim.partition(", ")
            if sep and 3 <= len(head.split()) <= 0.4 * len(claim.split()) and rest:
                claim = rest[:1].upper() + rest[1:].rstrip(".") + ", " + head[:1].lower() + head[1:] + "."
    return claim


def _flip(claim: str, rng: random.Random) -> str | None:
    """A bound, direction, exception or party swapped for its counterpart (cues.FLIPS)."""
    low = claim.lower()
    found = [(a, b) for a, b in FLIPS if re.search(rf"(?<!\w){re.escape(a)}(?!\w)", low)]
    found += [(b, a) for a, b in FLIPS if re.search(rf"(?<!\w){re.escape(b)}(?!\w)", low)]
    if not found:
        return None
    a, b = rng.choice(found)
    m = re.search(rf"(?<!\w){re.escape(a)}(?!\w)", claim, re.I)
    if m is None:
        return None
    return claim[: m.start()] + b + claim[m.end() :]


def _number(claim: str, rng: random.Random) -> str | None:
    nums = [m for m in re.finditer(r"(?<![\w.,])\d{1,4}(?![\w.,]\d)", claim)]
    if not nums:
        return None
    m = rng.choice(nums)
    old = int(m.group(0))
    new = old + rng.choice([-2, -1, 1, 2, 3, 10]) if old > 2 else old + rng.choice([1, 2, 3])
    if new <= 0 or str(new) in extract_numbers(claim):
        return None
    return claim[: m.start()] + str(new).zfill(len(m.group(0))) + claim[m.end() :]


def _drop_negation(claim: str, lang: str) -> str | None:
    pat = r"\s(?:không|chưa)\s" if lang == "vi" else r"\s(?:not)\s"
    m = re.search(pat, claim)
    return claim[: m.start()] + " " + claim[m.end() :] if m else None


def synthetic_pairs(root: Path, lang: str, seed: int = 17, per_unit: int = 2) -> Iterator[Pair]:
    """Up to ``per_unit`` sentences of every article, each as one supported restatement and its
    unsupported variants."""
    units = list(_units_vi(root) if lang == "vi" else _units_en(root))
    rng = random.Random(seed)
    words = [content_words(t[:3000]) for _, t in units]
    negate, modal = (_VI_NEGATE, _VI_MODAL) if lang == "vi" else (_EN_NEGATE, _EN_MODAL)
    dataset = f"synth-{lang}"
    for u, (uid, text) in enumerate(units):
        spans = sentence_spans(text)
        sents = [text[s:e] for s, e in spans]
        usable = [i for i, s in enumerate(sents) if 8 <= len(s.split()) <= 80 and not s.lstrip().startswith("(")]
        if not usable:
            continue
        group = f"{dataset}:{uid}"
        split = split_of(group)
        for i in rng.sample(usable, min(per_unit, len(usable))):
            made = _supported(sents, i, lang, rng)
            if made is None:
                continue
            kind, claim = made
            if rng.random() < 0.7:
                claim = _harmless(claim, lang, rng)
            source = _window(text, spans, i)
            yield Pair(claim, source, "supported", dataset, split, kind, group)
            for k, changed in (
                ("flip", _flip(claim, rng)),
                ("number", _number(claim, rng)),
                ("negation", _first_sub(negate, claim) if rng.random() < 0.5 else _drop_negation(claim, lang)),
                ("modality", _first_sub(modal, claim)),
            ):
                if changed and changed != claim and not _DOUBLE_NEGATION.search(changed):
                    yield Pair(changed, source, "unsupported", dataset, split, k, group)
            cw = content_words(claim)
            pool = rng.sample(range(len(units)), min(400, len(units)))
            other = max((v for v in pool if v != u), key=lambda v: len(cw & words[v]))
            ot = units[other][1]
            ospans = sentence_spans(ot)
            if ospans:
                best = max(range(len(ospans)), key=lambda j: len(cw & content_words(ot[ospans[j][0] : ospans[j][1]])))
                if coverage(claim, _window(ot, ospans, best)) >= 0.7:
                    continue  # the law says it twice (a recital and its article): not a wrong source
                yield Pair(claim, _window(ot, ospans, best), "unsupported", dataset, split, "wrong-article", group)
                o = ot[ospans[best][0] : ospans[best][1]]
                half, ohalf = claim.split(), _clean(o).split()
                if len(half) >= 8 and len(ohalf) >= 8:
                    spliced = " ".join(half[: len(half) // 2] + ohalf[len(ohalf) // 2 :])
                    yield Pair(spliced, source, "unsupported", dataset, split, "splice", group)
