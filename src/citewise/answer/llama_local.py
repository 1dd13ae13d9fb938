"""Local LLM through llama-cpp-python and a GGUF: by default Qwen2.5-Coder-1.5B-Instruct
assembled from its PyPI parts, or any GGUF by path (``CITEWISE_ANSWER__LLM__GGUF``). Output is
constrained to the answer JSON schema so that small models keep the format."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from citewise.answer.base import Generator
from citewise.answer.models import model_path
from citewise.answer.prompt import messages, parse_reply, schema
from citewise.answer.records import Draft, Fragment
from citewise.errors import GeneratorError, MissingDependency
from citewise.settings import LlmSettings


class LlamaCppGenerator(Generator):
    name = "local"

    def __init__(self, settings: LlmSettings | None = None, gguf: Path | None = None, max_sentences: int = 3) -> None:
        self.settings = settings or LlmSettings()
        self.max_sentences = max_sentences
        path = gguf or self.settings.gguf or model_path(self.settings.model)
        if not Path(path).exists():
            raise GeneratorError(f"GGUF not found: {path}")
        try:
            from llama_cpp import Llama
        except ImportError as e:
            raise MissingDependency("llama-cpp-python", extra="llm", purpose="the local LLM generator") from e
        self.path = Path(path)
        self.llm: Any = Llama(
            model_path=str(path),
            n_ctx=self.settings.n_ctx,
            n_threads=self.settings.threads,
            seed=self.settings.seed,
            verbose=False,
        )

    def fit(self, question: str, fragments: list[Fragment], lang: str, strict: bool) -> list[dict[str, str]]:
        """The prompt, cut to the context window: fewer fragments, then shorter ones."""
        budget = self.settings.n_ctx - self.settings.max_tokens - 64
        frags, limit = list(fragments[: max(1, self.settings.fragments)]), self.settings.fragment_chars
        while True:
            msgs = messages(question, frags, lang, strict, self.max_sentences, limit, focused=True)
            used = len(self.llm.tokenize("\n".join(m["content"] for m in msgs).encode("utf-8"), add_bos=True))
            if used <= budget:
                return msgs
            if len(frags) > 2:
                frags.pop()
            elif limit > 300:
                limit = int(limit * 0.7)
            else:
                raise GeneratorError(f"the question and fragments do not fit the {self.settings.n_ctx}-token context")

    def generate(self, question: str, fragments: list[Fragment], lang: str, strict: bool = False) -> Draft:
        try:
            out = self.llm.create_chat_completion(
                messages=self.fit(question, fragments, lang, strict),
                response_format={"type": "json_object", "schema": schema(self.max_sentences)},
                temperature=0.0 if strict else self.settings.temperature,
                max_tokens=self.settings.max_tokens,
                seed=self.settings.seed,
            )
        except (ValueError, RuntimeError) as e:  # context overflow, decode failure
            raise GeneratorError(f"llama.cpp: {e}") from e
        content = out["choices"][0]["message"].get("content") or ""
        draft = parse_reply(content, self.name, fragments, lang)
        usage = out.get("usage") or {}
        draft.prompt_tokens = int(usage.get("prompt_tokens", 0))
        draft.completion_tokens = int(usage.get("completion_tokens", 0))
        return draft
