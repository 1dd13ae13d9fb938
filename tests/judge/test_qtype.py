"""The kind of answer a question asks for, and finding one in a sentence (EN and VI)."""

from __future__ import annotations

import pytest

from citewise.judge.qtype import VALUE_TYPES, answer_spans, holds_answer_type, question_type, states_value


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How many days do I have to notify Harbourview of damage to my home?", "duration"),
        ("Thời hạn giải quyết bồi thường bảo hiểm nhà ở là bao lâu?", "duration"),
        ("What is the maximum amount paid for baggage delay?", "amount"),
        ("Mức phí bảo hiểm là bao nhiêu?", "amount"),
        ("Who must notify the supervisory authority?", "party"),
        ("Cơ quan nào cấp giấy phép thành lập doanh nghiệp bảo hiểm?", "party"),
        ("Khi nào doanh nghiệp bảo hiểm phải trả tiền bồi thường?", "date"),
        # "when" asks for a time in the question's inverted order, or alone; otherwise it opens a condition
        ("When must the firm notify the Regulator?", "date"),
        ("When didn't the insurer pay?", "date"),
        ("The cover ends on the last day of the trip, or when?", "date"),
        ("By when must I send the claim form?", "date"),
        ("When the recovery of the economy slow?", "date"),
        # how something is computed asks for the way, whatever figure-like topic it names
        ("Phí bảo hiểm nhà ở được tính như thế nào?", "other"),
        ("Mức bồi thường được xác định ra sao?", "other"),
        ("Thời hạn thông báo là bao lâu và tính như thế nào?", "duration"),
        ("Hoa lợi được hiểu như thế nào?", "definition"),
        # "when" before what may happen asks in which circumstances
        ("When can the authority impose a fine for a data breach?", "other"),
        ("When might the Regulator decide not to send a notice?", "other"),
        ("Until when may a distributor keep the system off the market?", "date"),
        ("Who pays when the trip is cancelled?", "party"),
        ("When a claim is made, who decides it?", "party"),
        ("What must an employee ensure when providing a written notice about restrictions?", "other"),
        ("What are the disclosure obligations when arranging deals in investments?", "list"),
        ("Does the policy pay when my flight is delayed?", "yes_no"),
        # a yes/no question asked after the asker's case; "what is covered if …" asks for no definition
        ("My grandmother is 82, can she be covered?", "yes_no"),
        ("I bought the policy last week and changed my mind, can I get my money back?", "yes_no"),
        ("If the firm, as agent, acts for a client, who must it notify?", "party"),
        ("What is covered if my bag is delayed?", "other"),
        ("What is meant by personal data?", "definition"),
        # a fine "from how much" asks for an amount
        ("Người phạm tội trồng cây cần sa còn có thể bị phạt tiền từ bao nhiêu?", "amount"),
        ("Người phạm tội bị phạt tù bao nhiêu?", "number"),
        # "where" the same; "who" after a noun is relative
        ("Where can one find the Regulator's guidance?", "place"),
        ("In cases where an MTF uses a Remote Clearing House, what criteria must it meet?", "other"),
        ("What compensation is available to a customer who has engaged in an investment activity?", "other"),
        ("If a customer contests a transaction, who must show that it was authorised?", "party"),
        ("To whom should they disclose this interest?", "party"),
        ("The benefit is paid to whom?", "party"),
        ("Is drone damage covered?", "yes_no"),
        ("Tôi có được bồi thường khi bị mất hộ chiếu không?", "yes_no"),
        ("Bảo hiểm nhân thọ là gì?", "definition"),
        ("What are the conditions for consent?", "list"),
        # folded Vietnamese question words that are English words, or other Vietnamese words
        ("Is the fine for prohibited AI practices capped at 4% of worldwide turnover?", "yes_no"),
        ("May I bring three guests?", "yes_no"),
        ("Ai phải bồi thường thiệt hại?", "party"),
        ("Mấy ngày thì phải thông báo tổn thất?", "duration"),
        ("Xe máy có phải mua bảo hiểm bắt buộc không?", "yes_no"),
        # "bão gió" (a storm's wind) folds to "bao gio" (when): read with its marks; typed without them it asks when
        ("Bão gió cấp 6 làm hư nhà có được bồi thường không?", "yes_no"),
        ("Bao giờ thì công ty trả tiền bồi thường?", "date"),
        ("bao gio thi cong ty tra tien boi thuong?", "date"),
        # "in which cases" asks for conditions, whatever figure-like words it names
        ("Phí bảo hiểm du lịch được hoàn lại trong trường hợp nào?", "list"),
        ("Thời hạn bảo hiểm được kéo dài trong những trường hợp nào?", "list"),
        ("Under what circumstances is the premium refunded?", "list"),
        ("Phí bảo hiểm du lịch là bao nhiêu?", "amount"),
        # a yes/no question naming a time limit or a premium asks whether, not how long or how much
        ("Thời hạn 15 ngày để bồi thường có tính cả ngày nghỉ lễ, Tết không?", "yes_no"),
        ("Tôi có mua được bảo hiểm bắt buộc xe máy thời hạn 5 năm không?", "yes_no"),
        ("Phí bảo hiểm có được hoàn lại khi hủy hợp đồng không?", "yes_no"),
        ("Can the controller extend the response deadline by three more months?", "yes_no"),
        ("Is there a deadline for lodging a complaint?", "duration"),
        ("My bank lost my details to hackers, how fast must they tell the regulator?", "duration"),
        ("How quickly will Bluewave pay a valid claim?", "duration"),
        ("How soon after the decision may a provider request reassessment?", "duration"),
        ("Must the firm act quickly?", "yes_no"),
        ("Nếu người được bảo hiểm tự tử thì trong thời hạn bao lâu doanh nghiệp không phải trả tiền?", "duration"),
        # "bao nhiêu" after a word of money asks how much; after a counted thing, how many
        ("Tôi bị mất hộ chiếu ở nước ngoài thì được bồi thường bao nhiêu?", "amount"),
        ("Mất vali ở sân bay nước ngoài thì được đền tối đa bao nhiêu?", "amount"),
        ("Không mua bảo hiểm bắt buộc xe máy thì bị phạt bao nhiêu?", "amount"),
        ("Một năm được bồi thường bao nhiêu lần?", "number"),
        ("Có bao nhiêu người được hưởng thừa kế?", "number"),
        ("Phải đóng bao nhiêu năm thì được nhận lương hưu?", "duration"),
    ],
)
def test_question_types(question: str, expected: str) -> None:
    assert question_type(question) == expected


