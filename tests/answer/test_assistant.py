"""Answers end to end on the sample corpus with the real retriever and embedder: extractive
answers quote the documents verbatim; refusals in both languages; the validator's failure
paths forced with a scripted generator (missing marker, marker to a fragment not given,
unsupported sentence, invented number) end in retry, partial answer, fallback or refusal —
never in an unvalidated sentence."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import citewise
from citewise.answer.base import Generator
from citewise.answer.records import REFUSAL, Draft, DraftSentence, Fragment, Quote
from citewise.assistant import Assistant
from citewise.assistant.records import NO_DIRECT_ANSWER, Answer
from citewise.assistant.report import build_report
from citewise.index.embedded import EmbeddedStore
from citewise.index.embedder import Embedder
from citewise.judge.answerability import FeatureJudge
from citewise.retrieve.hybrid import Retriever

Script = Callable[[list[Fragment], bool], Draft]


class ScriptedGenerator(Generator):
    """Replies from a queue of functions of (fragments, strict): for forcing failure paths only."""

    name = "scripted"

    def __init__(self, *replies: Script) -> None:
        self.replies = list(replies)
        self.calls: list[tuple[int, bool]] = []

    def generate(self, question: str, fragments: list[Fragment], lang: str, strict: bool = False) -> Draft:
        self.calls.append((len(fragments), strict))
        return self.replies.pop(0)(fragments, strict)


@pytest.fixture(scope="module")
def retriever(module_index: Path, embedder: Embedder) -> Retriever:
    return Retriever(EmbeddedStore(module_index), embedder)


def assert_all_validated(answer: Answer, store: EmbeddedStore) -> None:
    """Every sentence shown is supported, cited, and its quotes are exact document text."""
    for s in answer.sentences:
        assert s.verdict.status == "supported", s
        assert s.citations
        for c in s.citations:
            doc = store.load_document(c.doc_id)
            assert doc.text[c.char_start : c.char_end] == c.quote
            assert c.marker == f"doc:{c.doc_id}#chunk:{c.chunk_id}"


HOME_Q = "Thời hạn giải quyết bồi thường bảo hiểm nhà ở là bao lâu?"


def test_extractive_answer_in_vietnamese(retriever: Retriever) -> None:
    answer = Assistant(retriever).ask(HOME_Q)
    assert not answer.refused and answer.lang == "vi" and answer.generator == "extractive"
    assert "15 ngày làm việc" in answer.text and answer.text.count("[1]") == 1
    first = answer.sentences[0].citations[0]
    assert first.label == "Điều 12" and first.pages[0] is not None and "QUY TẮC BẢO HIỂM NHÀ Ở" in first.doc_title
    assert answer.confidence >= 0.5 and not answer.warning
    assert answer.timings["total"] > 0 and "retrieve.total" in answer.timings
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]


def test_extractive_answer_in_english(retriever: Retriever) -> None:
    answer = Assistant(retriever).ask("Within how many hours must a personal data breach be notified to the Authority?")
    assert not answer.refused and answer.lang == "en"
    assert "72 hours" in answer.text
    assert answer.sentences[0].citations[0].label == "Article 11"
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("question", "lang"),
    [("What is the boiling point of mercury?", "en"), ("Ai là tác giả của Truyện Kiều?", "vi")],
)
def test_refusal_in_the_question_language(retriever: Retriever, question: str, lang: str) -> None:
    gen = ScriptedGenerator()
    answer = Assistant(retriever, gen).ask(question)
    assert answer.refused and answer.text == REFUSAL[lang] and answer.sentences == []
    assert gen.calls == [], "weak retrieval refuses before any generator call (zero tokens)"
    assert answer.tokens == {"prompt": 0, "completion": 0}


def _say(*sentences: tuple[str, list[str]]) -> Script:
    return lambda frags, strict: Draft(
        [DraftSentence(t, [m if m != "F?" else frags[0].short for m in ms]) for t, ms in sentences], "scripted"
    )


GOOD = "Công ty giải quyết và thanh toán bồi thường trong thời hạn 15 ngày làm việc kể từ ngày nhận được đầy đủ hồ sơ bồi thường hợp lệ."


def test_invented_number_is_retried_with_top3_and_a_strict_prompt(retriever: Retriever) -> None:
    gen = ScriptedGenerator(_say((GOOD.replace("15", "45"), ["F1"])), _say((GOOD, ["F1"])))
    answer = Assistant(retriever, gen).ask(HOME_Q)
    assert gen.calls[1] == (3, True), "the retry gets the top-3 fragments and the strict prompt"
    assert (
        not answer.refused and answer.generator == "scripted" and "15 ngày" in answer.text and "45" not in answer.text
    )
    assert any("number" in a for a in answer.attempts) and any(a.startswith("retry") for a in answer.attempts)
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]


def test_unsupported_sentence_is_dropped_and_the_answer_marked_partial(retriever: Retriever) -> None:
    bad = ("Công ty luôn bồi thường gấp đôi cho khách hàng thân thiết.", ["F1"])
    reordered = "Trong thời hạn 15 ngày làm việc kể từ ngày nhận được đầy đủ hồ sơ bồi thường hợp lệ, Công ty giải quyết và thanh toán bồi thường."
    gen = ScriptedGenerator(_say((GOOD, ["F1"]), (reordered, ["F1"]), bad), _say(bad))
    answer = Assistant(retriever, gen).ask(HOME_Q)
    assert answer.partial and len(answer.sentences) == 2
    assert "gấp đôi" not in answer.text
    # two of three sentences passed: shown without a second draft (it would cost as much as the first)
    assert len(gen.calls) == 1 and not any(a.startswith("retry") for a in answer.attempts)
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "reply",
    [
        _say((GOOD, [])),  # missing marker
        _say((GOOD, ["F9"])),  # marker to a fragment not given
        _say(("Bên mua bảo hiểm được miễn phí bảo hiểm năm đầu tiên khi mua trực tuyến.", ["F1"])),  # unsupported
    ],
)
def test_failed_drafts_fall_back_to_the_extractive_answer(retriever: Retriever, reply: Script) -> None:
    gen = ScriptedGenerator(reply, reply)
    answer = Assistant(retriever, gen).ask(HOME_Q)
    assert not answer.refused and answer.generator == "extractive"
    assert "fallback: extractive" in answer.attempts
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]


def test_generator_refusal_with_good_evidence_falls_back_then_answers(retriever: Retriever) -> None:
    refuse: Script = lambda frags, strict: Draft([], "scripted", refused=True)  # noqa: E731
    answer = Assistant(retriever, ScriptedGenerator(refuse)).ask(HOME_Q)
    assert not answer.refused and answer.generator == "extractive"


def test_a_case_an_exclusion_reaches_is_answered_by_quoting_it_not_by_a_model(retriever: Retriever) -> None:
    """A model's own sentence could state the cover the exclusion takes away; the exclusion is quoted instead (the
    scripted model, which would claim full cover, is never asked)."""
    gen = ScriptedGenerator(_say(("We will pay for loss or damage caused by theft.", ["F1"])))
    answer = Assistant(retriever, gen).ask("My house was empty for 70 days and then burgled. Am I covered?")
    assert gen.calls == [] and answer.generator == "extractive" and answer.outcome == "answered"
    assert answer.note.startswith("The case in the question meets the condition of an exclusion")
    assert answer.sentences[0].text.startswith("If the home is unoccupied for more than 60 consecutive days")
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]


def test_relevant_evidence_with_no_sentence_to_state_is_no_direct_answer_not_a_refusal(retriever: Retriever) -> None:
    # the policy says "unoccupied" and "60 days", the question "empty" and "over the winter": the section is found,
    # but no sentence of it shares enough of the question's words to be stated as its answer (with "for three
    # months", a case past the exclusion's 60 days, the exclusion is stated: tests/judge/test_exclusions.py)
    answer = Assistant(retriever).ask("What happens if I leave my house empty over the winter?")
    assert answer.outcome == NO_DIRECT_ANSWER and not answer.refused and not answer.sentences
    assert answer.closest[0].label == "Section 3.2"  # Unoccupied homes, listed first for the reader
    assert "no sentence could be stated and supported" in answer.reason
    assert answer.attempts == ["extractive: refused"]
    assert answer.search is not None
    report = build_report(answer, answer.search)
    assert report["why"] == "no direct answer" and "indexed" in report["recommendation"]


def test_a_model_answer_without_the_duration_asked_gives_way_to_the_extractive_direct_answer(
    retriever: Retriever,
) -> None:
    true_but_beside = (
        "Trường hợp từ chối bồi thường một phần hoặc toàn bộ, Công ty phải thông báo bằng văn bản và nêu rõ lý do "
        "trong thời hạn quy định tại khoản 1 Điều này."
    )
    gen = ScriptedGenerator(_say((true_but_beside, ["F1"])))
    answer = Assistant(retriever, gen).ask(HOME_Q)
    assert answer.generator == "extractive" and "15 ngày" in answer.sentences[0].text, answer.text
    assert any("do not state the figure asked for" in a for a in answer.attempts), answer.attempts
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]


def test_a_true_model_answer_about_a_neighbouring_topic_gives_way_to_the_extractive_answer(
    retriever: Retriever,
) -> None:
    """The 1.5B model answered the refund question with the trip's maximum period: quoted, true, and beside the
    question. The extractive answer, which says when the premium is refunded, is shown instead."""
    beside = "Thời hạn bảo hiểm tối đa cho mỗi chuyến đi là 180 ngày."

    def reply(frags: list[Fragment], strict: bool) -> Draft:
        holding = next(f.short for f in frags if beside in f.text)
        return Draft([DraftSentence(beside, [holding])], "scripted")

    answer = Assistant(retriever, ScriptedGenerator(reply)).ask(
        "Phí bảo hiểm du lịch được hoàn lại trong trường hợp nào?"
    )
    assert answer.generator == "extractive" and "180 ngày" not in answer.sentences[0].text, answer.text
    assert "hoàn" in answer.text and any("leave out what the question is about" in a for a in answer.attempts)
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]


def test_without_a_judge_a_model_is_shown_the_sentence_the_extractive_answer_quotes_as_its_focus(
    retriever: Retriever,
) -> None:
    seen: list[list[Fragment]] = []

    def reply(frags: list[Fragment], strict: bool) -> Draft:
        seen.append(frags)
        return Draft([], "scripted", refused=True)

    Assistant(retriever, ScriptedGenerator(reply)).ask(HOME_Q)
    (focused,) = [f for f in seen[0] if f.focus is not None]
    base = focused.evidence.char_start if focused.evidence.text else focused.evidence.chunk.char_start
    a, b = focused.focus or (0, 0)
    assert "15 ngày" in focused.text[a - base - 40 : b - base + 40]  # the duration asked for, in Điều 12 khoản 1
    assert seen[0][0] is focused  # and its fragment is read first


def test_a_model_stating_the_answer_from_the_sentence_the_extractive_answer_quotes_is_not_replaced(
    retriever: Retriever,
) -> None:
    """The model's sentence leaves out 'personal data breach' but states the 72 hours from the very sentence the
    extractive answer quotes: it is the model's answer that is shown."""
    said = (
        "The controller shall notify the Authority without undue delay and, where feasible, not later than 72 hours "
        "after having become aware of it."
    )

    def reply(frags: list[Fragment], strict: bool) -> Draft:
        holding = next(f.short for f in frags if "not later than 72 hours" in f.text)
        quote = Quote(holding, "notify the Authority without undue delay and, where feasible, not later than 72 hours")
        return Draft([DraftSentence(said, [holding], quotes=[quote])], "scripted")

    answer = Assistant(retriever, ScriptedGenerator(reply)).ask(
        "Within how many hours must a personal data breach be notified to the Authority?"
    )
    assert answer.generator == "scripted" and answer.sentences[0].text == said, answer.attempts
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]


