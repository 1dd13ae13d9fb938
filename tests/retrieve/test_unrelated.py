"""The weak-evidence cosine limit raised to what questions about unrelated things reach in the index: real sample
index, real embedder."""

from __future__ import annotations

from pathlib import Path

import citewise
from citewise.index.embedder import Embedder
from citewise.retrieve.probes import PROBES
from citewise.retrieve.records import Strength
from citewise.retrieve.unrelated import Unrelated
from citewise.settings import Settings

OFF = "How do I bake sourdough bread at home?"


def _open(index: Path, embedder: Embedder, **retrieve: object) -> citewise.Engine:
    return citewise.open(settings=Settings(index=index, retrieve=retrieve), embedder=embedder)


def test_an_unrelated_question_is_weak_at_the_level_probes_reach(sample_index: Path, embedder: Embedder) -> None:
    """With a configured limit far below what unrelated questions reach in this index (0.70), a question about
    baking passes it; the probes' level (their 90th percentile, about 0.8 here) holds it back and says so."""
    low = {"weak_dense": {"en": 0.70, "vi": 0.70}}
    with _open(sample_index, embedder, weak_probe_quantile=None, **low) as plain:
        assert not plain.search(OFF).weak
    with _open(sample_index, embedder, **low) as probed:
        found = probed.search(OFF)
        level = found.strength.unrelated
        assert level is not None and 0.75 < level < 0.9 and found.weak
        assert f"< {round(level, 4)} (what unrelated questions reach in this index)" in found.weak_reason
        assert "unrelated" in found.timings
        # a question the policies answer keeps its answer
        assert not probed.search("How long do I have to notify you of damage to my home?").weak


def test_the_level_is_read_once_per_index_state() -> None:
    class Result:
        def __init__(self, lang: str, dense: float | None) -> None:
            self.analysis = type("A", (), {"lang": lang})()
            self.strength = type("S", (), {"dense": dense})()

    asked: list[str] = []

    def search(question: str) -> Result:
        asked.append(question)
        return Result("en", 0.80)

    u = Unrelated(search, 90.0, 0.01)  # type: ignore[arg-type]
    assert u.known("en", (1, 1)) is None and not asked  # nothing read until asked for
    assert abs(u.level("en", (1, 1)) - 0.81) < 1e-9  # type: ignore[operator]
    assert u.known("en", (1, 1)) == u.level("en", (1, 1))
    assert len(asked) == len(PROBES["en"])  # read once for that state
    u.level("en", (2, 1))
    assert len(asked) == 2 * len(PROBES["en"])  # and again when the index's documents changed
    # probes that find no vectors (an index still embedding) leave the configured limit
    assert Unrelated(lambda q: Result("en", None), 90.0, 0.01).level("en", (1, 1)) is None  # type: ignore[arg-type]


def test_the_limit_in_force_is_never_below_the_configured_one() -> None:
    s = Strength(0.815, 0.2, False, True, unrelated=0.81)
    assert s.dense_limit(0.82) == 0.82 and s.dense_limit(0.70) == 0.81
    assert s.is_weak(0.82, 0.6) and s.is_weak(0.70, 0.6) is False
    assert Strength(0.80, 0.2, False, True, unrelated=0.81).is_weak(0.70, 0.6)


def test_while_only_vectors_are_added_the_level_is_read_again_once_a_minute() -> None:
    """Background embedding changes the index state with every batch: the level read stays in force for a minute
    while the documents are the same, not for a new document."""

    class Result:
        analysis = type("A", (), {"lang": "en"})()
        strength = type("S", (), {"dense": 0.8})()

    reads: list[str] = []
    now = [0.0]

    def search(question: str) -> Result:
        reads.append(question)
        return Result()

    u = Unrelated(search, 90.0, 0.01, clock=lambda: now[0])  # type: ignore[arg-type]
    u.level("en", (1, 10))
    n = len(reads)
    now[0] = 30.0
    assert u.known("en", (1, 11)) is not None and u.level("en", (1, 12)) is not None and len(reads) == n
    now[0] = 61.0
    assert u.known("en", (1, 13)) is None  # stale: the next search that needs it reads it again
    u.level("en", (1, 13))
    assert len(reads) == 2 * n
    now[0] = 62.0
    u.level("en", (2, 13))  # a document added or removed
    assert len(reads) == 3 * n
