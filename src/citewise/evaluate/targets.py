"""Where a question's references sit in the index: each ``Reference`` becomes spans of document
text (a provision's node, a JSONL record's node, or a whole document), and evidence or a citation
counts as hitting a reference when its span overlaps one of them.

A reference may match several documents (the same rules ingested from a .docx and a .md carry the
same number); it is hit in any of them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from citewise.evaluate.questions import Reference
from citewise.index.base import DocSummary, Store
from citewise.lang import fold
from citewise.types import Node

_WHOLE = 1 << 62
"""End of the span of a reference to a whole document."""


@dataclass(frozen=True)
class Span:
    doc_id: str
    char_start: int
    char_end: int

    def overlaps(self, doc_id: str, start: int, end: int) -> bool:
        return doc_id == self.doc_id and start < self.char_end and self.char_start < max(end, start + 1)


class TargetResolver:
    """Resolves references against one store, caching documents and nodes."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._docs: list[DocSummary] | None = None
        self._nodes: dict[str, list[Node]] = {}
        self._units: dict[str, dict[str, Node]] = {}

    def documents(self, ref: str) -> list[DocSummary]:
        """Every document ``ref`` names, by the first rule that matches any: id, id prefix,
        number, alias, title, title substring or file name."""
        if self._docs is None:
            self._docs = list(self.store.documents())
        docs = self._docs
        key = fold(ref).lower().strip()
        tests: list[Callable[[DocSummary], bool]] = [
            lambda d: d.doc_id == ref,
            lambda d: len(ref) >= 4 and d.doc_id.startswith(ref),
            lambda d: d.number is not None and fold(d.number).lower() == key,
            lambda d: any(fold(a).lower() == key for a in d.aliases),
            lambda d: fold(d.title).lower() == key,
            lambda d: d.source_uri.rsplit("/", 1)[-1].lower().startswith(key),
            lambda d: key in fold(d.title).lower(),
        ]
        for test in tests:
            hits = [d for d in docs if test(d)]
            if hits:
                return hits
        return []

    def nodes(self, doc_id: str) -> list[Node]:
        if doc_id not in self._nodes:
            self._nodes[doc_id] = self.store.nodes(doc_id)
        return self._nodes[doc_id]

    def unit(self, doc_id: str, unit: str) -> Node | None:
        """The node of the JSONL record whose id is ``unit``."""
        if doc_id not in self._units:
            self._units[doc_id] = {n.aliases[0]: n for n in reversed(self.nodes(doc_id)) if n.aliases}
        return self._units[doc_id].get(unit)

    def spans(self, ref: Reference) -> list[Span]:
        """The spans ``ref`` resolves to; empty when it names nothing in the index."""
        out: list[Span] = []
        for d in self.documents(ref.doc):
            node: Node | None = None
            if ref.unit is not None:
                node = self.unit(d.doc_id, ref.unit)
            elif ref.provision is not None:
                node = self.store.resolve_provision(d.doc_id, ref.provision)
            else:
                out.append(Span(d.doc_id, 0, _WHOLE))
                continue
            if node is not None:
                out.append(Span(d.doc_id, node.char_start, node.char_end))
        return out


@dataclass
class Targets:
    """The spans of each reference of one question (same order as its references)."""

    spans: list[list[Span]]

    @property
    def resolved(self) -> int:
        """How many references resolved to at least one span."""
        return sum(1 for s in self.spans if s)

    def hits(self, doc_id: str, start: int, end: int) -> frozenset[int]:
        """Indices of the references a text span overlaps."""
        return frozenset(i for i, spans in enumerate(self.spans) if any(s.overlaps(doc_id, start, end) for s in spans))


def resolve(resolver: TargetResolver, references: list[Reference]) -> Targets:
    return Targets([resolver.spans(r) for r in references])
