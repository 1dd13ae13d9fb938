"""The words of a question that name the kind of answer it asks for, not what it is about (``textmatch``):
the coverage frame of a yes/no question ("Is mould covered?")."""

from __future__ import annotations

import pytest

from citewise.textmatch import (
    asked_keys,
    case_coverage,
    coverage,
    query_terms,
    short_keys,
    topic_keys,
    without_cover,
    without_frame,
)


@pytest.mark.parametrize(
    ("question", "kept"),
    [
        ("Is mould covered?", "Is mould ?"),
        ("Do you cover my work laptop?", "Do my work laptop?"),
        ("Will you pay for a hotel if my house burns down?", "Will you a hotel if my house burns down?"),
        ("Will Bluewave pay for Dogecoin stolen on holiday?", "Will Bluewave Dogecoin stolen on holiday?"),
    ],
)
def test_the_coverage_frame_is_cut(question: str, kept: str) -> None:
    assert without_cover(question) == kept  # names keep their capitals (judge.premise reads them)
    assert without_frame(question) == kept.lower()


@pytest.mark.parametrize(
    "question",
    [
        "Is cover extended if my flight is delayed?",  # the cover itself is what is asked about
        "What is covered under Section 2?",  # not a yes/no question
        "Is it covered?",  # nothing would be left to match
        "My grandmother is 82, can she be covered?",  # a case put to who is covered
        "Đi lặn biển có được bồi thường không?",  # English only (measured on the Vietnamese policy questions)
    ],
)
def test_the_coverage_frame_stays_when_it_is_the_topic(question: str) -> None:
    assert without_cover(question) == question


def test_a_policy_clause_covers_the_question_once_the_frame_is_cut() -> None:
    clause = "We will not pay for: (b) wear and tear, gradual deterioration, rot, mould, insects or vermin;"
    assert asked_keys("Is mould covered?") == {"moul"}
    assert coverage(without_cover("Is mould covered?"), clause) > coverage("Is mould covered?", clause)


def test_marked_words_keep_what_folding_merges() -> None:
    question = "Nhà bị trộm thì phải báo công an trong bao lâu?"
    marked, _ = query_terms(question, marks=True)
    assert {"báo", "công", "an", "trộm"} <= marked and not {"trong", "bao", "lâu", "phải", "thì"} & marked
    folded, _ = query_terms(question)
    assert "bao" not in folded and "an" not in folded  # folded: the stop words "bao" and "an"
    # "bảo" of "bảo hiểm" stays a stop word with its marks; "trống" (empty) is no "trong" (in)
    assert "bảo" not in query_terms("Nhà bỏ trống có được bảo hiểm không?", marks=True)[0]
    assert "trống" in query_terms("Nhà bỏ trống có được bảo hiểm không?", marks=True)[0]


def test_a_figure_of_the_case_is_read_as_the_clause_states_its_quantity() -> None:
    """ "60 km/h" asked of a clause on storms of "at least 90 km/h": the quantity is the clause's; whether the case
    meets it is the judge's question (``case_coverage``, read by the evidence strength)."""
    question = without_cover("Is a storm with 60 km/h winds covered?")
    clause = "(b) storm, meaning winds of at least 90 km/h, together with hail or heavy snow;"
    assert coverage(question, clause) < 0.6 <= case_coverage(question, clause)
    # a figure the clause states of another quantity (90 days) is not read as the question's km/h
    days = "(b) storm, meaning winds lasting at least 90 days, together with hail or heavy snow;"
    assert case_coverage(question, days) == coverage(question, days)
    # a figure the clause states itself is found as it is
    assert case_coverage("storm with 90 km/h winds", clause) == coverage("storm with 90 km/h winds", clause)


def test_a_percentage_asked_in_words_is_said_by_the_percent_sign() -> None:
    """ "bao nhiêu phần trăm" asked of "được hưởng 50% quyền lợi": the sign is the words (dev5 "Bố tôi 72 tuổi …" was
    refused as weak evidence, its best provision covering 0.56 of the question)."""
    clause = "Người từ 70 tuổi trở lên được hưởng 50% quyền lợi bảo hiểm quy định tại Điều 4 Quy tắc này."
    for question, lang_words in (
        ("Bố tôi 72 tuổi thì được hưởng bao nhiêu phần trăm quyền lợi?", "phần trăm"),
        ("What percentage of the benefits does a traveller aged 72 get?", "percentage"),
    ):
        spelled = clause.replace("%", f" {lang_words}")
        assert case_coverage(question, clause) == case_coverage(question, spelled) > coverage(question, clause)
    # the sign is not read for a question that asks no percentage, nor into a text without one
    plain = "Bố tôi 72 tuổi thì được hưởng bao nhiêu quyền lợi?"
    assert case_coverage(plain, clause) == case_coverage(plain, clause.replace("50%", "50"))
    no_sign = clause.replace("50%", "một nửa")
    asked = "Bố tôi 72 tuổi thì được hưởng bao nhiêu phần trăm quyền lợi?"
    assert case_coverage(asked, no_sign) < case_coverage(asked, clause)


def test_vietnamese_syllables_are_keys_whole() -> None:
    """Cut to four letters, "thường" (folded "thuong") would be the key of "thuộc" too, and "trống" that of "trọng";
    English words are still cut ("notified" / "notify")."""
    assert short_keys("bồi thường") == {"boi", "thuong"} and short_keys("thuộc phạm vi") >= {"thuoc"}
    assert short_keys("The insurer must be notified") == {"insu", "noti"}
    # the units of time of a Vietnamese question are no topic; "ngay" (at once) is
    assert "ngay" not in topic_keys("Nhà bị trộm thì phải báo trong mấy ngày?")
    assert "ngay" in topic_keys("Nhà bị trộm có phải báo công an ngay không?")
