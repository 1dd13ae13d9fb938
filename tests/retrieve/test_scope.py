"""The documents a question names by their title bound what its answer reads (``retrieve.scope``)."""

from __future__ import annotations

import pytest

from citewise.retrieve.records import Evidence
from citewise.retrieve.scope import in_scope, named_documents
from citewise.types import Chunk

TITLES = {
    "home": "Harbourview Mutual Home Insurance Policy",
    "travel": "Bluewave Travel Insurance — Terms and Conditions",
    "nha": "QUY TẮC BẢO HIỂM NHÀ Ở TƯ NHÂN",
    "dulich-md": "QUY TẮC BẢO HIỂM DU LỊCH QUỐC TẾ",
    "dulich-docx": "Quy tắc bảo hiểm du lịch quốc tế",
    "luat-dl": "Luật Du lịch",
    "luat-da": "Luật Điện ảnh",
    "luat-gd": "Luật Giáo dục",
    "hien-phap": "Hiến pháp",
}


def _evidence(*docs: str) -> list[Evidence]:
    out = []
    for i, doc in enumerate(docs):
        chunk = Chunk(doc, i, None, "1", ["1"], f"[{TITLES[doc]}] 1", "text", 0, 4, "en", "file:///p")
        out.append(Evidence(chunk, TITLES[doc], 1.0 - i / 10, text="text"))
    return out


@pytest.mark.parametrize(
    ("question", "docs", "named"),
    [
        ("Who do I complain to about my home insurance claim?", ("travel", "home"), {"home"}),
        ("Does my travel insurance pay for a missed flight?", ("home", "travel"), {"travel"}),
        # the same title in two formats: both named
        (
            "Bảo hiểm du lịch có trả tiền thuê ô tô không?",
            ("nha", "dulich-md", "dulich-docx"),
            {"dulich-md", "dulich-docx"},
        ),
        ("Bão làm tốc mái thì bảo hiểm nhà có bồi thường không?", ("dulich-md", "nha"), {"nha"}),
        # a pair every title holds ("insurance policy" is not one), a single word ("home", "nhà"): no document named
        ("Does the insurance cover my holiday home?", ("travel", "home"), set()),
        ("Nhà tôi bị trộm thì phải báo công an trong bao lâu?", ("dulich-md", "nha"), set()),
        # a law named with its kind; the same words naming a ministry or a topic name no law
        ("Theo Luật Du lịch, khu du lịch quốc gia cần điều kiện gì?", ("luat-da", "luat-dl"), {"luat-dl"}),
        ("Bộ Văn hóa, Thể thao và Du lịch cấp giấy phép phân loại phim?", ("luat-da", "luat-dl"), set()),
        ("Phát triển giáo dục là quốc sách hàng đầu, đúng hay sai?", ("hien-phap", "luat-gd"), set()),
        # one document only: nothing to leave aside
        ("Who do I complain to about my home insurance claim?", ("home",), set()),
    ],
)
def test_a_question_names_a_document_by_a_pair_of_its_title_words(
    question: str, docs: tuple[str, ...], named: set[str]
) -> None:
    assert named_documents(question, _evidence(*docs)) == named


def test_evidence_of_the_documents_left_aside_is_not_read() -> None:
    evidence = _evidence("home", "travel", "home")
    kept = in_scope("Who do I complain to about my home insurance claim?", evidence)
    assert [e.chunk.doc_id for e in kept] == ["home", "home"]
    assert in_scope("Who do I complain to?", evidence) == evidence  # no document named: all of it
    # the document named is not the one found first: it is what the question rests on, not what it asks about
    later = _evidence("travel", "home")
    assert in_scope("Who do I complain to about my home insurance claim?", later) == later
