"""The real llama.cpp path with a small real model (SmolLM2-135M from PyPI), in-process and behind
llama-cpp-python's OpenAI-compatible server; retries and timeouts of the HTTP client."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import llama_cpp
import pytest
from llama_cpp.llama_grammar import LlamaGrammar

from citewise.answer.base import GENERATORS, GeneratorError
from citewise.answer.llama_local import LlamaCppGenerator
from citewise.answer.llama_scaffold import _Checker
from citewise.answer.models import model_path
from citewise.answer.openai_compat import OpenAICompatGenerator
from citewise.answer.prompt import build, schema
from citewise.answer.records import DraftSentence, Fragment
from citewise.answer.stream import AnswerItems
from citewise.assistant import Assistant
from citewise.index.embedded import EmbeddedStore
from citewise.index.embedder import Embedder
from citewise.retrieve.hybrid import Retriever
from citewise.settings import LlmSettings, OpenAISettings
from tests.answer.test_assistant import HOME_Q, assert_all_validated

QUESTION = "Within how many hours must a personal data breach be notified to the Authority?"


@pytest.fixture(scope="module")
def smollm() -> Path:
    return model_path("smollm2-135m")


@pytest.fixture(scope="module")
def retriever(module_index: Path, embedder: Embedder) -> Retriever:
    return Retriever(EmbeddedStore(module_index), embedder)


@pytest.fixture(scope="module")
def local(smollm: Path) -> LlamaCppGenerator:
    # not the default 25 s budget: on a loaded machine a whole draft can take longer, and these tests are about the
    # draft; stopping at the budget has its own test
    return LlamaCppGenerator(LlmSettings(n_ctx=2048, max_tokens=320, budget_s=900), gguf=smollm)


def test_local_llama_cpp_writes_a_schema_shaped_draft(local: LlamaCppGenerator, retriever: Retriever) -> None:
    evidence = retriever.search(QUESTION, k=3).evidence
    draft = local.generate(QUESTION, [Fragment(f"F{i + 1}", e) for i, e in enumerate(evidence)], "en")
    assert draft.raw.lstrip().startswith("{"), draft.raw[:200]
    assert draft.prompt_tokens > 100 and draft.completion_tokens > 0
    assert draft.generator == "local"


def test_the_grammar_tested_on_the_likeliest_tokens_first_writes_the_same_reply(
    smollm: Path, retriever: Retriever
) -> None:
    fragments = [Fragment(f"F{i + 1}", e) for i, e in enumerate(retriever.search(QUESTION, k=3).evidence)]
    whole = LlamaCppGenerator(LlmSettings(n_ctx=2048, max_tokens=14, grammar_top_k=0, budget_s=900), gguf=smollm)
    lazy = LlamaCppGenerator(LlmSettings(n_ctx=2048, max_tokens=14, budget_s=900), gguf=smollm)
    assert not hasattr(whole.llm, "lazy_grammar")
    assert lazy.generate(QUESTION, fragments, "en").raw == whole.generate(QUESTION, fragments, "en").raw
    sampler = lazy.llm.lazy_grammar
    assert sampler.steps >= 14 and sampler.full_checks < sampler.steps  # the top 40 held a valid token
    # a whole reply under the lazy sampler is the schema's JSON up to the closed answer array (where decoding
    # stops: nothing after it is used), with only the ids shown and sentences written; so is one written token by
    # token by llama-cpp-python's chat completion (scaffold off)
    shown = set(build(QUESTION, fragments, "en", False, 2, 500, focused=True).cited)
    for scaffold in (True, False):
        patient = LlamaCppGenerator(
            LlmSettings(n_ctx=2048, max_tokens=320, budget_s=900, scaffold=scaffold), gguf=smollm
        )
        draft = patient.generate(QUESTION, fragments, "en")
        items = AnswerItems()
        items.feed(draft.raw)
        assert items.closed and items.done, draft.raw[-300:]
        for item in items.done:
            assert set(item["cites"]) <= shown and item["sentence"].strip()


def test_the_fixed_json_is_read_in_batches_after_the_cached_system_prompt(smollm: Path, retriever: Retriever) -> None:
    fragments = [Fragment(f"F{i + 1}", e) for i, e in enumerate(retriever.search(QUESTION, k=3).evidence)]
    gen = LlamaCppGenerator(LlmSettings(n_ctx=2048, max_tokens=320, budget_s=900, temperature=0.0), gguf=smollm)
    decoder = gen.decoder
    assert decoder is not None  # the GGUF has a chat template
    gen.warm()
    draft = gen.generate(QUESTION, fragments, "en")
    assert decoder.cached >= gen._system - 16  # the system prompt was not read again
    assert decoder.read_in >= 10 and draft.completion_tokens == decoder.sampled > 0  # keys, brackets, quotes read
    assert draft.sentences and all(s.quotes for s in draft.sentences), draft.raw[-400:]


def test_a_fixed_token_the_grammar_refuses_is_never_forced(smollm: Path) -> None:
    """llama.cpp aborts the process when a grammar accepts a token it does not allow: the checker stops first."""
    llm = LlamaCppGenerator(LlmSettings(n_ctx=512), gguf=smollm).llm
    grammar = LlamaGrammar.from_json_schema(json.dumps(schema(2, ["S1", "S2"])), verbose=False)
    checker = _Checker(llama_cpp, llm._model.vocab, grammar)
    try:
        ok = llm.tokenize(b'{"answer": [{"cites": ["S', add_bos=False)
        assert checker.allowed(list(ok)) == list(ok)
        bad = llm.tokenize(b'3"], "sentence": "', add_bos=False)  # S3 was never shown
        assert checker.allowed(list(bad)) == []
        good = llm.tokenize(b'2"], "sentence": "', add_bos=False)
        assert checker.allowed(list(good)) == list(good)
    finally:
        checker.close()


@pytest.mark.parametrize("question", [QUESTION, HOME_Q])
def test_assistant_with_the_local_model_never_shows_an_unvalidated_sentence(
    local: LlamaCppGenerator, retriever: Retriever, question: str
) -> None:
    answer = Assistant(retriever, local).ask(question)
    assert not answer.refused
    assert answer.attempts[0].startswith("local:")
    assert answer.tokens["prompt"] > 0
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]


def test_local_model_streams_exactly_the_sentences_of_its_draft(local: LlamaCppGenerator, retriever: Retriever) -> None:
    evidence = retriever.search(QUESTION, k=3).evidence
    streamed: list[DraftSentence] = []
    local.warm()
    draft = local.generate(
        QUESTION, [Fragment(f"F{i + 1}", e) for i, e in enumerate(evidence)], "en", on_sentence=streamed.append
    )
    assert not draft.stopped
    assert [(s.text, s.quotes) for s in streamed] == [(s.text, s.quotes) for s in draft.sentences]
    assert streamed and all(s.quotes for s in streamed), draft.raw[-600:]  # the schema makes every sentence quote


def test_a_local_model_over_its_time_budget_stops_and_the_answer_falls_back(smollm: Path, retriever: Retriever) -> None:
    hurried = LlamaCppGenerator(LlmSettings(n_ctx=2048, max_tokens=160, budget_s=0.01), gguf=smollm)
    answer = Assistant(retriever, hurried).ask(QUESTION)
    assert answer.attempts[0] == "local: stopped at the 0.01 s budget"
    assert not any(a.startswith("retry") for a in answer.attempts)  # no second try once over budget
    assert answer.generator == "extractive" and not answer.refused
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]


def test_unknown_generator_and_missing_gguf_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(KeyError, match="unknown generator 'gpt9'"):
        GENERATORS.create("gpt9")
    with pytest.raises(GeneratorError, match="GGUF not found"):
        LlamaCppGenerator(gguf=tmp_path / "missing.gguf")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(smollm: Path) -> Iterator[str]:
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(smollm),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "4096",  # the prompt (system prompt with its two examples, fragments, question) is over 2,048 tokens
            "--n_threads",
            "2",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(240):
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{base}/models", timeout=1).status_code == 200:
                    break
            if proc.poll() is not None:
                raise RuntimeError("llama_cpp.server exited")
            time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_openai_compatible_endpoint_against_a_real_server(server: str, retriever: Retriever) -> None:
    gen = OpenAICompatGenerator(OpenAISettings(base_url=server, model="smollm", max_tokens=512, timeout=120))
    answer = Assistant(retriever, gen).ask(QUESTION)
    assert not answer.refused and answer.attempts[0].startswith("openai:")
    assert answer.tokens["prompt"] > 100, (answer.attempts, answer.tokens, answer.timings)
    assert_all_validated(answer, retriever.store)  # type: ignore[arg-type]
    # the same structured output, streamed as server-sent events
    evidence = retriever.search(QUESTION, k=3).evidence
    streamed: list[DraftSentence] = []
    draft = gen.generate(
        QUESTION, [Fragment(f"F{i + 1}", e) for i, e in enumerate(evidence)], "en", on_sentence=streamed.append
    )
    assert draft.raw.lstrip().startswith("{") and draft.completion_tokens > 0
    assert [(s.text, s.quotes) for s in streamed] == [(s.text, s.quotes) for s in draft.sentences]
    assert streamed and all(s.quotes for s in streamed), draft.raw[-600:]


def test_http_client_retries_then_reports_a_clear_error() -> None:
    sleeps: list[float] = []
    closed = OpenAICompatGenerator(
        OpenAISettings(base_url=f"http://127.0.0.1:{_free_port()}/v1", retries=2, timeout=2), sleep=sleeps.append
    )
    with pytest.raises(GeneratorError, match="ConnectError"):
        closed.generate("q", [], "en")
    assert sleeps == [0.5, 1.0]
    replies = iter(
        [
            httpx.Response(503, text="busy"),
            httpx.Response(
                200,
                json={
                    "choices": [{"message": {"content": '{"answer": [], "refused": true}'}}],
                    "usage": {"prompt_tokens": 5},
                },
            ),
        ]
    )
    flaky = OpenAICompatGenerator(
        OpenAISettings(retries=2), transport=httpx.MockTransport(lambda r: next(replies)), sleep=sleeps.append
    )
    draft = flaky.generate("q", [], "en")
    assert draft.refused and draft.prompt_tokens == 5 and sleeps[-1] == 0.5


class _Recorder(httpx.HTTPTransport):
    """A real HTTP transport that notes each request: (streamed?, status, body bytes)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[bool, int, int]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        self.seen.append((b'"stream"' in request.content, response.status_code, len(request.content)))
        return response


