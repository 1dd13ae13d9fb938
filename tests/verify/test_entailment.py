"""The optional LLM entailment check: the real llama.cpp path with SmolLM2-135M gives a probability,
the validator asks it only for borderline sentences and says so in the verdict; a scripted judge
pins the decision rule down."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

from citewise.answer.records import Draft, DraftSentence
from citewise.assistant import Assistant
from citewise.settings import AnswerSettings, LlmSettings
from citewise.verify.entailment import SOURCE_CHARS, EntailmentJudge, LlamaCppJudge, excerpt, messages
from citewise.verify.scorer import SupportScore, SupportScorer
from citewise.verify.validator import Validator
from tests.verify.test_checks import EN, VI, fragment

EN_OK = "The controller shall notify the Authority within 72 hours."
EN_VERBATIM = "The controller shall notify the Authority not later than 72 hours after having become aware of it."
VI_OK = "Mức khấu trừ cho mỗi vụ tổn thất là 2.000.000 đồng."


class FixedScorer(SupportScorer):
    """Scores set per claim, so the band a sentence falls in does not hang on the trained weights."""

    name = "fixed"

    def __init__(self, scores: dict[str, float]) -> None:
        self.scores = scores

    def score(self, claim: str, source: str) -> SupportScore:
        return SupportScore(self.scores.get(claim, 0.0), (0, len(source)), lang="vi" if "đồng" in claim else "en")

    def thresholds(self, lang: str) -> tuple[float, float]:
        return 0.9, 0.6


class ScriptedJudge(EntailmentJudge):
    name = "scripted"

    def __init__(self, p: float) -> None:
        self.p = p
        self.asked: list[tuple[str, str]] = []

    def p_yes(self, claim: str, source: str, lang: str | None = None) -> float:
        self.asked.append((claim, source))
        return self.p


@pytest.fixture(scope="module")
def smollm() -> Path:
    from citewise.answer.models import model_path

    pytest.importorskip("llama_cpp")
    return model_path("smollm2-135m")


@pytest.fixture(scope="module")
def judge(smollm: Path) -> LlamaCppJudge:
    return LlamaCppJudge(gguf=smollm, n_ctx=1024)


def test_excerpt_keeps_short_sources_and_centres_long_ones_on_the_span() -> None:
    assert excerpt(EN, (10, 20)) == EN
    long = "Lorem ipsum dolor sit amet. " * 80 + EN + " Tail sentence here." * 60
    at = long.index(EN)
    cut = excerpt(long, (at, at + len(EN)))
    assert EN in cut
    assert len(cut) <= SOURCE_CHARS + 4
    assert cut.startswith("… ") and cut.endswith(" …")
    assert excerpt(long, None).startswith("Lorem") and len(excerpt(long, None)) <= SOURCE_CHARS + 2


def test_the_question_is_asked_in_the_claim_language() -> None:
    assert "Is the claim fully supported" in messages(EN_OK, EN)[1]["content"]
    assert "Nhận định" in messages(VI_OK, VI)[1]["content"]
    assert "Nhận định" in messages(EN_OK, VI, lang="vi")[1]["content"]


def test_real_llama_cpp_gives_a_probability_of_yes(judge: LlamaCppJudge) -> None:
    for claim, source in ((EN_OK, EN), ("The Authority may wait 30 days.", EN), (VI_OK, VI)):
        p = judge.p_yes(claim, source)
        assert 0.0 <= p <= 1.0
        assert judge.last is not None and judge.last.p_yes == p
        assert judge.last.prompt_tokens > 30
        assert 0.0 < judge.last.mass <= 1.0  # some mass on Yes/No: the answer ids were found


def test_validator_asks_the_real_llm_only_for_borderline_sentences(judge: LlamaCppJudge) -> None:
    scorer = FixedScorer(
        {EN_OK: 0.7, EN_VERBATIM: 0.95, "The controller shall notify the Authority within 48 hours.": 0.7}
    )
    validator = Validator(scorer=scorer, judge=judge)
    frags = [fragment("F1", EN, "Article 33", "en")]
    draft = Draft(
        [
            DraftSentence(EN_OK, ["F1"]),  # 0.6 <= 0.7 < 0.9: borderline
            DraftSentence(EN_VERBATIM, ["F1"]),  # supported by the scorer alone
            DraftSentence("The controller shall notify the Authority within 48 hours.", ["F1"]),  # a figure fails
            DraftSentence("Nothing in the source says this at all.", ["F1"]),  # 0.0: below the band
        ],
        "scripted",
    )
    borderline, supported, number, low = validator.check(draft, frags)
    llm = [d for d in borderline.verdict.details if d.startswith("LLM check (llama.cpp): P(yes) ")]
    assert len(llm) == 1
    p = float(llm[0].split("P(yes) ")[1].split()[0])
    assert 0.0 <= p <= 1.0
    assert borderline.verdict.status == ("supported" if p >= validator.judge_threshold else "partial")
    assert borderline.verdict.support == 0.7  # the scorer's support is kept as it was
    for c in (supported, number, low):
        assert not any(d.startswith("LLM check") for d in c.verdict.details)
    assert (supported.verdict.status, number.verdict.status, low.verdict.status) == (
        "supported",
        "unsupported",
        "unsupported",
    )


@pytest.mark.parametrize(("p", "status", "failed"), [(0.9, "supported", []), (0.2, "partial", ["support"])])
def test_decision_rule_with_a_scripted_judge(p: float, status: str, failed: list[str]) -> None:
    judge = ScriptedJudge(p)
    validator = Validator(scorer=FixedScorer({VI_OK: 0.7}), judge=judge, judge_threshold=0.5)
    checked = validator.check(Draft([DraftSentence(VI_OK, ["F1"])], "scripted"), [fragment("F1", VI)])[0]
    assert (checked.verdict.status, checked.verdict.failed) == (status, failed)
    assert checked.verdict.details[-1].startswith(f"LLM check (scripted): P(yes) {p:.3f}")
    assert judge.asked == [(VI_OK, VI)]  # a short source is given whole


def test_the_band_starts_at_judge_from_and_ends_at_the_supported_threshold() -> None:
    judge = ScriptedJudge(0.9)
    validator = Validator(scorer=FixedScorer({}), judge=judge, judge_from=0.5)
    assert [validator.borderline(x, "en") for x in (0.49, 0.5, 0.7, 0.89, 0.9)] == [False, True, True, True, False]
    assert not Validator(scorer=FixedScorer({})).borderline(0.5, "en")


def test_without_a_judge_the_verdicts_are_unchanged() -> None:
    scorer = FixedScorer({EN_OK: 0.7, VI_OK: 0.3})
    frags = [fragment("F1", EN, "Article 33", "en"), fragment("F2", VI)]
    draft = Draft([DraftSentence(EN_OK, ["F1"]), DraftSentence(VI_OK, ["F2"])], "scripted")
    plain = Validator(scorer=scorer).check(draft, frags)
    judged = Validator(scorer=scorer, judge=ScriptedJudge(0.0)).check(draft, frags)
    assert [c.verdict.status for c in plain] == ["partial", "unsupported"]
    assert [(c.verdict.status, c.verdict.failed) for c in plain] == [
        (c.verdict.status, c.verdict.failed) for c in judged
    ]


def test_llm_check_is_off_by_default_and_shares_the_local_model(smollm: Path) -> None:
    from citewise.answer.llama_local import LlamaCppGenerator

    retriever = cast(Any, None)  # not used by the constructor
    assert Assistant(retriever, settings=AnswerSettings()).validator.judge is None
    local = LlamaCppGenerator(LlmSettings(n_ctx=1024), gguf=smollm)
    settings = AnswerSettings(llm_check=True, llm_check_threshold=0.8, llm_check_from=0.5)
    validator = Assistant(retriever, local, settings).validator
    assert isinstance(validator.judge, LlamaCppJudge) and validator.judge.llm is local.llm
    assert (validator.judge_threshold, validator.judge_from) == (0.8, 0.5)
    lazy = Assistant(retriever, settings=settings).validator.judge
    assert isinstance(lazy, LlamaCppJudge) and not lazy.loaded  # extractive: no model loaded until asked
