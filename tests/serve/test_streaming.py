"""``POST /ask`` with ``"stream": true`` against a real server process: checked sentences as NDJSON lines
as soon as they are written, then the answer to show; an error as the last line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.serve.processes import running_server

TOKEN = "tok-stream"
QUESTION = "Within how many hours must a personal data breach be notified to the Authority?"


@pytest.fixture(scope="module")
def server(module_index: Path) -> Iterator[str]:
    env = {
        "CITEWISE_API_TOKEN": TOKEN,
        "CITEWISE_SERVE__GENERATORS": '["local"]',
        "CITEWISE_ANSWER__LLM__MODEL": "smollm2-135m",
        "CITEWISE_ANSWER__LLM__N_CTX": "2048",
        "CITEWISE_ANSWER__LLM__MAX_TOKENS": "320",
    }
    with running_server(module_index, env) as base:
        yield base


def stream(base: str, **body: Any) -> tuple[httpx.Response, list[dict[str, Any]]]:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    with httpx.stream("POST", f"{base}/ask", json={"stream": True, **body}, headers=headers, timeout=300) as r:
        if r.status_code != 200:
            r.read()
            return r, []
        lines = [json.loads(line) for line in r.iter_lines() if line.strip()]
    return r, lines


def test_checked_sentences_come_first_then_the_answer(server: str) -> None:
    r, events = stream(server, question=QUESTION)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    *sentences, final = events
    assert final["event"] == "answer" and final["outcome"] == "answered" and final["audit_id"]
    assert sentences and all(e["event"] == "sentence" for e in sentences)
    assert all(e["verdict"]["status"] == "supported" and e["citations"] for e in sentences)
    assert [e["text"] for e in sentences] == [s["text"] for s in final["sentences"]]  # extractive: the same
    assert "72 hours" in sentences[0]["text"]  # the direct answer first


def test_a_local_model_streams_only_checked_sentences_and_ends_with_the_answer(server: str) -> None:
    r, events = stream(server, question=QUESTION, generator="local")
    assert r.status_code == 200
    assert events[-1]["event"] == "answer" and events[-1]["attempts"][0].startswith("local")
    for e in events[:-1]:
        assert e["event"] == "sentence" and e["verdict"]["status"] == "supported"
        assert all(c["quote"] for c in e["citations"])


def test_a_refused_generator_is_an_error_before_any_stream(server: str) -> None:
    r, events = stream(server, question=QUESTION, generator="openai")
    assert r.status_code == 403 and events == []
    assert r.json()["error"]["code"] == "generator_not_allowed"
