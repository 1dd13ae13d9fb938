"""Post-validation of a draft, in code, with no LLM tokens: every sentence has a marker naming a
fragment that was given; the cited text supports it; its figures, legal references and URLs
appear in the cited text. Invalid markers are dropped before anything is shown."""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.answer.records import Citation, Draft, DraftSentence, Fragment, Verdict
from citewise.lang import fold
from citewise.retrieve.query_refs import provision_refs
from citewise.verify.markers import stray_brackets
from citewise.verify.numbers import unsupported_numbers
from citewise.verify.support import best_window

_URL = re.compile(r"https?://[^\s)\]>\"']+")


@dataclass
class CheckedSentence:
    draft: DraftSentence
    citations: list[Citation]
    verdict: Verdict

    @property
    def ok(self) -> bool:
        return self.verdict.status == "supported"


class Validator:
    def __init__(self, support_threshold: float = 0.6, partial_threshold: float = 0.4) -> None:
        self.support_threshold = support_threshold
        self.partial_threshold = partial_threshold

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
        cited = [by_marker[m] for m in s.markers if m in by_marker]
        invalid = [m for m in s.markers if m not in by_marker] + stray_brackets(s.text)
        if invalid:
            details.append(f"invalid marker(s) removed: {', '.join(invalid)}")
        if not cited:
            failed.append("marker")
            details.append("no marker naming a given fragment")
            return CheckedSentence(s, [], Verdict("unsupported", 0.0, failed, details))
        citations: list[Citation] = []
        support = 0.0
        for f in {f.short: f for f in cited}.values():
            ev = f.evidence
            if s.quote_span is not None and ev.char_start <= s.quote_span[0] and s.quote_span[1] <= ev.char_end:
                start, end = s.quote_span
                score = 1.0
            else:
                score, (a, b) = best_window(s.text, f.text)
                start, end = ev.char_start + a, ev.char_start + b
            support = max(support, score)
            quote = f.text[start - ev.char_start : end - ev.char_start]
            c = ev.chunk
            citations.append(
                Citation(
                    marker=f.ref,
                    doc_id=c.doc_id,
                    chunk_id=c.chunk_id,
                    doc_title=ev.doc_title,
                    label=c.label,
                    pages=(c.page_start, c.page_end),
                    char_start=start,
                    char_end=end,
                    quote=quote,
                    source_uri=c.source_uri,
                )
            )
        sources = [f.text for f in cited] + [f.evidence.chunk.header for f in cited]
        missing = unsupported_numbers(s.text, sources)
        if missing:
            failed.append("number")
            details.append(f"figures not in the cited text: {', '.join(missing)}")
        bad_refs = self._references(s.text, cited)
        if bad_refs:
            failed.append("reference")
            details.append(f"references not in the cited text: {', '.join(bad_refs)}")
        bad_urls = [u for u in _URL.findall(s.text) if u.rstrip(".,;") not in urls]
        if bad_urls:
            failed.append("url")
            details.append(f"URLs not in the sources: {', '.join(bad_urls)}")
        if support < self.partial_threshold:
            failed.append("support")
            status = "unsupported"
        elif support < self.support_threshold:
            failed.append("support")
            status = "partial"
        else:
            status = "supported"
        if any(x in failed for x in ("marker", "number", "reference", "url")):
            status = "unsupported"
        return CheckedSentence(s, citations, Verdict(status, round(support, 3), failed, details))

    @staticmethod
    def _references(sentence: str, cited: list[Fragment]) -> list[str]:
        text = fold(" ".join(f"{f.evidence.chunk.header} {f.evidence.chunk.label} {f.text}" for f in cited)).lower()
        bad = []
        for ref in provision_refs(sentence):
            raw = fold(ref.raw).lower()
            core = re.sub(r"\s+", " ", raw)
            if core not in re.sub(r"\s+", " ", text):
                bad.append(ref.raw)
        return bad
