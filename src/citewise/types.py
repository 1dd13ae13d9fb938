"""Typed records exchanged between the stages.

Flow: ``Layout`` (what a parser extracted) -> ``Document`` (with its ``Node`` tree)
-> ``Chunk`` (what the index stores and retrieval returns).

All character offsets refer to ``Document.text`` (NFC-normalised extracted text);
``Document.text[node.char_start:node.char_end]`` is the node's text and
``Document.text[chunk.char_start:chunk.char_end] == chunk.body``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class PageSpan:
    """One page of the source: its 1-based number and its span in ``Document.text``."""

    number: int
    char_start: int
    char_end: int


@dataclass
class Table:
    """A table kept whole: its rows of cells and its span in ``Document.text``."""

    rows: list[list[str]]
    char_start: int
    char_end: int
    page: int | None = None
    row_spans: list[tuple[int, int]] = field(default_factory=list)
    """Span of each rendered row in ``Document.text`` (same order as ``rows``)."""

    @property
    def header(self) -> list[str]:
        return self.rows[0] if self.rows else []


@dataclass
class Block:
    """A piece of extracted text with its layout role, as placed in the document text."""

    kind: str
    """``heading`` | ``para`` | ``list_item`` | ``table``."""
    char_start: int
    char_end: int
    page: int | None = None
    level: int | None = None
    """Heading level given by the format (HTML h1..h6, DOCX Heading N, Markdown #)."""
    table: int | None = None
    """Index into ``Layout.tables`` when ``kind == "table"``."""


@dataclass
class Layout:
    """What a parser extracted from one source, before any legal structure is recognised."""

    text: str
    blocks: list[Block]
    pages: list[PageSpan] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    title_hint: str | None = None
    warnings: list[str] = field(default_factory=list)


@dataclass
class Node:
    """A provision or division of a document: chapter, article, clause, point, annex, ...

    ``kind`` is one of the ``NodeKind`` values in ``ingest.structure``; ``label`` is the
    citable form ("Điều 17", "khoản 2 Điều 17", "Article 6(1)(a)"); ``key`` is the
    language-neutral path used to resolve references ("article:6/paragraph:1/point:a").
    """

    node_id: int
    kind: str
    number: str
    label: str
    key: str
    heading: str
    char_start: int
    char_end: int
    parent_id: int | None = None
    page_start: int | None = None
    page_end: int | None = None
    aliases: list[str] = field(default_factory=list)
    refs: list[str] = field(default_factory=list)
    """Cross-references found in the node's own text, as written ("Điều 5", "Article 6(1)")."""
    xrefs: list[int] = field(default_factory=list)
    """Nodes of the same document that ``refs`` resolve to."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Document:
    """A parsed source document with its legal structure."""

    doc_id: str
    """Stable id: a prefix of the sha256 of the source bytes (or of the imported record)."""
    title: str
    source_uri: str
    lang: str
    text: str
    fmt: str
    content_hash: str
    doc_type: str | None = None
    number: str | None = None
    issued: str | None = None
    effective: str | None = None
    aliases: list[str] = field(default_factory=list)
    pages: list[PageSpan] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def node(self, node_id: int) -> Node:
        return self.nodes[node_id]

    def children(self, node_id: int | None) -> list[Node]:
        return [n for n in self.nodes if n.parent_id == node_id]

    def ancestors(self, node: Node) -> list[Node]:
        """Ancestors from the root down to (not including) ``node``."""
        chain: list[Node] = []
        parent = node.parent_id
        while parent is not None:
            p = self.nodes[parent]
            chain.append(p)
            parent = p.parent_id
        return list(reversed(chain))

    def pages_of(self, char_start: int, char_end: int) -> tuple[int | None, int | None]:
        """First and last page number overlapping a span (None for unpaged formats)."""
        hit = [p.number for p in self.pages if p.char_start < max(char_end, char_start + 1) and char_start < p.char_end]
        if not hit:
            return None, None
        return hit[0], hit[-1]


@dataclass
class Chunk:
    """An indexed unit of text with full provenance."""

    doc_id: str
    chunk_id: int
    node_id: int | None
    label: str
    """Provision label of the chunk ("Điều 17", "Article 6", "Section 4.2")."""
    path: list[str]
    """Labels from the top division down to the provision ("Chương II", "Điều 17")."""
    header: str
    """Context header indexed with the body: "[Doc title › Chương II › Điều 17. Heading]"."""
    body: str
    char_start: int
    char_end: int
    lang: str
    source_uri: str
    page_start: int | None = None
    page_end: int | None = None
    parent: str | None = None
    """Label of the division holding the provision (chapter, section, ...)."""
    effective: str | None = None
    prefix: str = ""
    """Text shown before ``body`` but not part of its span (a repeated table header row)."""
    kind: str = "text"
    """``text`` | ``table``."""
    tokens: int = 0

    @property
    def index_text(self) -> str:
        """The text that lexical and dense search see."""
        parts = [self.header, self.prefix, self.body]
        return "\n".join(p for p in parts if p)

    @property
    def ref(self) -> str:
        """The stable citation marker of this chunk."""
        return f"doc:{self.doc_id}#chunk:{self.chunk_id}"

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["ref"] = self.ref
        return d
