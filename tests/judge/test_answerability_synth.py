"""The constructed Vietnamese answerability pairs (training/answerability_synth.py): questions asked in situ of a
provision's sentence, its near-misses, split by article, and none on an article a held-out set is written on."""

from __future__ import annotations

import random

from training.answerability_synth import (
    article_pairs,
    excluded_articles,
    party_question,
    sentences,
    swapped,
    synth_pairs,
    value_questions,
)

from tests.conftest import shared

DEADLINE = "Trong thời hạn 30 ngày kể từ ngày nhận đủ hồ sơ hợp lệ, Bộ Tài chính có văn bản chấp thuận."


def test_a_value_is_asked_where_it_stands_and_made_vague_for_the_near_miss() -> None:
    [(question, vague, kind)] = list(value_questions(DEADLINE, random.Random(0)))
    assert kind == "duration"
    assert "bao nhiêu ngày kể từ ngày nhận đủ hồ sơ hợp lệ" in question and question.endswith("?")
    assert "Bộ Tài chính" in question  # the main clause says what the time limit is for
    assert "30" not in question and "30" not in vague
    assert vague == "Trong thời hạn theo quy định kể từ ngày nhận đủ hồ sơ hợp lệ, Bộ Tài chính có văn bản chấp thuận."
    share = "Mức tối đa của quỹ dự trữ bắt buộc bằng 10% mức vốn điều lệ của doanh nghiệp."
    [(question, vague, kind)] = list(value_questions(share, random.Random(0)))
    assert kind == "share" and "bằng bao nhiêu phần trăm mức vốn điều lệ" in question
    assert "theo tỷ lệ quy định" in vague and "10" not in vague


def test_dates_and_provision_numbers_are_not_values_to_ask_for() -> None:
    dated = "Nghị định này có hiệu lực thi hành kể từ ngày 01 tháng 7 năm 2023 theo quy định tại khoản 3 Điều 10."
    assert list(value_questions(dated, random.Random(0))) == []


def test_the_duty_bearer_is_asked_who_and_another_party_is_a_near_miss() -> None:
    duty = "Doanh nghiệp bảo hiểm phải thông báo cho Bộ Tài chính trong thời hạn 15 ngày kể từ ngày thay đổi trụ sở."
    asked = party_question(duty)
    assert asked is not None
    question, party = asked
    assert party == "Doanh nghiệp bảo hiểm" and question.startswith("Ai phải thông báo cho Bộ Tài chính")
    [(value_q, _, _)] = list(value_questions(duty, random.Random(0)))
    other = swapped(value_q, duty, random.Random(0))
    assert other is not None and "doanh nghiệp bảo hiểm" not in other.lower() and "bao nhiêu ngày" in other


def test_each_question_is_read_against_its_sentence_and_its_near_misses() -> None:
    text = (
        "1. Doanh nghiệp bảo hiểm phải thông báo cho Bộ Tài chính trong thời hạn 15 ngày kể từ ngày thay đổi trụ sở.\n"
        "2. Doanh nghiệp bảo hiểm phải công bố thông tin về việc thay đổi trụ sở chính trên trang thông tin điện tử.\n"
        "3. Hồ sơ thông báo thay đổi trụ sở gồm văn bản thông báo và bản sao giấy tờ chứng minh quyền sử dụng trụ sở."
    )
    assert len(sentences(text)) == 3
    pairs = list(article_pairs("2.3.LQ.0", text, "train", random.Random(0)))
    kinds = {(p.kind, p.label) for p in pairs}
    assert {("answer_duration", 1), ("vague", 0), ("other_party", 0), ("neighbour", 0)} <= kinds
    answer = next(p for p in pairs if p.kind == "answer_duration")
    near = [p for p in pairs if p.question == answer.question and p.label == 0 and p.kind == "neighbour"]
    assert near and all("15 ngày" not in p.sentence for p in near)


def test_the_pairs_are_split_by_article_and_leave_the_held_out_articles_out() -> None:
    shared("vn_insurance_law_phapdien")
    pairs = synth_pairs()
    assert len(pairs) > 1000 and {p.split for p in pairs} == {"train", "dev"} and {p.label for p in pairs} == {0, 1}
    splits: dict[str, set[str]] = {}
    for p in pairs:
        splits.setdefault(p.article, set()).add(p.split)
    assert all(len(s) == 1 for s in splits.values())
    held = excluded_articles()
    assert held and not held & set(splits)
    assert pairs == synth_pairs()  # deterministic
