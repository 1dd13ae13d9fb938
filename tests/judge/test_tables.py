"""A table's cell as the answer: the row and the column the question names, ambiguity making no answer, and
the judge taking a named cell as evidence that states the answer."""

from __future__ import annotations

from citewise.judge.answerability import FeatureJudge, table_answer
from citewise.judge.records import Answerability, Passage
from citewise.judge.tables import find_cell, tables
from citewise.retrieve.records import Evidence
from citewise.types import Chunk

SCHEDULE = (
    "2.3 Schedule of limits\n"
    "The table below shows the most we will pay and the excess that applies.\n"
    "Cover | Limit (USD) | Excess (USD)\n"
    "Buildings | 500,000 | 250\n"
    "Contents | 75,000 | 150\n"
    "Subsidence, heave and landslip | 500,000 | 1,000\n"
    "The subsidence limit forms part of the buildings limit."
)
RETENTION = (
    "Loại dữ liệu | Thời hạn lưu trữ tối đa | Thời điểm bắt đầu tính\n"
    "Hồ sơ bồi thường | 10 năm | Ngày thanh toán\n"
    "Ghi âm cuộc gọi tư vấn | 02 năm | Ngày ghi âm\n"
)


def test_tables_are_runs_of_lines_with_the_same_cells() -> None:
    (table,) = tables(SCHEDULE)
    assert [len(line.cells) for line in table] == [3, 3, 3, 3]
    header = table[0]
    assert [SCHEDULE[a:b] for a, b in header.cells] == ["Cover", "Limit (USD)", "Excess (USD)"]
    assert tables("a | b\nno table here") == []  # one line is no table


def test_the_row_and_the_column_named_give_the_cell_and_its_spans() -> None:
    cell = find_cell("What is the excess for a buildings claim?", SCHEDULE, [])
    assert cell is not None
    assert (cell.row_label, cell.column, cell.value) == ("Buildings", "Excess (USD)", "250")
    assert SCHEDULE[slice(*cell.row_span)] == "Buildings | 500,000 | 250"
    assert SCHEDULE[slice(*cell.value_span)] == "250"
    assert SCHEDULE[slice(*cell.header_span)] == "Cover | Limit (USD) | Excess (USD)"
    limit = find_cell("What is the limit for contents?", SCHEDULE, [])
    assert limit is not None and limit.value == "75,000"


def test_ambiguity_makes_no_answer() -> None:
    # two rows named alike: the buildings row and the subsidence row
    assert find_cell("What is the excess for a buildings claim caused by subsidence?", SCHEDULE, ["amount"]) is None
    # a row but no column, and two columns holding figures, neither of them the excess the insured bears
    two_limits = "Cover | Limit per item (USD) | Limit per trip (USD)\nBaggage | 500 | 2,500\nGadgets | 300 | 1,000\n"
    assert find_cell("How much for baggage?", two_limits, ["amount"]) is None
    # a column but no row
    assert find_cell("What is the excess?", SCHEDULE, ["amount"]) is None


def test_without_a_header_named_the_column_holding_the_kind_asked_for() -> None:
    cell = find_cell("Ghi âm cuộc gọi được giữ bao lâu?", RETENTION, ["duration"], min_row_words=2)
    assert cell is not None and (cell.column, cell.value) == ("Thời hạn lưu trữ tối đa", "02 năm")
    # one shared syllable is not enough in Vietnamese ("hồ sơ ..." shares "hồ" with nothing asked here)
    assert find_cell("Cuộc họp kéo dài bao lâu?", RETENTION, ["duration"], min_row_words=2) is None


def test_a_row_holding_little_of_the_question_is_no_answer_when_no_column_is_named() -> None:
    """The default answer to "when must processing stop after consent is withdrawn" was the marketing-data row of
    the retention table ("24 tháng"): the row shares only "dữ liệu" with a question about stopping processing."""
    retention = RETENTION + "Dữ liệu phục vụ tiếp thị | 24 tháng | Ngày khách hàng đồng ý\n"
    asked = "Sau khi tôi rút lại sự đồng ý, doanh nghiệp phải ngừng xử lý dữ liệu trong bao lâu?"
    assert find_cell(asked, retention, ["duration"], min_row_words=2) is None
    kept = find_cell("Dữ liệu tiếp thị được giữ bao lâu?", retention, ["duration"], min_row_words=2)
    assert kept is not None and kept.value == "24 tháng"
    by_header = find_cell("Hồ sơ bồi thường của khách hàng được lưu trữ tối đa bao lâu?", retention, ["duration"], 2)
    assert by_header is not None and by_header.value == "10 năm"  # the column is named: the row may share less


def test_the_words_every_row_shares_with_the_first_header_cell_name_no_row() -> None:
    """A near-miss of the legal set: no row of the retention table is fingerprint data; "dữ liệu" is in the first
    header cell ("Loại dữ liệu") and names what every row is."""
    retention = RETENTION + "Dữ liệu phục vụ tiếp thị | 24 tháng | Ngày khách hàng đồng ý\n"
    fingerprint = "Dữ liệu vân tay dùng để đăng nhập ứng dụng bảo hiểm được lưu trữ tối đa bao lâu?"
    assert find_cell(fingerprint, retention, ["duration"], min_row_words=2) is None


