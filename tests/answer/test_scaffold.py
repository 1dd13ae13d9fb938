"""The reply's fixed JSON, written by citewise (answer/scaffold.py): what is fixed at each point of a reply."""

from __future__ import annotations

import pytest

from citewise.answer.scaffold import ReplyScaffold

IDS = ["S1", "S2", "S3"]


def written(scaffold: ReplyScaffold, *model: str) -> str:
    """A reply as the decoder builds it: the fixed text, then each piece the model writes followed by the fixed
    text after it."""
    text = scaffold.forced("")
    for piece in model:
        text += piece
        text += scaffold.forced(text)
    return text


def test_only_the_models_choices_are_left_to_it() -> None:
    s = ReplyScaffold(IDS, max_items=2, max_cites=2)
    assert s.forced("") == '{"answer":'
    assert s.forced('{"answer": [{"') == 'cites": ["S'  # Qwen2.5 writes ' [{"' as one token
    assert s.forced('{"answer": [{"cites": ["S') == ""  # which sentence: the model's choice
    assert s.forced('{"answer": [{"cites": ["S2') == '"'  # no id S2x: the string ends
    assert s.forced('{"answer": [{"cites": ["S2"],') == ' "sentence": "'
    assert s.forced('{"answer": [{"cites": ["S2"]') == ', "sentence": "'
    assert s.forced('{"answer": [{"cites": ["S2", "S1"') == '], "sentence": "'  # at most 2 cites
    assert s.forced('{"answer": [{"cites": ["S2"], "sentence": "It is 14 days.') == ""
    assert s.forced('{"answer": [{"cites": ["S2"], "sentence": "It is 14 days."') == "}"
    assert s.forced('{"answer": [{"cites": ["S2"], "sentence": "It is 14 days."},') == ' {"cites": ["S'


def test_a_whole_reply_needs_the_model_only_for_ids_sentences_and_whether_to_go_on() -> None:
    s = ReplyScaffold(IDS, max_items=2, max_cites=2)
    reply = written(s, ' [{"', "2", "],", "Notice is due within 14 days.", '"},', "1", "]", "Send the form.", '"')
    assert reply == (
        '{"answer": [{"cites": ["S2"], "sentence": "Notice is due within 14 days."}, '
        '{"cites": ["S1"], "sentence": "Send the form."}]'
    )
    assert s.closed(reply) and s.forced(reply) == ""


def test_an_empty_answer_closes_the_reply() -> None:
    s = ReplyScaffold(IDS, max_items=2, max_cites=2)
    assert s.closed(written(s, " []"))


def test_the_last_allowed_sentence_closes_the_array() -> None:
    s = ReplyScaffold(IDS, max_items=1, max_cites=2)
    reply = written(s, ' [{"', "3", "]", "Yes.", '"')
    assert reply.endswith('"Yes."}]') and s.closed(reply)


@pytest.mark.parametrize(
    "sentence",
    ['He said \\"stop\\" [a] {b}, then left.', "Trong thời hạn 14 ngày, Người được bảo hiểm phải gửi thông báo."],
)
def test_brackets_quotes_and_commas_inside_a_sentence_are_text(sentence: str) -> None:
    s = ReplyScaffold(IDS, max_items=2, max_cites=2)
    text = '{"answer": [{"cites": ["S1"], "sentence": "' + sentence
    assert s.forced(text) == "" and not s.closed(text)
    assert s.forced(text + '"') == "}"


def test_the_models_own_spacing_is_followed_and_never_doubled() -> None:
    s = ReplyScaffold(IDS, max_items=2, max_cites=2)
    assert s.forced('{"answer": [ {"cites" :') == ' ["S'
    assert s.forced('{"answer": [{"cites": ["S2"], ') == '"sentence": "'  # the grammar allows one space
    assert s.forced('{"answer": [{"cites": ["S2"],"') == 'sentence": "'
    assert s.forced('{"answer": [{"cites": ["S2"],\n  "sent') == 'ence": "'


def test_text_the_schema_does_not_expect_forces_nothing() -> None:
    s = ReplyScaffold(IDS, max_items=2, max_cites=2)
    assert s.forced('{"answer": [{"quotes') == ""
    assert s.forced('{"refused') == ""


def test_ids_with_a_common_prefix_and_no_ids_at_all() -> None:
    many = ReplyScaffold([f"S{i}" for i in range(1, 13)], max_items=2, max_cites=2)
    assert many.forced('{"answer": [{"cites": ["S1') == ""  # S1, S10, S11, S12
    assert many.forced('{"answer": [{"cites": ["S12') == '"'
    free = ReplyScaffold([], max_items=2, max_cites=2)
    assert free.forced('{"answer": [{"') == 'cites": ["'
    assert free.forced('{"answer": [{"cites": ["F') == ""


class _Model:
    def token_eos(self) -> int:
        return 2

    def token_bos(self) -> int:
        return 1

    def token_get_text(self, token: int) -> str:
        return {1: "<s>", 2: "</s>"}[token]


class _Llm:
    def __init__(self, template: str | None) -> None:
        self.metadata = {"tokenizer.chat_template": template} if template else {}
        self._model = _Model()


@pytest.mark.parametrize(
    ("template", "usable"),
    [
        ("{% for m in messages %}<|{{ m.role }}|>{{ m.content }}\n{% endfor %}<|assistant|>", True),
        ("{% for m in messages %}{{ m.content }", False),  # does not compile
        ("{{ raise_exception('no system role') }}", False),  # compiles, cannot render
        (None, False),  # no template in the GGUF
    ],
)
def test_a_gguf_whose_chat_template_cannot_be_used_falls_back_to_the_chat_completion(
    template: str | None, usable: bool
) -> None:
    pytest.importorskip("llama_cpp")
    from citewise.answer.llama_scaffold import ScaffoldedDecoder

    assert (ScaffoldedDecoder.for_model(_Llm(template)) is not None) is usable
