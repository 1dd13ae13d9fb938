"""A case the question states that meets the bound of an exclusion: the exclusion answers it (judge.conditions)."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.answer.extractive import ExtractiveGenerator
from citewise.answer.records import Fragment
from citewise.index.embedder import Embedder
from citewise.judge.answerability import FeatureJudge, exclusion_answer, held_conditions
from citewise.judge.conditions import bounds, excludes, met_exclusions
from citewise.judge.records import Excluded, Passage
from tests.judge.test_conditions import DELAY_EN, asked
from tests.verify.test_checks import fragment

UNOCCUPIED = (
    "If the home is unoccupied for more than 60 consecutive days, we will not pay for loss or damage caused by theft, "
    "escape of water, malicious damage or vandalism from the 61st day until the home is lived in again."
)
TELL_US = "If you expect the home to be unoccupied for longer than 60 days you must tell us beforehand."
PREGNANCY = "pregnancy or childbirth after the 32nd week of pregnancy;"
EXCLUSIONS_VI = "Điều 8. Loại trừ bảo hiểm Công ty không chịu trách nhiệm bồi thường đối với:"
EMPTY_VI = (
    "5. Tổn thất xảy ra khi nhà ở bị bỏ trống liên tục trên 60 ngày mà không thông báo cho Công ty, trừ tổn thất do "
    "cháy, sét đánh, nổ."
)


def _met(question: str, sentences: list[tuple[str, str]]) -> list[tuple[str, str]]:
    found = met_exclusions(question, [(text, around, (0, i, i + 1)) for i, (text, around) in enumerate(sentences)])
    return [(e.case, e.condition) for e in found]


@pytest.mark.parametrize(
    ("question", "met"),
    [
        # a word number, months read in days, "empty" in the policy's wording ("unoccupied")
        ("What happens if I leave my house empty for three months?", [("3 months", "more than 60 consecutive days")]),
        (
            "My house was empty for 70 days and then burgled. Am I covered?",
            [("70 days", "more than 60 consecutive days")],
        ),
        ("My house was empty for 50 days and then burgled. Am I covered?", []),  # under the bound
        ("What happens if I leave my house empty for 2 months?", []),  # about 61 days: no clear case of "more than 60"
        ("My flight was delayed 70 days, what now?", []),  # nothing next to the bound is the case's
        ("How long can the home be unoccupied?", []),  # no case stated
    ],
)
def test_a_case_meets_an_exclusions_bound(question: str, met: list[tuple[str, str]]) -> None:
    assert _met(question, [(UNOCCUPIED, "Section 3. Exclusions")]) == met


def test_an_exclusion_in_vietnamese_read_under_its_lead_in() -> None:
    assert _met(
        "Cả nhà đi vắng 3 tháng để nhà trống thì bảo hiểm có còn hiệu lực không?", [(EMPTY_VI, EXCLUSIONS_VI)]
    ) == [("3 tháng", "trên 60 ngày")]
    assert _met("Nhà tôi bỏ trống 70 ngày thì bị trộm, có được bồi thường không?", [(EMPTY_VI, EXCLUSIONS_VI)]) == [
        ("70 ngày", "trên 60 ngày")
    ]
    # the exclusion's own exception names the question's loss: met, and said to be excepted, not excluded
    fire = "Nhà tôi bỏ trống 70 ngày thì bị cháy, có được bồi thường không?"
    found = met_exclusions(fire, [(EMPTY_VI, EXCLUSIONS_VI, (0, 1, 2))])
    assert found == [Excluded("70 ngày", "trên 60 ngày", (0, 1, 2), excepted="trừ tổn thất do cháy, sét đánh, nổ")]
    assert _met(fire.replace("70", "50"), [(EMPTY_VI, EXCLUSIONS_VI)]) == []  # under the bound: nothing to say
    # the same item under a lead-in that excludes nothing ("Bên mua bảo hiểm có nghĩa vụ …") is no exclusion
    assert _met("Nhà tôi bỏ trống 70 ngày thì bị trộm?", [(EMPTY_VI, "Điều 12. Nghĩa vụ của Bên mua bảo hiểm")]) == []


def test_a_sentence_that_excludes_nothing_is_not_read() -> None:
    """A duty on the same quantity ("you must tell us") is no exclusion, under a heading that is not one either."""
    assert _met("What happens if I leave my house empty for three months?", [(TELL_US, "Section 4. Claims")]) == []
    # under the exclusions heading it is read as one: the heading says what its sentences do
    assert _met("What happens if I leave my house empty for three months?", [(TELL_US, "Section 3. Exclusions")]) == [
        ("3 months", "longer than 60 days")
    ]


def test_the_exclusion_becomes_the_judges_answering_sentence() -> None:
    judge = FeatureJudge()
    other = "We will pay for loss of or damage to your contents caused by theft involving forcible entry."
    passages = [
        Passage(other, 0, "Harbourview — Section 2.2 Contents"),
        Passage(UNOCCUPIED, 500, "Harbourview — Section 3. Exclusions › Section 3.2. Unoccupied homes"),
    ]
    threshold = 0.5
    question = "My house was empty for 70 days and then burgled. Am I covered?"
    judged = judge.judge(question, passages, "en")
    out = exclusion_answer(question, passages, judged, threshold)
    assert out.span is not None and out.span.evidence == 1 and out.span.text == UNOCCUPIED
    assert (out.span.char_start, out.span.char_end) == (500, 500 + len(UNOCCUPIED))
    assert out.score >= threshold and out.answers(threshold)
    assert out.excluded == [Excluded("70 days", "more than 60 consecutive days", (1, 500, 500 + len(UNOCCUPIED)))]
    # under the bound: the judge's reading stands
    question = "My house was empty for 50 days and then burgled. Am I covered?"
    judged = judge.judge(question, passages, "en")
    assert exclusion_answer(question, passages, judged, threshold) == judged


def test_a_case_whose_condition_is_unmet_is_not_read_for_exclusions() -> None:
    judge = FeatureJudge()
    passages = [Passage(DELAY_EN, 0, "Bluewave — Section 4.2 Travel delay")]
    question = "My flight was delayed 8 hours, how much will I get?"
    held = held_conditions(question, passages, judge.judge(question, passages, "en"), 0.2)
    assert held.unmet and exclusion_answer(question, passages, held, 0.2) is held


def test_the_generator_states_the_exclusion_after_its_lead_in() -> None:
    """The item is quoted after its list's lead-in, not with the other items; no figure of it is singled out."""
    body = (
        "Điều 8. Loại trừ bảo hiểm\n"
        "Công ty không chịu trách nhiệm bồi thường đối với:\n"
        "1. Tổn thất do các rủi ro nằm ngoài phạm vi quy định tại Điều 5 Quy tắc này.\n"
        "2. Tổn thất do hành vi cố ý của Bên mua bảo hiểm.\n"
        "3. Tổn thất do chiến tranh, khủng bố, bạo loạn.\n"
        "4. Hao mòn tự nhiên, mục nát, mối mọt, nấm mốc.\n"
        f"{EMPTY_VI}\n"
    )
    f = fragment("F1", body, "Điều 8")
    at = f.evidence.char_start + body.index(EMPTY_VI)
    question = "Nhà tôi bỏ trống 70 ngày thì bị trộm, có được bồi thường không?"
    stated = Fragment(f.short, f.evidence, (at, at + len(EMPTY_VI)), stated=True)
    draft = ExtractiveGenerator().generate(question, [stated], "vi")
    texts = [s.text for s in draft.sentences]
    assert texts[:2] == ["Công ty không chịu trách nhiệm bồi thường đối với:", EMPTY_VI]
    assert not any("Hao mòn" in t for t in texts)
    # the same focus not to be stated: the whole list is quoted, as any list whose lead-in speaks to the question
    plain = Fragment(f.short, f.evidence, stated.focus)
    assert any("Hao mòn" in s.text for s in ExtractiveGenerator().generate(question, [plain], "vi").sentences)


