"""Which sentence of the evidence answers: for a question asking what a term means (or what it comprises), the sentence
defining it, quoted as the provision says it, never a party or a figure singled out of another sentence; of a list's
figures, the one followed by what the question asks about and saying least it does not; first, the sentence the
question was written from and one setting its rule for the asker's case; last, one opening with the opposite case."""

from __future__ import annotations

from dataclasses import replace

from citewise.answer.defining import defining, title
from citewise.answer.extractive import ExtractiveGenerator, _follows
from citewise.answer.records import Fragment
from citewise.retrieve.records import Evidence
from citewise.types import Chunk

ACCOMPLICES = (
    "Điều 17. Đồng phạm\n"
    "1. Đồng phạm là trường hợp có hai người trở lên cố ý cùng thực hiện một tội phạm.\n"
    "3. Người đồng phạm bao gồm người tổ chức, người thực hành, người xúi giục, người giúp sức.\n"
    "Người thực hành là người trực tiếp thực hiện tội phạm.\n"
    "Người tổ chức là người chủ mưu, cầm đầu, chỉ huy việc thực hiện tội phạm.\n"
    "4. Người đồng phạm không phải chịu trách nhiệm hình sự về hành vi vượt quá của người thực hành."
)
PERIODS = (
    "Điều 146. Quy định về thời hạn, thời điểm tính thời hạn\n"
    "1. Trường hợp các bên có thỏa thuận về thời hạn là một năm, nửa năm, một tháng, nửa tháng mà khoảng thời gian "
    "diễn ra không liền nhau thì thời hạn đó được tính như sau:\n"
    "a) Một năm là ba trăm sáu mươi lăm ngày;\n"
    "b) Nửa năm là sáu tháng;\n"
    "c) Một tháng là ba mươi ngày;\n"
    "d) Nửa tháng là mười lăm ngày."
)
LIMITS = (
    "Điều 27. Thời hiệu truy cứu trách nhiệm hình sự\n"
    "2. Thời hiệu truy cứu trách nhiệm hình sự được quy định như sau:\n"
    "a) 05 năm đối với tội phạm ít nghiêm trọng;\n"
    "b) 10 năm đối với tội phạm nghiêm trọng;\n"
    "c) 15 năm đối với tội phạm rất nghiêm trọng;\n"
    "d) 20 năm đối với tội phạm đặc biệt nghiêm trọng."
)


def _fragment(text: str, header: str, short: str = "F1", doc: str = "d1") -> Fragment:
    chunk = Chunk(doc, 0, None, "Điều 1", ["Điều 1"], header, text, 0, len(text), "vi", "file:///p", None, None)
    return Fragment(short, Evidence(chunk, "Luật", 1.0, char_start=0, char_end=len(text), text=text))


def _shown(question: str, fragments: list[Fragment]) -> list[str]:
    return [s.text for s in ExtractiveGenerator().generate(question, fragments, "vi").sentences]


def test_who_a_term_names_is_its_definition_not_a_party_of_another_sentence() -> None:
    shown = _shown("Người thực hành là ai?", [_fragment(ACCOMPLICES, "[BLHS › Điều 17. Đồng phạm]")])
    assert shown[0] == "Người thực hành là người trực tiếp thực hiện tội phạm."
    assert not any(s.startswith("Chủ thể là") for s in shown)


def test_what_a_term_comprises_is_the_sentence_listing_it() -> None:
    shown = _shown("Người đồng phạm bao gồm những ai?", [_fragment(ACCOMPLICES, "[BLHS › Điều 17. Đồng phạm]")])
    assert shown[0].startswith("3. Người đồng phạm bao gồm người tổ chức, người thực hành")


def test_a_list_point_defining_the_term_is_quoted_after_its_lead_in_alone() -> None:
    question = (
        "Theo luật về thời hạn, thời điểm tính thời hạn, khi khoảng thời gian diễn ra không liền nhau, nửa tháng "
        "được tính là?"
    )
    shown = _shown(question, [_fragment(PERIODS, "[BLDS › Điều 146. Quy định về thời hạn]")])
    assert shown[0].endswith("được tính như sau:")
    assert shown[1] == "d) Nửa tháng là mười lăm ngày."
    assert not any("Thời hạn là" in s for s in shown)  # not the question's own "nửa tháng" stated back


def test_the_provision_headed_by_the_term_defines_it() -> None:
    usufruct = _fragment(
        "Điều 265. Chấm dứt quyền hưởng dụng\nQuyền hưởng dụng chấm dứt trong trường hợp sau đây:\n5. Tài sản là đối tượng của quyền hưởng dụng không còn.",
        "[BLDS › Điều 265. Chấm dứt quyền hưởng dụng]",
    )
    property_ = _fragment(
        "Điều 105. Tài sản\n1. Tài sản là vật, tiền, giấy tờ có giá và quyền tài sản.\n2. Tài sản bao gồm bất động sản và động sản.",
        "[BLDS › Điều 105. Tài sản]",
        short="F2",
        doc="d2",
    )
    shown = _shown("Tài sản là gì?", [usufruct, property_])
    assert shown[0] == "1. Tài sản là vật, tiền, giấy tờ có giá và quyền tài sản."
    assert not any("quyền hưởng dụng không còn" in s for s in shown)