def test_whether_something_is_covered_is_answered_only_by_its_own_row() -> None:
    """Asked whether a cancelled flight is paid for, the answer opened with the delayed-flight row's sum; asked about
    termites in a wooden door, with the sum insured of wooden-frame houses. A yes/no question names a row only when it
    names all of it, or all of one of the alternatives the row lists."""
    limits = (
        "Quyền lợi bảo hiểm | Số tiền bảo hiểm tối đa (đồng) | Mức khấu trừ (đồng)\n"
        "Chuyến bay bị trì hoãn | 5.000.000 | Không áp dụng\n"
        "Hủy, rút ngắn chuyến đi | 50.000.000 | Không áp dụng\n"
        "Nhà khung gỗ, mái lá hoặc mái tôn | 1.000.000.000 | 2.000.000\n"
    )
    kinds = ["amount", "number"]
    for neighbour in (
        "Bảo hiểm du lịch có chi trả khi tôi bị hủy chuyến bay do bão không?",
        "Cửa gỗ nhà tôi bị mối ăn hỏng hết, bảo hiểm có trả tiền sửa không?",
    ):
        assert find_cell(neighbour, limits, kinds, 2, "vi") is None, neighbour
    delay = find_cell("Chuyến bay bị trì hoãn có được bồi thường không?", limits, kinds, 2, "vi")
    assert delay is not None and delay.value == "5.000.000"
    # one alternative of the row named wholly: the row is named
    roof = find_cell("Nhà mái lá có được bảo hiểm không?", limits, kinds, 2, "vi")
    assert roof is not None and roof.value == "1.000.000.000"
    theft = "Cover | Limit (USD)\nLoss or theft of baggage | 2,500\nTravel delay | 200\n"
    assert find_cell("Is theft of baggage covered?", theft, ["amount"], 1, "en") is not None
    assert find_cell("Is a delayed connection covered if my baggage is late?", theft, ["amount"], 1, "en") is None
    # cancelling the contract before leaving ("hủy hợp đồng … trước khi đi") is not cancelling the trip
    contract = "Tôi có phải trả phí nếu hủy hợp đồng bảo hiểm du lịch trước khi đi không?"
    assert find_cell(contract, limits, kinds, 2, "vi") is None
    for trip in ("Rút ngắn chuyến đi có được bồi thường không?", "Bảo hiểm có chi trả khi hủy chuyến đi không?"):
        cut_short = find_cell(trip, limits, kinds, 2, "vi")  # "hủy" shares the object of "rút ngắn chuyến đi"
        assert cut_short is not None and cut_short.value == "50.000.000", trip
    # a question for a value may name a row in part, as before ("hủy" alone is no alternative of its own)
    cancelled = find_cell("Hủy chuyến đi được trả tối đa bao nhiêu?", limits, kinds, 2, "vi")
    assert cancelled is not None and cancelled.value == "50.000.000"


def test_a_column_named_in_spoken_words_is_named() -> None:
    """A policyholder's "what I pay myself" is the excess (the policy's own definition): with the question's
    language, its spoken forms count in the provisions' wording (retrieve/wording.py)."""
    asked = "How much do I have to pay myself on a buildings claim?"
    cell = find_cell(asked, SCHEDULE, ["amount"], 1, "en")
    assert cell is not None and (cell.column, cell.value) == ("Excess (USD)", "250")
    assert find_cell(asked, SCHEDULE, ["amount"], 1) is None  # read as typed: no column named, the row too vague


def test_the_judge_takes_a_named_cell_as_the_answer_but_not_for_yes_no() -> None:
    passages = [Passage("Unrelated text about something else.", 0), Passage(SCHEDULE, 500)]
    low = Answerability(0.1, None, "other", "features")
    judged = table_answer("What is the excess for a buildings claim?", passages, "en", low, 0.35)
    assert judged is not None and judged.tier == "table" and judged.score == 0.35 and judged.answers(0.35)
    span = judged.span
    assert span is not None and span.evidence == 1 and span.text == "Buildings | 500,000 | 250"
    assert SCHEDULE[span.char_start - 500 : span.char_end - 500] == span.text
    assert span.answer_start is not None and span.answer_end is not None
    assert span.text[span.answer_start : span.answer_end] == "250"
    yes_no = Answerability(0.1, None, "yes_no", "features")
    assert table_answer("Is the excess for a buildings claim waived?", passages, "en", yes_no, 0.35) is None


def test_the_port_answers_from_the_named_cell() -> None:
    chunk = Chunk("d1", 0, None, "2.3", ["2.3"], "[Policy] 2.3", SCHEDULE, 0, len(SCHEDULE), "en", "file:///p")
    evidence = [Evidence(chunk, "Policy", 1.0, char_start=0, char_end=len(SCHEDULE), text=SCHEDULE)]
    judge = FeatureJudge()
    judged = judge.answerable("What is the excess for a buildings claim?", evidence, "en")
    assert judged.answers(judge.threshold("en"))
    assert judged.span is not None and judged.span.text == "Buildings | 500,000 | 250"


def test_the_excess_column_answers_only_when_named() -> None:
    # "how much" of a cover asks what the policy pays: the limit, not the excess the insured bears
    cell = find_cell("How much for contents?", SCHEDULE, ["amount"])
    assert cell is not None and (cell.column, cell.value) == ("Limit (USD)", "75,000")
    excess = find_cell("How much is the excess for contents?", SCHEDULE, ["amount"])
    assert excess is not None and excess.value == "150"


def test_a_question_for_steps_or_a_party_is_not_answered_by_a_cell() -> None:
    # the judge and the answer stage ask the same cell: neither takes a row's sum for the steps to take
    assert find_cell("What must I do when my buildings are damaged?", SCHEDULE, []) is None
    assert find_cell("Who pays the excess for a buildings claim?", SCHEDULE, []) is None
    passages = [Passage(SCHEDULE, 0)]
    steps = Answerability(0.1, None, "list", "features")
    assert table_answer("What must I do when my buildings are damaged?", passages, "en", steps, 0.35) is None
