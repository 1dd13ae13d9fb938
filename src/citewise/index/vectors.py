"""Dense vectors of all chunks as one float32 matrix (``vectors.npy``) with its row ids."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np


class VectorIndex:
    def __init__(self, rows: list[tuple[str, int]], matrix: np.ndarray) -> None:
        self.rows = rows
        self.matrix = matrix
        by_doc: dict[str, list[int]] = {}
        for i, (d, _) in enumerate(rows):
            by_doc.setdefault(d, []).append(i)
        self._doc_rows = {d: np.asarray(ix, dtype=np.int64) for d, ix in by_doc.items()}
        self._row = {r: i for i, r in enumerate(rows)}

    def row_of(self, ref: tuple[str, int]) -> int | None:
        return self._row.get(ref)

    def save(self, folder: Path, generation: int, model: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / "vectors.tmp.npy"
        np.save(tmp, self.matrix)
        os.replace(tmp, folder / "vectors.npy")
        meta = folder / "vectors.tmp.json"
        meta.write_text(json.dumps({"generation": generation, "model": model, "rows": self.rows}), encoding="utf-8")
        os.replace(meta, folder / "vectors.json")

    @classmethod
    def load(cls, folder: Path, generation: int, model: str) -> VectorIndex | None:
        meta_file, data = folder / "vectors.json", folder / "vectors.npy"
        if not meta_file.exists() or not data.exists():
            return None
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        if meta.get("generation") != generation or meta.get("model") != model:
            return None
        matrix = np.load(data, mmap_mode="r")
        rows = [(d, int(c)) for d, c in meta["rows"]]
        if matrix.shape[0] != len(rows):
            return None
        return cls(rows, np.asarray(matrix))

    def scores(self, vector: np.ndarray) -> np.ndarray:
        if self.matrix.shape[0] == 0:
            return np.zeros(0, dtype=np.float32)
        return self.matrix @ vector.astype(np.float32)

    def rows_of(self, doc_ids: list[str]) -> np.ndarray:
        parts = [self._doc_rows[d] for d in doc_ids if d in self._doc_rows]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
