"""Everyday wording for the lexical ranker (``retrieve.wording``): greetings, particles and the story
around the question, spoken ↔ legal synonyms (every table entry), references left as typed, and an
everyday question that finds its article on a real index only with the wording step."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

import citewise
from citewise.engine import Engine
from citewise.evaluate.datasets.alqac import corpus_records
from citewise.retrieve.synonyms import LEGAL_TERMS, SYNONYMS
from citewise.retrieve.wording import expand, legal_terms, reworded, rewrite, sentences, statement_of
from citewise.settings import Settings
from tests.conftest import shared

VI_STORY = (
    "Thưa luật sư, tôi có đăng ký kết hôn với vợ tôi từ năm 2015 nhưng hai người đã ly thân 4 năm nay. "
    "Nay tôi quen một người khác, tôi có được phép kết hôn với người khác không ạ?"
)
VI_FIRED = (
    "Chào luật sư, em làm công nhân may được 3 năm. Tuần trước quản đốc đuổi việc em mà không báo trước. "
    "Cho em hỏi công ty làm vậy có đúng luật không ạ? Em cảm ơn luật sư nhiều."
)
EN_FIRED = (
    "Hi, I worked at a shop for two years and last week my boss fired me by text message. "
    "Can they do that without notice? Thanks in advance!"
)


@pytest.mark.parametrize(
    ("question", "lang", "story", "text"),
    [
        (
            VI_STORY,
            "vi",
            "keep",
            "có đăng ký kết hôn với vợ từ năm 2015 nhưng hai người đã ly thân 4 năm nay. "
            "Nay quen một người khác, có được phép kết hôn với người khác không",
        ),
        (
            VI_STORY,
            "vi",
            "terms",
            "đăng ký kết hôn vợ ly thân 4 năm Nay quen một người khác, có được phép kết hôn với người khác không",
        ),
        (VI_STORY, "vi", "drop", "Nay quen một người khác, có được phép kết hôn với người khác không"),
        (
            VI_FIRED,
            "vi",
            "terms",
            "công nhân 3 năm đuổi việc công ty làm vậy có đúng luật không "
            "đơn phương chấm dứt hợp đồng lao động người lao động",
        ),
        (VI_FIRED, "vi", "drop", "công ty làm vậy có đúng luật không"),
        # a greeting opened by the asker's pronoun is a greeting; "tôi gửi công ty …" is the story
        (
            "Em chào anh chị, tuần trước mưa to quá nên nhà bị ngập. Vậy em có được bảo hiểm đền không ạ?",
            "vi",
            "keep",
            "tuần trước mưa to quá nên nhà bị ngập. Vậy có được bảo hiểm đền không bồi thường thiệt hại ngập nước mưa lớn",
        ),
        ("Con thưa luật sư, ly hôn thì chia nhà thế nào ạ?", "vi", "keep", "ly hôn thì chia nhà thế nào"),
        (
            "Tôi gửi công ty hồ sơ từ tháng 3, bao lâu thì được trả tiền?",
            "vi",
            "keep",
            "gửi công ty hồ sơ từ tháng 3, bao lâu thì được trả tiền?",
        ),
        ("Cho em hỏi thời hạn tạm trú tối đa là bao lâu ạ?", "vi", "terms", "thời hạn tạm trú tối đa là bao lâu"),
        (
            "cho em hoi so do dung ten chong thi co phai tai san chung khong a",
            "vi",
            "terms",
            "so do dung ten chong thi co phai tai san chung khong giấy chứng nhận quyền sử dụng đất",
        ),
        (
            EN_FIRED,
            "en",
            "terms",
            "boss fired Can they do that without notice? dismissal termination of employment employer",
        ),
        (EN_FIRED, "en", "drop", "Can they do that without notice?"),
        (
            "Dear Sir/Madam, I would like to ask whether my landlord can keep my deposit. I moved out in May",
            "en",
            "drop",
            "my landlord can keep my deposit.",
        ),
        (
            "What is the deadline for notifying a personal data breach?",
            "en",
            "terms",
            "What is the deadline for notifying a personal data breach?",
        ),
    ],
)
def test_rewrite_strips_greetings_story_and_particles(question: str, lang: str, story: str, text: str) -> None:
    assert rewrite(question, lang, story).text == text  # type: ignore[arg-type]


def test_rewrite_records_what_it_did() -> None:
    w = rewrite(VI_FIRED, "vi", "terms")
    assert w.question == "công ty làm vậy có đúng luật không"
    assert "Em cảm ơn luật sư nhiều." in w.dropped
    assert w.story == ["công nhân", "3 năm", "đuổi việc"]
    assert w.expansions == ["đơn phương chấm dứt hợp đồng lao động", "người lao động"]


def test_off_and_other_languages_are_unchanged() -> None:
    assert rewrite(VI_STORY, "vi", "off").text == VI_STORY
    assert rewrite("Wie lange gilt die Frist?", "de", "terms").text == "Wie lange gilt die Frist?"
    assert rewrite("Chào luật sư ạ!", "vi", "terms").text == "Chào luật sư ạ!"  # nothing but a greeting


def test_sentences_and_terms() -> None:
    assert sentences("Một. Hai? Ba!\nBốn") == ["Một.", "Hai?", "Ba!", "Bốn"]
    assert legal_terms("con tôi 15 tuổi bị đuổi việc, sổ đỏ đứng tên chồng", "vi") == [
        "con",
        "15 tuổi",
        "đuổi việc",
        "sổ đỏ",
        "chồng",
    ]


def test_diacritics_keep_words_apart() -> None:
    # "lãi" (interest) must not match "lại" (again) when the question has diacritics ...
    assert "lãi suất" not in expand("chủ nhà không trả lại tiền cọc", "vi")
    assert "lãi suất" in expand("họ tính lãi 5% một tháng", "vi")
    # ... and a question typed without diacritics matches the folded forms
    assert "lãi suất" in expand("ho tinh lai 5% mot thang", "vi")


def test_asker_pronouns_are_dropped_but_siblings_stay() -> None:
    w = rewrite("Em gái tôi bị chồng đánh, em có thể làm đơn ly hôn giúp em gái không ạ?", "vi", "drop")
    assert w.question == "Em gái bị chồng đánh, có thể làm đơn ly hôn giúp em gái không"
    assert "em gái" in rewrite("Em gái tôi bị chồng đánh, em có thể làm đơn ly hôn giúp em gái không?", "vi").text


@pytest.mark.parametrize(
    ("lang", "spoken", "legal"),
    [(s.lang, form, s.legal) for s in SYNONYMS for form in s.spoken],
)
def test_every_synonym_expands(lang: str, spoken: str, legal: str) -> None:
    sentence = f"xin hỏi về {spoken} thì sao?" if lang == "vi" else f"what about {spoken} then?"
    assert legal in expand(sentence, lang)
    assert legal in rewrite(sentence, lang, "terms").text


def test_synonyms_do_not_fire_inside_words() -> None:
    assert expand("tòa công nhận thuận tình", "vi") == []  # "công nhân" is not "công nhận"
    assert "người lao động" in expand("tôi là công nhân", "vi")
    assert "administrative fines" in expand("will I get fined?", "en")
    assert "administrative fines" not in expand("they refined it, that's fine", "en")
    # playing football ("chơi đá bóng") is no drug use; smoking meth ("hút đá") is
    assert "sử dụng trái phép chất ma túy" not in expand("con em chơi đá bóng ở trường bị gãy tay", "vi")
    assert "sử dụng trái phép chất ma túy" in expand("anh ấy hút đá bị bắt", "vi")


@pytest.mark.parametrize(
    ("question", "form", "legal"),
    [
        ("If nobody lives in the house for three months, is a burglary covered?", "nobody living", "unoccupied"),
        ("They dropped me after my first claim, can they do that?", "drop me", "cancel this policy"),
        ("Is it worth taking them to court?", "take them to court", "bring proceedings"),
        ("What if they kicked me off the policy?", "kick me off", "cancel this policy"),
        ("The insurer is cancelling on me, can it?", "cancel on me", "cancel this policy"),
        ("Is the policy paying out for storm damage?", "pay out", "settlement pay claims"),
        ("Am I covered if I am letting the insurer know late?", "let the insurer know", "notify"),
    ],
)
def test_english_forms_match_in_other_endings(question: str, form: str, legal: str) -> None:
    assert form not in question.lower()  # the table's form is written with another ending
    assert any(form in s.spoken and s.legal == legal for s in SYNONYMS)
    assert legal in expand(question, "en")


def test_english_endings_stay_whole_words() -> None:
    assert "cancel this policy" not in expand("a droplet of water fell on me", "en")
    # a single-word form is matched as written: "banking" is not a bank, "permits" not a permit
    assert expand("Which rules on correspondent banking apply?", "en") == []
    assert expand("Is it permitted to wait?", "en") == []
    assert expand("is it fine to wait?", "en") == []
    assert expand("The regulator permits it", "en") == []
    assert "resignation notice period" not in expand("quite a long wait", "en")


def test_legal_terms_are_words() -> None:
    for lang, terms in LEGAL_TERMS.items():
        assert terms and all(t == t.strip() and t.lower() == t for t in terms), lang


# -- through the Retriever ------------------------------------------------------------------------


def test_references_and_documents_are_searched_as_typed(module_index: Path) -> None:
    with citewise.open(settings=Settings(index=module_index), embedder=None) as cw:
        for q in (
            "Cho em hỏi khoản 2 Điều 17 Luật KDBH quy định gì ạ?",
            "Hi, what does Art. 6(1)(a) GDPR say? Thanks!",
            "Chào luật sư, theo Quy tắc 125/2024/QĐ-SH thì mất cọc có được bồi thường không ạ?",
        ):
            result = cw.search(q, k=3)
            assert result.analysis.lexical == "", q
        everyday = cw.search("Chào luật sư, nhà em bị ngập thì được đền bù thế nào ạ?", k=3)
        assert everyday.analysis.lexical.endswith("bồi thường thiệt hại")


def _rank(index: Path, question: str, title: str, label: str, synonyms: bool) -> int:
    """The rank of the first found item of the document whose title holds ``title`` (any case) and of the provision
    ``label``, in a lexical search with or without the synonym table (99 when not in the first 10)."""
    with citewise.open(settings=Settings(index=index, retrieve={"synonyms": synonyms}), embedder=None) as cw:
        found = [e for e in cw.search(question, k=10).evidence if not e.supporting]
    at = [i for i, e in enumerate(found, 1) if title.lower() in e.doc_title.lower() and e.chunk.label == label]
    return at[0] if at else 99


def test_a_policyholders_words_find_the_policy_section(module_index: Path) -> None:
    """The sample home policy says "notify us of any loss or damage within 30 days" (Section 4.2) and
    "unoccupied" (Section 3.2); people write "tell" and "empty" (bench/everyday_policy.py), "rude", "my car" and "for
    my job" (bench/sets/everyday_answers.jsonl, dev4)."""

    def rank(question: str, label: str, synonyms: bool) -> int:
        title, section = label.split(" ", 1)
        return _rank(module_index, question, title, section, synonyms)

    for question, label in (
        ("How long have I got to tell Harbourview my house was damaged?", "Harbourview Section 4.2"),
        ("My house will be empty for three months while I work abroad, is that a problem?", "Harbourview Section 3.2"),
        # "threatening or abusive behaviour" (5.2), "motor vehicles" (Section 1), "business purposes" (3.3)
        ("Can Harbourview cancel my policy because I was rude to a claims handler?", "Harbourview Section 5.2"),
        ("Is hail damage to my car covered?", "Harbourview Section 1"),
        ("Is my laptop that I use for my job covered if it gets stolen?", "Harbourview Section 3.3"),
    ):
        assert rank(question, label, True) <= 3 < rank(question, label, False), question


