"""Which numbers of a provision count what a number question counts."""

from citewise.answer.counts import counted, counted_as_asked, counts_the_asked, item_number, ordinal

MINORS = "Người dưới 18 tuổi phạm tội chỉ bị áp dụng một trong các hình phạt sau đây: 1. Cảnh cáo. 2. Phạt tiền."
ONE = "Đối với mỗi tội phạm, người phạm tội chỉ bị áp dụng một hình phạt chính."
PENALTIES = "Đối với mỗi tội phạm, người phạm tội chỉ bị áp dụng mấy hình phạt chính?"


def _span(text: str, part: str) -> tuple[int, int]:
    at = text.index(part)
    return at, at + len(part)


def test_a_list_items_number_is_a_label():
    one = MINORS.index("1. Cảnh")
    assert item_number(MINORS, (one, one + 1))
    assert not item_number(MINORS, _span(MINORS, "18"))
    assert not item_number("Phạt tiền 5. Người nào", _span("Phạt tiền 5. Người nào", "5"))


def test_a_count_of_what_is_counted():
    assert not counts_the_asked(PENALTIES, MINORS, _span(MINORS, "18"))
    assert counts_the_asked(PENALTIES, ONE, _span(ONE, "một"))
    investors = "How many of the VC Fund's investors must be resident in the U.A.E.?"
    experience = "The SEO must have ten years of experience."
    assert not counts_the_asked(investors, experience, _span(experience, "ten years"))
    # a classifier stands between the number and the noun counted: "10 người lao động" counts "lao động"
    rules = "Người sử dụng lao động sử dụng từ 10 người lao động trở lên phải đăng ký nội quy lao động."
    asked = "Người sử dụng lao động phải đăng ký nội quy lao động khi có bao nhiêu lao động?"
    assert counts_the_asked(asked, rules, _span(rules, "10"))
    assert not counts_the_asked(asked, "Trong thời hạn 10 ngày.", _span("Trong thời hạn 10 ngày.", "10"))
    # a question that is no count, or names nothing it counts, leaves every figure to the ranking
    assert counts_the_asked("Thời hạn thông báo là bao lâu?", MINORS, _span(MINORS, "18"))


def test_where_a_count_ends():
    assert ONE[slice(*_span(ONE, "một"))] == "một"
    end = counted_as_asked(PENALTIES, ONE, _span(ONE, "một")[1])
    assert ONE[_span(ONE, "một")[0] : end] == "một hình phạt chính"
    guests = "Up to 3 guests may stay."
    assert guests[6 : counted("How many guests can stay?", guests, 7)] == "3 guests"


def test_an_ordinal_is_read_with_its_word():
    text = "a) Mang thai từ tháng thứ 07; b) Đang nuôi con dưới 12 tháng tuổi."
    asked = "Lao động nữ mang thai từ tháng thứ mấy thì không làm ban đêm?"
    assert counts_the_asked(asked, text, _span(text, "07"))
    assert not counts_the_asked(asked, text, _span(text, "12 tháng"))
    assert text[ordinal(asked, text, text.index("07")) : text.index("07") + 2] == "tháng thứ 07"
    assert ordinal("Mang thai mấy tháng?", text, text.index("07")) is None
