"""A duration question that counts from an event is answered by the time of what it asks, not of that event."""

from citewise.answer.event import event_and_ask, of_the_event
from citewise.answer.extractive import ExtractiveGenerator
from citewise.answer.records import Fragment
from citewise.retrieve.records import Evidence
from citewise.types import Chunk

FILING = "2. Thời hạn nộp hồ sơ bồi thường là 60 ngày kể từ ngày kết thúc việc giám định tổn thất."
PAYING = (
    "1. Công ty giải quyết và thanh toán bồi thường trong thời hạn 15 ngày làm việc kể từ ngày nhận được đầy đủ hồ "
    "sơ bồi thường hợp lệ quy định tại Điều 10 Quy tắc này."
)
PAID_AFTER_PAPERS = "Nộp đủ giấy tờ rồi thì bao lâu tôi nhận được tiền bồi thường nhà?"


def test_the_event_a_question_counts_from():
    event, ask = event_and_ask(PAID_AFTER_PAPERS)
    assert {"nộp", "giấy"} <= event and "nộp" not in ask and {"nhận", "tiền"} <= ask
    event, ask = event_and_ask("After I submit the claim form, how long until you pay?")
    assert {"submit", "form"} <= event and "pay" in ask
    assert "loss" in event_and_ask("How long do I have to notify you after a loss?")[0]
    # the duration itself opens the question; no event named; not a duration question
    assert event_and_ask("Bao lâu thì công ty trả tiền bồi thường?") == (frozenset(), frozenset())
    assert event_and_ask("How many days do I have to notify Harbourview of a change of address?")[0] == frozenset()
    assert event_and_ask("Nộp hồ sơ rồi thì có được bồi thường không?")[0] == frozenset()
    # a criminal code's statement: the offence says when the penalty applies, not what it counts from
    offence = "Người nào dùng bói toán … mà còn vi phạm, thì bị phạt cải tạo không giam giữ đến bao lâu?"
    assert event_and_ask(offence)[0] == frozenset()
    assert "nộp" in event_and_ask("Sau khi nộp hồ sơ thì bao lâu được trả tiền?")[0]


def test_a_figure_of_the_event_is_read_after_one_of_what_is_asked():
    figures = [(FILING, FILING.index("60")), (PAYING, PAYING.index("15"))]
    assert of_the_event(PAID_AFTER_PAPERS, figures) == [True, False]
    # the figure that alone says a word of the event, or says more of what is asked, stays where it is
    assert of_the_event(PAID_AFTER_PAPERS, figures[:1]) == [False]
    notify = "(a) you must notify us of any loss or damage within 30 days of discovering it;"
    ack = "(c) we will acknowledge your claim within 2 business days of your first notification;"
    question = "How long do I have to notify you after a loss?"
    assert of_the_event(question, [(notify, notify.index("30")), (ack, ack.index("2 b"))]) == [False, False]


def _fragment(text: str, short: str, article: str) -> Fragment:
    header = f"[QUY TẮC BẢO HIỂM NHÀ Ở TƯ NHÂN › Chương III. BỒI THƯỜNG › {article}]"
    chunk = Chunk(f"d{short}", 0, None, short, [short], header, text, 0, len(text), "vi", "file:///p", None, None)
    return Fragment(short, Evidence(chunk, "Policy", 1.0, char_start=0, char_end=len(text), text=text))


def test_the_direct_answer_states_the_time_asked_for():
    frags = [
        _fragment(FILING, "F1", "Điều 10. Hồ sơ bồi thường"),
        _fragment(PAYING, "F2", "Điều 12. Thời hạn giải quyết bồi thường"),
    ]
    draft = ExtractiveGenerator().generate(PAID_AFTER_PAPERS, frags, "vi")
    assert draft.sentences[0].text == "Thời hạn là 15 ngày làm việc.", [s.text for s in draft.sentences]
    plain = ExtractiveGenerator().generate("Thời hạn nộp hồ sơ bồi thường là bao lâu?", frags, "vi")
    assert plain.sentences[0].text == "Thời hạn là 60 ngày.", [s.text for s in plain.sentences]


def test_a_bare_when_puts_a_case_not_an_event_to_count_from():
    assert event_and_ask("Khi người lao động kết hôn thì sẽ được nghỉ có lương bao nhiêu ngày?") == (
        frozenset(),
        frozenset(),
    )
