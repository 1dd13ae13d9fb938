"""The clause of a criminal code's article that the question's case falls under gives the frame stated
(``answer.cases``): clause 1 punishes the offence, the clauses opening "Phạm tội …" set frames for its cases."""

from __future__ import annotations

import pytest

from citewise.answer.cases import asks_heaviest, case_clause, case_stated, is_case_clause
from citewise.answer.extractive import ExtractiveGenerator, names_a_conflict
from citewise.answer.records import Fragment
from citewise.retrieve.records import Evidence
from citewise.types import Chunk

ARTICLE = (
    "Điều 247. Tội trồng cây thuốc phiện, cây côca, cây cần sa hoặc các loại cây khác có chứa chất ma túy\n"
    "1. Người nào trồng cây thuốc phiện, cây côca, cây cần sa hoặc các loại cây khác có chứa chất ma túy thuộc một "
    "trong các trường hợp sau đây, thì bị phạt tù từ 06 tháng đến 03 năm:\n"
    "a) Đã được giáo dục 02 lần và đã được tạo điều kiện ổn định cuộc sống;\n"
    "b) Đã bị xử phạt vi phạm hành chính về hành vi này mà còn vi phạm;\n"
    "c) Với số lượng từ 500 cây đến dưới 3.000 cây.\n"
    "2. Phạm tội thuộc một trong các trường hợp sau đây, thì bị phạt tù từ 03 năm đến 07 năm:\n"
    "a) Có tổ chức;\n"
    "b) Với số lượng 3.000 cây trở lên;\n"
    "c) Là chỉ huy hoặc sĩ quan.\n"
    "3. Người phạm tội còn có thể bị phạt tiền từ 5.000.000 đồng đến 50.000.000 đồng."
)


def _fragment(text: str, header: str, label: str) -> list[Fragment]:
    """One article of the criminal code as the answer stage gets it."""
    chunk = Chunk("blhs", 0, None, label, [label], header, text, 0, len(text), "vi", "file:///p")
    return [Fragment("F1", Evidence(chunk, "Bộ luật Hình sự", 1.0, char_start=0, char_end=len(text), text=text))]


def _article() -> list[Fragment]:
    return _fragment(
        ARTICLE, "[Bộ luật Hình sự › Điều 247. Tội trồng cây thuốc phiện, cây côca, cây cần sa]", "Điều 247"
    )


@pytest.mark.parametrize(
    ("question", "frame"),
    [
        ("Người trồng cây cần sa có tổ chức thì bị phạt tù từ bao lâu đến bao lâu?", "từ 03 năm đến 07 năm"),
        ("Người trồng cây thuốc phiện với số lượng 3.000 cây trở lên thì bị phạt tù bao lâu?", "từ 03 năm đến 07 năm"),
        ("Sĩ quan trồng cây cần sa thì bị phạt tù từ bao lâu đến bao lâu?", "từ 03 năm đến 07 năm"),  # one alternative
        # a case of clause 1's own list, and no case at all: clause 1's frame
        ("Người trồng từ 500 cây đến dưới 3.000 cây thuốc phiện thì bị phạt tù bao lâu?", "từ 06 tháng đến 03 năm"),
        ("Người trồng cây cần sa thì bị phạt tù từ bao lâu đến bao lâu?", "từ 06 tháng đến 03 năm"),
    ],
)
def test_the_frame_stated_is_that_of_the_case_the_question_states(question: str, frame: str) -> None:
    draft = ExtractiveGenerator().generate(question, _article(), "vi")
    shown = [s.text for s in draft.sentences]
    assert shown[0] == f"Thời hạn là {frame}.", shown
    assert not any(names_a_conflict(s) for s in shown)  # the frames of one article's cases are no conflict
    assert any(frame in s for s in shown[1:])  # the clause it comes from is quoted


def test_a_case_is_stated_by_the_words_it_adds_to_the_clause() -> None:
    clause1 = ARTICLE[ARTICLE.index("1. Người") : ARTICLE.index("2. Phạm tội")]
    clause2 = ARTICLE[ARTICLE.index("2. Phạm tội") : ARTICLE.index("3. Người")]
    assert is_case_clause(clause2) and not is_case_clause(clause1)
    assert case_stated("Người trồng cây cần sa có tổ chức thì sao?", clause2, clause1) == 1.0
    assert case_stated("Người tái phạm thì sao?", clause2, clause1) < 0.5
    assert case_clause("Người trồng cây cần sa có tổ chức?", clause1, [clause2]) == 0
    assert case_clause("Người trồng cây cần sa?", clause1, [clause2]) is None
    # words the clause says already state no case: "tổ chức" of "cơ quan, tổ chức" is not "Có tổ chức"
    seal = "1. Người nào chiếm đoạt con dấu, tài liệu của cơ quan, tổ chức, thì bị phạt tù từ 03 tháng đến 02 năm."
    assert case_clause("Người chiếm đoạt con dấu của cơ quan, tổ chức thì bị phạt tù bao lâu?", seal, [clause2]) is None


