"""Streaming: sentence objects are handed on as soon as they are complete, whatever the chunking, and a
time budget stops a local model with the sentences complete by then."""

from __future__ import annotations

import json

import pytest

from citewise.answer.stream import AnswerItems

REPLY = json.dumps(
    {
        "answer": [
            {
                "quotes": [{"fragment": "F1", "text": 'the "insured" must {notify} [F2] within 14 days'}],
                "sentence": "A.",
            },
            {"quotes": [{"fragment": "F2", "text": "back\\slash } ] and ünïcode"}], "sentence": "Thời hạn là 14 ngày."},
        ],
        "refused": False,
    },
    ensure_ascii=False,
)


@pytest.mark.parametrize("size", [1, 2, 7, 64, len(REPLY)])
def test_items_are_complete_as_soon_as_their_brace_closes_whatever_the_chunking(size: int) -> None:
    items = AnswerItems()
    seen: list[tuple[int, dict[str, object]]] = []
    for at in range(0, len(REPLY), size):
        for item in items.feed(REPLY[at : at + size]):
            seen.append((at + size, item))
    assert [i for _, i in seen] == json.loads(REPLY)["answer"]
    first_end = REPLY.index('"sentence": "A."}') + len('"sentence": "A."}')
    assert seen[0][0] - size < first_end <= seen[0][0]  # handed on in the chunk that closed it
    assert items.closed and items.done == json.loads(REPLY)["answer"]


def test_a_reply_cut_short_keeps_its_complete_items_only() -> None:
    items = AnswerItems()
    cut = REPLY[: REPLY.index("Thời hạn")]
    assert len(items.feed(cut)) == 1 and not items.closed
    assert AnswerItems().feed('{"answer": [{"quotes": [') == []
    assert AnswerItems().feed("no json at all") == []
