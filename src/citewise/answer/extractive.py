"""Extractive generator (offline, instant): quotes the evidence sentences that answer the
question, verbatim, each with its marker. Relevance from the question's words and word pairs and
the evidence's own rank; diversity by maximal marginal relevance; a sentence budget."""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.answer.base import Generator
from citewise.answer.records import Draft, DraftSentence, Fragment
from citewise.chunk.sentences import sentence_spans
from citewise.textmatch import coverage


@dataclass
class _Candidate:
    fragment: Fragment
    start: int
    end: int
    text: str
    relevance: float
    order: tuple[int, int]


_WORD = re.compile(r"[^\W_]+")


def _jaccard(a: str, b: str) -> float:
    wa, wb = set(_WORD.findall(a.lower())), set(_WORD.findall(b.lower()))
    return len(wa & wb) / len(wa | wb) if wa and wb else 0.0


class ExtractiveGenerator(Generator):
    name = "extractive"

    def __init__(
        self, max_sentences: int = 3, min_relevance: float = 0.15, relative: float = 0.5, mmr_lambda: float = 0.7
    ) -> None:
        self.relative = relative
        self.max_sentences = max_sentences
        self.min_relevance = min_relevance
        self.mmr_lambda = mmr_lambda

    def candidates(self, question: str, fragments: list[Fragment]) -> list[_Candidate]:
        out: list[_Candidate] = []
        for fi, f in enumerate(fragments):
            if f.evidence.supporting:
                continue
            text, base = f.text, f.evidence.char_start
            first_line_end = text.find("\n")
            prior = 1.0 / (1 + fi * 0.15) * (1.15 if f.evidence.pinned else 1.0)
            for si, (s, e) in enumerate(sentence_spans(text)):
                sent = text[s:e]
                if s == 0 and 0 <= first_line_end <= e and len(sent) < 160 and "\n" not in sent:
                    continue  # the provision's heading line ("Điều 9. Thông báo tổn thất")
                if len(_WORD.findall(sent)) < 4 or set(sent) <= set("|- "):
                    continue
                rel = coverage(question, f"{f.evidence.chunk.header} {sent}") * 0.4 + coverage(question, sent) * 0.6
                out.append(_Candidate(f, base + s, base + e, sent, rel * prior, (fi, si)))
        return out

    def generate(self, question: str, fragments: list[Fragment], lang: str, strict: bool = False) -> Draft:
        cands = self.candidates(question, fragments)
        top = max((c.relevance for c in cands), default=0.0)
        floor = max(self.min_relevance, self.relative * top)
        cands = [c for c in cands if c.relevance >= floor]
        chosen: list[_Candidate] = []
        while cands and len(chosen) < self.max_sentences:
            best = max(
                cands,
                key=lambda c: (
                    self.mmr_lambda * c.relevance
                    - (1 - self.mmr_lambda) * max((_jaccard(c.text, x.text) for x in chosen), default=0.0)
                ),
            )
            cands.remove(best)
            if any(_jaccard(best.text, x.text) > 0.8 for x in chosen):
                continue
            chosen.append(best)
        if not chosen:
            return Draft([], self.name, refused=True)
        chosen.sort(key=lambda c: c.order)  # grouped by provision, in reading order
        sentences = [
            DraftSentence(" ".join(c.text.split()), [c.fragment.ref], quote_span=(c.start, c.end)) for c in chosen
        ]
        return Draft(sentences, self.name)
