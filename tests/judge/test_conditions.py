"""A case the question states, read against the condition of the provision that would answer it (judge.conditions)."""

from __future__ import annotations

from pathlib import Path

import pytest

import citewise
from citewise.answer.records import Draft, DraftSentence, Quote
from citewise.assistant.records import Answer
from citewise.index.embedder import Embedder
from citewise.judge.answerability import FeatureJudge, held_conditions
from citewise.judge.conditions import bounds, case_figures, measures_the_case, swapped_bounds, unmet_conditions
from citewise.judge.records import Passage, Unmet
from citewise.settings import Settings
from citewise.verify.validator import Validator
from tests.verify.test_checks import fragment

DELAY_EN = (
    "If the departure of your booked outward or return flight is delayed by at least 12 hours, we will pay USD 40 for "
    "each full 12 hours of delay, up to USD 400 in total."
)
DELAY_VI = (
    "3. Chuyến bay bị trì hoãn liên tục từ 06 giờ trở lên so với lịch trình được bồi thường 500.000 đồng cho mỗi 06 "
    "giờ trì hoãn, tối đa 5.000.000 đồng."
)
NOTICE = "You must notify us within 30 days of the loss."
AGES = "Người được bảo hiểm là công dân từ 18 đến 70 tuổi."
ADVANCE = "Thiệt hại trên 100 triệu đồng được tạm ứng trong vòng 07 ngày làm việc."
STORM_EN = "(b) storm, meaning winds of at least 90 km/h, together with hail or heavy snow;"
STORM_VI = "2. Bão, lốc, giông có sức gió từ cấp 8 trở lên theo thông báo của cơ quan khí tượng thủy văn."
FLOOD_VI = "3. Lũ lụt, ngập nước do mưa lớn, với điều kiện mực nước ngập trong nhà từ 20 cm trở lên."


def asked(index: Path, embedder: Embedder, judge: str, *questions: str) -> list[Answer]:
    """``questions`` asked of the sample index at ``index`` through ``citewise.open``, with the judge named."""
    with citewise.open(settings=Settings(index=index, answer={"judge": judge}), embedder=embedder) as cw:
        return [cw.ask(q) for q in questions]


def _bounds(sentence: str) -> list[tuple[str, float | None, float | None, str]]:
    return [(b.unit, b.low, b.high, b.text) for b in bounds(sentence)]


def test_the_bounds_a_sentence_sets() -> None:
    assert _bounds(DELAY_EN) == [("hours", 12, None, "at least 12 hours")]  # "up to USD 400" caps the benefit
    assert _bounds(DELAY_VI) == [("hours", 6, None, "từ 06 giờ trở lên")]  # "tối đa" too
    assert _bounds(NOTICE) == [("days", None, 30, "within 30 days")]
    assert _bounds(AGES) == [("years of age", 18, 70, "từ 18 đến 70 tuổi")]
    assert _bounds("Persons aged 18 to 70 years may be insured.") == [("years of age", 18, 70, "aged 18 to 70 years")]
    assert _bounds(ADVANCE) == [
        ("VND", 100_000_000, None, "trên 100 triệu đồng"),
        ("days", None, 7, "trong vòng 07 ngày"),
    ]
    # ages in months read in years
    assert _bounds("Người từ đủ 06 tháng tuổi đến 80 tuổi.") == [
        ("years of age", 0.5, 80, "từ đủ 06 tháng tuổi đến 80 tuổi")
    ]
    assert _bounds("Anyone aged 79 or under at the start of the trip.") == [
        ("years of age", None, 79, "aged 79 or under")
    ]
    over = bounds("Claims over USD 1,000 must be supported by receipts.")[0]
    assert (over.low, over.open_low) == (1000, True) and not over.holds(1000) and over.holds(1001)
    assert bounds("We pay USD 40 for each full 12 hours of delay.") == []


