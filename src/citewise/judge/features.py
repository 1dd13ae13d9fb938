"""Zero-token features of a (question, sentence) pair for the fast tier of the answerability judge.

They read what word overlap misses: whether the sentence holds an answer of the kind asked ("bao lâu"
wants a duration), which of the question's salient terms (names, figures, quoted words) the sentence
and its provision never mention, figures of the question absent from the sentence, negation on one
side only, and how the sentence's coverage of the question compares with its provision's (a
provision about the right topic whose every sentence misses the point)."""

from __future__ import annotations

import math
import re

from citewise.judge.qtype import TYPES, holds_answer_type
from citewise.lang import fold
from citewise.textmatch import content_words, coverage, words

_QTYPE_FLAGS = [t for t in TYPES if t not in ("place", "reason")]
FEATURES: list[str] = [
    "cov_sentence",
    "cov_context",
    "cov_ratio",
    "unigram_overlap",
    "type_held",
    "type_held_context",
    "salient_missing_sentence",
    "salient_missing_context",
    "figures_missing_sentence",
    "negation_question",
    "negation_sentence",
    "sentence_words",
    "question_words",
    "vi",
    *(f"qtype_{t}" for t in _QTYPE_FLAGS),
]

_NUM = re.compile(r"\d+(?:[.,]\d+)*")
_QUOTED = re.compile(r"[\"“«'‘]([^\"”»'’]{2,40})[\"”»'’]")
_CAP = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-ZĐÀ-Ỹ][\w\u00C0-\u1EF9-]{1,})", re.U)
_NEG = re.compile(r"\b(not|no|never|none|nor|without|except|khong|chua|chang|tru|ngoai tru)\b", re.I)
_QWORDS = frozenset(
    "what which who whom whose when where why how is are does do did can may must shall should will "
    "gi nao ai dau sao bao nhieu lau khong".split()
)


def salient_terms(question: str) -> set[str]:
    """The question's names, figures and quoted words, as folded, stemmed words."""
    found: list[str] = _NUM.findall(question)
    found += _QUOTED.findall(question)
    found += [m.group(1) for m in _CAP.finditer(question.strip())]
    out: set[str] = set()
    for term in found:
        out.update(w for w in words(term) if w not in _QWORDS)
    return out


def _missing(terms: set[str], text: str) -> float:
    if not terms:
        return 0.0
    have = set(words(text))
    return sum(t not in have for t in terms) / len(terms)


def pair_features(question: str, qtype: str, sentence: str, context: str, lang: str) -> list[float]:
    """The ``FEATURES`` of ``sentence`` (inside ``context``, its provision with header) for ``question``."""
    cov_s = coverage(question, sentence)
    cov_c = coverage(question, context)
    qc = content_words(question) - _QWORDS
    overlap = len(qc & content_words(sentence)) / len(qc) if qc else 0.0
    salient = salient_terms(question)
    q_figures = set(_NUM.findall(question))
    s_figures = set(_NUM.findall(sentence))
    fq, fs = fold(question).lower(), fold(sentence).lower()
    flags = [1.0 if qtype == t else 0.0 for t in _QTYPE_FLAGS]
    return [
        cov_s,
        cov_c,
        cov_s / max(cov_c, 0.05),
        overlap,
        1.0 if holds_answer_type(qtype, sentence) else 0.0,
        1.0 if holds_answer_type(qtype, context) else 0.0,
        _missing(salient, sentence),
        _missing(salient, context),
        float(len(q_figures - s_figures)),
        1.0 if _NEG.search(fq) else 0.0,
        1.0 if _NEG.search(fs) else 0.0,
        math.log1p(len(words(sentence))),
        math.log1p(len(words(question))),
        1.0 if lang == "vi" else 0.0,
        *flags,
    ]
