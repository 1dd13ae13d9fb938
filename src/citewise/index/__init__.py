"""Store port and its embedded backend (SQLite + bm25s + dense vectors)."""