def test_the_figures_of_the_askers_case() -> None:
    assert [(v, u, w) for v, u, w, _ in case_figures("My flight was delayed 8 hours, how much will I get?")] == [
        (8, "hours", "8 hours")
    ]
    assert [
        (v, u, w) for v, u, w, _ in case_figures("Chuyến bay của tôi bị trễ 4 tiếng, được bồi thường bao nhiêu?")
    ] == [(4, "hours", "4 tiếng")]
    # a bound the question asks about is not a case, with its marks read ("tới", not the "tôi" of "Bố tôi 72 tuổi")
    for bound in (
        "If my flight is delayed more than 6 hours, is that covered?",
        "Can I claim up to USD 500 for a phone?",
        "Nếu tôi làm việc chưa được 12 tháng thì được nghỉ hằng năm bao nhiêu ngày?",
        "Nếu tôi trồng cây thuốc phiện thì có thể bị phạt tù tới 07 năm không?",
        "Nếu tôi bị phạt tù từ 05 năm đến 12 năm thì sao?",  # a range
        "Nếu tôi làm việc 3 năm 7 tháng thì phần tháng lẻ được làm tròn thế nào?",  # a compound duration
    ):
        assert case_figures(bound) == [], bound
    assert [w for _, _, w, _ in case_figures("Bố tôi 72 tuổi, có được mua bảo hiểm không?")] == ["72 tuổi"]
    # a bare figure is a person's age when a person "is" it, closing its clause; nothing else's
    assert [(v, u, w) for v, u, w, _ in case_figures("My grandmother is 82, can she be covered?")] == [
        (82, "years of age", "82")
    ]
    assert [w for _, _, w, _ in case_figures("My father turned 80 last month, can he still buy it?")] == ["80"]
    assert case_figures("My claim is 500, will you pay?") == []
    assert case_figures("Our house is 80, is it covered?") == []
    # a question asking to confirm what it states puts its figures to the test
    assert case_figures("Tôi phải báo trong 24 giờ kể từ khi tôi nhập viện, đúng không?") == []
    assert case_figures("I notified you 45 days after the loss, is that right?") == []
    # a figure outside the asker's case is a premise (judge.premise), which the sources must state
    assert case_figures("Tại sao thời hiệu chia di sản thừa kế là nhà đất chỉ có 10 năm?") == []
    assert case_figures("How much is paid for a flight delayed 8 hours?") == []
    # a question asking whether something is covered states the case it puts to the cover
    assert [w for _, _, w, _ in case_figures("Is a storm with 60 km/h winds covered?")] == ["60 km/h"]
    assert [w for _, _, w, _ in case_figures("Gió cấp 6 có được bồi thường không?")] == ["cấp 6"]
    assert case_figures("Is the notice period 30 days?") == []  # asks whether, not whether it is covered


