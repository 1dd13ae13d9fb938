"""A question asking what a term means goes first to the provision defining it (retrieve.definitions), on the
sample corpus with the real index and embedder."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.index.embedded import EmbeddedStore
from citewise.index.embedder import Embedder
from citewise.retrieve.definitions import asked_term, defines, definition_verb
from citewise.retrieve.hybrid import Retriever
from citewise.settings import RetrieveSettings


@pytest.mark.parametrize(
    ("question", "lang", "term"),
    [
        ("Theo Bộ luật Dân sự 2015, hoa lợi được hiểu như thế nào?", "vi", "hoa lợi"),
        ("Bộ luật Dân sự 2015 quy định pháp nhân thương mại là gì?", "vi", "pháp nhân thương mại"),
        ("Chất hướng thần được định nghĩa là gì?", "vi", "Chất hướng thần"),
        ("Thế nào là tình thế cấp thiết?", "vi", "tình thế cấp thiết"),
        ("Tai nạn là gì vậy?", "vi", "Tai nạn"),
        ('Định nghĩa của "Người lao động"?', "vi", "Người lao động"),
        ("Khái niệm hợp đồng dân sự?", "vi", "hợp đồng dân sự"),
        ("Người xúi giục là ai?", "vi", "Người xúi giục"),
        ("Người đồng phạm bao gồm những ai?", "vi", "Người đồng phạm"),
        ("Tài sản gồm những gì?", "vi", "Tài sản"),
        # the term is what the last clause names when the whole is too long to be one
        (
            "Theo luật về thời hạn, thời điểm tính thời hạn, khi khoảng thời gian diễn ra không liền nhau, một năm "
            "được tính là?",
            "vi",
            "một năm",
        ),
        ("What is a Relevant Person?", "en", "Relevant Person"),
        ('What does "proximate" mean?', "en", "proximate"),
        ("How is Client Money defined?", "en", "Client Money"),
        ("Under the GDPR, what is meant by personal data?", "en", "personal data"),
        # not asking what a term means: a time limit, a description too long to be a term, a figure
        ("Thời hạn thông báo tổn thất là bao lâu?", "vi", None),
        ("Trách nhiệm của lực lượng chuyên trách bảo vệ an ninh mạng là gì?", "vi", None),
        ("How long do I have to report a loss?", "en", None),
        ("What is the 5% co-payment?", "en", None),
        ("Theo Điều 5, Bộ luật dân sự 2015, tập quán là gì?", "vi", "tập quán"),
        ("Mức khấu trừ tối đa là bao nhiêu?", "vi", None),
        # the term for a description, and a description's last clause, are no term asked about
        ("Việc cá nhân nhân danh và vì lợi ích của người khác xác lập giao dịch dân sự được gọi là gì?", "vi", None),
        ("Đại diện theo pháp luật của người có khó khăn trong nhận thức, làm chủ hành vi là ai?", "vi", None),
        ("Phí bảo hiểm được tính như thế nào?", "vi", None),
    ],
)
def test_the_term_a_question_asks_the_meaning_of(question: str, lang: str, term: str | None) -> None:
    assert asked_term(question, lang) == term


def test_a_definition_opens_a_line_a_sentence_or_a_list_point() -> None:
    assert defines("Điều 109. Hoa lợi, lợi tức\n1. Hoa lợi là sản vật tự nhiên mà tài sản mang lại.", "hoa lợi")
    assert defines("(e) 'personal data breach' means a breach of security ...", "personal data breach")
    assert defines('In this Part: "Relevant Person" means a person who ...', "relevant person")
    assert defines(
        "1. Dữ liệu cá nhân của khách hàng là thông tin gắn với một khách hàng", "Dữ liệu cá nhân của khách hàng"
    )
    assert definition_verb("3. Người đồng phạm bao gồm người tổ chức, người thực hành.", "người đồng phạm") == "bao gồm"
    assert definition_verb("a) Một năm là ba trăm sáu mươi lăm ngày;", "một năm", True) == "là"
    # the term used, not defined
    assert not defines("Người được bảo hiểm được hưởng hoa lợi là sản vật tự nhiên.", "hoa lợi")
    assert not defines("The controller shall report the personal data breach means test.", "personal data")


@pytest.fixture(scope="module")
def retriever(module_index: Path, embedder: Embedder) -> Retriever:
    return Retriever(EmbeddedStore(module_index), embedder)


@pytest.mark.parametrize(
    ("question", "term", "label"),
    [
        ("What is a working day?", "working day", "Article 3"),
        ("Tai nạn là gì?", "Tai nạn", "Điều 2"),
        ("Thế nào là vi phạm dữ liệu?", "vi phạm dữ liệu", "Điều 3"),
    ],
)
def test_the_provision_defining_the_term_comes_first(
    retriever: Retriever, module_index: Path, embedder: Embedder, question: str, term: str, label: str
) -> None:
    first = retriever.search(question, k=5).evidence[0]
    assert first.chunk.label == label and f"defines “{term}”" in first.reasons
    assert defines(first.chunk.body, term)
    off = Retriever(EmbeddedStore(module_index), embedder, RetrieveSettings(definitions=False))
    assert all("defines" not in r for e in off.search(question, k=5).evidence for r in e.reasons)
