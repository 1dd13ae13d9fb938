"""One reading of a clause that opens with its case, for the direct answer and for conflicts of figures."""

from citewise.answer.openings import case_contradicted, case_not_put, case_put, case_stated, set_for

ADVANCE = (
    "3. Đối với tổn thất ước tính từ 100.000.000 đồng trở lên, theo đề nghị của Người được bảo hiểm, Công ty tạm "
    "ứng 50% số tiền bồi thường ước tính trong thời hạn 07 ngày làm việc."
)
HOURS = (
    "Thời giờ làm việc bình thường không quá 08 giờ trong 01 ngày và không quá 48 giờ trong 01 tuần; trường hợp "
    "theo tuần thì thời giờ làm việc bình thường không quá 10 giờ trong 01 ngày."
)
CARRIER = "If the trip is cancelled by the carrier, we refund 100% of the fare."


def test_a_sentence_opening_with_a_case_the_question_does_not_put():
    assert case_not_put("Bao lâu thì công ty trả tiền bồi thường?", ADVANCE)
    assert not case_not_put("Tổn thất từ 100.000.000 đồng trở lên thì bao lâu được tạm ứng?", ADVANCE)


def test_the_clause_after_a_semicolon_is_read_at_the_figure():
    question = "Thời gian làm việc bình thường trong một ngày là bao nhiêu giờ?"
    assert case_not_put(question, HOURS, HOURS.index("10 giờ"))
    assert not case_not_put(question, HOURS, HOURS.index("08 giờ"))
    assert not case_not_put(
        "Nếu quy định theo tuần thì một ngày làm việc tối đa bao nhiêu giờ?", HOURS, HOURS.index("10")
    )


def test_a_case_ends_at_its_comma_or_at_thi_before_the_figure():
    # "thì" closes a Vietnamese case without a comma; a case still open at the figure is no case of it
    assert case_not_put("Mức phạt là bao nhiêu?", "Trường hợp tái phạm thì phạt 10 triệu đồng.")
    assert not case_not_put("Mức phạt là bao nhiêu?", "Nếu tái phạm 10 lần, phạt thêm.", 16)


def test_english_cases_and_the_question_in_the_policy_wording():
    assert case_not_put("How much of the fare do I get back if I change my mind?", CARRIER)
    assert case_put("What do you refund if the carrier cancels the trip?", "the trip is cancelled by the carrier")
    assert not case_not_put("The plain rule, with no case.", "We refund 50% of the fare within 14 days.")


def test_the_case_a_figure_is_set_for():
    text = (
        "Không sử dụng người lao động làm việc ban đêm trong trường hợp sau đây: a) Mang thai từ tháng thứ 07 hoặc từ"
        " tháng thứ 06 nếu làm việc ở vùng cao, vùng sâu; b) …"
    )
    seventh, sixth = text.index("07"), text.index("06")
    highlands = "Lao động nữ làm việc ở vùng cao mang thai từ tháng thứ mấy thì không làm đêm?"
    assert set_for(highlands, text, (sixth, sixth + 2)) == 0
    assert set_for(highlands, text, (seventh, seventh + 2)) == 1  # "hoặc" follows it, no case
    # "làm việc" is said before the figure: the case is put only by its own words
    assert set_for("Mang thai tháng thứ mấy thì không làm việc ban đêm?", text, (sixth, sixth + 2)) == 2


def test_a_case_saying_the_opposite_of_the_askers():
    more = "Bên mua có quyền gì khi bên bán giao số lượng tài sản nhiều hơn đã thoả thuận?"
    assert case_contradicted(more, "2. Trường hợp bên bán giao ít hơn số lượng đã thỏa thuận thì bên mua có quyền sau:")
    assert not case_contradicted(more, "1. Trường hợp bên bán giao tài sản với số lượng nhiều hơn thì bên mua có quyền")
    assert case_contradicted(
        "What if I cancel after the trip starts?", "If you cancel before the trip starts, we refund."
    )
    # the question says both, or the sentence opens with no case: nothing is contradicted
    assert not case_contradicted("What if I cancel before or after it starts?", "If you cancel before it starts, …")
    assert not case_contradicted(more, "Bên bán giao ít hơn số lượng đã thỏa thuận.")


def test_a_case_the_question_states_in_its_words():
    question = "Phần bổ sung mâu thuẫn với một phần của di chúc đã lập thì phần nào có hiệu lực?"
    will = (
        "2. Trường hợp người lập di chúc bổ sung di chúc thì di chúc đã lập và phần bổ sung có hiệu lực pháp luật như "
        "nhau; nếu một phần của di chúc đã lập và phần bổ sung mâu thuẫn nhau thì chỉ phần bổ sung có hiệu lực."
    )
    assert case_stated(question, will)
    assert not case_stated(question, "1. Người lập di chúc có thể sửa đổi, bổ sung di chúc đã lập vào bất cứ lúc nào.")
    # a case of three words is any question's about that subject
    assert not case_stated("Người lao động có thể thỏa thuận nghỉ hằng năm như thế nào?", "6. Khi nghỉ hằng năm, nếu …")


def test_a_case_inside_a_clause_is_no_rule_of_the_sentence():
    statement = (
        "Việc sinh con bằng kỹ thuật hỗ trợ sinh sản là hành vi sử dụng phương pháp thụ tinh nhân tạo, đúng hay sai?"
    )
    surrogacy = (
        "22. Mang thai hộ vì mục đích nhân đạo là việc một người phụ nữ giúp mang thai cho cặp vợ chồng mà người vợ "
        "không thể mang thai ngay cả khi áp dụng kỹ thuật hỗ trợ sinh sản, bằng việc lấy noãn của người vợ."
    )
    assert not case_stated(statement, surrogacy)