@pytest.mark.parametrize(
    ("question", "sentence", "unmet"),
    [
        ("My flight was delayed 8 hours, how much will I get?", DELAY_EN, [Unmet("8 hours", "at least 12 hours")]),
        ("My flight was delayed 14 hours, how much will I get?", DELAY_EN, []),
        ("My flight was delayed exactly 12 hours. Can I claim?", DELAY_EN, []),
        (
            "Chuyến bay của tôi bị trễ 4 tiếng, tôi được bồi thường bao nhiêu?",
            DELAY_VI,
            [Unmet("4 tiếng", "từ 06 giờ trở lên")],
        ),
        ("Chuyến bay của tôi bị trễ 6 tiếng, tôi được bồi thường bao nhiêu?", DELAY_VI, []),
        ("I notified you of the loss 45 days later, will you pay?", NOTICE, [Unmet("45 days", "within 30 days")]),
        ("Bố tôi 72 tuổi, có được mua bảo hiểm không?", AGES, [Unmet("72 tuổi", "từ 18 đến 70 tuổi")]),
        ("Bố tôi 65 tuổi, có được mua bảo hiểm không?", AGES, []),
        (
            "Con tôi mới 5 tháng tuổi có mua được không?",
            "Người từ đủ 06 tháng tuổi đến 80 tuổi.",
            [Unmet("5 tháng tuổi", "từ đủ 06 tháng tuổi đến 80 tuổi")],
        ),
        (
            "Can I take my 80-year-old mother?",
            "Anyone aged 79 or under can be insured.",
            [Unmet("80-year-old", "aged 79 or under")],
        ),
        # an English question may state a person's age as a bare figure
        (
            "My grandmother is 82, can she be covered?",
            "Anyone aged 79 or under can be insured.",
            [Unmet("82", "aged 79 or under")],
        ),
        ("I'm 45, can I be insured?", "Anyone aged 79 or under can be insured.", []),
        # a clause "thì" closes is the case: "if the plane is delayed 3 hours"
        ("Máy bay bị hoãn 3 tiếng thì được bồi thường bao nhiêu?", DELAY_VI, [Unmet("3 tiếng", "từ 06 giờ trở lên")]),
        ("Nhà tôi bị ngập, thiệt hại 150 triệu đồng thì bao lâu được tạm ứng?", ADVANCE, []),
        (
            "Nhà tôi bị ngập, thiệt hại 50 triệu đồng thì bao lâu được tạm ứng?",
            ADVANCE,
            [Unmet("50 triệu đồng", "trên 100 triệu đồng")],
        ),
        # the same unit, another quantity: a stay in hospital is not a notice period
        ("I was in hospital for 45 days, how long do I have to notify you?", NOTICE, []),
        # two ages in the question: which one the bound is about is not read
        ("My son is 10 and I am 75; can we both be insured?", AGES, []),
        # a question asking whether something is covered: its figures are the case put to the cover
        ("Is a storm with 60 km/h winds covered?", STORM_EN, [Unmet("60 km/h", "at least 90 km/h")]),
        ("Is a storm with 100 km/h winds covered?", STORM_EN, []),
        ("Bão gió cấp 6 làm hư nhà có được bồi thường không?", STORM_VI, [Unmet("cấp 6", "từ cấp 8 trở lên")]),
        ("Nhà bị ngập lụt 10 cm có được bồi thường không?", FLOOD_VI, [Unmet("10 cm", "từ 20 cm trở lên")]),
        ("Nhà bị ngập lụt nửa mét, tức 0,5 mét, có được bồi thường không?", FLOOD_VI, []),
    ],
)
def test_a_case_the_condition_excludes(question: str, sentence: str, unmet: list[Unmet]) -> None:
    assert unmet_conditions(question, [(sentence, None)]) == unmet


def test_a_figure_measures_the_case_when_it_is_said_of_the_same_thing() -> None:
    theft = "Nhà tôi bị trộm, 3 ngày sau mới phát hiện thì có được bồi thường không?"
    rent = "2. Chi phí thuê nhà ở tạm thời, tối đa 10.000.000 đồng mỗi tháng và không quá 06 tháng."
    at = rent.index("06 tháng")
    # "mỗi" (each) is no "mới" (only then): Vietnamese words tie a case with their marks
    assert not measures_the_case(theft, rent, (at, at + 8))
    assert not measures_the_case(theft.replace("mới ", ""), rent, (at, at + 8))
    vacant = "5. Tổn thất xảy ra khi nhà ở bị bỏ trống liên tục trên 60 ngày mà không thông báo cho Công ty."
    at = vacant.index("60 ngày")
    assert measures_the_case("Nhà bỏ trống 3 tháng, nếu bị cháy thì có được bồi thường không?", vacant, (at, at + 7))
    # typed without marks, the question still ties to the provision's words
    assert measures_the_case("Nha bo trong 3 thang, neu bi chay thi co duoc boi thuong khong?", vacant, (at, at + 7))
    assert measures_the_case("What is the notice period?", rent, (0, 1))  # no case stated: any figure measures it


