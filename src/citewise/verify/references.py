"""Legal references in an answer sentence checked against its cited sources (reference-systems.md,
E): each reference ("Article 6(1)", "Điều 17", "khoản 2 Điều 5") must occur in a cited fragment
(its text, heading or label), and the words around it in the sentence must match the words
around it in the source (coverage of content words and word pairs, threshold in settings).

Rendering for people: ``Article 6(1) [GDPR]``, ``Article 6(1) [⚠ context mismatch, see GDPR]``,
``⚠ [invalid citation: Article 6(1)]``."""

from __future__ import annotations

import re

from citewise.answer.records import Fragment
from citewise.lang import fold, folded_words, visible
from citewise.refs.query import provision_refs
from citewise.textmatch import coverage
from citewise.verify.records import ReferenceCheck

CONTEXT_CHARS = 200


def _norm(text: str) -> str:
    return folded_words(visible(text))


def _context(text: str, start: int, end: int, chars: int = CONTEXT_CHARS) -> str:
    return text[max(0, start - chars) : start] + " " + text[end : end + chars]


_NUMBER = re.compile(r"\(?\b\d+/\d{2,4}(?:/[^\s,;)]+)?")


def short_name(title: str, limit: int = 40) -> str:
    """A document as a bracket in a sentence can carry it: its type and number where the title has a
    number ("Thông tư số 21/2024/TT-HHBH quy định về ..." -> "Thông tư 21/2024/TT-HHBH", "Regulation
    (FR) 2024/17 of ..." -> "Regulation (FR) 2024/17"), else the title, shortened."""
    title = " ".join(title.split())
    m = _NUMBER.search(title)
    if m is not None:
        head = [w for w in title[: m.start()].split() if w.lower() not in ("số", "no.", "no")]
        kind = " ".join(head) if len(" ".join(head)) <= 30 else ""
        prefix = title[m.start() - 1 : m.start()] if m.start() and title[m.start() - 1] == "(" else ""
        return f"{kind} {prefix}{m.group(0)}".strip()
    return title if len(title) <= limit else title[: limit - 1].rstrip() + "…"


def check_references(sentence: str, cited: list[Fragment], threshold: float = 0.5) -> list[ReferenceCheck]:
    """One check per reference the sentence names, in order."""
    out: list[ReferenceCheck] = []
    for ref in provision_refs(sentence):
        core = _norm(ref.raw)
        around = _context(sentence, ref.start, ref.end)
        best: ReferenceCheck | None = None
        for f in cited:
            chunk = f.evidence.chunk
            title = f.evidence.doc_title
            if core in _norm(f"{chunk.label} {chunk.header}"):
                # the fragment is the provision itself: its text is the context
                ctx = coverage(around, f.text) if around.strip() else 1.0
            else:
                folded = fold(visible(f.text)).lower()
                m = re.search(r"\s+".join(re.escape(p) for p in core.split()), folded)
                if m is None:
                    continue
                ctx = coverage(around, _context(f.text, m.start(), m.end())) if around.strip() else 1.0
            status = "valid" if ctx >= threshold else "mismatch"
            cand = ReferenceCheck(ref.raw, status, short_name(title), round(ctx, 3))
            if best is None or cand.context > best.context:
                best = cand
        out.append(best or ReferenceCheck(ref.raw, "invalid"))
    return out


def render_references(sentence: str, checks: list[ReferenceCheck]) -> str:
    """The sentence with each checked reference marked for a reader."""
    out = sentence
    pos = 0
    for c in checks:
        i = out.find(c.raw, pos)
        if i < 0:
            continue
        if c.status == "valid":
            rendered = f"{c.raw} [{c.source}]"
        elif c.status == "mismatch":
            rendered = f"{c.raw} [⚠ context mismatch, see {c.source}]"
        else:
            rendered = f"⚠ [invalid citation: {c.raw}]"
        out = out[:i] + rendered + out[i + len(c.raw) :]
        pos = i + len(rendered)
    return out
