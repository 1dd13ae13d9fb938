"""The weights of the smoke run of the judge pipeline (``make test`` runs every step of ``make judge-weights`` on a few
hundred pairs and points ``CITEWISE_SMOKE_WEIGHTS`` at the result): they were written, exported and chosen as the
real run's are, and the run time loads and uses them wherever the shipped weights would be used (a changed file's
refusal is tested on stand-in files in test_e5_numpy.py). They are barely
trained, so these tests check the plumbing, not the judgment (tests/judge/test_pair_classifier.py and
tests/judge/test_answerability.py do that with the real weights)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import citewise
from citewise.index.embedder import Embedder
from citewise.judge.answerability import JUDGES, FeatureJudge, TieredJudge
from citewise.judge.pair import MANIFEST, PairClassifier
from citewise.judge.records import Passage

SMOKE = Path(os.environ.get("CITEWISE_SMOKE_WEIGHTS", "/nonexistent"))
pytestmark = pytest.mark.skipif(
    not (SMOKE / MANIFEST).is_file(), reason="no smoke-run weights (make test writes them; CITEWISE_SMOKE_WEIGHTS)"
)


@pytest.fixture(scope="module")
def clf() -> PairClassifier:
    return PairClassifier(SMOKE)


def test_the_manifest_says_what_was_chosen_and_checks_every_file() -> None:
    m = json.loads((SMOKE / MANIFEST).read_text(encoding="utf-8"))
    assert set(m["files"]) == {"pair-delta.npz", "pair-head.npz"} and len(m["base_sha256"]) == 64
    for kind in ("tiered", "pair"):
        assert set(m["judges"][kind]["thresholds"]) == {"en", "vi"}
    assert "written-ans" in m["trained_on"] and "squad2" in m["trained_on"]


def test_scores_are_probabilities_and_repeatable(clf: PairClassifier) -> None:
    q = "How many days do I have to notify the company of a loss?"
    sents = ["The insured must notify the company within 14 days of the loss.", "Hợp đồng phải lập thành văn bản."]
    first, again = clf.score_pairs(q, sents), clf.score_pairs(q, list(reversed(sents)))
    assert all(0.0 <= p <= 1.0 for p in first) and first == list(reversed(again))
    assert 0.0 <= clf.supports("The period is 14 days.", sents[0]) <= 1.0


def test_the_registered_judges_run_on_a_shared_classifier(clf: PairClassifier) -> None:
    answer = "The insured must notify the company within 14 days of the loss."
    for name in ("tiered", "pair"):
        judge = JUDGES.create(name, directory=SMOKE, classifier=clf)
        assert judge.pair is clf  # type: ignore[attr-defined]
        judged = judge.judge("How many days do I have to notify?", [Passage(f"Cover starts at noon. {answer}")], "en")
        assert judged.span is not None and judged.qtype == "duration" and 0.0 <= judged.score <= 1.0
        assert 0.0 < judge.threshold("vi") < 1.0


def test_the_engine_loads_the_classifier_once(
    module_index: Path, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITEWISE_JUDGE_WEIGHTS", str(SMOKE))
    with citewise.open(index=module_index, embedder=embedder) as cw:
        judge = cw.judge()
        assert judge is not None and judge.name == "tiered"
        assert judge.pair is cw.pair_classifier()  # type: ignore[attr-defined]
        answer = cw.ask("How many days do I have to notify Harbourview of damage to my home?")
        assert answer.outcome in ("answered", "no_direct_answer")
        assert answer.answerability is not None and 0.0 <= answer.answerability <= 1.0
        derived = cw.derive(answer={"max_sentences": 2})
        assert derived.pair_classifier() is cw.pair_classifier()


def test_early_reading_stops_at_the_first_answering_sentence_with_the_same_outcome(clf: PairClassifier) -> None:
    question = "What must the insured do after a loss?"
    passages = [
        Passage(
            "The insured must notify the company within 14 days of the loss. Notice is given in writing. "
            "The company settles a claim within 30 days of receiving the documents. Late notice reduces the claim."
        )
    ]

    def judge(threshold: float, stop: float | None) -> TieredJudge:  # the pair classifier reads every question
        return TieredJudge(FeatureJudge(), clf, {"en": threshold}, band=(0.0, 1.01), top=3, stop=stop)

    read_all = judge(0.0, None).judge(question, passages, "en")
    assert read_all.scores["pairs_read"] == 3
    # (one pair read alone and three read in a batch differ in the 8th decimal)
    for threshold in (0.0, 1.01, read_all.score - 1e-6):
        judged = judge(threshold, 0.0).judge(question, passages, "en")
        assert judged.answers(threshold) == read_all.answers(threshold)
        if threshold == 0.0:  # the first sentence read answers: no other is read
            assert judged.scores["pairs_read"] == 1 and judged.span is not None
            assert judged.span.text.startswith("The insured must notify")
        if threshold == 1.01:  # none answers: every chosen sentence is read, as without early reading
            assert judged.scores["pairs_read"] == 3 and judged.score == pytest.approx(read_all.score, abs=1e-6)
        assert judged.score <= read_all.score + 1e-6
    # a stop above the threshold: the first sentence read stops the reading only when it reaches the stop
    assert judge(0.0, 1.01).judge(question, passages, "en").scores["pairs_read"] == 3


def test_the_engine_reads_early_by_default_but_not_for_the_llm_tier(
    module_index: Path, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITEWISE_JUDGE_WEIGHTS", str(SMOKE))
    with citewise.open(index=module_index, embedder=embedder, answer={"answer_threshold": {"vi": 0.42}}) as cw:
        judge = cw.judge()
        assert judge.stop == 0.0 and judge.threshold("vi") == 0.42  # type: ignore[union-attr]
        assert cw.derive(answer={"judge_stop": None}).judge().stop is None  # type: ignore[union-attr]
        assert cw.derive(answer={"judge_llm": True}).judge().inner.stop is None  # type: ignore[union-attr]


def test_the_pair_classifier_reads_more_sentences_where_a_language_says_so(clf: PairClassifier) -> None:
    # a threshold no sentence reaches: every chosen sentence is read
    passages = [
        Passage(
            "Công ty giải quyết bồi thường trong thời hạn 15 ngày làm việc. Hồ sơ gồm giấy yêu cầu bồi thường. "
            "Trường hợp chậm thanh toán, Công ty trả thêm tiền lãi 10%/năm. Công ty cử giám định viên trong 48 giờ. "
            "Mức khấu trừ là 2.000.000 đồng mỗi vụ. Bên mua bảo hiểm đóng phí một lần."
        )
    ]
    question = "Chậm trả tiền bồi thường thì công ty có phải trả lãi không?"
    tiered = TieredJudge(
        FeatureJudge(), clf, {"vi": 1.01, "en": 1.01}, band=(0.0, 1.01), top=3, stop=0.0, reads={"vi": 5}
    )
    assert tiered.judge(question, passages, "vi").scores["pairs_read"] == 5
    assert tiered.judge(question, passages, "en").scores["pairs_read"] == 3  # the manifest's number elsewhere


def test_the_engine_passes_the_languages_reads(
    module_index: Path, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITEWISE_JUDGE_WEIGHTS", str(SMOKE))
    with citewise.open(index=module_index, embedder=embedder) as cw:
        assert cw.judge().reads == {}  # type: ignore[union-attr]
        assert cw.derive(answer={"judge_reads": {"vi": 8}}).judge().reads == {"vi": 8}  # type: ignore[union-attr]