def test_a_bound_measures_what_is_said_next_to_it() -> None:
    """The judge's sentence bounds the report of a loss, not the baggage's delay: the delay clause is read."""
    report = (
        "Loss of or damage to baggage in the care of an airline or other carrier must be reported to the carrier "
        "within 24 hours, and you must obtain a Property Irregularity Report."
    )
    delay = "If your checked baggage is delayed by more than 12 hours, we will pay up to USD 200 for replacement items."
    for hours, unmet in ((5, [Unmet("5 hours", "more than 12 hours")]), (20, [])):
        question = f"My baggage arrived {hours} hours late. What can I claim?"
        assert unmet_conditions(question, [(report, None)], [(delay, None)]) == unmet


def test_a_table_row_is_read_with_the_clause_behind_it() -> None:
    row = ("Chuyến bay bị trì hoãn — Số tiền bảo hiểm tối đa: 5.000.000 đồng.", (0, 0, 10))
    question = "Chuyến bay của tôi bị trễ 4 tiếng, tôi được bồi thường bao nhiêu?"
    assert unmet_conditions(question, [row], [(DELAY_VI, (1, 50, 150))]) == [
        Unmet("4 tiếng", "từ 06 giờ trở lên", (1, 50, 150))
    ]
    # a clause of the answering sentence itself comes first
    assert unmet_conditions(question, [(DELAY_VI, (0, 0, 9))], [(AGES, None)])[0].where == (0, 0, 9)


def test_the_judge_holds_an_excluded_case_under_its_threshold() -> None:
    judge = FeatureJudge()
    passages = [Passage(DELAY_EN, 0, "Bluewave Travel Insurance — Section 4.2")]
    threshold = 0.2
    for hours, held in ((8, True), (14, False)):
        question = f"My flight was delayed {hours} hours, how much will I get?"
        judged = judge.judge(question, passages, "en")
        out = held_conditions(question, passages, judged, threshold)
        assert bool(out.unmet) is held and (out.score < threshold if held else out.score == judged.score)
        assert out.span == judged.span


def test_no_direct_answer_quotes_the_condition_the_case_fails(fresh_index: Path, embedder: Embedder) -> None:
    """The sample travel policies, the fast judge: a delay shorter than the one the policy pays for."""
    short, long, vi = asked(
        fresh_index,
        embedder,
        "features",
        "My flight was delayed 8 hours, how much will I get?",
        "My flight was delayed 14 hours, how much will I get?",
        "Chuyến bay của tôi bị trễ 4 tiếng, tôi được bồi thường bao nhiêu?",
    )
    assert short.outcome == "no_direct_answer"
    assert short.text.startswith(
        "The case in the question does not meet a condition the sources set: the provision below says “at least 12 "
        "hours”, the question states “8 hours”."
    )
    assert "the question states 8 hours" in short.reason
    assert "delayed by at least 12 hours" in short.closest[0].quote
    # 14 hours meets the condition: whatever the judge makes of it, no condition is said to fail
    assert "condition" not in long.text and "requires" not in long.reason
    assert (
        vi.outcome == "no_direct_answer"
        and "điều khoản dưới đây nêu “từ 06 giờ trở lên”, câu hỏi nêu “4 tiếng”" in vi.text
    )
    assert "từ 06 giờ trở lên" in vi.closest[0].quote


def test_a_case_put_to_the_cover_of_a_peril(fresh_index: Path, embedder: Embedder) -> None:
    """The sample home policies, the fast judge: a wind or a flood weaker than the peril the policy names; a case
    stated in days is not answered with the months of another clause."""
    storm, flood, theft = asked(
        fresh_index,
        embedder,
        "features",
        "Is a storm with 60 km/h winds covered?",
        "Nhà em bị ngập 10 cm thì có được bồi thường không?",
        "Nhà tôi bị trộm, 3 ngày sau mới phát hiện thì có được bồi thường không?",
    )
    assert storm.outcome == "no_direct_answer"  # not refused: the clause on storms is found relevant
    assert "says “at least 90 km/h”, the question states “60 km/h”" in storm.text
    assert flood.outcome == "no_direct_answer" and "nêu “từ 20 cm trở lên”, câu hỏi nêu “10 cm”" in flood.text
    assert not theft.text.startswith("Điều khoản nêu")