def test_the_answer_opens_with_the_exclusion(fresh_index: Path, embedder: Embedder) -> None:
    """The sample policies, the fast judge: an empty home's case, read against the unoccupied-home exclusions."""
    en, vi, fire = asked(
        fresh_index,
        embedder,
        "features",
        "What happens if I leave my house empty for three months?",
        "Nhà tôi bỏ trống 70 ngày thì bị trộm, có được bồi thường không?",
        "Nhà tôi bỏ trống 70 ngày thì bị cháy, có được bồi thường không?",
    )
    assert en.outcome == "answered"
    assert en.note == (
        "The case in the question meets the condition of an exclusion the sources set: the provision below says “more "
        "than 60 consecutive days”, the question states “3 months”."
    )
    assert en.text.startswith(en.note + "\n") and "an exclusion applies to more than 60 consecutive days" in en.reason
    first = en.sentences[0]
    assert first.text.startswith("If the home is unoccupied for more than 60 consecutive days, we will not pay")
    assert first.citations[0].label.endswith("3.2") and first.verdict.status == "supported"
    assert vi.outcome == "answered" and "điều khoản dưới đây nêu “trên 60 ngày”, câu hỏi nêu “70 ngày”" in vi.note
    assert [s.text for s in vi.sentences[:2]] == [
        "Công ty không chịu trách nhiệm bồi thường đối với:",
        " ".join(EMPTY_VI.split()),
    ]
    # "trừ tổn thất do cháy": the exclusion leaves a fire out, and the note says so
    assert fire.note.endswith("nhưng điều khoản đó có ngoại lệ: “trừ tổn thất do cháy, sét đánh, nổ”.")