def test_travellers_words_find_the_travel_section(module_index: Path) -> None:
    """ "died" is the policy's "death" (Bluewave 3.1: "the death, serious injury or serious illness of … a close
    relative"), "delay" written in a Vietnamese question its "trì hoãn" (Điều 6); bench/sets/everyday_answers.jsonl,
    dev5."""

    died = "My mother-in-law died, can I cancel the trip and get my money back?"
    with_, without = (_rank(module_index, died, "bluewave", "Section 3.1", syn) for syn in (True, False))
    assert with_ <= 3 < without
    delay = "Máy bay delay 8 tiếng thì được bao nhiêu tiền?"
    with_, without = (_rank(module_index, delay, "du lịch", "Điều 6", syn) for syn in (True, False))
    assert with_ == 1 < without


@pytest.fixture(scope="module")
def family_law(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    """The ALQAC 2023 Marriage and Family Law and Residence Law (171 articles, read by path), parsed
    and indexed for real (lexical only)."""
    laws = json.loads(shared("alqac2023/law.json").read_text(encoding="utf-8"))
    keep = [law for law in laws if law["id"] in ("Luật Hôn nhân và gia đình", "Luật Cư trú")]
    folder = tmp_path_factory.mktemp("family-law")
    corpus = folder / "laws.jsonl"
    corpus.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in corpus_records(keep)), "utf-8")
    engine = citewise.open(settings=Settings(index=folder / "index"), embedder=None)
    assert not engine.ingest([corpus]).errors
    return engine


