"""Legal references typed in questions, EN and VI, with and without diacritics."""

from __future__ import annotations

import pytest

from citewise.refs.query import extract_references
from citewise.retrieve.query import analyze


@pytest.mark.parametrize(
    ("question", "keys", "doc"),
    [
        ("What does Article 6(1)(a) GDPR say?", ["art:6/par:1/pt:a"], (None, None, None, "gdpr")),
        ("Art. 17 right to erasure", ["art:17"], None),
        ("Recital 47 legitimate interest", ["recital:47"], None),
        ("rule 3.2.1 of the rulebook", ["num:3.2.1"], None),
        ("Under Rule 6.2.1(a)(i), what must an employee ensure?", ["num:6.2.1/pt:a/sub:1"], None),
        ("Rule 2.6.4(1)(b) applies", ["num:2.6.4/par:1/pt:b"], None),
        ("Rule 1.1.1(2)(i) says", ["num:1.1.1/par:2/pt:1"], None),
        ("Section 4.2 time limits", ["num:4.2"], None),
        ("Annex III high-risk systems", ["annex:3"], None),
        ("point (a) of Article 6(1)", ["art:6/par:1/pt:a"], None),
        ("paragraph 2 of Article 5", ["art:5/par:2"], None),
        ("Điều 12 Thông tư 67/2023/TT-BTC quy định gì?", ["art:12"], ("Thông tư", "67", "2023", None)),
        ("dieu 12 tt 67", ["art:12"], ("Thông tư", "67", None, None)),
        ("khoản 2 điều 17 luật kinh doanh bảo hiểm", ["art:17/par:2"], None),
        ("Luật KDBH 2022 điều 17", ["art:17"], ("Luật", None, "2022", "kdbh")),
        ("điểm đ khoản 1 Điều 3", ["art:3/par:1/pt:dd"], None),
        ("diem a khoan 2 dieu 17 luat 08/2022/QH15", ["art:17/par:2/pt:a"], ("Luật", "8", "2022", None)),
        ("Điều 17 khoản 2 điểm b", ["art:17/par:2/pt:b"], None),
        ("Phụ lục I quy tắc", ["annex:1"], None),
        ("Điều 2.3.LQ.17", ["art:2.3.lq.17"], None),
        ("Articles 15 and Article 16", ["art:15", "art:16"], None),
    ],
)
def test_references(question: str, keys: list[str], doc: tuple[str | None, ...] | None) -> None:
    refs, _ = extract_references(question)
    assert [r.key for r in refs] == keys
    if doc is not None:
        hint = refs[0].doc
        assert hint is not None
        assert (hint.doc_type, hint.number, hint.year, hint.name)[: len(doc)] == doc


def test_document_named_without_a_provision() -> None:
    refs, docs = extract_references("NĐ 46/2023 quy định gì về vốn điều lệ?")
    assert refs == [] and [(d.doc_type, d.number, d.year) for d in docs] == [("Nghị định", "46", "2023")]
    _, docs = extract_references("Is this covered by Regulation (EU) 2016/679?")
    assert [(d.number, d.year) for d in docs] == [("679", "2016")]


@pytest.mark.parametrize(
    ("question", "lang", "intent"),
    [
        ("xin chào", "vi", "chitchat"),
        ("Cảm ơn bạn nhiều!", "vi", "chitchat"),
        ("hello there", "en", "chitchat"),
        ("thanks!", "en", "chitchat"),
        ("Thời hạn bồi thường là bao lâu?", "vi", "legal"),
        ("hello, what does Article 6 say?", "en", "legal"),
        ("How long do I have to report a claim?", "en", "legal"),
    ],
)
def test_language_and_intent(question: str, lang: str, intent: str) -> None:
    a = analyze(question)
    assert (a.lang, a.intent) == (lang, intent)


@pytest.mark.parametrize(
    ("question", "mention"),
    [
        ("trừ trường hợp quy định tại điểm b khoản 1 Điều 142 của Bộ luật này, thì bị phạt bao lâu?", True),
        ("hành vi quy định tại Điều 322 của Bộ luật này thì bị phạt thế nào?", True),
        ("thời hiệu yêu cầu tuyên bố giao dịch vô hiệu quy định tại các Điều 125, 126 là bao lâu?", True),
        ("the categories of data referred to in Article 9(1) GDPR", True),
        ("the conditions laid down in paragraph 2 of Article 5", True),
        ("Theo quy định tại Điều 5 Luật Viên chức, ai là viên chức?", False),
        ("Điều 12 Thông tư 67/2023/TT-BTC quy định gì?", False),
        ("khoan 2 dieu 17 luat kinh doanh bao hiem quy dinh gi", False),
        ("What does Article 6(1)(a) GDPR say?", False),
    ],
)
def test_reference_named_as_a_condition_is_a_mention(question: str, mention: bool) -> None:
    refs, _ = extract_references(question)
    assert refs and refs[0].mention is mention, refs


@pytest.mark.parametrize(
    "question",
    [
        "In the context of Rule 2.6.4(i), what must an Authorised Person document?",
        "Considering Rule 11.7.1 prohibits the practice, how should a firm handle complaints?",
        "As per Rule 10.2.7, what records must be kept?",
    ],
)
def test_english_background_references_are_mentions(question: str) -> None:
    refs, _ = extract_references(question)
    assert refs[0].mention, refs


@pytest.mark.parametrize(
    ("question", "mention"),
    [
        ("In reference to Rule 3.7.3(g), how are foreign exchange losses treated?", True),
        ("What reporting deadlines apply as stipulated by GEN Rule 6.6 for fund managers?", True),
        (
            "lực lượng chuyên trách đánh giá điều kiện an ninh mạng theo quy định tại Điều 12 của Luật An ninh mạng?",
            True,
        ),
        ("Theo quy định tại Điều 12 Luật An ninh mạng, điều kiện an ninh mạng gồm những gì?", False),
        ("Under Article 6 GDPR, when is processing lawful?", False),
    ],
)
def test_background_reference_phrasings(question: str, mention: bool) -> None:
    refs, _ = extract_references(question)
    assert refs[0].mention is mention, refs
