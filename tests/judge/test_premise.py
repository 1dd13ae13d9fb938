"""What a question rests on: a figure it takes as given that its evidence never states, or a name the sources never
mention, and the question is not answered as asked ("no direct answer", the figure or the name said); questions
asking whether, and figures of the asker's own case, are left alone."""

from __future__ import annotations

from pathlib import Path

import citewise
from citewise.figures import with_digits
from citewise.index.embedder import Embedder
from citewise.judge.answerability import FeatureJudge, held_premises
from citewise.judge.premise import (
    absent_premises,
    asks_whether,
    case_clauses,
    names,
    premises,
    swapped_values,
    unmentioned,
    without_conditions,
)
from citewise.judge.records import Passage
from citewise.judge.units import figure_units
from citewise.settings import Settings

PERMIT = (
    "Thời hạn của giấy phép lao động tối đa là 02 năm, trường hợp gia hạn thì chỉ được gia hạn một lần với thời hạn "
    "tối đa là 02 năm."
)
NOTICE = "4.2 Notice of loss. The insured must notify the company within 14 days of the loss."


def _figures(question: str) -> dict[str, set[str]]:
    return {p.figure: p.units for p in premises(question)}


def test_a_why_question_takes_its_figures_as_given() -> None:
    assert _figures("Vì sao giấy phép lao động có thời hạn tối đa tới 05 năm?") == {"5": {"years"}}
    assert _figures("Why must an MTF hold capital equal to twelve months' expenses?") == {"12": {"months"}}
    assert _figures("How was the US$ 50 million turnover threshold chosen?") == {"50": {"USD"}}
    assert [p.text for p in premises("Vì sao chỉ cần số tiền từ 2.000.000 đồng là đã bị truy cứu?")] == [
        "2.000.000 đồng"
    ]


def test_questions_asking_whether_and_the_askers_own_case_take_nothing_as_given() -> None:
    for question in (
        "Is it right that we have 48 hours to report a data breach?",
        "Tôi phải báo cho Đơn vị cứu trợ trong 24 giờ kể từ khi nhập viện, đúng không?",
        "If a serious incident involves a death, does the provider still have 15 days to report it?",
        "Our cat is 11. How much extra do we pay on each claim?",
        "Bố tôi 72 tuổi thì được hưởng bao nhiêu phần trăm quyền lợi bảo hiểm du lịch?",
    ):
        assert premises(question) == [], question
    assert asks_whether("Doanh nghiệp có 10 ngày làm việc để ngừng xử lý dữ liệu phải không?")
    assert not asks_whether("Vì sao giấy phép lao động có thời hạn tối đa tới 05 năm?")


def test_names_references_and_rates_are_not_figures() -> None:
    assert premises("Theo Bộ luật Hình sự năm 2017, trục xuất là gì?") == []
    assert premises("Theo Điều 5 Nghị định 67/2023/NĐ-CP, doanh nghiệp phải làm gì?") == []
    assert premises("Người lao động được nghỉ bao lâu 1 năm?") == []
    # "tới" and "tội" are not the asker's "tôi": the figure of this clause is taken as given
    assert _figures("Tại sao thời hiệu truy cứu tội phạm ít nghiêm trọng chỉ là ba năm?") == {"3": {"years"}}


def test_a_figure_counts_as_stated_only_with_its_unit() -> None:
    assert absent_premises("Vì sao giấy phép lao động có thời hạn tối đa tới 05 năm?", [PERMIT]) == ["05 năm"]
    assert absent_premises("Vì sao giấy phép lao động có thời hạn tối đa tới 02 năm?", [PERMIT]) == []
    # 3 is in the text, but as an enumerator and as months: not "three times"
    text = "3. Bên nhận đặt cọc phải trả gấp hai lần giá trị tài sản đặt cọc trong 3 tháng."
    assert absent_premises("Vì sao bên nhận đặt cọc phải trả gấp ba lần số tiền cọc?", [text]) == ["3 lần"]
    assert absent_premises("Why is the fine 4% of turnover?", ["up to 4 % of the total annual turnover"]) == []