def test_a_duration_is_found_and_a_figure_without_unit_is_not_one() -> None:
    vi = "Người được bảo hiểm phải thông báo trong vòng 14 ngày kể từ ngày xảy ra tổn thất."
    assert holds_answer_type("duration", vi)
    assert vi[slice(*answer_spans("duration", vi)[0])] == "14 ngày"
    assert not holds_answer_type("duration", "The policy is governed by Article 14 of the rules.")
    en = "We will pay up to USD 5,000 per trip for cancellation."
    assert en[slice(*answer_spans("amount", en)[0])] == "USD 5,000"
    assert "50 triệu đồng" in [s[a:b] for s in ["tối đa 50 triệu đồng"] for a, b in answer_spans("amount", s)]


def test_a_duration_may_carry_a_word_between_figure_and_unit() -> None:
    en = "If the home is unoccupied for more than 60 consecutive days, we will not pay for theft."
    assert en[slice(*answer_spans("duration", en)[0])] == "60 consecutive days"
    vi = "tối thiểu là 1 năm, trừ các trường hợp thời hạn bảo hiểm dưới 1 năm sau đây:"
    assert [vi[a:b] for a, b in answer_spans("duration", vi)] == ["1 năm", "1 năm"]  # "sáu đây" is no "six day"
    spelled = "phải thông báo trong vòng mười lăm ngày, và nộp hồ sơ trong ba mươi ngày"
    assert [spelled[a:b] for a, b in answer_spans("duration", spelled)] == ["mười lăm ngày", "ba mươi ngày"]
    after = "trong vòng 10 ngày sau ngày nhận đủ hồ sơ"  # "sau ngày" is "after the day", not "sáu ngày"
    assert [after[a:b] for a, b in answer_spans("duration", after)] == ["10 ngày"]
    other = "settled within 15 business days of receipt"
    assert other[slice(*answer_spans("duration", other)[0])] == "15 business days"


def test_a_value_is_stated_only_outside_enumerators_and_references() -> None:
    q = question_type("Mức khấu trừ trong bảo hiểm nhà ở tư nhân là bao nhiêu?")
    assert q in VALUE_TYPES
    assert states_value(q, "1. Mức khấu trừ áp dụng cho mỗi vụ tổn thất là 2.000.000 đồng, trừ khoản 2 Điều này.")
    # the clause number and the article number are not the value asked for
    assert not states_value(q, "6. Mức khấu trừ là số tiền phải tự chịu theo quy định tại Điều 11 Quy tắc này.")
    assert not states_value("duration", "(a) as referred to in Article 6(1)(a) of this Regulation.")
    assert states_value("duration", "The controller shall notify it not later than 72 hours after Article 33 applies.")
    assert states_value("yes_no", "Any sentence at all.")  # not a value question


@pytest.mark.parametrize(
    ("qtype", "sentence", "expected"),
    [
        (
            "duration",
            "Thời hạn tước một số quyền công dân là từ 01 năm đến 05 năm, kể từ ngày chấp hành xong.",
            "từ 01 năm đến 05 năm",
        ),
        ("duration", "The ban lasts from 1 to 5 years after release.", "from 1 to 5 years"),
        ("duration", "Notice must be given between 3 and 6 months before the end.", "between 3 and 6 months"),
        ("amount", "Phạt tiền từ 50.000.000 đồng đến 200.000.000 đồng.", "từ 50.000.000 đồng đến 200.000.000 đồng"),
        ("duration", "The insured must notify the company within 14 days of the loss.", "14 days"),
    ],
)
def test_a_range_is_one_answer(qtype: str, sentence: str, expected: str) -> None:
    """A range's upper end alone says less than the text: "từ 01 năm đến 05 năm" is the answer, not "05 năm"."""
    assert [sentence[a:b] for a, b in answer_spans(qtype, sentence)] == [expected]