def test_negated_and_comparative_bounds() -> None:
    assert _bounds("The notice must be given not more than 30 days before.") == [
        ("days", None, 30, "not more than 30 days")
    ]
    assert _bounds("Thời gian thử việc không được quá 60 ngày.") == [("days", None, 60, "không được quá 60 ngày")]
    assert [(b.low, b.high) for b in bounds("Thời hạn không ngắn hơn 1 năm và không dài hơn 3 năm.")] == [
        (1, None),
        (None, 3),
    ]
    assert _bounds("Thời hạn chuộc lại tối thiểu là 01 năm.") == [("years", 1, None, "tối thiểu là 01 năm")]
    # each occurrence keeps its own unit: "03 năm" here though "03 tháng" is in the same sentence
    assert [(b.unit, b.low, b.high) for b in bounds("phạt tù từ 03 tháng đến 02 năm hoặc từ 02 năm đến 03 năm")] == [
        ("years", None, 2),
        ("years", 2, 3),
    ]


@pytest.mark.parametrize(
    ("claim", "source", "swapped"),
    [
        ("We pay USD 40 when a flight is delayed by less than 12 hours.", DELAY_EN, ["less than 12 hours"]),
        ("We pay USD 40 when a flight is delayed by at least 12 hours.", DELAY_EN, []),
        ("We pay USD 40 for a delay of 12 hours or more.", DELAY_EN, []),  # a restatement
        ("We pay USD 40 for a delay of more than 12 hours.", DELAY_EN, []),  # strictness is not read
        ("Chuyến bay bị trì hoãn không quá 06 giờ được bồi thường 500.000 đồng.", DELAY_VI, ["không quá 06 giờ"]),
        ("Chuyến bay bị trì hoãn từ 06 giờ trở lên được bồi thường 500.000 đồng.", DELAY_VI, []),
        ("You may notify us more than 30 days after the loss.", NOTICE, ["more than 30 days"]),
        ("Thời gian thử việc không được quá 60 ngày.", "Thời gian thử việc không quá 60 ngày.", []),
        # the source bounds the figure nowhere: the figure check's business, not this one's
        ("We pay USD 40 for each delay of at least 12 hours.", "We pay USD 40 for each full 12 hours.", []),
    ],
)
def test_a_bound_on_the_other_side_of_its_figure(claim: str, source: str, swapped: list[str]) -> None:
    assert [s.split(" (the source")[0] for s in swapped_bounds(claim, [source])] == swapped


def test_a_swapped_bound_fails_the_pair_check(fresh_index: Path, embedder: Embedder) -> None:
    with citewise.open(settings=Settings(index=fresh_index), embedder=embedder) as cw:
        swapped = cw.supports("We pay USD 40 when a flight is delayed by less than 12 hours.", DELAY_EN)
        kept = cw.supports("We pay USD 40 when a flight is delayed by at least 12 hours.", DELAY_EN)
    assert swapped.status == "unsupported"
    assert swapped.findings[0] == (
        "bounded on another side than in the source: less than 12 hours (the source: at least 12 hours)"
    )
    assert not any("bounded" in f for f in kept.findings)


def test_the_validator_fails_a_sentence_that_bounds_its_figure_on_the_other_side() -> None:
    """Every figure of the sentence is in its quote and the scorer reads it as close: the condition is the opposite."""
    frag = fragment("F1", DELAY_EN)
    quote = Quote("F1", DELAY_EN)
    wrong = DraftSentence("We pay USD 40 when the flight is delayed by less than 12 hours.", ["F1"], quotes=[quote])
    right = DraftSentence("We pay USD 40 when the flight is delayed by at least 12 hours.", ["F1"], quotes=[quote])
    bad, good = Validator().check(Draft([wrong, right], "scripted"), [frag])
    assert bad.verdict.status == "unsupported" and "number" in bad.verdict.failed
    assert any("less than 12 hours (the source: at least 12 hours)" in d for d in bad.verdict.details)
    assert not any("another side" in d for d in good.verdict.details), good.verdict.details
