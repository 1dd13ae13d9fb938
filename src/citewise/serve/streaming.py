"""``POST /ask`` with ``"stream": true``: the answer as NDJSON, one JSON object per line —
``{"event": "sentence", ...}`` for each sentence of a model's draft as soon as it is written and has
passed every check, then ``{"event": "answer", ...}``, the answer to show (it may differ from the
sentences streamed before it: a retry or the extractive fallback can replace them), or
``{"event": "error", "status": ..., "code": ..., "message": ...}``."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import asdict
from typing import Any

from citewise.assistant.records import AnswerSentence
from citewise.serve.worker import Services, Worker

log = logging.getLogger("citewise.serve")

Describe = Callable[[BaseException], tuple[int, str, str]]
"""An exception as (HTTP status, error code, message)."""


def sentence_event(sentence: AnswerSentence) -> dict[str, Any]:
    return {"event": "sentence", **asdict(sentence)}


async def answer_events(
    worker: Worker,
    answer: Callable[[Services, Callable[[AnswerSentence], None]], dict[str, Any]],
    describe: Describe,
) -> AsyncIterator[str]:
    """Run ``answer(services, sink)`` in the worker and yield NDJSON lines: what ``sink`` receives as it
    comes, then the answer. ``Busy`` is raised before the first line (a 503 with Retry-After, not a stream)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def sink(sentence: AnswerSentence) -> None:  # called in the worker thread
        loop.call_soon_threadsafe(queue.put_nowait, sentence_event(sentence))

    task = asyncio.ensure_future(worker.run(lambda s: answer(s, sink)))
    await asyncio.sleep(0)  # let run() refuse at once when the queue is full
    if task.done() and task.exception() is not None:
        raise task.exception()  # type: ignore[misc]
    return _lines(queue, task, describe)


async def _lines(
    queue: asyncio.Queue[dict[str, Any]], task: asyncio.Future[dict[str, Any]], describe: Describe
) -> AsyncIterator[str]:
    while not task.done():
        getter = asyncio.ensure_future(queue.get())
        done, _ = await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
        if getter in done:
            yield _line(getter.result())
        else:
            getter.cancel()
    while not queue.empty():
        yield _line(queue.get_nowait())
    try:
        final = task.result()
    except Exception as e:  # every failure becomes the stream's last line
        status, code, message = describe(e)
        if status >= 500 and code == "internal_error":
            log.exception("internal error on a streamed answer")
        yield _line({"event": "error", "status": status, "code": code, "message": message})
        return
    yield _line({"event": "answer", **final})


def _line(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False) + "\n"