def test_the_figure_followed_by_what_the_question_asks_about() -> None:
    question = "Thời hiệu truy cứu trách nhiệm hình sự được quy định bao nhiêu năm đối với tội phạm nghiêm trọng?"
    assert _follows(question, LIMITS, LIMITS.index("10 năm") + 6) == 6  # "đối với tội phạm nghiêm trọng"
    assert _follows(question, LIMITS, LIMITS.index("05 năm") + 6) == 4  # "… tội phạm ít …"
    shown = _shown(question, [_fragment(LIMITS, "[BLHS › Điều 27. Thời hiệu truy cứu trách nhiệm hình sự]")])
    assert shown[0] == "Thời hạn là 10 năm."
    very = question.replace("tội phạm nghiêm trọng", "tội phạm rất nghiêm trọng")
    assert _shown(very, [_fragment(LIMITS, "[BLHS › Điều 27. Thời hiệu truy cứu trách nhiệm hình sự]")])[0] == (
        "Thời hạn là 15 năm."
    )


def test_a_sentence_opening_with_the_opposite_case_comes_last() -> None:
    article = (
        "Điều 437. Trách nhiệm do giao tài sản không đúng số lượng\n"
        "1. Trường hợp bên bán giao tài sản với số lượng nhiều hơn số lượng đã thỏa thuận thì bên mua có quyền nhận "
        "hoặc không nhận phần dôi ra.\n"
        "2. Trường hợp bên bán giao ít hơn số lượng đã thỏa thuận thì bên mua có quyền hủy bỏ hợp đồng."
    )
    for case, first in (("nhiều hơn", "1. Trường hợp"), ("ít hơn", "2. Trường hợp")):
        shown = _shown(
            f"Bên mua có quyền gì khi bên bán giao số lượng {case} đã thoả thuận?", [_fragment(article, "[BLDS]")]
        )
        assert shown[0].startswith(first)


def test_of_two_items_the_one_saying_least_the_question_does_not() -> None:
    leave = (
        "Điều 115. Nghỉ việc riêng\n1. Người lao động được nghỉ việc riêng mà vẫn hưởng nguyên lương trong trường hợp "
        "sau đây: a) Con đẻ, con nuôi kết hôn: nghỉ 01 ngày; b) Kết hôn: nghỉ 03 ngày."
    )
    shown = _shown("Khi người lao động kết hôn thì được nghỉ bao nhiêu ngày?", [_fragment(leave, "[BLLĐ]")])
    assert shown[0] == "Thời hạn là 03 ngày."


def test_the_sentence_the_question_was_written_from_opens_the_answer() -> None:
    article = (
        "Điều 194. Quyền định đoạt của chủ sở hữu\n"
        "2. Việc định đoạt tài sản chung hợp nhất được thực hiện theo thỏa thuận của các chủ sở hữu chung.\n"
        "3. Việc định đoạt tài sản phải do người có năng lực hành vi dân sự thực hiện không trái quy định của pháp luật."
    )
    shown = _shown("Việc định đoạt tài sản phải do chủ thể nào thực hiện?", [_fragment(article, "[BLDS]")])
    assert shown[0].startswith("3. Việc định đoạt tài sản phải do người có năng lực hành vi dân sự")


def test_the_sentence_setting_its_rule_for_the_askers_case_opens_the_answer() -> None:
    article = (
        "Điều 630. Sửa đổi, bổ sung di chúc\n"
        "1. Người lập di chúc có thể sửa đổi, bổ sung, thay thế, hủy bỏ di chúc đã lập vào bất cứ lúc nào.\n"
        "2. Trường hợp người lập di chúc bổ sung di chúc thì di chúc đã lập và phần bổ sung có hiệu lực như nhau; nếu "
        "một phần của di chúc đã lập và phần bổ sung mâu thuẫn nhau thì chỉ phần bổ sung có hiệu lực pháp luật."
    )
    question = "Phần bổ sung mâu thuẫn với một phần của di chúc đã lập thì phần nào có hiệu lực?"
    assert _shown(question, [_fragment(article, "[BLDS]")])[0].startswith("2. Trường hợp người lập di chúc bổ sung")


def test_a_provisions_title_read_from_its_header() -> None:
    assert title("[91/2015/QH13 › Điều 105. Tài sản]") == "tai san"
    assert title("[GDPR › Article 4. Definitions]") == "definitions"
    assert defining("Tài sản là gì?", "vi", [("5. Tài sản là đối tượng …", "[BLDS › Điều 265. Chấm dứt]")]) == 0
    assert defining("Thời hạn là bao lâu?", "vi", [("Thời hạn là 14 ngày.", "[Quy tắc › Điều 9]")]) is None


def test_a_table_far_down_the_evidence_does_not_answer() -> None:
    retention = (
        "Điều 6. Thời hạn lưu trữ dữ liệu\n"
        "Bảng thời hạn lưu trữ\n"
        "Loại dữ liệu | Thời hạn lưu trữ tối đa\n"
        "Hồ sơ bồi thường | 10 năm\n"
        "Hồ sơ khiếu nại | 05 năm"
    )
    claims = (
        "Điều 8. Hồ sơ bồi thường\n"
        "3. Hồ sơ bồi thường phải được gửi cho Công ty trong thời hạn 90 ngày kể từ ngày kết thúc chuyến đi."
    )
    question = "Về nước rồi thì có bao lâu để nộp hồ sơ bồi thường?"
    far = _fragment(retention, "[Thông tư › Điều 6]", short="F2", doc="d2")
    far = Fragment(far.short, replace(far.evidence, score=0.4))
    shown = _shown(question, [_fragment(claims, "[Quy tắc › Điều 8]"), far])
    assert "10 năm" not in shown[0] and "90 ngày" in shown[0]
    near = Fragment(far.short, replace(far.evidence, score=1.0))
    assert _shown(question, [_fragment(claims, "[Quy tắc › Điều 8]"), near])[0].startswith("Hồ sơ bồi thường")