def test_a_prompt_over_the_servers_context_is_sent_again_shorter(server: str, retriever: Retriever) -> None:
    # the settings claim a context far larger than the server's 4,096 tokens: six Vietnamese fragments are about
    # 9,000 SmolLM tokens. Streamed, llama-cpp-python's server answers 200 with no event; asked whole, it says
    # the prompt is too long; the prompt is cut to half and the answer streams.
    question = "Người được bảo hiểm phải làm gì khi xảy ra tổn thất?"
    fragments = [Fragment(f"F{i + 1}", e) for i, e in enumerate(retriever.search(question, k=6).evidence)]
    recorder = _Recorder()
    gen = OpenAICompatGenerator(
        OpenAISettings(base_url=server, model="smollm", max_tokens=48, timeout=120, context_tokens=100_000),
        transport=recorder,
    )
    streamed: list[DraftSentence] = []
    draft = gen.generate(question, fragments, "vi", on_sentence=streamed.append)
    assert [(s, status) for s, status, _ in recorder.seen] == [(True, 200), (False, 400), (True, 200)], recorder.seen
    assert recorder.seen[2][2] < recorder.seen[1][2] * 0.7
    assert draft.completion_tokens > 0 and draft.raw.lstrip().startswith("{")


def test_the_prompt_is_cut_to_the_context_tokens_given(retriever: Retriever) -> None:
    sent: list[dict[str, object]] = []

    def reply(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(200, json={"choices": [{"message": {"content": '{"answer": [], "refused": true}'}}]})

    question = "Người được bảo hiểm phải làm gì khi xảy ra tổn thất?"
    fragments = [Fragment(f"F{i + 1}", e) for i, e in enumerate(retriever.search(question, k=6).evidence)]
    for context in (1500, 2400, 100_000):
        settings = OpenAISettings(max_tokens=256, context_tokens=context)
        gen = OpenAICompatGenerator(settings, transport=httpx.MockTransport(reply))
        gen.generate(question, fragments, "vi")
        messages = sent[-1]["messages"]
        assert isinstance(messages, list)
        used = sum(gen.tokens(m["content"]) for m in messages)
        assert used <= context - 256, (context, used)
        assert question in messages[1]["content"] and 'id="F1"' in messages[1]["content"]
    sizes = [len(str(s["messages"])) for s in sent]
    assert sizes[0] < sizes[1] < sizes[2]
    too_small = OpenAICompatGenerator(OpenAISettings(max_tokens=256, context_tokens=1000))
    with pytest.raises(GeneratorError, match="tokens"):
        too_small.generate(question, fragments, "vi")
