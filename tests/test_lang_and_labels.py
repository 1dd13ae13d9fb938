"""Language detection, diacritic folding and provision labels as people type them."""

from __future__ import annotations

import pytest

from citewise.lang import detect_language, fold
from citewise.refs.keys import label_key


def test_fold_keeps_length_and_maps_vietnamese_letters() -> None:
    s = "Điều 17. Nội dung của hợp đồng; điểm đ) Ưu đãi"
    assert fold(s) == "Dieu 17. Noi dung cua hop dong; diem d) Uu dai" and len(fold(s)) == len(s)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Doanh nghiệp bảo hiểm phải bồi thường", "vi"),
        ("dieu 12 tt 67 quy dinh gi", "vi"),
        ("nguoi thu huong la ai", "vi"),
        ("What does Article 6 GDPR say about consent?", "en"),
        ("Art. 17", "en"),
    ],
)
def test_detect_language(text: str, lang: str) -> None:
    assert detect_language(text) == lang


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Điều 17", "art:17"),
        ("khoản 2 điều 17", "art:17/par:2"),
        ("điểm a khoản 2 Điều 17", "art:17/par:2/pt:a"),
        ("diem d khoan 1 dieu 3", "art:3/par:1/pt:d"),
        ("điểm đ khoản 1 Điều 3", "art:3/par:1/pt:dd"),
        ("dieu 17 khoan 2", "art:17/par:2"),
        ("Article 6(1)(a)", "art:6/par:1/pt:a"),
        ("Art. 17", "art:17"),
        ("Article 5(a)", "art:5/pt:a"),
        ("Recital 47", "recital:47"),
        ("Section 4.2", "num:4.2"),
        ("rule 3.2.1", "num:3.2.1"),
        ("4.2", "num:4.2"),
        ("Annex III", "annex:3"),
        ("Chương II", "chap:2"),
        ("Phụ lục I", "annex:1"),
        ("Điều 2.3.LQ.17", "art:2.3.lq.17"),
        ("the weather today", None),
    ],
)
def test_label_keys(label: str, key: str | None) -> None:
    assert label_key(label) == key


@pytest.mark.parametrize(
    "question",
    [
        "How quickly does Bluewave pay out once I've sent everything?",  # "ve" of "I've" read as the syllable "về"
        "Who was Frédéric Chopin?",  # acute and umlaut marks are not Vietnamese ones
        "What is located after Rüdesheim am Rhein and Koblenz?",
        "Who moved his court from Kraków to Warsaw in 1596?",
    ],
)
def test_english_questions_with_contractions_or_foreign_names_are_english(question: str) -> None:
    assert detect_language(question) == "en"


@pytest.mark.parametrize(
    "question", ["Là gì?", "xin chào", "toi co the huy hop dong bao hiem khong", "Thoi han boi thuong la bao lau?"]
)
def test_short_or_unmarked_vietnamese_questions_stay_vietnamese(question: str) -> None:
    assert detect_language(question) == "vi"