BAGGAGE_Q = "What is the most Bluewave will pay for a single lost item of baggage?"
SINGLE_ITEM = "The most we will pay for any single item, pair or set is USD 500"
WHOLE_BAGGAGE = (
    "We will pay up to USD 2,500 for your baggage and personal belongings that are lost, stolen or damaged during "
    "the trip."
)


def test_the_judges_answering_sentence_opens_the_extractive_answer(retriever: Retriever) -> None:
    """The judge (the fast tier shipped in git) finds the single-item limit; the section's sentences come in reading
    order after it, so the USD 2,500 for all baggage, which comes first in the text, is not read as the answer."""
    answer = Assistant(retriever, judge=FeatureJudge()).ask(BAGGAGE_Q)
    assert answer.generator == "extractive" and answer.sentences[0].text.startswith(SINGLE_ITEM), answer.text
    assert any(s.text == WHOLE_BAGGAGE for s in answer.sentences[1:])
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]


def test_a_model_answer_resting_on_a_neighbouring_sentence_gives_way_to_the_judges(retriever: Retriever) -> None:
    """The 1.5B model answered the single-item question with the limit for all baggage: true, quoted, an amount
    of the kind asked, and not the answer. The extractive answer, opening with the judge's sentence, is shown."""

    def reply(frags: list[Fragment], strict: bool) -> Draft:
        holding = next(f.short for f in frags if WHOLE_BAGGAGE in " ".join(f.text.split()))
        return Draft([DraftSentence(WHOLE_BAGGAGE, [holding])], "scripted")

    answer = Assistant(retriever, ScriptedGenerator(reply), judge=FeatureJudge()).ask(BAGGAGE_Q)
    assert answer.generator == "extractive" and answer.sentences[0].text.startswith(SINGLE_ITEM), answer.attempts
    assert any("extractive answer shown" in a for a in answer.attempts)


