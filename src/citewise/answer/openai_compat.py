"""Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp server, LM Studio), with
timeouts and retries with back-off on connection errors, 429 and 5xx."""

from __future__ import annotations

import contextlib
import json
import math
import time
from collections.abc import Iterator
from typing import Any

import httpx

from citewise.answer.base import Generator, SentenceSink
from citewise.answer.prompt import SYSTEM, Prompt, fit, item_sentence, parse_items, parse_reply
from citewise.answer.records import Draft, Fragment
from citewise.answer.stream import AnswerItems
from citewise.errors import GeneratorError
from citewise.settings import OpenAISettings

SHRINKS = 2
"""Times a prompt the server reports too long is sent again at half the size."""
_TOO_LONG = ("context", "too long", "too many tokens", "maximum", "exceed")


class PromptTooLong(GeneratorError):
    """The server refused the prompt as longer than its context window (HTTP 400)."""


class EmptyStream(GeneratorError):
    """A streamed reply with status 200 and no event (llama-cpp-python's server, on a prompt over its context)."""


class OpenAICompatGenerator(Generator):
    name = "openai"

    def __init__(
        self,
        settings: OpenAISettings | None = None,
        max_sentences: int = 3,
        transport: httpx.BaseTransport | None = None,
        sleep: Any = time.sleep,
    ) -> None:
        self.settings = settings or OpenAISettings()
        self.max_sentences = max_sentences
        self.sleep = sleep
        self._system = self.tokens(SYSTEM)
        self.client = httpx.Client(
            base_url=self.settings.base_url.rstrip("/"),
            timeout=httpx.Timeout(self.settings.timeout, connect=min(10.0, self.settings.timeout)),
            headers={"Authorization": f"Bearer {self.settings.api_key}"},
            transport=transport,
        )

    def _post(self, payload: dict[str, Any]) -> dict[str, Any]:
        last = ""
        for attempt in range(self.settings.retries + 1):
            try:
                r = self.client.post("/chat/completions", json=payload)
            except httpx.TransportError as e:
                last = f"{type(e).__name__}: {e}"
            else:
                if r.status_code == 200:
                    data: dict[str, Any] = r.json()
                    return data
                last = f"HTTP {r.status_code}: {r.text[:200]}"
                _too_long(r.status_code, r.text, self.settings.base_url)
                if r.status_code not in (408, 409, 429) and r.status_code < 500:
                    break
            if attempt < self.settings.retries:
                self.sleep(min(8.0, 0.5 * 2**attempt))
        raise GeneratorError(f"{self.settings.base_url}: {last}")

    def generate(
        self,
        question: str,
        fragments: list[Fragment],
        lang: str,
        strict: bool = False,
        on_sentence: SentenceSink | None = None,
    ) -> Draft:
        """With ``on_sentence``, the reply is streamed (server-sent events) and each sentence handed on as
        soon as it is complete; otherwise it is read whole. The prompt is cut to the server's context window
        (``context_tokens``), and to half that again when the server still finds it too long."""
        room = self.settings.context_tokens - self.settings.max_tokens - self._system - 64
        for shrink in range(SHRINKS + 1):
            prompt, used = fit(
                question, fragments, lang, strict, self.max_sentences, self.tokens, room, room, focused=True
            )
            try:
                return self._ask(prompt, fragments, lang, strict, on_sentence)
            except PromptTooLong:
                if shrink == SHRINKS:
                    raise
                room = used // 2
        raise AssertionError("unreachable")

    def tokens(self, text: str) -> int:
        """The tokens ``text`` takes, estimated from its UTF-8 bytes (no tokenizer is at hand)."""
        return math.ceil(len(text.encode("utf-8")) / self.settings.bytes_per_token)

    def _ask(
        self, prompt: Prompt, fragments: list[Fragment], lang: str, strict: bool, on_sentence: SentenceSink | None
    ) -> Draft:
        payload: dict[str, Any] = {
            "model": self.settings.model,
            "messages": prompt.messages,
            "temperature": 0.0 if strict else self.settings.temperature,
            "max_tokens": self.settings.max_tokens,
            "response_format": {"type": "json_object", "schema": prompt.schema(self.max_sentences)},
        }
        if on_sentence is not None:
            with contextlib.suppress(EmptyStream):  # asked again whole, the server says what went wrong
                return self._stream(payload, fragments, lang, prompt, on_sentence)
        data = self._post(payload)
        try:
            content = data["choices"][0]["message"].get("content") or ""
        except (KeyError, IndexError, TypeError) as e:
            raise GeneratorError(f"unexpected reply shape: {str(data)[:200]}") from e
        draft = parse_reply(content, self.name, fragments, lang, prompt.cited)
        _count(draft, data.get("usage"))
        if on_sentence is not None:
            for sentence in draft.sentences:
                on_sentence(sentence)
        return draft

    def _stream(
        self,
        payload: dict[str, Any],
        fragments: list[Fragment],
        lang: str,
        prompt: Prompt,
        on_sentence: SentenceSink,
    ) -> Draft:
        items = AnswerItems()
        usage: Any = None
        pieces = events = 0
        with self._open({**payload, "stream": True}) as r:
            for line in r.iter_lines():
                if not line.startswith("data:"):
                    continue
                events += 1
                body = line[5:].strip()
                if body == "[DONE]":
                    break
                try:
                    event = json.loads(body)
                    piece = (event.get("choices") or [{}])[0].get("delta", {}).get("content") or ""
                except (json.JSONDecodeError, AttributeError, IndexError, TypeError) as e:
                    raise GeneratorError(f"unexpected stream event: {body[:200]}") from e
                usage = event.get("usage") or usage
                if piece:
                    pieces += 1
                    for item in items.feed(piece):
                        sentence = item_sentence(item, lang, prompt.cited)
                        if sentence is not None:
                            on_sentence(sentence)
                    if items.closed:  # the rest ("refused") is implied: closing the stream stops the server
                        break
        if not events:
            raise EmptyStream(f"{self.settings.base_url}: the streamed reply was empty")
        if items.closed:
            draft = parse_items(items, self.name, fragments, lang, prompt.cited)
        else:
            draft = parse_reply(items.text, self.name, fragments, lang, prompt.cited)
        _count(draft, usage or {"completion_tokens": pieces})
        return draft

    @contextlib.contextmanager
    def _open(self, payload: dict[str, Any]) -> Iterator[httpx.Response]:
        """A streamed response with status 200, retried like ``_post`` until its first byte."""
        last = ""
        for attempt in range(self.settings.retries + 1):
            started = False
            try:
                with self.client.stream("POST", "/chat/completions", json=payload) as r:
                    if r.status_code == 200:
                        started = True
                        yield r
                        return
                    body = r.read()[:400].decode("utf-8", "replace")
                    last = f"HTTP {r.status_code}: {body[:200]}"
                    _too_long(r.status_code, body, self.settings.base_url)
                    if r.status_code not in (408, 409, 429) and r.status_code < 500:
                        break
            except httpx.TransportError as e:
                if started:  # broken off mid-reply: not retried (sentences may already have been shown)
                    raise GeneratorError(f"{self.settings.base_url}: the reply broke off: {e}") from e
                last = f"{type(e).__name__}: {e}"
            if attempt < self.settings.retries:
                self.sleep(min(8.0, 0.5 * 2**attempt))
        raise GeneratorError(f"{self.settings.base_url}: {last}")


def _too_long(status: int, body: str, url: str) -> None:
    """Raise ``PromptTooLong`` for a 400 reply that says the prompt does not fit the context window."""
    if status == 400 and any(w in body.lower() for w in _TOO_LONG):
        raise PromptTooLong(f"{url}: HTTP 400: {body[:200]}")


def _count(draft: Draft, usage: Any) -> None:
    usage = usage if isinstance(usage, dict) else {}
    draft.prompt_tokens = int(usage.get("prompt_tokens", 0))
    draft.completion_tokens = int(usage.get("completion_tokens", 0))
