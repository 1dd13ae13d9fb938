"""Post-validation of a draft, in code, with no LLM tokens: every sentence has a marker naming a
fragment that was given; a written sentence is a statement (not a question, a heading or cut off);
the cited text supports it (a trained support scorer, scorer.py); its
figures, legal references (with their context) and URLs appear in the cited text. Invalid
markers are dropped before anything is shown.

Optionally (``judge=``, off by default) an LLM is asked "is the claim fully supported by the
source?" (entailment.py) for the sentences whose support falls in a borderline band, and a
sentence it answers Yes to with P(Yes) >= ``judge_threshold`` counts as supported."""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.answer.injection import addresses_the_assistant, overlaps, tainted_lines
from citewise.answer.markers import stray_brackets
from citewise.answer.records import Draft, DraftSentence, Fragment
from citewise.chunk.sentences import sentence_spans
from citewise.figures import unsupported_numbers
from citewise.judge.conditions import swapped_bounds
from citewise.judge.units import unit_mismatches
from citewise.verify.entailment import EntailmentJudge, excerpt
from citewise.verify.findings import findings
from citewise.verify.heading import without_heading_words
from citewise.verify.quotes import EXACT, context, locate
from citewise.verify.records import Citation, Verdict
from citewise.verify.references import check_references
from citewise.verify.scorer import SupportScore, SupportScorer, get_scorer, overridden

_URL = re.compile(r"https?://[^\s)\]>\"']+")


_DANGLING = frozenset(
    {"of", "the", "a", "an", "and", "or", "because", "than", "including", "namely", "whose"}
    | {"của", "và", "hoặc", "các", "những", "bởi", "gồm"}
)
"""Words no English or Vietnamese statement ends with: a sentence ending "… because of." or "… bao gồm." is a
list's lead-in or a clause cut short with a full stop put after it (a small model wrote "We will pay up to USD 5,000
… if you must cancel or cut short your trip because of.")."""


def not_a_statement(text: str) -> bool:
    """A written sentence that states nothing: a question ("Thời hạn … là bao lâu?"), a text cut off
    ("Mức khấu trừ là...", or with no closing full stop), the lead-in of a list without its items ("... because
    of:", or closed early: "... because of."), a table row ("Cover | Limit (USD) | Excess (USD)"), a provision's
    heading copied as a sentence ("Điều 3. Thời hạn bảo hiểm"), or a line's tail copied alone ("Điều này.", two
    words). Quoted support cannot make it an answer."""
    t = text.strip()
    found = re.findall(r"[^\W\d_]+", t)
    return (
        t.endswith(("?", "...", "…", ":"))  # a question, a text cut off, a list's lead-in without its items
        or len(found) < 3  # a line's tail
        or (found[-1].lower() in _DANGLING and t.endswith("."))  # "... because of." : a lead-in closed early
        or "|" in t  # a table row
        or not t.rstrip("\"'”’)»").endswith((".", "!", ";"))  # a heading or a clause without its end
    )


P_YES_THRESHOLD = 0.75
"""Least P(Yes) of the LLM check that makes a borderline sentence supported: for Qwen2.5-Coder-1.5B,
the lowest P(Yes) whose promoted TRAIN pairs are >= 90 % supported (0.749; only 5 of 40 train pairs
reach it) by bench/verify_llm.py. On dev the check barely helps (docs/benchmarks.md)."""


@dataclass
class CheckedSentence:
    draft: DraftSentence
    citations: list[Citation]
    verdict: Verdict

    @property
    def ok(self) -> bool:
        return self.verdict.status == "supported"


