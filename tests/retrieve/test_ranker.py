"""The learned ranking stage: the numpy runtime against LightGBM's own scores on a stored small model
(``tests/retrieve/data/ranker-tiny.json``, written by ``bench/ranker.py --tiny``), the stage reordering
the fused candidates of the real sample index, and questions without a dense ranking."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from citewise.index.embedded import EmbeddedStore
from citewise.index.embedder import Embedder
from citewise.retrieve.hybrid import Retriever
from citewise.retrieve.ranker import FEATURES, LearnedRanker, reorder
from citewise.settings import RetrieveSettings

TINY = Path(__file__).parent / "data" / "ranker-tiny.json"
QUESTIONS = [
    "thời hạn giải quyết bồi thường nhà ở là bao lâu?",
    "mức khấu trừ mỗi vụ tổn thất nhà ở",
    "How many days do I have to notify Harbourview of damage to my home?",
    "Bluewave medical expenses limit per trip",
    "khách hàng rút lại sự đồng ý xử lý dữ liệu",
    "within how many hours must a personal data breach be notified to the Authority?",
    "Tôi bị mất hành lý khi đi du lịch thì được bồi thường bao nhiêu?",
    "what happens if I do not pay the premium on time",
]


@pytest.fixture(scope="module")
def store(module_index: Path) -> EmbeddedStore:
    return EmbeddedStore(module_index)


def test_numpy_runtime_reproduces_lightgbm_scores() -> None:
    model = json.loads(TINY.read_text(encoding="utf-8"))
    rows = np.asarray(model["check"]["rows"])
    assert rows.shape == (40, len(FEATURES)) and len(model["trees"]) == 12
    scores = LearnedRanker.load(TINY).score(rows)
    np.testing.assert_allclose(scores, model["check"]["lightgbm_scores"], rtol=0, atol=1e-9)
    assert len(set(np.round(scores, 6))) > 5  # the rows reach different leaves


def test_shipped_model_loads_and_scores() -> None:
    ranker = LearnedRanker.load()
    assert ranker.source.endswith("retrieve/weights/ranker-lambdamart-v1.json") and ranker.trees
    assert ranker.score(np.zeros((3, len(FEATURES)))).shape == (3,)


def test_learned_stage_reorders_fused_candidates(store: EmbeddedStore, embedder: Embedder) -> None:
    fusion = Retriever(store, embedder, RetrieveSettings(cache=0))
    learned = Retriever(store, embedder, RetrieveSettings(cache=0, ranker="learned", ranker_weights=TINY))
    changed = 0
    for question in QUESTIONS:
        keys, x = learned.features(question)
        assert x.shape == (len(keys), len(FEATURES)) and 0 < len(keys) <= 50
        assert (x[:, FEATURES.index("has_dense")] == 1).all()
        scores = learned.learned().score(x)
        result = learned.search(question, k=5)
        assert "ranker" in result.timings
        first = result.evidence[0]
        if not first.pinned:
            assert (first.chunk.doc_id, first.chunk.chunk_id) == keys[int(np.argmax(scores))], question
        order = [(e.chunk.doc_id, e.chunk.chunk_id) for e in result.evidence if not e.supporting]
        before = [(e.chunk.doc_id, e.chunk.chunk_id) for e in fusion.search(question, k=5).evidence if not e.supporting]
        changed += order != before
    assert changed >= 1


def test_questions_without_dense_ranking(store: EmbeddedStore) -> None:
    r = Retriever(store, None, RetrieveSettings(cache=0, ranker="learned", ranker_weights=TINY))
    keys, x = r.features(QUESTIONS[0])
    assert keys
    assert (x[:, FEATURES.index("has_dense")] == 0).all() and (x[:, FEATURES.index("dense_cos")] == 0).all()
    assert (x[:, FEATURES.index("dense_gap")] == -1).all()
    assert (x[:, FEATURES.index("dense_rank")] == r.settings.candidates + 1).all()
    result = r.search(QUESTIONS[0], k=3)
    assert result.evidence and "ranker" in result.timings


def test_reorder_keeps_the_rest_below() -> None:
    fused = {("a", 1): 0.9, ("a", 2): 0.8, ("b", 1): 0.7, ("b", 2): 0.1}
    out = reorder(fused, [("a", 1), ("a", 2)], np.asarray([-2.0, 3.0]))
    assert sorted(out, key=lambda k: -out[k]) == [("a", 2), ("a", 1), ("b", 1), ("b", 2)]
    assert all(0 <= v < 1 for v in out.values())


def test_forest_sums_the_trees_as_one_by_one() -> None:
    ranker = LearnedRanker.load(TINY)
    x = np.asarray(json.loads(TINY.read_text(encoding="utf-8"))["check"]["rows"])
    one_by_one = sum(t.predict(x) for t in ranker.trees)
    np.testing.assert_allclose(ranker.forest.predict_sum(x), one_by_one, rtol=0, atol=1e-12)


def test_runtime_needs_no_lightgbm(store: EmbeddedStore, tmp_path: Path) -> None:
    """The learned stage runs with LightGBM unimportable (it is a training-only dependency)."""
    import os
    import subprocess
    import sys

    blocker = tmp_path / "lightgbm.py"
    blocker.write_text("raise ImportError('lightgbm is for training only')\n", encoding="utf-8")
    code = (
        "import sys\n"
        "from citewise.index.embedded import EmbeddedStore\n"
        "from citewise.retrieve.hybrid import Retriever\n"
        "from citewise.settings import RetrieveSettings\n"
        f"r = Retriever(EmbeddedStore({str(store.folder)!r}), None, RetrieveSettings(ranker='learned'))\n"
        f"assert r.search({QUESTIONS[2]!r}, k=3).evidence\n"
        "assert 'lightgbm' not in sys.modules\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "OMP_WAIT_POLICY": "PASSIVE"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