def test_without_a_judge_the_exclusion_is_read_the_same(fresh_index: Path, embedder: Embedder) -> None:
    # "pregnant" / "give birth" in the policy's words ("pregnancy", "childbirth") find Section 2.4
    en, under, pregnant = asked(
        fresh_index,
        embedder,
        "none",
        "My house was empty for 70 days and then burgled. Am I covered?",
        "My house was empty for 50 days and then burgled. Am I covered?",
        "I am 34 weeks pregnant. Will Bluewave pay if I give birth abroad?",
    )
    assert en.outcome == "answered" and "the question states “70 days”" in en.note
    assert en.sentences[0].text.startswith("If the home is unoccupied for more than 60 consecutive days")
    assert under.note == "" and "exclusion" not in under.text
    assert "says “after the 32nd week”, the question states “34 weeks”" in pregnant.note
    # the item is quoted under its section's heading: alone, "pregnancy or childbirth after …;" would read as cover
    assert [s.text for s in pregnant.sentences[:2]] == ["2.4 What is not covered", PREGNANCY]
    assert {c.label for s in pregnant.sentences[:2] for c in s.citations} == {"Section 2.4"}


def test_an_ordinal_bounds_its_count() -> None:
    assert [(b.unit, b.low, b.high, b.open_low, b.text) for b in bounds(PREGNANCY)] == [
        ("weeks", 32, None, True, "after the 32nd week")
    ]
    assert [(b.unit, b.low, b.high, b.open_high, b.text) for b in bounds(EMPTY_VI.replace("trên 60 ngày", "x"))] == []
    vi = "3. Thai sản, trừ biến chứng thai sản xảy ra trước tuần thứ 28 của thai kỳ."
    assert [(b.unit, b.high, b.open_high, b.text) for b in bounds(vi)] == [("weeks", 28, True, "trước tuần thứ 28")]
    assert [b.text for b in bounds(UNOCCUPIED)] == ["more than 60 consecutive days", "from the 61st day"]


def test_a_pregnancy_past_the_excluded_week() -> None:
    heading = "Bluewave › Part 2. Medical expenses › Section 2.4. What is not covered"
    assert excludes(PREGNANCY, heading) and not excludes(PREGNANCY, "Section 2.1. What is covered")
    asked = "I am {} pregnant. Will Bluewave pay if I give birth abroad?"
    assert _met(asked.format("thirty-four weeks"), [(PREGNANCY, heading)]) == [("34 weeks", "after the 32nd week")]
    assert _met(asked.format("20 weeks"), [(PREGNANCY, heading)]) == []


