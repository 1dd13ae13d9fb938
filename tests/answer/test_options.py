"""The option of a multiple-choice question that the evidence states word for word: named, and quoted where the
evidence states it; never guessed when the evidence does not decide."""

from __future__ import annotations

from pathlib import Path

import citewise
from citewise.answer.extractive import ExtractiveGenerator
from citewise.answer.options import chosen_option
from citewise.answer.records import Fragment
from citewise.index.embedder import Embedder
from citewise.retrieve.records import Evidence
from citewise.types import Chunk

SERVICES = (
    "Điều 54. Dịch vụ du lịch khác\nDịch vụ du lịch khác bao gồm:\n1. Dịch vụ ăn uống.\n2. Dịch vụ mua sắm.\n"
    "3. Dịch vụ thể thao.\n4. Dịch vụ vui chơi, giải trí.\n5. Dịch vụ chăm sóc sức khỏe."
)
STEM = "Theo Luật Du lịch, các loại dịch vụ du lịch khác bao gồm điều nào dưới đây? Chọn câu trả lời đúng nhất."


def _fragment(text: str, start: int = 100, doc: str = "d1") -> Fragment:
    chunk = Chunk(
        doc, 0, None, "54", ["54"], "[Luật Du lịch] Điều 54", text, start, start + len(text), "vi", "f", None, None
    )
    return Fragment("F1", Evidence(chunk, "Luật Du lịch", 1.0, char_start=start, char_end=start + len(text), text=text))


def test_all_of_these_when_each_option_is_stated() -> None:
    question = (
        f"{STEM}\nA. Dịch vụ thể thao.\nB. Dịch vụ ăn uống.\nC. Dịch vụ chăm sóc sức khỏe.\nD. Cả 3 phương án trên."
    )
    f = _fragment(SERVICES)
    said = chosen_option(question, [f], "vi")
    assert [s.text for s in said] == [
        "Phương án đúng là D.",
        "A. Dịch vụ thể thao",
        "B. Dịch vụ ăn uống",
        "C. Dịch vụ chăm sóc sức khỏe",
    ]
    # each quote is the option's words where the article states them, in Document.text
    for s in said[1:]:
        a, b = s.quote_span or (0, 0)
        assert SERVICES[a - 100 : b - 100] == s.text.split(". ", 1)[1]
    # the extractive answer opens with them
    draft = ExtractiveGenerator().generate(question, [f], "vi")
    assert draft.sentences[0].text == "Phương án đúng là D."


def test_one_option_stated_and_none_including_it() -> None:
    question = f"{STEM}\nA. Dịch vụ lữ hành.\nB. Dịch vụ mua sắm.\nC. Dịch vụ vận chuyển."
    said = chosen_option(question, [_fragment(SERVICES)], "vi")
    assert [s.text for s in said] == ["Phương án đúng là B: Dịch vụ mua sắm."]


def test_the_evidence_does_not_decide() -> None:
    f = [_fragment(SERVICES)]
    # two stated, no option naming both
    assert chosen_option(f"{STEM}\nA. Dịch vụ ăn uống.\nB. Dịch vụ mua sắm.\nC. Dịch vụ lữ hành.", f, "vi") == []
    # one stated, but "both" may be true in other words
    both = f"{STEM}\nA. Dịch vụ ăn uống.\nB. Dịch vụ lưu trú.\nC. Cả A, B đều đúng\nD. Cả A, B đều sai"
    assert chosen_option(both, f, "vi") == []
    # a negative stem that may ask for a listed case ("không được": not allowed) is left alone
    negative = "Trường hợp nào không được hỗ trợ?\nA. Dịch vụ ăn uống.\nB. Dịch vụ lữ hành.\nC. Dịch vụ mua sắm."
    assert chosen_option(negative, f, "vi") == []
    # no options, no option stated
    assert chosen_option(STEM, f, "vi") == []
    assert chosen_option(f"{STEM}\nA. Dịch vụ lữ hành.\nB. Dịch vụ vận chuyển.", f, "vi") == []


def test_an_option_saying_the_others_are_wrong_is_not_chosen() -> None:
    """ "Cả A, B đều sai" names A and B but says they are wrong: B stated alone is the answer."""
    question = f"{STEM}\nA. Dịch vụ lữ hành.\nB. Dịch vụ thể thao.\nC. Dịch vụ vận chuyển.\nD. Cả A, B, C đều sai"
    said = chosen_option(question, [_fragment(SERVICES)], "vi")
    assert [s.text for s in said] == ["Phương án đúng là B: Dịch vụ thể thao."]
    english = chosen_option(
        "Which of these is another tourism service?\nA. Travel agency\nB. Sports services\nC. Transport",
        [_fragment(SERVICES.replace("Dịch vụ thể thao", "Sports services"))],
        "en",
    )
    assert [s.text for s in english] == ["The answer is option B: Sports services."]


def test_the_option_a_provision_leaves_out() -> None:
    """ "Không thuộc": every option but one stated in one provision's list; the answer names the one left out by its
    label and quotes the others where the provision states them."""
    question = (
        "Dịch vụ nào sau đây không thuộc dịch vụ du lịch khác?\nA. Dịch vụ ăn uống.\nB. Dịch vụ lữ hành.\n"
        "C. Dịch vụ mua sắm.\nD. Dịch vụ thể thao."
    )
    f = [_fragment(SERVICES)]
    said = chosen_option(question, f, "vi")
    assert [s.text for s in said] == [
        "Phương án đúng là B: điều khoản trích dẫn dưới đây nêu các phương án A, C, D, không nêu phương án B.",
        "A. Dịch vụ ăn uống",
        "C. Dịch vụ mua sắm",
        "D. Dịch vụ thể thao",
    ]
    # two options left out, or the others stated in two provisions: not decided
    two = question.replace("C. Dịch vụ mua sắm.", "C. Dịch vụ vận chuyển.")
    assert chosen_option(two, f, "vi") == []
    split = [
        _fragment(SERVICES.replace("3. Dịch vụ thể thao.\n", "")),
        _fragment("Điều 55. Dịch vụ thể thao.", 900, "d2"),
    ]
    assert chosen_option(question, split, "vi") == []


def test_a_multiple_choice_question_answered_end_to_end(fresh_index: Path, embedder: Embedder) -> None:
    """The sample travel rules list the assistance services: the one option they leave out is the answer, whatever the
    judge makes of the stem read alone, and every other option is quoted where the rules state it."""
    question = (
        "Dịch vụ nào sau đây không thuộc dịch vụ hỗ trợ khẩn cấp của Đơn vị cứu trợ?\n"
        "A. Tư vấn y tế qua điện thoại\nB. Giới thiệu cơ sở y tế và bảo lãnh viện phí\n"
        "C. Tổ chức vận chuyển cấp cứu\nD. Cho thuê xe du lịch"
    )
    with citewise.open(index=fresh_index, embedder=embedder) as cw:
        answer = cw.ask(question)
    assert answer.outcome == "answered"
    first = answer.sentences[0]
    assert first.text.startswith("Phương án đúng là D:") and first.verdict.status == "supported"
    quoted = [s.text for s in answer.sentences[1:4]]
    assert quoted == [
        "A. Tư vấn y tế qua điện thoại",
        "B. Giới thiệu cơ sở y tế và bảo lãnh viện phí",
        "C. Tổ chức vận chuyển cấp cứu",
    ]
    assert all(s.citations and s.verdict.status == "supported" for s in answer.sentences[1:4])
