"""BM25 over chunk texts with bm25s, saved as named files next to the SQLite database."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from citewise.index.analyzers import Analyzer


class LexicalIndex:
    """A bm25s index plus the (doc_id, chunk_id) of each row."""

    def __init__(self, analyzer: Analyzer, rows: list[tuple[str, int]], retriever: object | None) -> None:
        self.analyzer = analyzer
        self.rows = rows
        self.retriever = retriever
        self._doc_rows: dict[str, np.ndarray] = {}
        by_doc: dict[str, list[int]] = {}
        for i, (d, _) in enumerate(rows):
            by_doc.setdefault(d, []).append(i)
        self._doc_rows = {d: np.asarray(ix, dtype=np.int64) for d, ix in by_doc.items()}

    @classmethod
    def build(
        cls, analyzer: Analyzer, rows: list[tuple[str, int]], texts: list[str], k1: float = 1.0, b: float = 0.75
    ) -> LexicalIndex:
        """BM25 (Lucene) over the analyzer's tokens of ``texts``; ``k1`` 1.0 measured better than bm25s's 1.5 on
        English regulatory text and level on Vietnamese (docs/benchmarks.md, "Retrieval notes")."""
        import bm25s

        if not texts:
            return cls(analyzer, rows, None)
        retriever = bm25s.BM25(k1=k1, b=b)
        retriever.index([analyzer(t) or ["∅"] for t in texts], show_progress=False)
        return cls(analyzer, rows, retriever)

    def save(self, folder: Path, generation: int, analyzer_name: str) -> None:
        tmp = folder.with_name(folder.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        if self.retriever is not None:
            self.retriever.save(str(tmp), show_progress=False)  # type: ignore[attr-defined]
        state = {"generation": generation, "analyzer": analyzer_name, "rows": self.rows}
        (tmp / "rows.json").write_text(json.dumps(state), encoding="utf-8")
        old = folder.with_name(folder.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if folder.exists():
            folder.rename(old)
        tmp.rename(folder)
        shutil.rmtree(old, ignore_errors=True)

    @classmethod
    def load(cls, folder: Path, analyzer: Analyzer, analyzer_name: str, generation: int) -> LexicalIndex | None:
        """The saved index if it matches ``generation`` and ``analyzer_name``, else None."""
        state_file = folder / "rows.json"
        if not state_file.exists():
            return None
        state = json.loads(state_file.read_text(encoding="utf-8"))
        if state.get("generation") != generation or state.get("analyzer") != analyzer_name:
            return None
        rows = [(d, int(c)) for d, c in state["rows"]]
        if not rows:
            return cls(analyzer, rows, None)
        import bm25s

        retriever = bm25s.BM25.load(str(folder), mmap=False, show_progress=False)
        return cls(analyzer, rows, retriever)

    def scores(self, query: str) -> np.ndarray:
        if self.retriever is None:
            return np.zeros(0, dtype=np.float32)
        tokens = self.analyzer(query)
        vocab = self.retriever.vocab_dict  # type: ignore[attr-defined]
        known = [t for t in tokens if t in vocab]
        if not known:
            return np.zeros(len(self.rows), dtype=np.float32)
        return np.asarray(self.retriever.get_scores(known), dtype=np.float32)  # type: ignore[attr-defined]

    def rows_of(self, doc_ids: list[str]) -> np.ndarray:
        parts = [self._doc_rows[d] for d in doc_ids if d in self._doc_rows]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
