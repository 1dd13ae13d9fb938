"""The trained support scorer: it loads the weights shipped in the package, its outputs move the
right way on hand-made EN and VI cases, it separates real held-out pairs, and the pieces built on
it (reference checks, pairs files, low-confidence reports) behave."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from training.support_pairs import WRITTEN_CONSTRUCTED, fill_answer, load_pairs, split_of
from training.support_synth import synthetic_pairs
from typer.testing import CliRunner

from citewise.answer.records import Draft, DraftSentence
from citewise.assistant.records import Answer
from citewise.assistant.report import build_report, write_report
from citewise.cli import app
from citewise.errors import UnknownName
from citewise.evaluate.classification import auc
from citewise.retrieve.records import QueryAnalysis, SearchResult
from citewise.verify.cues import cues
from citewise.verify.features import FEATURES, pair_features
from citewise.verify.records import ReferenceCheck
from citewise.verify.references import check_references, render_references, short_name
from citewise.verify.scorer import LexicalScorer, TrainedScorer, get_scorer
from citewise.verify.validator import Validator
from tests.conftest import SHARED, shared
from tests.verify.test_checks import EN, VI, fragment

VI_ART = (
    "Điều 12. Thời hạn bồi thường\n"
    "1. Doanh nghiệp bảo hiểm phải bồi thường trong thời hạn 15 ngày kể từ ngày nhận đủ hồ sơ hợp lệ.\n"
    "2. Bên mua bảo hiểm có thể yêu cầu tạm ứng tiền bồi thường tối đa 50% số tiền dự kiến."
)
EN_ART = (
    "Article 33. Notification of a personal data breach\n"
    "1. The controller shall notify the supervisory authority of the breach not later than 72 hours "
    "after having become aware of it. 2. The processor shall notify the controller without undue delay."
)


@pytest.fixture(scope="module")
def scorer() -> TrainedScorer:
    s = get_scorer("trained")
    assert isinstance(s, TrainedScorer)
    return s


def test_shipped_weights_load_with_thresholds(scorer: TrainedScorer) -> None:
    assert scorer.source.startswith("package:")
    assert [t.name for t in scorer.tiers] == ["verbatim", "restatement"]
    assert all(len(t.trees) > 10 for t in scorer.tiers)
    assert tuple(scorer.model["features"]) == FEATURES
    for lang in ("en", "vi"):
        supported, partial = scorer.thresholds(lang)
        assert 0.0 < partial <= supported < 1.0
        for tier in scorer.tiers:  # each tier's own thresholds map onto the common scale
            assert tier.scaled(tier.supported[lang], lang) == pytest.approx(supported)
            assert tier.scaled(tier.partial[lang], lang) == pytest.approx(partial)
    with pytest.raises(UnknownName):
        get_scorer("oracle")


@pytest.mark.parametrize(
    ("good", "bad", "source"),
    [
        (  # changed number
            "Doanh nghiệp bảo hiểm phải bồi thường trong thời hạn 15 ngày kể từ ngày nhận đủ hồ sơ hợp lệ.",
            "Doanh nghiệp bảo hiểm phải bồi thường trong thời hạn 45 ngày kể từ ngày nhận đủ hồ sơ hợp lệ.",
            VI_ART,
        ),
        (  # inserted negation
            "Doanh nghiệp bảo hiểm phải bồi thường trong thời hạn 15 ngày kể từ ngày nhận đủ hồ sơ hợp lệ.",
            "Doanh nghiệp bảo hiểm không phải bồi thường trong thời hạn 15 ngày kể từ ngày nhận đủ hồ sơ hợp lệ.",
            VI_ART,
        ),
        (  # changed number
            "The controller shall notify the supervisory authority not later than 72 hours after becoming aware of it.",
            "The controller shall notify the supervisory authority not later than 96 hours after becoming aware of it.",
            EN_ART,
        ),
        (  # negation
            "The processor shall notify the controller without undue delay.",
            "The processor shall not notify the controller.",
            EN_ART,
        ),
        (  # wrong article: the claim is about something else
            "The processor shall notify the controller without undue delay.",
            "The processor shall notify the controller without undue delay.",
            VI,
        ),
    ],
)
def test_scores_drop_when_the_claim_is_changed(scorer: TrainedScorer, good: str, bad: str, source: str) -> None:
    ok = scorer.score(good, EN_ART if source is VI else source)
    wrong = scorer.score(bad, source)
    assert ok.score > 0.5, ok
    assert wrong.score < ok.score - 0.1, (ok.score, wrong.score, wrong.features)
    assert 0.0 <= wrong.score <= 1.0


def test_features_see_negation_modality_and_figures() -> None:
    base = pair_features("Bên mua bảo hiểm có thể yêu cầu tạm ứng tiền bồi thường.", VI_ART).named()
    swapped = pair_features("Bên mua bảo hiểm phải yêu cầu tạm ứng tiền bồi thường.", VI_ART).named()
    assert base["modal_flip"] == 0.0 and swapped["modal_flip"] > 0.0
    negated = pair_features("The controller shall not notify the supervisory authority.", EN_ART).named()
    assert negated["neg_flip"] > 0.0 and negated["neg_claim_only"] == 1.0
    figure = pair_features("Tạm ứng tối đa 70% số tiền dự kiến.", VI_ART).named()
    assert figure["num_missing"] == 1.0
    assert cues("không phải bồi thường").obligation == ()  # "không phải" is a negation, not an obligation
    assert cues("Doanh nghiệp phải bồi thường").obligation


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The controller must notify the breach within 72 hours.", EN_ART),
        ("The processor has to inform the controller without undue delay.", EN_ART),
        ("Thời hạn bồi thường không quá 15 ngày kể từ ngày nhận đủ hồ sơ.", VI_ART),
        ("The notice period is 14 days.", "The insured must notify the company within 14 days of the loss."),
    ],
)
def test_bounds_and_other_wording_are_not_negation_or_modality_swaps(claim: str, source: str) -> None:
    """ "not later than", "without undue delay" and "không quá" state bounds, not negations; a modal
    on one side and none on the other, or "has to" for "shall", is not a modality swap."""
    f = pair_features(claim, source).named()
    assert f["neg_flip"] == 0.0 and f["neg_source_only"] == 0.0 and f["neg_claim_only"] == 0.0, f
    assert f["modal_flip"] == 0.0 and f["perm_for_oblig"] == 0.0, f
    assert cues("not later than 72 hours").negation == ()
    assert cues("không được quá 30 ngày").negation == ()
    assert cues("không được tiết lộ thông tin").negation  # "không được" before a verb still negates


def test_paraphrase_classes_cover_restated_wording() -> None:
    f = pair_features(
        "The insured has to tell the insurer about a loss within 14 days.",
        "The insured must notify the insurance company no later than 14 days after the loss.",
    ).named()
    assert f["para_cov"] == 1.0 and f["uni_best"] < 0.8, f
    g = pair_features(
        "Công ty bảo hiểm có trách nhiệm chi trả trong vòng 15 ngày tính từ ngày nhận đủ giấy tờ.", VI_ART
    )
    assert g.named()["para_cov"] == 1.0
    swapped = pair_features(
        "The insurer has to tell the insured about a loss within 14 days.",
        "The insured must notify the insurer no later than 14 days after the loss.",
    ).named()
    assert swapped["roles"] > 0.0  # the paraphrase classes never merge the two sides of a party pair


def test_best_span_is_the_matching_clause(scorer: TrainedScorer) -> None:
    s = scorer.score("Bên mua bảo hiểm có thể yêu cầu tạm ứng tiền bồi thường tối đa 50% số tiền dự kiến.", VI_ART)
    a, b = s.span
    assert "tạm ứng" in VI_ART[a:b] and s.lang == "vi"


def test_lexical_baseline_is_still_available() -> None:
    s = get_scorer("lexical")
    assert isinstance(s, LexicalScorer)
    assert s.status(s.score("The processor shall notify the controller without undue delay.", EN_ART).score) == (
        "supported"
    )


# -- legal references -----------------------------------------------------------------------
def test_reference_context_and_rendering() -> None:
    frag = fragment("F2", EN, "Article 6", "en")
    valid = check_references("As required by Article 6(1), the controller shall notify the Authority.", [frag])
    assert [(r.raw, r.status) for r in valid] == [("Article 6(1)", "valid")]
    off = check_references("Article 6(1) sets the fee for a passport renewal in the capital city.", [frag])
    assert off[0].status == "mismatch"
    missing = check_references("Điều 17 quy định mức khấu trừ.", [frag])
    assert missing[0].status == "invalid"
    checks = [
        ReferenceCheck("Article 6(1)", "valid", "GDPR"),
        ReferenceCheck("Article 9", "mismatch", "GDPR"),
        ReferenceCheck("Điều 17", "invalid"),
    ]
    assert render_references("Article 6(1), Article 9 and Điều 17 apply.", checks) == (
        "Article 6(1) [GDPR], Article 9 [⚠ context mismatch, see GDPR] and ⚠ [invalid citation: Điều 17] apply."
    )


def test_validator_carries_reference_checks_and_evidence() -> None:
    frags = [fragment("F1", VI), fragment("F2", EN, "Article 11", "en")]
    wrong_article = "Công ty thông báo trong thời hạn 15 ngày làm việc theo Điều 9 Quy tắc này."
    checked = Validator().check(Draft([DraftSentence(wrong_article, ["F1"])], "scripted"), frags)[0]
    assert checked.verdict.status == "unsupported" and "reference" in checked.verdict.failed
    assert [r.status for r in checked.verdict.references] == ["invalid"]
    ok = "Công ty thông báo trong thời hạn 15 ngày làm việc theo Điều 5 Quy tắc này."
    good = Validator().check(Draft([DraftSentence(ok, ["F1"])], "scripted"), frags)[0]
    assert [r.status for r in good.verdict.references] == ["valid"]
    assert "15 ngày làm việc" in good.verdict.evidence


# -- pairs files and the CLI ----------------------------------------------------------------
def test_verify_command_scores_a_pairs_file(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    rows = [
        {"id": "a", "claim": "The processor shall notify the controller without undue delay.", "source": EN_ART},
        {"id": "b", "claim": "The processor must notify the controller within 10 days.", "source": EN_ART},
        {"id": "c", "claim": "Doanh nghiệp bảo hiểm không phải bồi thường.", "source": VI_ART},
    ]
    pairs.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(pairs), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert [o["extra"]["id"] for o in out] == ["a", "b", "c"]
    assert out[0]["status"] in ("supported", "partial") and out[0]["score"] > 0.5
    assert out[1]["status"] == "unsupported" and out[1]["missing_figures"] == ["10"]
    assert out[2]["score"] < out[0]["score"]
    table = CliRunner().invoke(app, ["verify", str(pairs)])
    assert table.exit_code == 0 and "unsupported" in table.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"claim": "x"}\n', encoding="utf-8")
    failed = CliRunner().invoke(app, ["verify", str(bad)])
    assert failed.exit_code == 1 and "source" in failed.output
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"claim": "x", "source": "x"}\n\n{not json\n', encoding="utf-8")
    failed = CliRunner().invoke(app, ["verify", str(broken)])
    assert failed.exit_code == 1 and "broken.jsonl:3: not JSON" in " ".join(failed.output.split())


# -- low-confidence reports -----------------------------------------------------------------
def test_low_confidence_report_is_written_as_json_and_text(tmp_path: Path) -> None:
    result = SearchResult(
        QueryAnalysis("Phí bảo hiểm du lịch vũ trụ là bao nhiêu?", "vi", "legal"), [], True, "no evidence"
    )
    answer = Answer(result.analysis.question, "vi", "", [], True, "no answer in the sources", 0.0, "none")
    path = write_report(tmp_path / "reports", build_report(answer, result))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["why"] == "refused" and data["query"]["lang"] == "vi"
    assert "corpus" in data["recommendation"]
    text = path.with_suffix(".txt").read_text(encoding="utf-8")
    assert "Phí bảo hiểm du lịch vũ trụ" in text and "Recommendation:" in text


# -- data sets ------------------------------------------------------------------------------
def test_alqac_questions_become_statements() -> None:
    assert fill_answer("Chiếm đoạt di vật của tử sĩ có thể bị phạt tù lên đến bao nhiêu năm?", "07 năm") == (
        "Chiếm đoạt di vật của tử sĩ có thể bị phạt tù lên đến 07 năm."
    )
    assert fill_answer(
        "Người chuẩn bị phạm tội thì bị phạt tù từ bao nhiêu đến bao nhiêu năm?", "01 năm đến 05 năm"
    ) == ("Người chuẩn bị phạm tội thì bị phạt tù từ 01 năm đến 05 năm.")
    assert fill_answer("Có được miễn không?", "Có") is None
    assert split_of("alqac2022:q-1") == split_of("alqac2022:q-1")


@pytest.mark.parametrize(
    ("dataset", "least"),
    [("alqac2022", 0.72), ("contractnli", 0.6), ("wice", 0.65), ("written-en", 0.75), ("written-vi", 0.72)],
)
def test_real_dev_pairs_are_separated(scorer: TrainedScorer, dataset: str, least: float) -> None:
    """Held-out pairs are ranked supported above the rest (AUC; the score is on the tiers' common
    scale, not a probability) and, at the partial threshold, both classes are mostly told apart."""
    if not dataset.startswith("written"):
        shared(dataset)
    pairs = [p for p in load_pairs(SHARED, [dataset]) if p.split == "dev" and p.kind not in WRITTEN_CONSTRUCTED]
    pairs = pairs[:240]
    scores = np.array([scorer.score(p.claim, p.source).score for p in pairs])
    y = np.array([p.label == "supported" for p in pairs])
    assert y.any() and (~y).any()
    assert auc(scores, y.astype(int)) >= least
    partial = scorer.thresholds("en")[1]
    assert 0.5 * float(np.mean(scores[y] >= partial)) + 0.5 * float(np.mean(scores[~y] < partial)) > 0.54
    # train and dev never share a group
    train_groups = {p.group for p in load_pairs(SHARED, [dataset]) if p.split == "train"}
    assert not train_groups & {p.group for p in pairs}


@pytest.mark.parametrize(
    ("title", "short"),
    [
        (
            "Thông tư số 21/2024/TT-HHBH quy định về bảo vệ dữ liệu cá nhân của khách hàng bảo hiểm",
            "Thông tư 21/2024/TT-HHBH",
        ),
        ("Regulation (EU) 2016/679 of the European Parliament and of the Council", "Regulation (EU) 2016/679"),
        ("Luật Kinh doanh bảo hiểm 08/2022/QH15", "Luật Kinh doanh bảo hiểm 08/2022/QH15"),
        ("QUY TẮC BẢO HIỂM NHÀ Ở TƯ NHÂN", "QUY TẮC BẢO HIỂM NHÀ Ở TƯ NHÂN"),
        (
            "Bluewave Travel Insurance — Terms and Conditions for every trip abroad",
            "Bluewave Travel Insurance — Terms and C…",
        ),
    ],
)
def test_reference_brackets_name_the_document_briefly(title: str, short: str) -> None:
    assert short_name(title) == short


@pytest.mark.parametrize(
    ("claim", "source", "feature"),
    [
        (  # exception turned into inclusion
            "Quyền sử dụng đất có được sau khi kết hôn là tài sản chung, kể cả trường hợp được thừa kế riêng.",
            "Quyền sử dụng đất có được sau khi kết hôn là tài sản chung, trừ trường hợp được thừa kế riêng.",
            "flip",
        ),
        (  # bound reversed
            "The provider shall keep the logs for at most six months.",
            "The provider shall keep the logs for at least six months.",
            "flip",
        ),
        (  # parties swapped, both named in the source
            "Bên mua bảo hiểm phải cấp giấy chứng nhận bảo hiểm cho doanh nghiệp bảo hiểm.",
            "Doanh nghiệp bảo hiểm phải cấp giấy chứng nhận bảo hiểm cho bên mua bảo hiểm.",
            "roles",
        ),
        (
            "The processor shall inform the controller of the breach.",
            "The controller shall inform the processor of the breach.",
            "roles",
        ),
        (  # the source names the insurer "the company"
            "The company must notify the insured within 14 days of the loss.",
            "The insured must notify the company within 14 days of the loss.",
            "roles",
        ),
        (
            "Nhà bảo hiểm phải thông báo cho bên mua bảo hiểm trong thời hạn 14 ngày.",
            "Bên mua bảo hiểm phải thông báo cho công ty bảo hiểm trong thời hạn 14 ngày.",
            "roles",
        ),
    ],
)
def test_counterpart_swaps_are_features(claim: str, source: str, feature: str) -> None:
    assert pair_features(claim, source).named()[feature] > 0.0
    assert pair_features(source, source).named()[feature] == 0.0


def test_another_name_of_the_same_party_is_no_counterpart() -> None:
    """The issue's example: "the insurer" restates "the company"; the insured's counterpart is not named."""
    source = "The insured must notify the company within 14 days of the loss."
    named = pair_features("The insured must tell the insurer within 14 days of the loss.", source).named()
    assert named["flip"] == 0.0 and named["roles"] == 0.0
    # a travel company is not the insurer
    assert (
        pair_features("The insured must tell the insurer.", "You must tell your travel company.").named()["flip"] == 0.0
    )


def test_a_figure_moved_to_another_place_is_seen() -> None:
    source = "Thời hạn tạm trú tối đa là 02 năm và có thể gia hạn thêm 01 lần."
    moved = pair_features("Thời hạn tạm trú tối đa là 01 năm và có thể gia hạn thêm 02 lần.", source).named()
    kept = pair_features("Thời hạn tạm trú tối đa là 02 năm.", source).named()
    assert moved["num_missing"] == 0.0 and moved["num_context"] == 0.0  # both figures exist, in other places
    assert kept["num_context"] == 1.0


@pytest.mark.parametrize(
    ("restated", "reversed_"),
    [
        (  # clauses reordered / "thời hạn" left out; against the bound reversed
            "Trong thời hạn 15 ngày kể từ ngày nhận đủ hồ sơ hợp lệ, doanh nghiệp bảo hiểm phải bồi thường.",
            "Doanh nghiệp bảo hiểm phải bồi thường sau 15 ngày kể từ ngày nhận đủ hồ sơ hợp lệ.",
        ),
        (
            "Doanh nghiệp bảo hiểm phải bồi thường trong 15 ngày kể từ ngày nhận đủ hồ sơ hợp lệ.",
            "Doanh nghiệp bảo hiểm không phải bồi thường trong 15 ngày kể từ ngày nhận đủ hồ sơ hợp lệ.",
        ),
        (  # both parties named, in the source's roles and swapped
            "Bên mua bảo hiểm có thể yêu cầu doanh nghiệp bảo hiểm tạm ứng tiền bồi thường.",
            "Doanh nghiệp bảo hiểm có thể yêu cầu bên mua bảo hiểm tạm ứng tiền bồi thường.",
        ),
    ],
)
def test_restatements_outscore_reversals(scorer: TrainedScorer, restated: str, reversed_: str) -> None:
    source = VI_ART.replace(
        "2. Bên mua bảo hiểm có thể yêu cầu", "2. Bên mua bảo hiểm có thể yêu cầu doanh nghiệp bảo hiểm"
    )
    ok, bad = scorer.score(restated, source), scorer.score(reversed_, source)
    assert scorer.status(ok.score, "vi") != "unsupported", (ok.score, scorer.thresholds("vi"))
    assert scorer.status(bad.score, "vi") != "supported" and bad.score < ok.score, (ok.score, bad.score)


def test_constructed_pairs_come_from_real_law_texts() -> None:
    shared("gdpr_en")
    pairs = list(synthetic_pairs(SHARED, "en"))
    kinds = {(p.kind, p.label) for p in pairs}
    assert {("flip", "unsupported"), ("number", "unsupported"), ("splice", "unsupported")} <= kinds
    assert {k for k, label in kinds if label == "supported"} & {"restated", "lead-item"}
    groups: dict[str, set[str]] = {}
    for p in pairs:
        groups.setdefault(p.group, set()).add(p.split)
        assert p.claim.strip() and p.source.strip()
    assert all(len(s) == 1 for s in groups.values())  # an article is in train or in dev, never both
    assert pairs == list(synthetic_pairs(SHARED, "en"))  # deterministic


NOTICE_EN = "The insured must notify the insurer in writing within 14 days of discovering the loss."
PAY_VI = (
    "Doanh nghiệp bảo hiểm phải trả tiền bồi thường trong thời hạn 15 ngày kể từ ngày nhận đủ hồ sơ yêu cầu "
    "bồi thường hợp lệ."
)


@pytest.mark.parametrize(
    ("claim", "source", "status"),
    [
        # restatements in other words pass (the restatement tier), the source's own words too (verbatim)
        ("The insured has 14 days from discovering the loss to notify the insurer in writing.", NOTICE_EN, "supported"),
        (NOTICE_EN, NOTICE_EN, "supported"),
        (
            "Trong vòng 15 ngày kể từ khi nhận đủ hồ sơ hợp lệ, công ty bảo hiểm phải chi trả tiền bồi thường.",
            PAY_VI,
            "supported",
        ),
        # a swapped party, a negation, a modality: rejected whatever the wording
        (
            "The insurer must notify the insured in writing within 14 days of discovering the loss.",
            NOTICE_EN,
            "unsupported",
        ),
        (  # the insurer named "the company" by the source (it passed at 0.807 before parties were read by side)
            "The company must notify the insured within 14 days of the loss.",
            "The insured must notify the company within 14 days of the loss.",
            "unsupported",
        ),
        (
            "The insured need not notify the insurer in writing within 14 days of discovering the loss.",
            NOTICE_EN,
            "unsupported",
        ),
        (
            "Doanh nghiệp bảo hiểm không phải trả tiền bồi thường trong thời hạn 15 ngày kể từ ngày nhận đủ hồ sơ.",
            PAY_VI,
            "unsupported",
        ),
        (
            "Doanh nghiệp bảo hiểm có thể trả tiền bồi thường trong thời hạn 15 ngày kể từ ngày nhận đủ hồ sơ.",
            PAY_VI,
            "unsupported",
        ),
    ],
)
def test_restatements_pass_and_swaps_fail(scorer: TrainedScorer, claim: str, source: str, status: str) -> None:
    s = scorer.score(claim, source)
    assert scorer.status(s.score, s.lang) == status, (
        s.score,
        {k: v for k, v in s.features.items() if k.startswith("p_")},
    )


SETTLE_VI = "Công ty có trách nhiệm giải quyết bồi thường trong thời hạn 15 ngày kể từ ngày nhận được đầy đủ hồ sơ."


def test_a_reworded_claim_with_a_negation_its_source_lacks_is_not_supported(
    scorer: TrainedScorer, monkeypatch: pytest.MonkeyPatch
) -> None:
    reworded = "Khi nhận đủ hồ sơ, công ty phải bồi thường trong vòng 15 ngày."
    negated = "Khi nhận đủ hồ sơ, công ty không phải bồi thường trong vòng 15 ngày."
    # the rewording itself is read as supported or partly so (partial since session 52's licensed retrain: 0.74)
    assert scorer.status(scorer.score(reworded, SETTLE_VI).score, "vi") in ("supported", "partial")
    guarded = scorer.score(negated, SETTLE_VI)
    assert guarded.features["neg_claim_only"] > 0
    assert scorer.status(guarded.score, "vi") != "supported"
    # the restatement tier alone would pass it: the guard is what stops it
    monkeypatch.setattr("citewise.verify.scorer.NEGATION_GUARDED", "none")
    assert scorer.status(scorer.score(negated, SETTLE_VI).score, "vi") == "supported"
