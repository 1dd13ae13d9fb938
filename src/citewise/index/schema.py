"""SQLite schema of the embedded store, as numbered migrations: an index written by an older
citewise opens and is brought forward; one written by a newer citewise is refused."""

from __future__ import annotations

import sqlite3

from citewise.errors import SchemaError

MIGRATIONS: list[str] = [
    # 1: documents, structure nodes, chunks, embedding cache, metadata
    """
    CREATE TABLE documents (
        doc_id TEXT PRIMARY KEY, title TEXT NOT NULL, source_uri TEXT NOT NULL, lang TEXT NOT NULL,
        fmt TEXT NOT NULL, content_hash TEXT NOT NULL, doc_type TEXT, number TEXT, issued TEXT,
        effective TEXT, aliases TEXT NOT NULL, text TEXT NOT NULL, pages TEXT NOT NULL,
        tables TEXT NOT NULL, warnings TEXT NOT NULL, status TEXT NOT NULL, ingested_at TEXT NOT NULL
    );
    CREATE INDEX documents_source ON documents(source_uri);
    CREATE TABLE nodes (
        doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE, node_id INTEGER NOT NULL,
        kind TEXT NOT NULL, number TEXT NOT NULL, label TEXT NOT NULL, key TEXT NOT NULL,
        heading TEXT NOT NULL, char_start INTEGER NOT NULL, char_end INTEGER NOT NULL,
        parent_id INTEGER, page_start INTEGER, page_end INTEGER, aliases TEXT NOT NULL, refs TEXT NOT NULL,
        PRIMARY KEY (doc_id, node_id)
    );
    CREATE INDEX nodes_key ON nodes(doc_id, key);
    CREATE TABLE chunks (
        doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE, chunk_id INTEGER NOT NULL,
        node_id INTEGER, label TEXT NOT NULL, path TEXT NOT NULL, header TEXT NOT NULL, body TEXT NOT NULL,
        char_start INTEGER NOT NULL, char_end INTEGER NOT NULL, lang TEXT NOT NULL, source_uri TEXT NOT NULL,
        page_start INTEGER, page_end INTEGER, parent TEXT, effective TEXT, prefix TEXT NOT NULL,
        kind TEXT NOT NULL, tokens INTEGER NOT NULL, text_hash TEXT NOT NULL,
        PRIMARY KEY (doc_id, chunk_id)
    );
    CREATE TABLE embeddings (
        text_hash TEXT NOT NULL, model TEXT NOT NULL, dim INTEGER NOT NULL, vector BLOB NOT NULL,
        PRIMARY KEY (text_hash, model)
    );
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO meta VALUES ('generation', '0');
    """,
    # 2: cross-references resolved at ingest (node ids of the same document)
    """
    ALTER TABLE nodes ADD COLUMN xrefs TEXT NOT NULL DEFAULT '[]';
    """,
    # 3: the parser version that built each document (a newer parser re-ingests unchanged files)
    """
    ALTER TABLE documents ADD COLUMN parser TEXT NOT NULL DEFAULT '';
    """,
]


def migrate(conn: sqlite3.Connection) -> int:
    """Apply pending migrations; returns the schema version."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > len(MIGRATIONS):
        raise SchemaError(
            f"index schema {version} is newer than this citewise supports ({len(MIGRATIONS)}); upgrade citewise"
        )
    for n in range(version, len(MIGRATIONS)):
        with conn:
            conn.executescript("BEGIN;" + MIGRATIONS[n] + f"PRAGMA user_version = {n + 1};")
    return len(MIGRATIONS)