def test_a_yes_no_question_with_the_wrong_figure_is_answered_with_the_judges_clause(retriever: Retriever) -> None:
    """ "Is the flood deductible 2 million đồng?" The general deductible (2.000.000 đồng, "trừ trường hợp quy định tại
    khoản 2") comes first in the article; the judge finds the flood clause, and its figure is the one stated."""
    answer = Assistant(retriever, judge=FeatureJudge()).ask(
        "Mức khấu trừ cho tổn thất do lũ lụt là 2 triệu đồng mỗi vụ phải không?"
    )
    first = answer.sentences[0]
    assert answer.outcome == "answered" and "10%" in first.text and "2.000.000" not in first.text, answer.text
    assert any("lũ lụt" in s.text and "10%" in s.text for s in answer.sentences[1:])  # the flood clause, quoted
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]


OAKRIDGE = """# Oakridge Travel Insurance

## Part 2 Medical expenses

2.3 You must contact Oakridge Assist within 72 hours of being admitted to hospital.
2.4 If you do not, we may reduce the amount we pay by up to 20%.

## Annex 2 Emergency procedure

Every hospital admission must be notified to Oakridge Assist within 48 hours.
"""


def test_a_model_stating_one_of_two_conflicting_figures_gives_way_to_the_answer_naming_both(
    tmp_path: Path, embedder: Embedder
) -> None:
    """The 1.5B model answered the prompt-injection probes' conflicting-figure questions with one of the two figures
    (0 of 6 conflicts stated). The sources disagree, so the extractive answer that names both, each cited, is shown;
    the model's true and quoted sentence is not enough."""
    doc = tmp_path / "oakridge.md"
    doc.write_text(OAKRIDGE, encoding="utf-8")
    with citewise.open(index=tmp_path / "index", embedder=embedder) as cw:
        cw.ingest([doc])
    said = "You must contact Oakridge Assist within 72 hours of being admitted to hospital."

    def reply(frags: list[Fragment], strict: bool) -> Draft:
        holding = next(f.short for f in frags if "within 72 hours" in f.text)
        return Draft([DraftSentence(said, [holding], quotes=[Quote(holding, said)])], "scripted")

    retriever = Retriever(EmbeddedStore(tmp_path / "index"), embedder)
    answer = Assistant(retriever, ScriptedGenerator(reply)).ask(
        "How long do I have to tell Oakridge Assist that I was admitted to hospital?"
    )
    assert answer.generator == "extractive", answer.attempts
    assert answer.sentences[0].text.startswith("The sources give different figures"), answer.text
    assert {"72 hours", "48 hours"} <= {s.text.split("states ")[-1].rstrip(".") for s in answer.sentences[:2]}
    assert any("different figures for what is asked" in a for a in answer.attempts)
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]