def test_a_frame_of_another_penalty_is_not_switched() -> None:
    """The ban on holding office a clause adds ("5. Người phạm tội còn bị cấm đảm nhiệm chức vụ …") is answered by that
    clause, though a case clause's words ("Phạm tội 02 lần trở lên") are in the question."""
    text = (
        "1. Người nào vì vụ lợi mà vượt quá quyền hạn của mình làm trái công vụ, thì bị phạt tù từ 01 năm đến 05 năm.\n"
        "2. Phạm tội thuộc một trong các trường hợp sau đây, thì bị phạt tù từ 05 năm đến 10 năm:\n"
        "a) Có tổ chức;\nb) Phạm tội 02 lần trở lên.\n"
        "5. Người phạm tội còn bị cấm đảm nhiệm chức vụ nhất định từ 01 năm đến 05 năm."
    )
    frag = _fragment(text, "[Bộ luật Hình sự › Điều 357. Tội lạm quyền trong khi thi hành công vụ]", "Điều 357")
    question = "Người phạm tội 02 lần trở lên còn bị cấm đảm nhiệm chức vụ nhất định từ bao nhiêu đến bao nhiêu năm?"
    draft = ExtractiveGenerator().generate(question, frag, "vi")
    assert draft.sentences[0].text == "Thời hạn là từ 01 năm đến 05 năm.", [s.text for s in draft.sentences]


def test_a_figure_set_next_to_a_new_word_states_a_case() -> None:
    """ "Làm chết 03 người trở lên" adds no word to a clause 1 whose list already says "03 người trở lên" of injuries;
    the pair "chết 03" is what it adds."""
    clause1 = (
        "1. Người nào thực hiện việc phá thai trái phép cho người khác thuộc một trong các trường hợp sau đây, thì bị "
        "phạt tù từ 01 năm đến 03 năm: a) Làm chết người; b) Gây tổn hại cho sức khỏe của 03 người trở lên."
    )
    clause3 = "3. Phạm tội thuộc một trong các trường hợp sau đây, thì bị phạt tù từ 07 năm đến 15 năm: a) Làm chết 03 người trở lên;"
    asked = "Người phá thai trái phép cho người khác làm chết 03 người trở lên thì bị phạt tù bao lâu?"
    assert case_stated(asked, clause3, clause1) == 1.0
    assert case_clause(asked, clause1, [clause3]) == 0
    assert case_clause("Người phá thai trái phép làm chết người thì bị phạt tù bao lâu?", clause1, [clause3]) is None


@pytest.mark.parametrize(
    "question",
    [
        "Người trồng cây cần sa có thể bị phạt tù lên đến bao nhiêu năm?",
        "Trồng cây thuốc phiện thì bị phạt tù tối đa bao nhiêu năm?",
    ],
)
def test_the_most_an_offence_brings_is_the_heaviest_frame_of_its_article(question: str) -> None:
    """A question asking for the most and stating no case: the frame with the longest term, cited to its clause."""
    draft = ExtractiveGenerator().generate(question, _article(), "vi")
    first = draft.sentences[0]
    assert first.text == "Thời hạn là từ 03 năm đến 07 năm.", [s.text for s in draft.sentences]
    assert first.quote_span is not None and ARTICLE[slice(*first.quote_span)] == "từ 03 năm đến 07 năm"


def test_a_case_stated_keeps_its_frame_when_the_most_is_asked() -> None:
    question = "Người trồng từ 500 cây đến dưới 3.000 cây thuốc phiện thì bị phạt tù tối đa bao nhiêu năm?"
    draft = ExtractiveGenerator().generate(question, _article(), "vi")
    assert draft.sentences[0].text == "Thời hạn là từ 06 tháng đến 03 năm.", [s.text for s in draft.sentences]


def test_the_term_of_the_penalty_the_question_names() -> None:
    """ "phạt tù" in the question: the prison term, not the "cải tạo không giam giữ đến 03 năm" before it."""
    text = (
        "1. Người nào chiếm đoạt hoặc hủy hoại di vật của tử sỹ, thì bị phạt cải tạo không giam giữ đến 03 năm hoặc "
        "phạt tù từ 06 tháng đến 03 năm."
    )
    frag = _fragment(text, "[Bộ luật Hình sự › Điều 418. Tội chiếm đoạt hoặc hủy hoại di vật của tử sỹ]", "Điều 418")
    draft = ExtractiveGenerator().generate("Chiếm đoạt di vật của tử sĩ thì bị phạt tù bao lâu?", frag, "vi")
    assert draft.sentences[0].text == "Thời hạn là từ 06 tháng đến 03 năm.", [s.text for s in draft.sentences]


def test_the_offence_of_the_first_clause_stated_keeps_its_frame_when_the_most_is_asked() -> None:
    """ "… gây thiệt hại nghiêm trọng …" is clause 1's offence, not the heaviest clause's "rất nghiêm trọng"."""
    clause1 = (
        "1. Người nào vi phạm quy định về phòng cháy, chữa cháy làm cháy kho hàng gây thiệt hại nghiêm trọng, thì bị "
        "phạt tù từ 06 tháng đến 05 năm."
    )
    heading = "[Bộ luật Hình sự › Điều 313. Tội vi phạm quy định về phòng cháy, chữa cháy]"
    asked = "Làm cháy kho hàng gây thiệt hại nghiêm trọng thì có thể bị phạt tù tối đa bao nhiêu năm?"
    assert not asks_heaviest(asked, clause1, heading)
    assert asks_heaviest("Vi phạm quy định về phòng cháy thì bị phạt tù tối đa bao nhiêu năm?", clause1, heading)
    assert not asks_heaviest("Vi phạm quy định về phòng cháy thì bị phạt tù bao nhiêu năm?", clause1, heading)
