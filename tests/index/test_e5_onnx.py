"""The e5 encoder's layers under ONNX Runtime (index/e5_onnx.py) against the numpy forward pass: the same token
states for padded batches in both languages, fine-tuned layers included."""

from __future__ import annotations

import numpy as np
import pytest

from citewise.index.e5 import E5File, Encoder, Tokenizer, mean_pool, pad_batch, read_e5

TEXTS = [
    ("Thời hạn thông báo tổn thất là bao lâu?", True),
    ("The insured must notify the company within 14 days of the loss.", False),
    ("Doanh nghiệp bảo hiểm phải bồi thường trong thời hạn 15 ngày kể từ ngày nhận đủ hồ sơ hợp lệ.", False),
    ("Under COBS Rule 15.9.1, how often must a firm reconcile client money?", True),
]


@pytest.fixture(scope="module")
def f() -> E5File:
    return read_e5()


def states(enc: Encoder, tok: Tokenizer) -> tuple[np.ndarray, np.ndarray]:
    ids, mask = pad_batch([tok.encode(t, q) for t, q in TEXTS])  # lengths differ: padded rows are masked
    return enc.hidden(ids, mask), mask


def test_onnx_runtime_gives_the_numpy_states_for_a_padded_batch(f: E5File) -> None:
    tok = Tokenizer(f)
    fast, slow = Encoder(f, runtime="onnxruntime"), Encoder(f, runtime="numpy")
    assert (fast.runtime, slow.runtime) == ("onnxruntime", "numpy")
    assert Encoder(f).runtime == "onnxruntime"  # auto: installed, so used
    a, mask = states(fast, tok)
    b, _ = states(slow, tok)
    assert np.abs(a - b)[mask].max() < 1e-4
    cosine = (mean_pool(a, mask) * mean_pool(b, mask)).sum(1)
    assert cosine.min() > 0.99999, cosine


def test_fine_tuned_layers_run_in_the_graph(f: E5File) -> None:
    """The pair classifier replaces top layers: the graph must be built from the replaced arrays."""
    tok = Tokenizer(f)
    rng = np.random.default_rng(3)
    tuned = {
        "l11.fo.w": f.tensor("l11.fo.w") + rng.normal(0, 0.05, f.shape("l11.fo.w")).astype(np.float32),
        "l10.q.b": f.tensor("l10.q.b") + 0.5,
    }
    fast = Encoder(f, tuned, runtime="onnxruntime")
    slow = Encoder(f, tuned, runtime="numpy")
    a, mask = states(fast, tok)
    b, _ = states(slow, tok)
    base, _ = states(Encoder(f, runtime="numpy"), tok)
    assert np.abs(a - b)[mask].max() < 1e-4
    assert np.abs(a - base)[mask].max() > 1e-2  # the replaced layers changed the states


def test_an_unknown_runtime_is_a_clear_error(f: E5File) -> None:
    with pytest.raises(ValueError, match="runtime: one of auto, onnxruntime, numpy"):
        Encoder(f, runtime="cuda")
