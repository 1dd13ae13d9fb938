"""Polarity and modality cues of English and Vietnamese legal text: negation ("not", "không",
"chưa"), obligation ("shall", "must", "phải") and permission ("may", "có thể", "có quyền").

Cues are found on lower-cased NFC tokens, with diacritics: folded "chua" is both "chưa" (not yet)
and "chứa" (contain), so only unambiguous folded forms ("khong") are accepted for Vietnamese
typed without diacritics."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from citewise.lang import fold, nfc
from citewise.textmatch import STOPWORDS, stem

_TOKEN = re.compile(r"[^\W_]+")

NEGATION: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split())
    for p in (
        "not",
        "no",
        "never",
        "nor",
        "neither",
        "none",
        "cannot",
        "without",
        "không",
        "khong",
        "chưa",
        "chẳng",
        "chớ",
        "đừng",
        "cấm",
    )
)
OBLIGATION: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split())
    for p in (
        "shall",
        "must",
        "required",
        "obliged",
        "obligated",
        "has to",
        "have to",
        "phải",
        "phai",
        "bắt buộc",
        "có trách nhiệm",
        "có nghĩa vụ",
    )
)
PERMISSION: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split())
    for p in (
        "may",
        "can",
        "permitted",
        "entitled",
        "allowed",
        "có thể",
        "có quyền",
        "được phép",
        "được quyền",
    )
)
# "không phải" (is not) and "không thể" (cannot) are negations, not obligations or permissions.
_NOT_MODAL_AFTER = {"không", "khong", "not", "chưa"}
BOUNDS: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split())
    for p in (
        "not later than",
        "no later than",
        "not more than",
        "no more than",
        "not less than",
        "no less than",
        "not fewer than",
        "no fewer than",
        "not exceeding",
        "not to exceed",
        "without undue delay",
        "without delay",
        "without prejudice",
        "không quá",
        "khong qua",
        "không vượt quá",
        "không được quá",
        "không được vượt quá",
        "không muộn hơn",
        "không chậm hơn",
        "không dưới",
        "không ít hơn",
        "không thấp hơn",
        "không cao hơn",
        "không phân biệt",
    )
)
"""Phrases that open with a negation word but state a bound or a manner ("not later than 72 hours",
"không quá 30 ngày", "without undue delay"): the provision is not negated. Their direction is
read by ``FLIPS`` ("không quá" against "ít nhất")."""
LOWER_BOUNDS: tuple[str, ...] = (
    "at least",
    "no less than",
    "not less than",
    "not below",
    "no lower than",
    "not lower than",
    "minimum",
    "ít nhất",
    "tối thiểu",
    "không dưới",
    "không ít hơn",
    "không thấp hơn",
)
"""Words that bound a value from below ("at least 30 days", "ít nhất 30 ngày")."""
UPPER_BOUNDS: tuple[str, ...] = (
    "up to",
    "at most",
    "no more than",
    "not more than",
    "not exceeding",
    "maximum",
    "the most",
    "limit",
    "within",
    "not later than",
    "no later than",
    "longer than",
    "không quá",
    "tối đa",
    "trong thời hạn",
    "trong vòng",
    "chậm nhất",
    "hạn mức",
)
"""Words that bound a value from above, deadlines included ("within 14 days", "không quá 60 ngày")."""


@dataclass(frozen=True)
class Cues:
    tokens: tuple[str, ...]
    negation: tuple[int, ...]
    """Token positions right after each negation cue (where its scope starts)."""
    obligation: tuple[int, ...]
    permission: tuple[int, ...]


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(nfc(text).lower().replace("n't", " not").replace("’t", " not"))


def content_tokens(toks: tuple[str, ...] | set[str]) -> set[str]:
    """The tokens of ``toks`` that carry content: longer than one letter and not stop words (compared folded)."""
    return {t for t in toks if len(t) > 1 and fold(t) not in STOPWORDS}


def _find_with(toks: list[str], phrases: tuple[tuple[str, ...], ...]) -> list[tuple[int, tuple[str, ...]]]:
    """End position and phrase of every phrase occurrence (the first listed phrase at a position)."""
    out = []
    for i in range(len(toks)):
        for p in phrases:
            if tuple(toks[i : i + len(p)]) == p:
                out.append((i + len(p), p))
                break
    return out


def _find(toks: list[str], phrases: tuple[tuple[str, ...], ...]) -> list[int]:
    """End positions of every phrase occurrence."""
    return [e for e, _ in _find_with(toks, phrases)]


def cues(text: str) -> Cues:
    toks = tokens(text)
    bound_starts = {e - len(p) for e, p in _find_with(toks, BOUNDS)}
    neg = [e for e in _find(toks, NEGATION) if e - 1 not in bound_starts]
    obl = [e for e in _find(toks, OBLIGATION) if not (e >= 2 and toks[e - 2] in _NOT_MODAL_AFTER)]
    perm = [e for e in _find(toks, PERMISSION) if not (e >= 2 and toks[e - 2] in _NOT_MODAL_AFTER)]
    return Cues(tuple(toks), tuple(neg), tuple(obl), tuple(perm))


def scoped_words(c: Cues, starts: tuple[int, ...], scope: int = 4) -> set[str]:
    """Words within ``scope`` tokens after the cues that end at ``starts``."""
    out: set[str] = set()
    for start in starts:
        out.update(c.tokens[start : start + scope])
    return out


def negated_words(c: Cues, scope: int = 4) -> set[str]:
    return scoped_words(c, c.negation, scope)


def modal_swaps(claim: Cues, source: Cues, shared: set[str]) -> int:
    """Words (stems) of ``shared`` under an obligation on one side and under a permission, not an
    obligation, on the other ("phải yêu cầu" against "có thể yêu cầu"). A word under a modal on
    one side and under none on the other is not a swap: "The notice period is 14 days." restates
    "must notify within 14 days"."""
    shared = {stem(w) for w in shared}

    def under(c: Cues, starts: tuple[int, ...]) -> set[str]:
        return {stem(w) for w in scoped_words(c, starts)} & shared

    c_obl, c_perm = under(claim, claim.obligation), under(claim, claim.permission)
    s_obl, s_perm = under(source, source.obligation), under(source, source.permission)
    return len((c_obl & s_perm) - s_obl) + len((c_perm & s_obl) - s_perm)


SCOPE: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split())
    for p in (
        "always",
        "any",
        "all",
        "every",
        "regardless",
        "irrespective",
        "whatever",
        "wherever",
        "whenever",
        "even if",
        "even when",
        "even where",
        "in all cases",
        "in any case",
        "without exception",
        "automatically",
        "only",
        "solely",
        "exclusively",
        "mọi",
        "tất cả",
        "luôn",
        "bất kể",
        "bất kỳ",
        "dù",
        "kể cả",
        "trong mọi trường hợp",
        "chỉ",
        "duy nhất",
        "tự động",
        "đều",
    )
)
"""Words that widen or narrow what a provision covers ("always", "any", "only", "mọi", "chỉ"): a claim
that says one its source does not is broader or narrower than the source."""


def scope_words(claim: Cues, source: Cues) -> list[str]:
    """``SCOPE`` phrases the claim says and the source does not."""
    return [" ".join(p) for p in SCOPE if _has(claim.tokens, p) and not _has(source.tokens, p)]


def scope_added(claim: Cues, source: Cues) -> int:
    return len(scope_words(claim, source))


FLIPS: tuple[tuple[str, str], ...] = (
    # exceptions, bounds, directions and parties that reverse a provision when swapped
    ("trừ", "kể cả"),
    ("tối đa", "tối thiểu"),
    ("không quá", "ít nhất"),
    ("trước", "sau"),
    ("tăng", "giảm"),
    ("trên", "dưới"),
    ("cao hơn", "thấp hơn"),
    ("nhiều hơn", "ít hơn"),
    ("cho phép", "cấm"),
    ("quyền", "nghĩa vụ"),
    ("bên mua", "bên bán"),
    ("bên cho thuê", "bên thuê"),
    ("bên cho vay", "bên vay"),
    ("bên mua bảo hiểm", "doanh nghiệp bảo hiểm"),
    ("người lao động", "người sử dụng lao động"),
    ("dân sự", "hình sự"),
    ("cấp xã", "cấp huyện"),
    ("cấp huyện", "cấp tỉnh"),
    ("thường trú", "tạm trú"),
    ("vô hiệu", "có hiệu lực"),
    ("natural person", "legal person"),
    ("high-risk", "low-risk"),
    ("except", "including"),
    ("unless", "if"),
    ("at least", "at most"),
    ("maximum", "minimum"),
    ("before", "after"),
    ("more than", "less than"),
    ("higher", "lower"),
    ("increase", "decrease"),
    ("exceed", "fall below"),
    ("controller", "processor"),
    ("provider", "deployer"),
    ("importer", "distributor"),
    ("buyer", "seller"),
    ("insurer", "insured"),
    ("employer", "employee"),
    ("lessor", "lessee"),
    ("mandatory", "optional"),
    ("rights", "obligations"),
    ("fee", "free of charge"),
    ("current", "preceding"),
    ("hiện tại", "trước liền kề"),
    ("có thu phí", "miễn phí"),
)
_FLIP_TOKENS = tuple((tuple(tokens(a)), tuple(tokens(b))) for a, b in FLIPS)


PARTY_ALIASES: tuple[tuple[str, str], ...] = (
    # another name for one side of a party pair in ``FLIPS``: (alias, side)
    ("insurance company", "insurer"),
    ("insurance undertaking", "insurer"),
    ("the company", "the insurer"),
    ("our company", "our insurer"),
    ("this company", "this insurer"),
    ("công ty bảo hiểm", "doanh nghiệp bảo hiểm"),
    ("nhà bảo hiểm", "doanh nghiệp bảo hiểm"),
    ("người mua bảo hiểm", "bên mua bảo hiểm"),
)
"""Names a provision and its restatement use for the same party ("the company" for the insurer): a claim saying
"the insurer" of a source saying "the company" names the same side of the pair, not its counterpart. Only
"the company" with a determiner: a "travel company" is not the insurer."""
_ALIAS_TOKENS = tuple((tuple(tokens(a)), tuple(tokens(b))) for a, b in PARTY_ALIASES)


@lru_cache(maxsize=1024)
def party_tokens(toks: tuple[str, ...]) -> tuple[str, ...]:
    """``toks`` with every ``PARTY_ALIASES`` name written as the side it names (longest name first)."""
    out: list[str] = []
    i = 0
    while i < len(toks):
        for alias, side in _ALIAS_TOKENS:
            if toks[i : i + len(alias)] == alias:
                out.extend(side)
                i += len(alias)
                break
        else:
            out.append(toks[i])
            i += 1
    return tuple(out)


def _positions(toks: tuple[str, ...], phrase: tuple[str, ...]) -> list[int]:
    n = len(phrase)
    return [i for i in range(len(toks) - n + 1) if toks[i : i + n] == phrase]


def _has(toks: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    return bool(_positions(toks, phrase))


def flipped(claim: Cues, source: Cues) -> list[tuple[str, str]]:
    """Counterpart swaps: the claim says one side of a ``FLIPS`` pair that the source does not
    say, while the source says the other side; (the claim's side, the source's side). Parties are read by their
    sides (``party_tokens``)."""
    c, s = party_tokens(claim.tokens), party_tokens(source.tokens)
    return [
        (" ".join(x), " ".join(y))
        for a, b in _FLIP_TOKENS
        for x, y in ((a, b), (b, a))
        if _has(c, x) and not _has(s, x) and _has(s, y)
    ]


def flips(claim: Cues, source: Cues) -> int:
    return len(flipped(claim, source))


def _mentions(toks: tuple[str, ...], a: tuple[str, ...], b: tuple[str, ...]) -> list[int]:
    """The order in which the two sides are named (0 = ``a``, 1 = ``b``); a side that is part of
    a longer match of the other ("bên mua" in "bên mua bảo hiểm") is not counted twice."""
    hits = [(i, 0, len(a)) for i in _positions(toks, a)] + [(i, 1, len(b)) for i in _positions(toks, b)]
    hits.sort(key=lambda h: (h[0], -h[2]))
    out, end = [], -1
    for i, side, n in hits:
        if i >= end:
            out.append(side)
            end = i + n
    return out


def _subsequence(small: list[int], big: list[int]) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


def swapped(claim: Cues, source: Cues) -> list[tuple[str, str]]:
    """Pairs of ``FLIPS`` the source names both sides of, that the claim names in an order the
    source never does ("the insurer pays the insured" against "the insured pays the insurer", or against "the
    insured pays the company": parties are read by their sides, ``party_tokens``); each pair in the claim's
    order."""
    c, s = party_tokens(claim.tokens), party_tokens(source.tokens)
    out = []
    for a, b in _FLIP_TOKENS:
        src = _mentions(s, a, b)
        if 0 not in src or 1 not in src:
            continue
        mine = _mentions(c, a, b)
        if mine and not _subsequence(mine, src):
            first, second = (a, b) if mine[0] == 0 else (b, a)
            out.append((" ".join(first), " ".join(second)))
    return out


def swapped_roles(claim: Cues, source: Cues) -> int:
    return len(swapped(claim, source))


def subject_swap(claim: Cues, source: Cues, before: int = 6) -> float:
    """1 when the words the claim puts before its first modal ("The European Parliament must submit")
    stand before no modal of the source but elsewhere in it ("the Commission shall submit ... to the
    European Parliament"): another party is made to act. Compared as runs of up to three words, so
    the shared "bảo hiểm" of "bên mua bảo hiểm" and "doanh nghiệp bảo hiểm" does not match. 0 when
    either side has no modal."""
    c_modal = sorted(claim.obligation + claim.permission)
    s_modal = source.obligation + source.permission
    if not c_modal or not s_modal:
        return 0.0

    def content(toks: tuple[str, ...]) -> list[str]:
        return [stem(t) for t in toks if len(t) > 1 and t not in _FUNCTION]

    subject = content(claim.tokens[max(0, c_modal[0] - 1 - before) : c_modal[0] - 1])
    if not subject:
        return 0.0
    n = min(3, len(subject))

    def grams(ws: list[str]) -> set[tuple[str, ...]]:
        return {tuple(ws[i : i + n]) for i in range(len(ws) - n + 1)}

    actors: set[tuple[str, ...]] = set()
    for m in s_modal:
        actors |= grams(content(source.tokens[max(0, m - 1 - before) : m - 1]))
    named = grams(subject) & grams(content(source.tokens))
    return float(bool(named) and not (named & actors))


_FUNCTION = frozenset(
    "the a an this that these those such each any all of and or in on for to by with its their"
    " các những này đó một của và hoặc trong cho với".split()
)
