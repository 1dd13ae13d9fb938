"""The documents a question names by their title: "my home insurance claim" of a home policy and a travel policy,
"bảo hiểm du lịch" of a travel rule and a home rule. Evidence of the other documents answers for another product."""

from __future__ import annotations

from collections.abc import Sequence

from citewise.retrieve.records import Evidence
from citewise.textmatch import query_terms, text_terms


def named_documents(question: str, evidence: Sequence[Evidence]) -> set[str]:
    """The documents of ``evidence`` whose title holds a word pair of the question that another title does not, one
    word of which that other title holds too: the kind both are of, and what sets this one apart ("home insurance":
    "Harbourview Mutual Home Insurance Policy", not "Bluewave Travel Insurance — Terms and Conditions"; "Luật Du lịch"
    of "Luật Du lịch" and "Luật Điện ảnh"). Empty when the question names none, or all. A pair alone names no
    document: "Bộ Văn hóa, Thể thao và Du lịch" says "du lịch" of a ministry, "phát triển giáo dục" of education, not
    of "Luật Du lịch" or "Luật Giáo dục"."""
    groups: dict[frozenset[tuple[str, str]], set[str]] = {}  # the documents of each title (one title, two formats)
    words: dict[frozenset[tuple[str, str]], frozenset[str]] = {}
    for e in evidence:
        w, pairs = query_terms(e.doc_title, marks=True)
        groups.setdefault(pairs, set()).add(e.chunk.doc_id)
        words[pairs] = w
    asked = text_terms(question, marks=True)[1]
    named: set[str] = set()
    for pairs, docs in groups.items():
        if any(set(p) & words[other] for p in asked & pairs for other in groups if p not in other):
            named |= docs
    return named if len(named) < sum(map(len, groups.values())) else set()


def in_scope(question: str, evidence: list[Evidence]) -> list[Evidence]:
    """``evidence`` without the documents the question leaves aside by naming others (``named_documents``), when
    the evidence found first is of a document it names. A law named as what a statement rests on ("… không có năng
    lực hành vi dân sự theo quy định của Bộ luật dân sự") is not what the question is about when the provision found
    first is of another (the arbitration law that statement is about)."""
    named = named_documents(question, evidence)
    if not evidence or evidence[0].chunk.doc_id not in named:
        return evidence
    return [e for e in evidence if e.chunk.doc_id in named]