class Validator:
    """``support_threshold`` / ``partial_threshold`` override the scorer's own thresholds (for the
    trained scorer: >= 95 % / >= 90 % out-of-fold precision on "supported" of the written training pairs,
    per language);
    ``context_threshold`` is the least context similarity of a valid legal reference.

    ``judge``: an LLM entailment check for borderline sentences, those whose support is at or
    above ``judge_from`` (``None``: the partial threshold) and below the supported threshold, and
    that pass every other check; P(Yes) >= ``judge_threshold`` makes them supported. The verdict's
    details say when the check ran and its P(Yes). ``None`` (default): no LLM, no tokens."""

    def __init__(
        self,
        support_threshold: float | None = None,
        partial_threshold: float | None = None,
        scorer: SupportScorer | None = None,
        context_threshold: float = 0.5,
        judge: EntailmentJudge | None = None,
        judge_threshold: float = P_YES_THRESHOLD,
        judge_from: float | None = None,
        heading_words: bool = True,
    ) -> None:
        self.scorer = overridden(scorer or get_scorer("trained"), support_threshold, partial_threshold)
        self.context_threshold = context_threshold
        self.judge = judge
        self.judge_threshold = judge_threshold
        self.judge_from = judge_from
        self.heading_words = heading_words
        """Read a sentence without the phrases it takes from its cited provisions' headings (verify/heading.py)."""

    def thresholds(self, lang: str) -> tuple[float, float]:
        return self.scorer.thresholds(lang)

    def borderline(self, support: float, lang: str) -> bool:
        """Whether a sentence with this support is one the LLM check is asked about."""
        supported, partial = self.thresholds(lang)
        low = partial if self.judge_from is None else self.judge_from
        return low <= support < supported

    def check(self, draft: Draft, fragments: list[Fragment]) -> list[CheckedSentence]:
        by_marker: dict[str, Fragment] = {}
        for f in fragments:
            by_marker[f.short] = f
            by_marker[f.ref] = f
        allowed_urls = {f.evidence.chunk.source_uri for f in fragments}
        for f in fragments:
            allowed_urls |= set(_URL.findall(f.text))
        return [self._sentence(s, by_marker, allowed_urls) for s in draft.sentences]

    def _sentence(self, s: DraftSentence, by_marker: dict[str, Fragment], urls: set[str]) -> CheckedSentence:
        failed: list[str] = []
        details: list[str] = []
        # a quote-anchored sentence rests on its quotes; its other markers are reported when they name nothing
        markers = (
            ([q.marker for q in s.quotes] + [m for m in s.markers if m not in by_marker]) if s.quotes else s.markers
        )
        cited = [by_marker[m] for m in markers if m in by_marker]
        invalid = [m for m in dict.fromkeys(markers) if m not in by_marker] + stray_brackets(s.text)
        if invalid:
            details.append(f"invalid marker(s) removed: {', '.join(invalid)}")
        if not cited:
            failed.append("marker")
            details.append("no marker naming a given fragment")
            return CheckedSentence(s, [], Verdict("unsupported", 0.0, failed, details))
        if s.quotes:
            if not_a_statement(s.text):
                failed.append("statement")
                details.append("not a statement: a question, a heading or a sentence cut off")
            grounds = self._quoted(s, by_marker, failed, details)
        else:
            grounds = self._cited(s, cited, details)
        citations, support, lang, best, premises = grounds
        sources = premises + [f.evidence.chunk.header for f in cited]
        missing = unsupported_numbers(s.text, sources)
        if missing:
            failed.append("number")
            details.append(f"figures not in {'its quotes' if s.quotes else 'the cited text'}: {', '.join(missing)}")
        units = unit_mismatches(s.text, _read_for_units(s, citations, cited, by_marker))
        if units:
            if "number" not in failed:
                failed.append("number")
            details.append(f"figures with another unit than their source's: {', '.join(units)}")
        sides = swapped_bounds(s.text, premises)
        if sides:
            if "number" not in failed:
                failed.append("number")
            details.append(f"figures bounded on another side than in their source: {', '.join(sides)}")
        refs = check_references(s.text, cited, self.context_threshold)
        bad_refs = [r.raw for r in refs if r.status == "invalid"]
        if bad_refs:
            failed.append("reference")
            details.append(f"references not in the cited text: {', '.join(bad_refs)}")
        for r in refs:
            if r.status == "mismatch":
                details.append(f"context of {r.raw} differs from {r.source} ({r.context:.2f})")
        bad_urls = [u for u in _URL.findall(s.text) if u.rstrip(".,;") not in urls]
        if bad_urls:
            failed.append("url")
            details.append(f"URLs not in the sources: {', '.join(bad_urls)}")
        supported, partial = self.thresholds(lang)
        if not citations:
            status = "unsupported"
        elif support < partial:
            failed.append("support")
            status = "unsupported"
        elif support < supported:
            failed.append("support")
            status = "partial"
        else:
            status = "supported"
        if any(x in failed for x in ("marker", "quote", "number", "reference", "url", "statement")):
            status = "unsupported"
        elif self.judge is not None and self.borderline(support, lang):
            p_yes = self.judge.p_yes(s.text, excerpt(*best), lang)
            if p_yes >= self.judge_threshold:
                status = "supported"
                failed.remove("support")
            details.append(
                f"LLM check ({self.judge.name}): P(yes) {p_yes:.3f} "
                + (
                    f">= {self.judge_threshold:.2f}, supported"
                    if status == "supported"
                    else f"< {self.judge_threshold:.2f}"
                )
            )
        text, (lo, hi) = best
        if "support" in failed and text:
            details += [f"support check: {f}" for f in findings(s.text, text, (lo, hi))]
        verdict = Verdict(status, round(support, 3), failed, details, refs, text[lo:hi])
        return CheckedSentence(s, citations, verdict)

    def _score(self, claim: str, premise: str, headings: list[str], details: list[str]) -> SupportScore:
        """The support scorer's reading of ``claim`` against ``premise``; with ``heading_words``, of the claim
        without what it takes from the headings of the provisions cited (reported in ``details``)."""
        if self.heading_words:
            # a heading that addresses the reader's assistant is data: nothing is taken from it
            safe = [h for h in headings if not addresses_the_assistant(h)]
            reading = without_heading_words(claim, premise, safe)
            if reading.taken:
                scored = self.scorer.score(reading.claim, premise)
                taken = ", ".join(f"“{t}”" for t in reading.taken)
                details.append(f"read without the words of the cited heading: {taken} ({scored.score:.2f})")
                return scored
        return self.scorer.score(claim, premise)

    def _cited(self, s: DraftSentence, cited: list[Fragment], details: list[str]) -> _Grounds:
        """A sentence citing whole fragments: the best-supporting span of each is its citation."""
        citations: list[Citation] = []
        support, lang = 0.0, "en"
        best: tuple[str, tuple[int, int]] = ("", (0, 0))
        for f in {f.short: f for f in cited}.values():
            ev = f.evidence
            if s.quote_span is not None and ev.char_start <= s.quote_span[0] and s.quote_span[1] <= ev.char_end:
                start, end = s.quote_span
                score = 1.0
                lang = ev.chunk.lang
            else:
                scored = self._score(s.text, f.text, [ev.chunk.header], details)
                score, (a, b), lang = scored.score, scored.span, scored.lang
                start, end = ev.char_start + a, ev.char_start + b
            if score >= support:
                best = (f.text, (start - ev.char_start, end - ev.char_start))
            support = max(support, score)
            citations.append(Citation.of(ev, start, end))
        return citations, support, lang, best, [f.text for f in cited]

    def _quoted(
        self, s: DraftSentence, by_marker: dict[str, Fragment], failed: list[str], details: list[str]
    ) -> _Grounds:
        """A quote-anchored sentence: each quote found in its fragment (its span is the citation), the
        sentence checked against its own quotes read in their sentences, its figures found in the quotes
        themselves. A quote not in its fragment, or on a line that addresses an assistant, fails the
        sentence."""
        citations: list[Citation] = []
        quoted: list[str] = []
        read: list[str] = []
        """The sentences holding the quotes: the premise of the support check."""
        lang = "en"
        for q in s.quotes:
            f = by_marker.get(q.marker)
            if f is None:
                continue
            found = locate(q.text, f.text)
            if found is None or overlaps((found.start, found.end), tainted_lines(f.text)):
                if "quote" not in failed:
                    failed.append("quote")
                why = "is not in" if found is None else "is a line addressing an assistant in"
                details.append(f"quote {why} {f.short}: “{_clip(q.text)}”")
                continue
            if found.kind != EXACT:
                details.append(f"quote found in {f.short} by a {found.kind} match: “{_clip(q.text)}”")
            ev = f.evidence
            citations.append(Citation.of(ev, ev.char_start + found.start, ev.char_start + found.end))
            quoted.append(f.text[found.start : found.end])
            a, b = context(f.text, found, sentence_spans(f.text))
            read.append(f.text[a:b])
            lang = ev.chunk.lang
        if not quoted:
            return citations, 0.0, lang, ("", (0, 0)), []
        premise = "\n".join(dict.fromkeys(read))
        headings = list(
            dict.fromkeys(by_marker[q.marker].evidence.chunk.header for q in s.quotes if q.marker in by_marker)
        )
        scored = self._score(s.text, premise, headings, details)
        return citations, scored.score, scored.lang, (premise, scored.span), quoted


def _read_for_units(
    s: DraftSentence, citations: list[Citation], cited: list[Fragment], by_marker: dict[str, Fragment]
) -> list[tuple[str, list[tuple[int, int]] | None]]:
    """Where a sentence's figures are read with their units: each quote in its fragment (the whole fragment is read
    for a table's header), or the whole of each fragment a sentence without quotes cites."""
    if not s.quotes:
        return [(f.text, None) for f in cited]
    spans: dict[str, list[tuple[int, int]]] = {}
    for c in citations:
        f = by_marker.get(c.marker)
        if f is not None:
            base = f.evidence.char_start
            spans.setdefault(c.marker, []).append((c.char_start - base, c.char_end - base))
    return [(by_marker[m].text, found) for m, found in spans.items()]


_Grounds = tuple[list[Citation], float, str, tuple[str, tuple[int, int]], list[str]]
"""What a sentence rests on: its citations, its support, the language of the claim, the text that
supports it best with the matching span, and the texts its figures must come from."""


def _clip(text: str, n: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"
