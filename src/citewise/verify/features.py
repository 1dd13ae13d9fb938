"""Features of a (claim, source) pair for the support scorer, all computed in code in about a
millisecond: coverage of the claim's content words, word pairs and word triples by its
best-matching run of source sentences and by the whole source; the longest shared word run;
words the source lacks; figures (numbers.py), legal references, negation and modality
agreement (cues.py); lengths. The names in ``FEATURES`` are the columns the model was trained on."""

from __future__ import annotations

import bisect
import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from citewise.chunk.sentences import sentence_spans
from citewise.figures import extract_numbers
from citewise.lang import detect_language, fold, folded_words
from citewise.refs.query import provision_refs
from citewise.textmatch import STOPWORDS, stem, words
from citewise.verify.cues import (
    Cues,
    content_tokens,
    cues,
    flips,
    modal_swaps,
    negated_words,
    scope_added,
    subject_swap,
    swapped_roles,
)
from citewise.verify.paraphrase import canonical_words
from citewise.verify.persons import in_source_persons

FEATURES: tuple[str, ...] = (
    "uni_best",
    "bi_best",
    "tri_best",
    "uni_all",
    "bi_all",
    "run_best",
    "novel",
    "caps_cov",
    "num_claim",
    "num_missing",
    "ref_missing",
    "neg_claim_only",
    "neg_source_only",
    "neg_flip",
    "oblig_lost",
    "perm_for_oblig",
    "modal_flip",
    "flip",
    "roles",
    "num_context",
    "order",
    "half_min",
    "exact_cov",
    "len_claim",
    "len_ratio",
    "vi",
    "para_cov",
    "para_bi",
    "scope_added",
    "subject_swap",
)
WINDOW = 3
"""Runs of up to this many consecutive source sentences are matched against the claim."""


@dataclass(frozen=True)
class _Sentence:
    start: int
    end: int
    words: tuple[str, ...]


@dataclass(frozen=True)
class _Source:
    text: str
    sentences: tuple[_Sentence, ...]
    words: frozenset[str]
    pairs: frozenset[tuple[str, str]]
    numbers: frozenset[str]
    folded: str


@dataclass(frozen=True)
class PairFeatures:
    values: np.ndarray
    """One value per name in ``FEATURES``."""
    span: tuple[int, int]
    """The best-matching run of source sentences (offsets in the source)."""

    def named(self) -> dict[str, float]:
        return {n: round(float(v), 4) for n, v in zip(FEATURES, self.values, strict=True)}


@lru_cache(maxsize=256)
def _source(text: str) -> _Source:
    """A source split and tokenised once: the fragments of an answer are scored against every sentence."""
    spans = sentence_spans(text) or [(0, len(text))]
    sents = tuple(_Sentence(s, e, tuple(words(text[s:e]))) for s, e in spans)
    all_words = [w for s in sents for w in s.words]
    pairs = frozenset(p for s in sents for p in itertools.pairwise(s.words))
    return _Source(
        text,
        sents,
        frozenset(all_words),
        pairs,
        frozenset(extract_numbers(text)),
        " " + folded_words(text) + " ",
    )


def _caps(claim: str) -> set[str]:
    """Names and codes of the claim: capitalised words not opening it, words with digits."""
    toks = claim.split()
    out = set()
    for i, t in enumerate(toks):
        t = t.strip(".,;:()[]\"'“”‘’!?")
        if len(t) < 2:
            continue
        if any(ch.isdigit() for ch in t) or (i > 0 and t[0].isupper()):
            out.add(fold(t).lower())
    return out


def _longest_run(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    """Longest run of words ``a`` and ``b`` share (dynamic programming, both short)."""
    if not a or not b:
        return 0
    prev = [0] * (len(b) + 1)
    best = 0
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b):
            if x == y:
                cur[j + 1] = prev[j] + 1
                if cur[j + 1] > best:
                    best = cur[j + 1]
        prev = cur
    return best


def _in_order(claim: tuple[str, ...], window: tuple[str, ...]) -> float:
    """Share of the claim's matched content words that come in the window's order (the longest
    increasing run of their first positions there): low when roles or clauses are swapped."""
    first: dict[str, int] = {}
    for i, w in enumerate(window):
        first.setdefault(w, i)
    pos = [first[w] for w in dict.fromkeys(claim) if w in first and w not in STOPWORDS]
    if len(pos) < 2:
        return 1.0
    tails: list[int] = []
    for p in pos:
        k = bisect.bisect_left(tails, p)
        if k == len(tails):
            tails.append(p)
        else:
            tails[k] = p
    return len(tails) / len(pos)


def _number_context(claim: tuple[str, ...], window: tuple[str, ...]) -> float:
    """Share of the claim's figures that stand next to the same word as in the window ("02
    năm" stays "02 năm"): a figure moved to another place in the provision scores low."""
    nums = [i for i, w in enumerate(claim) if w.isdigit()]
    if not nums:
        return 1.0
    pairs = set(itertools.pairwise(window))
    ok = sum(
        1
        for i in nums
        if (i > 0 and (claim[i - 1], claim[i]) in pairs) or (i + 1 < len(claim) and (claim[i], claim[i + 1]) in pairs)
    )
    return ok / len(nums)


def _half_min(claim: tuple[str, ...], window: set[str]) -> float:
    """The lower coverage of the claim's two halves: one half from elsewhere shows here."""
    content = [w for w in claim if w not in STOPWORDS]
    if len(content) < 4:
        return 1.0
    mid = len(content) // 2
    return min(sum(w in window for w in part) / len(part) for part in (content[:mid], content[mid:]))