def test_a_date_is_not_read_as_durations() -> None:
    assert figure_units("ngày 15 tháng 3 năm 2020, trong 30 ngày") == {
        "15": {""},
        "3": {""},
        "2020": {""},
        "30": {"days"},
    }
    assert with_digits("twelve months, Mười lăm ngày, ba lần") == "12 months, 15 ngày, 3 lần"
    # compounds whole: "thirty-four weeks" was "thirty-4 weeks", "hai mươi tám tuần" 8 weeks
    assert with_digits("thirty-four weeks, twenty one days, seventeen years") == "34 weeks, 21 days, 17 years"
    assert with_digits("hai mươi tám tuần, ba mươi mốt ngày, bốn mươi tư ngày") == "28 tuần, 31 ngày, 44 ngày"


def test_the_judge_holds_a_question_on_an_absent_figure_under_its_threshold() -> None:
    judge = FeatureJudge()
    passages = [Passage(NOTICE, 0, "Harbourview — Section 4.2")]
    right = "Why must the insured notify the company within 14 days of the loss?"
    wrong = "Why must the insured notify the company within 45 days of the loss?"
    threshold = 0.3
    kept = held_premises(right, passages, judge.judge(right, passages, "en"), threshold)
    assert kept.absent == [] and "premise" not in kept.scores
    judged = judge.judge(wrong, passages, "en")
    held = held_premises(wrong, passages, judged, threshold)
    assert held.absent == ["45 days"] and held.score < threshold and not held.answers(threshold)
    assert held.span == judged.span  # the sentence it read stays: the closest provision


def test_no_direct_answer_names_the_figure_the_sources_do_not_state(fresh_index: Path, embedder: Embedder) -> None:
    """The sample corpus, the fast judge: "why … 20 ngày làm việc" of a rule that settles claims in 15."""
    settings = Settings(index=fresh_index, answer={"judge": "features"})
    with citewise.open(settings=settings, embedder=embedder) as cw:
        wrong = cw.ask("Vì sao công ty bảo hiểm nhà ở được giải quyết bồi thường trong 20 ngày làm việc?")
        asked = cw.ask("Thời hạn giải quyết bồi thường bảo hiểm nhà ở là bao lâu?")
    assert wrong.outcome == "no_direct_answer" and wrong.closest
    assert "Các tài liệu không nêu “20 ngày”" in wrong.text.split("\n")[0]
    assert "takes as given 20 ngày" in wrong.reason
    assert asked.outcome == "answered" and "15 ngày làm việc" in asked.text


def test_the_names_a_question_asks_about() -> None:
    assert names("Who painted the Mona Lisa?", "en") == ["Mona Lisa"]
    assert names("How do I apply for a fishing licence in Norway?", "en") == ["Norway"]
    assert names("Is Dogecoin an Accepted Virtual Asset in ADGM?", "en") == ["Dogecoin", "Accepted Virtual Asset"]
    # acronyms, a sentence's first word, a condition's names and the greeting are not asked about
    assert names("How does the FSRA assess WMDs and MoU terms?", "en") == []
    assert names("Chào Luật sư, em ở Hà Nội. Cho em hỏi tụi em đã đủ tuổi để cưới nhau chưa ạ?", "vi") == []
    assert names("If the loss happened in Paris, how long do I have to report it?", "en") == []
    # nor the people of the question's story, named where a statement opens
    story = "Mai Anh sent a payment from her wallet. What term refers to Mai Anh's wallet in Cambodia?"
    assert names(story, "en") == ["Cambodia"]
    texts = ["Accepted Virtual Assets are listed by the Regulator.", "ADGM — Guidance"]
    assert unmentioned("Is Dogecoin an Accepted Virtual Asset in ADGM?", texts, "en") == ["Dogecoin"]


def test_a_name_the_sources_never_mention_is_said(fresh_index: Path, embedder: Embedder) -> None:
    """The sample corpus, the fast judge: Dogecoin is nowhere in it; Bluewave is, and is not reported."""
    settings = Settings(index=fresh_index, answer={"judge": "features"})
    with citewise.open(settings=settings, embedder=embedder) as cw:
        assert not cw.retriever.mentions("Dogecoin") and cw.retriever.mentions("Bluewave Assist")
        coin = cw.ask("Will Bluewave pay for Dogecoin stolen from my phone on holiday?")
        known = cw.ask("How long do I have to contact Bluewave Assist after going into hospital?")
    assert coin.outcome == "no_direct_answer" and "They do not mention “Dogecoin”." in coin.text.split("\n")[0]
    assert "do not mention Dogecoin" in coin.reason
    assert known.outcome == "answered" and "72 hours" in known.text and "mention" not in known.reason


