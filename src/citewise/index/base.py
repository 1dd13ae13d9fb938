"""The ``Store`` port: everything ingest writes and retrieval reads goes through it, so a
PostgreSQL + pgvector backend can replace the embedded one without touching either side."""

from __future__ import annotations

import abc
from dataclasses import dataclass, field

import numpy as np

from citewise.types import Chunk, Document, Node


@dataclass(frozen=True)
class Hit:
    """One search result: a chunk, its score and rank (1-based) from one ranker."""

    doc_id: str
    chunk_id: int
    score: float
    rank: int


@dataclass
class DocSummary:
    doc_id: str
    title: str
    source_uri: str
    lang: str
    fmt: str
    content_hash: str
    doc_type: str | None
    number: str | None
    issued: str | None
    effective: str | None
    provisions: int
    chunks: int
    status: str
    ingested_at: str
    aliases: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    parser: str = ""
    """The parser version that built the document (see ``citewise.ingest.PARSER_VERSION``)."""


class Store(abc.ABC):
    @abc.abstractmethod
    def generation(self) -> int:
        """A counter that changes whenever documents are added, replaced or removed."""

    def state(self) -> tuple[int, ...]:
        """What a search result depends on: changes whenever a search may find something else (documents
        written, or vectors added so that dense search starts)."""
        return (self.generation(),)

    def replace_document(self, doc: Document, chunks: list[Chunk], vectors: np.ndarray | None) -> list[str]:
        """Insert ``doc`` atomically, removing any document from the same source; returns removed ids."""
        return self.replace_documents([(doc, chunks, vectors)])

    @abc.abstractmethod
    def replace_documents(self, items: list[tuple[Document, list[Chunk], np.ndarray | None]]) -> list[str]:
        """Insert several documents in one transaction (all or none of them), each replacing any document
        from the same source; returns the ids removed."""

    @abc.abstractmethod
    def delete_document(self, doc_id: str) -> None: ...

    @abc.abstractmethod
    def documents(self) -> list[DocSummary]: ...

    @abc.abstractmethod
    def find_document(self, ref: str) -> DocSummary:
        """A document by id, id prefix, number, alias or title; raises ``NotFound``."""

    @abc.abstractmethod
    def by_source(self, source_uri: str) -> DocSummary | None: ...

    @abc.abstractmethod
    def load_document(self, doc_id: str) -> Document:
        """The full record: text, pages, tables and node tree."""

    @abc.abstractmethod
    def nodes(self, doc_id: str) -> list[Node]: ...

    @abc.abstractmethod
    def chunks(self, doc_id: str | None = None, refs: list[tuple[str, int]] | None = None) -> list[Chunk]: ...

    @abc.abstractmethod
    def chunks_overlapping(self, doc_id: str, char_start: int, char_end: int) -> list[Chunk]:
        """Chunks of a document whose span overlaps ``[char_start, char_end)``, in order."""

    @abc.abstractmethod
    def resolve_provision(self, doc_id: str, label: str) -> Node | None:
        """The node a label names ("Điều 17", "khoản 2 Điều 17", "Article 6(1)(a)", "4.2")."""

    @abc.abstractmethod
    def lexical_search(self, query: str, k: int = 10, doc_ids: list[str] | None = None) -> list[Hit]: ...

    @abc.abstractmethod
    def vector_search(self, vector: np.ndarray, k: int = 10, doc_ids: list[str] | None = None) -> list[Hit]: ...

    @abc.abstractmethod
    def vector_scores(self, vector: np.ndarray, refs: list[tuple[str, int]]) -> dict[tuple[str, int], float]:
        """Cosine of ``vector`` with each listed chunk (chunks without a vector are left out)."""

    @abc.abstractmethod
    def count_chunks(self, doc_id: str) -> int:
        """How many chunks a document has."""

    @abc.abstractmethod
    def cached_vectors(self, hashes: list[str]) -> dict[str, np.ndarray]:
        """Vectors of the embedding cache for these chunk-text hashes (those it holds)."""

    @abc.abstractmethod
    def cache_vectors(self, hashes: list[str], vectors: np.ndarray) -> None:
        """Keep vectors in the embedding cache under their chunk-text hashes."""

    @abc.abstractmethod
    def pending_embeddings(self, limit: int = 64) -> list[tuple[str, str]]:
        """Up to ``limit`` chunk texts stored without a vector, as (text hash, text): the embedding queue."""

    @abc.abstractmethod
    def embedding_progress(self) -> tuple[int, int]:
        """(distinct chunk texts with a vector, distinct chunk texts): dense search works when they are equal."""

    @abc.abstractmethod
    def refresh(self) -> None:
        """Bring derived indexes (lexical, vectors) up to date with the stored chunks."""

    @abc.abstractmethod
    def close(self) -> None: ...