def test_everyday_question_finds_its_article_only_with_wording(family_law: Engine) -> None:
    question = "Thưa luật sư, em đang có bầu 5 tháng mà chồng em nộp đơn đòi ly dị. Chồng có được làm vậy không ạ?"

    def first(wording: str) -> str:
        engine = citewise.open(
            settings=family_law.settings, store=family_law.store, embedder=None, retrieve={"wording": wording}
        )
        evidence = [e for e in engine.search(question, k=5).evidence if not e.supporting]
        return f"{evidence[0].doc_title} {evidence[0].chunk.label}"

    assert first("off") != "Luật Hôn nhân và gia đình Điều 51"
    for mode in ("keep", "terms"):
        assert first(mode) == "Luật Hôn nhân và gia đình Điều 51", mode


def test_statement_style_questions_keep_their_words() -> None:
    # ALQAC-style questions: connectives stay (law text pairs them with its words), nothing is dropped
    q = "Cán bộ, công chức, viên chức mà cố ý từ bỏ nhiệm vụ gây hậu quả nghiêm trọng thì bị phạt như thế nào?"
    w = rewrite(q, "vi")
    assert w.text == q and w.dropped == [] and w.expansions == []


def test_nothing_is_added_that_the_question_says_already() -> None:
    assert expand("vợ chồng em muốn ly dị", "vi") == ["ly hôn"]
    assert expand("vợ chồng em muốn ly dị, ly hôn thì chia tài sản sao", "vi") == []
    # ObliQA-style formal questions: their legal words are left alone
    q = "How might a breach of a Principle influence the Regulator's decision to revoke a Financial Services Permission?"
    assert rewrite(q, "en").text == q
    assert rewrite("What are the duties of an insurer when handling a claim?", "en").expansions == []