def test_the_checks_run_without_a_judge(fresh_index: Path, embedder: Embedder) -> None:
    """A checkout without the pair classifier's weights answers with no judge: the same evidence is read for the
    figures and names a question rests on, and every other relevant search is still answered."""
    settings = Settings(index=fresh_index, answer={"judge": "none"})
    with citewise.open(settings=settings, embedder=embedder) as cw:
        assert cw.judge() is None
        wrong = cw.ask("Vì sao công ty bảo hiểm nhà ở được giải quyết bồi thường trong 20 ngày làm việc?")
        coin = cw.ask("Will Bluewave pay for Dogecoin stolen from my phone on holiday?")
        asked = cw.ask("Thời hạn giải quyết bồi thường bảo hiểm nhà ở là bao lâu?")
    assert wrong.outcome == "no_direct_answer" and "Các tài liệu không nêu “20 ngày”" in wrong.text.split("\n")[0]
    assert wrong.answerability is None and "takes as given 20 ngày" in wrong.reason
    assert "answerability" not in wrong.reason  # no judge's score is claimed
    assert coin.outcome == "no_direct_answer" and "They do not mention “Dogecoin”." in coin.text.split("\n")[0]
    assert asked.outcome == "answered" and "15 ngày làm việc" in asked.text


def test_a_condition_is_the_askers_case() -> None:
    asked = "Nếu người được bảo hiểm mất trong 60 ngày gia hạn đóng phí thì gia đình có được nhận tiền bảo hiểm không?"
    assert "60 ngày" not in without_conditions(asked) and "gia đình có được nhận tiền" in without_conditions(asked)
    tested = "If a serious incident involves the death of a person, does the provider still have 15 days to report it?"
    assert without_conditions(tested) == "does the provider still have 15 days to report it?"
    assert without_conditions("Is the fine capped at 4% of turnover?") == "Is the fine capped at 4% of turnover?"


def test_a_month_frequency_or_sex_the_evidence_swaps_for_another() -> None:
    aml = "A Relevant Person must submit the AML Return to the Regulator by the end of April each year."
    assert absent_premises("Why must the AML Return be filed by the end of June each year?", [aml]) == ["June"]
    assert swapped_values("Why must the AML Return be filed by the end of April?", [aml]) == []
    mlro = "The MLRO must report semi-annually to the Governing Body."
    assert swapped_values("Why does the MLRO report to the Governing Body on a quarterly basis?", [mlro]) == [
        "quarterly"
    ]
    breaks = "Lao động nữ trong thời gian nuôi con dưới 12 tháng tuổi được nghỉ mỗi ngày 60 phút."
    male = "Lao động nam nuôi con dưới 12 tháng tuổi được nghỉ bao nhiêu phút mỗi ngày?"
    assert swapped_values(male, [breaks]) == ["Lao động nam"]
    # not swapped: a value the evidence never speaks of, both values at once, a question asking whether, a case
    assert swapped_values("Why is the AML Return due in June?", ["The AML Return form is prescribed."]) == []
    assert swapped_values("Are men and women paid the same?", ["Women shall be paid equally."]) == []
    assert swapped_values("Is the AML Return due by the end of June?", [aml]) == []
    assert swapped_values("If we report quarterly, what must the report hold?", [mlro]) == []
    # "may" the verb is no month; "women" holds no "men", "semi-annually" no "annually"
    assert swapped_values("When may a firm file its return?", ["by 30 April 2024"]) == []
    assert swapped_values("Which duties apply to women?", ["Men and women alike."]) == []
    assert swapped_values("Why must it be reported annually?", [mlro]) == ["annually"]


def test_a_clause_that_thi_closes_is_the_askers_case_for_conditions_only() -> None:
    """ "X thì Y?" sets X as the case ("if the plane is delayed 12 hours") when the answering provision's condition is
    read (judge.conditions), unless X asks ("Vì sao … thì …?"); the premises read it as before."""
    delayed = "Máy bay bị hoãn 12 tiếng thì được bồi thường bao nhiêu?"
    assert case_clauses(delayed, then=True) == [(0, 25)] and case_clauses(delayed) == []
    assert _figures(delayed) == {"12": {"hours"}}
    assert case_clauses("Vì sao phải đợi đủ 05 năm liền thì gia đình mới được yêu cầu?", then=True) == []
