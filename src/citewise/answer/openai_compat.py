"""Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp server, LM Studio), with
timeouts and retries with back-off on connection errors, 429 and 5xx."""

from __future__ import annotations

import time
from typing import Any

import httpx

from citewise.answer.base import Generator
from citewise.answer.prompt import messages, parse_reply, schema
from citewise.answer.records import Draft, Fragment
from citewise.errors import GeneratorError
from citewise.settings import OpenAISettings


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
                if r.status_code not in (408, 409, 429) and r.status_code < 500:
                    break
            if attempt < self.settings.retries:
                self.sleep(min(8.0, 0.5 * 2**attempt))
        raise GeneratorError(f"{self.settings.base_url}: {last}")

    def generate(self, question: str, fragments: list[Fragment], lang: str, strict: bool = False) -> Draft:
        payload: dict[str, Any] = {
            "model": self.settings.model,
            "messages": messages(question, fragments, lang, strict, self.max_sentences),
            "temperature": 0.0 if strict else self.settings.temperature,
            "max_tokens": self.settings.max_tokens,
            "response_format": {"type": "json_object", "schema": schema(self.max_sentences)},
        }
        data = self._post(payload)
        try:
            content = data["choices"][0]["message"].get("content") or ""
        except (KeyError, IndexError, TypeError) as e:
            raise GeneratorError(f"unexpected reply shape: {str(data)[:200]}") from e
        draft = parse_reply(content, self.name, fragments, lang)
        usage = data.get("usage") or {}
        draft.prompt_tokens = int(usage.get("prompt_tokens", 0))
        draft.completion_tokens = int(usage.get("completion_tokens", 0))
        return draft
