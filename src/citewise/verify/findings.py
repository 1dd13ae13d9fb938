"""What the explicit checks of a claim against its source found, in words a reader can check in the source: parties
or sides named in the other order, one side of a pair said for the other ("including" for "except", "may" for
"must"), a negation one side has and the other lacks, a scope word the source does not say ("always", "chỉ"), a value
the source gives for something else or with another bound (values.py).

The support scorer reads the same cues as numbers (features.py); these are the reasons a verdict shows when a
sentence is not supported. Figures, units, references and URLs are reported by the validator's own checks."""

from __future__ import annotations

from citewise.lang import detect_language
from citewise.verify.cues import (
    NEGATION,
    OBLIGATION,
    PERMISSION,
    Cues,
    content_tokens,
    cues,
    flipped,
    modal_swaps,
    negated_words,
    scope_words,
    swapped,
)
from citewise.verify.persons import in_source_persons
from citewise.verify.values import read_value_statement


def _said(c: Cues, ends: tuple[int, ...], phrases: tuple[tuple[str, ...], ...]) -> str:
    """The first cue phrase of ``phrases`` ending at one of ``ends``, as written."""
    for e in ends:
        for p in phrases:
            if c.tokens[max(0, e - len(p)) : e] == p:
                return " ".join(p)
    return ""


def findings(claim: str, source: str, span: tuple[int, int] | None = None) -> list[str]:
    """The explicit checks' findings for ``claim`` against ``source`` (read at ``span``, the run of sentences that
    matches the claim best, when given); party nouns the source speaks of by pronoun are read as those pronouns
    (persons.py), as the scorer reads them."""
    reading = read_value_statement(claim, source, detect_language(claim))
    claim = in_source_persons(claim, source)
    window = source[span[0] : span[1]] if span else source
    c, s = cues(claim), cues(window)
    out = [f"names the {a} before the {b}: its source has them the other way round" for a, b in swapped(c, s)]
    # a side the claim negates is the other side restated ("no fee" for "free of charge")
    flips = [(mine, theirs) for mine, theirs in flipped(c, s) if mine.split()[0] not in negated_words(c)]
    out += [f"says “{mine}” where its source says “{theirs}”" for mine, theirs in flips]
    shared = content_tokens(c.tokens) & set(s.tokens)
    if c.negation and not s.negation and content_tokens(negated_words(c)) & shared:
        out.append(f"says “{_said(c, c.negation, NEGATION)}”, a negation its source does not have")
    elif s.negation and not c.negation and content_tokens(negated_words(s)) & shared:
        out.append(f"leaves out the negation of its source (“{_said(s, s.negation, NEGATION)}”)")
    if c.permission and not s.permission and s.obligation and modal_swaps(c, s, shared):
        out.append(
            f"says “{_said(c, c.permission, PERMISSION)}” (a permission) where its source says “"
            f"{_said(s, s.obligation, OBLIGATION)}” (a duty)"
        )
    elif c.obligation and not s.obligation and s.permission and modal_swaps(c, s, shared):
        out.append(
            f"says “{_said(c, c.obligation, OBLIGATION)}” (a duty) where its source says “"
            f"{_said(s, s.permission, PERMISSION)}” (a permission)"
        )
    said = {mine for mine, _ in flips}
    out += [f"says “{w}”, which its source does not" for w in scope_words(c, s) if w in SWEEPING and w not in said]
    if reading is not None and not reading.holds:
        out.append(reading.why)
    return out


SWEEPING = frozenset(
    (
        "always",
        "only",
        "solely",
        "exclusively",
        "regardless",
        "irrespective",
        "automatically",
        "without exception",
        "in all cases",
        "even if",
        "even when",
        "even where",
        "luôn",
        "chỉ",
        "duy nhất",
        "bất kể",
        "trong mọi trường hợp",
        "tự động",
    )
)
"""The scope words a finding names: those that make a rule absolute or exclusive. "Any", "all", "mọi" and the
like are scored by the scorer but not named: restatements use them for what the source says in the plural."""