def test_a_form_inside_its_own_legal_wording_is_left_as_it_is() -> None:
    # "ứng trước" -> "tạm ứng", "lãi" -> "lãi suất", "làm thêm" -> "làm thêm giờ": not inside the wording itself
    assert (
        reworded("Tổn thất lớn thì có được tạm ứng trước không?", "vi")
        == "tổn thất lớn thì có được tạm ứng trước không?"
    )
    assert (
        reworded("Lãi suất chậm trả là bao nhiêu?", "vi") == "lãi suất chậm thực hiện nghĩa vụ trả tiền là bao nhiêu?"
    )
    assert (
        reworded("Sau khi tổ chức làm thêm giờ thì phải làm gì?", "vi")
        == "sau khi tổ chức làm thêm giờ thì phải làm gì?"
    )
    # elsewhere in the question the form is still read in the legal wording
    assert (
        reworded("Chờ lâu quá thì có được ứng trước tiền không?", "vi") == "chờ lâu quá thì có được tạm ứng tiền không?"
    )


def test_rewritten_question_as_a_ranker_beside_the_typed_one(family_law: Engine) -> None:
    question = "Thưa luật sư, em đang có bầu 5 tháng mà chồng em nộp đơn đòi ly dị. Chồng có được làm vậy không ạ?"
    engine = citewise.open(
        settings=family_law.settings,
        store=family_law.store,
        embedder=None,
        retrieve={"weights": {"lexical": 1.0, "wording": 1.0}},
    )
    result = engine.search(question, k=5)
    assert result.analysis.lexical
    assert {"lexical", "wording"} <= {name for e in result.evidence for name in e.rankers}
    # a question searched as typed has no second lexical ranker
    typed = engine.search("Điều kiện kết hôn là gì?", k=3)
    assert all("wording" not in e.rankers for e in typed.evidence)