def _polarity(claim: Cues, window: Cues) -> tuple[float, float, float, float]:
    """Negation only in the claim, only in the source window; shared words negated on one side
    and not on the other; shared words under an obligation on one side and a permission on the other."""
    claim_only = float(bool(claim.negation) and not window.negation)
    source_only = float(bool(window.negation) and not claim.negation)
    shared = content_tokens(claim.tokens) & set(window.tokens)
    nc, nw = negated_words(claim) & shared, negated_words(window) & shared
    stems = {stem(t) for t in content_tokens(claim.tokens)}
    stems &= {stem(t) for t in window.tokens}
    return claim_only, source_only, min(3, len(nc ^ nw)) / 3.0, min(3, modal_swaps(claim, window, stems)) / 3.0


def _paraphrase_coverage(claim: str, window: str) -> tuple[float, float]:
    """Coverage of the claim's content words and word pairs by the window once both are read
    through the paraphrase classes ("tell" = "notify", "trong vòng" = "trong thời hạn")."""
    cw, ww = canonical_words(claim), canonical_words(window)
    content = {w for w in cw if w not in STOPWORDS}
    pairs = {p for p in itertools.pairwise(cw) if not (p[0] in STOPWORDS and p[1] in STOPWORDS)}
    uni = len(content & set(ww)) / len(content) if content else 1.0
    bi = len(pairs & set(itertools.pairwise(ww))) / len(pairs) if pairs else uni
    return uni, bi


def pair_features(claim: str, source: str) -> PairFeatures:
    """The features of ``claim`` against ``source`` and the source span that matches it best. Party nouns
    the source speaks of by pronoun are read as those pronouns (persons.py)."""
    claim = in_source_persons(claim, source)
    src = _source(source)
    cw = tuple(words(claim))
    content = {w for w in cw if w not in STOPWORDS}
    pairs = {p for p in itertools.pairwise(cw) if not (p[0] in STOPWORDS and p[1] in STOPWORDS)}
    triples = set(zip(cw, cw[1:], cw[2:], strict=False))
    best = (-1.0, 0, 0)
    best_vals = (0.0, 0.0, 0.0)
    n = len(src.sentences)
    for i in range(n):
        wset: set[str] = set()
        pset: set[tuple[str, str]] = set()
        tset: set[tuple[str, str, str]] = set()
        for j in range(i, min(i + WINDOW, n)):
            ws = src.sentences[j].words
            wset.update(ws)
            pset.update(itertools.pairwise(ws))
            tset.update(zip(ws, ws[1:], ws[2:], strict=False))
            u = len(content & wset) / len(content) if content else 1.0
            b = len(pairs & pset) / len(pairs) if pairs else u
            t = len(triples & tset) / len(triples) if triples else b
            score = u + b + 0.5 * t - 0.01 * (j - i)
            if score > best[0]:
                best = (score, i, j)
                best_vals = (u, b, t)
    _, i, j = best
    start, end = src.sentences[i].start, src.sentences[j].end
    window_words = tuple(w for s in src.sentences[i : j + 1] for w in s.words)
    window_text = source[start:end]
    uni_all = len(content & src.words) / len(content) if content else 1.0
    bi_all = len(pairs & src.pairs) / len(pairs) if pairs else uni_all
    run = _longest_run(cw, window_words) / max(1, len(cw))
    novel = math.log1p(len(content - src.words))
    caps = _caps(claim)
    caps_cov = sum(1 for c in caps if f" {c}" in src.folded or c in src.folded) / len(caps) if caps else 1.0
    nums = extract_numbers(claim)
    have = set(src.numbers) | {x.rstrip("%") for x in src.numbers}
    num_missing = sum(1 for x in nums if x not in have) / len(nums) if nums else 0.0
    refs = provision_refs(claim)
    ref_missing = sum(1 for r in refs if folded_words(r.raw) not in src.folded) / len(refs) if refs else 0.0
    cc, wc = cues(claim), cues(window_text)
    neg_claim_only, neg_source_only, neg_flip, modal_flip = _polarity(cc, wc)
    oblig_lost = float(bool(cc.obligation) and not wc.obligation)
    perm_for_oblig = float(bool(cc.permission) and not wc.permission and bool(wc.obligation)) + float(
        bool(cc.obligation) and not wc.obligation and bool(wc.permission)
    )
    window_set = set(window_words)
    para_cov, para_bi = _paraphrase_coverage(claim, window_text)
    exact_claim = content_tokens(cc.tokens)
    exact_cov = len(exact_claim & set(wc.tokens)) / len(exact_claim) if exact_claim else 1.0
    values = np.array(
        [
            best_vals[0],
            best_vals[1],
            best_vals[2],
            uni_all,
            bi_all,
            run,
            novel,
            caps_cov,
            float(bool(nums)),
            num_missing,
            ref_missing,
            neg_claim_only,
            neg_source_only,
            neg_flip,
            oblig_lost,
            perm_for_oblig,
            modal_flip,
            min(2, flips(cc, wc)) / 2.0,
            min(2, swapped_roles(cc, wc)) / 2.0,
            _number_context(cw, window_words),
            _in_order(cw, window_words),
            _half_min(cw, window_set),
            exact_cov,
            math.log1p(len(content)),
            len(cw) / max(1, len(window_words)),
            float(detect_language(claim) == "vi"),
            para_cov,
            para_bi,
            min(2, scope_added(cc, wc)) / 2.0,
            subject_swap(cc, wc),
        ],
        dtype=np.float64,
    )
    return PairFeatures(values, (start, end))