def test_an_exclusions_bound_is_no_condition_the_case_must_meet() -> None:
    """A case outside an exclusion's bound is not excluded; it is not "a case the condition excludes" either."""
    judge = FeatureJudge()
    passages = [Passage(UNOCCUPIED, 0, "Harbourview — Section 3. Exclusions › Section 3.2. Unoccupied homes")]
    question = "My home was unoccupied for 50 days and then burgled. Will you pay?"
    judged = judge.judge(question, passages, "en")
    assert judged.span is not None and held_conditions(question, passages, judged, 0.2).unmet == []
    # the same sentence read as a condition (no heading, no "we will not pay") would fail the case
    condition = "Cover for theft applies if the home is unoccupied for more than 60 consecutive days."
    passages = [Passage(condition, 0, "Harbourview — Section 2.1")]
    judged = judge.judge(question, passages, "en")
    assert judged.span is not None and held_conditions(question, passages, judged, 0.2).unmet


MATERNITY = "3. Thai sản, trừ biến chứng thai sản xảy ra trước tuần thứ 28 của thai kỳ."
EXCLUSIONS_TRAVEL_VI = "Điều 7. Loại trừ bảo hiểm Công ty không chịu trách nhiệm bồi thường trong các trường hợp sau:"


def test_a_case_outside_the_exception_an_exclusion_makes() -> None:
    """The exclusion (maternity) excepts complications before the 28th week: at 30 weeks even they are excluded; at 20
    weeks the exception takes them in, and nothing is said."""
    found = met_exclusions(
        "Vợ tôi mang thai 30 tuần, nếu bị biến chứng thai sản ở nước ngoài thì có được bồi thường không?",
        [(MATERNITY, EXCLUSIONS_TRAVEL_VI, (0, 1, 2))],
    )
    assert found == [Excluded("30 tuần", "trước tuần thứ 28", (0, 1, 2), outside=True)]
    early = "Vợ tôi mang thai 20 tuần, nếu bị biến chứng thai sản ở nước ngoài thì có được bồi thường không?"
    assert met_exclusions(early, [(MATERNITY, EXCLUSIONS_TRAVEL_VI, (0, 1, 2))]) == []
    # "cư trú" (residence) is no "trừ" (except): read without its marks it was taken for an exception
    abroad = "Công ty không bồi thường cho người đã cư trú ở nước ngoài trên 180 ngày."
    assert _met("Tôi đã cư trú ở nước ngoài 200 ngày thì có được bồi thường không?", [(abroad, "")]) == [
        ("200 ngày", "trên 180 ngày")
    ]
    # an exception with no bound ("trừ tổn thất do cháy") takes the question it names out of the exclusion
    fire = met_exclusions("Nhà tôi bỏ trống 70 ngày thì bị cháy?", [(EMPTY_VI, EXCLUSIONS_VI, (0, 1, 2))])
    assert [(e.outside, e.excepted) for e in fire] == [(False, "trừ tổn thất do cháy, sét đánh, nổ")]


def test_the_answer_says_the_case_is_outside_the_exception(fresh_index: Path, embedder: Embedder) -> None:
    question = "Vợ tôi mang thai 30 tuần, nếu bị biến chứng thai sản ở nước ngoài thì có được bồi thường không?"
    (late,) = asked(fresh_index, embedder, "features", question)
    assert late.outcome == "answered"
    assert late.note == (
        "Trường hợp nêu trong câu hỏi thuộc một điều khoản loại trừ và nằm ngoài ngoại lệ của điều khoản đó: điều khoản "
        "dưới đây chỉ trừ “trước tuần thứ 28”, câu hỏi nêu “30 tuần”."
    )
    assert [s.text for s in late.sentences[:2]] == [
        "Công ty không chịu trách nhiệm bồi thường trong các trường hợp sau:",
        MATERNITY,
    ]
    assert "the exclusion's exception requires trước tuần thứ 28" in late.reason


def test_an_item_of_an_exclusions_section_is_quoted_under_its_heading() -> None:
    items = "treatment that can reasonably wait until you return home;\ncosmetic or elective surgery;\n"
    question = "Are cosmetic surgery costs covered abroad?"
    excluded = ExtractiveGenerator().generate(question, [fragment("F1", "2.4 What is not covered\n" + items)], "en")
    assert [s.text for s in excluded.sentences] == ["2.4 What is not covered", "cosmetic or elective surgery;"]
    covered = ExtractiveGenerator().generate(question, [fragment("F1", "2.1 What is covered\n" + items)], "en")
    assert [s.text for s in covered.sentences] == ["cosmetic or elective surgery;"]