def test_a_place_is_read_as_its_zone_only_where_asked() -> None:
    """The lexical query and the extractive answer read "Singapore" as the premium zone "Đông Nam Á"; the weak-evidence
    check does not (``broader=False``): a red-light fine in Singapore is not a question about a travel zone."""
    q = "Mức phạt vượt đèn đỏ đối với xe máy ở Singapore là bao nhiêu?"
    assert "đông nam á" in reworded(q, "vi")
    assert reworded(q, "vi", broader=False) == q.lower()
    assert reworded("Mất vali ở Singapore thì sao?", "vi", broader=False) == "mất hành lý ở singapore thì sao?"


def test_weak_evidence_is_read_in_the_provisions_wording_too(module_index: Path) -> None:
    """A policyholder's "vali" and "được đền" keep the baggage clause's cosine under the Vietnamese weak limit as
    typed; read as the policy words it ("hành lý", "bồi thường"), it is above it, and the question is answered
    from that clause instead of refused. A question about something else with a word of the table in it ("visa")
    stays weak: the wording reads it no closer to any provision."""
    with citewise.open(settings=Settings(index=module_index)) as cw:
        baggage = cw.search("Mất vali ở sân bay nước ngoài thì được đền tối đa bao nhiêu?")
        assert not baggage.weak
        assert any("hành lý" in e.text for e in baggage.evidence[:3])
        assert "wording_cosine" in baggage.timings
        visa = cw.search("Quy trình xin visa du học Úc gồm những bước nào?")
        assert visa.weak and "cosine" in visa.weak_reason
    with citewise.open(settings=Settings(index=module_index, retrieve={"wording": "off"})) as cw:
        assert cw.search("Mất vali ở sân bay nước ngoài thì được đền tối đa bao nhiêu?").weak


@pytest.mark.parametrize(
    ("question", "embedded"),
    [
        (
            "Phát triển giáo dục không phải là quốc sách hàng đầu, đúng hay sai?",
            "Phát triển giáo dục không phải là quốc sách hàng đầu.",
        ),
        (
            "Trọng tài viên có quyền từ chối giải quyết tranh chấp đúng không?",
            "Trọng tài viên có quyền từ chối giải quyết tranh chấp.",
        ),
        ("Người bảo hiểm phải bồi thường trong 15 ngày, phải không?", "Người bảo hiểm phải bồi thường trong 15 ngày."),
        ("A firm must keep records for six years, true or false?", "A firm must keep records for six years."),
        # a question, or a check with nothing to check, stays as typed
        ("Thời hạn thông báo tổn thất là bao lâu?", "Thời hạn thông báo tổn thất là bao lâu?"),
        ("Đúng hay sai?", "Đúng hay sai?"),
        ("Có phải không?", "Có phải không?"),
    ],
)
def test_the_dense_ranker_embeds_a_statement_without_its_check(question: str, embedded: str) -> None:
    assert statement_of(question) == embedded
    decomposed = unicodedata.normalize("NFD", question)
    assert statement_of(decomposed) in (embedded, decomposed)
    assert (statement_of(decomposed) == decomposed) == (embedded == question)
