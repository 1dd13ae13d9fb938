"""Local LLM through llama-cpp-python and a GGUF: by default Qwen2.5-Coder-1.5B-Instruct
assembled from its PyPI parts, or any GGUF by path (``CITEWISE_ANSWER__LLM__GGUF``). Output is
constrained to the answer JSON schema so that small models keep the format."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from citewise.answer.base import Generator, SentenceSink
from citewise.answer.lazy_grammar import lazy_llama
from citewise.answer.llama_scaffold import ScaffoldedDecoder
from citewise.answer.models import model_path
from citewise.answer.prompt import MAX_CITES, SYSTEM, Prompt, fit, item_sentence, parse_items, parse_reply
from citewise.answer.records import Draft, Fragment
from citewise.answer.scaffold import ReplyScaffold
from citewise.answer.stream import AnswerItems
from citewise.errors import GeneratorError, MissingDependency
from citewise.settings import LlmSettings


class LlamaCppGenerator(Generator):
    name = "local"

    def __init__(
        self,
        settings: LlmSettings | None = None,
        gguf: Path | None = None,
        max_sentences: int = 3,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.settings = settings or LlmSettings()
        self.clock = clock
        self.max_sentences = max_sentences
        path = gguf or self.settings.gguf or model_path(self.settings.model)
        if not Path(path).exists():
            raise GeneratorError(f"GGUF not found: {path}")
        try:
            from llama_cpp import Llama
        except ImportError as e:
            raise MissingDependency("llama-cpp-python", extra="llm", purpose="the local LLM generator") from e
        self.path = Path(path)
        self._system = 0
        engine = lazy_llama(Llama, self.settings.grammar_top_k) if self.settings.grammar_top_k > 0 else Llama
        self.llm: Any = engine(
            model_path=str(path),
            n_ctx=self.settings.n_ctx,
            n_threads=self.settings.threads,
            seed=self.settings.seed,
            verbose=False,
        )
        self._system = self._tokens(SYSTEM) + 16  # with the chat template's tokens
        self.decoder = ScaffoldedDecoder.for_model(self.llm) if self.settings.scaffold else None

    def warm(self) -> None:
        """Evaluate the system prompt (the same for every question): llama.cpp keeps the longest common
        prefix of the last prompt, so questions then pay only for their fragments and question."""
        messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "-"}]
        if self.decoder is not None:
            self.decoder.read(messages)
        else:
            self.llm.create_chat_completion(messages=messages, max_tokens=1)

    def fit(self, question: str, fragments: list[Fragment], lang: str, strict: bool) -> tuple[Prompt, int]:
        """The prompt and its size in tokens. Its time is the question's: the system prompt is evaluated once
        (``warm``), the user message (fragments and question) every time, so it is cut to ``prompt_tokens``
        (fewer fragments, then each shorter, down to one) and to the context window."""
        most = self.settings.n_ctx - self.settings.max_tokens - 64 - self._system
        prompt, used = fit(
            question,
            fragments[: max(1, self.settings.fragments)],
            lang,
            strict,
            self.max_sentences,
            self._tokens,
            min(self.settings.prompt_tokens, most),
            most,
            self.settings.fragment_chars,
            focused=True,
        )
        return prompt, used + self._system

    def _tokens(self, text: str) -> int:
        return len(self.llm.tokenize(text.encode("utf-8"), add_bos=False))

    def generate(
        self,
        question: str,
        fragments: list[Fragment],
        lang: str,
        strict: bool = False,
        on_sentence: SentenceSink | None = None,
    ) -> Draft:
        """Decodes token by token: each sentence is handed to ``on_sentence`` as soon as it is complete, and
        decoding stops at the time budget (``budget_s``) with the sentences complete by then."""
        prompt, prompt_tokens = self.fit(question, fragments, lang, strict)
        started = self.clock()
        items = AnswerItems()
        pieces = 0
        stopped = ""
        try:
            for piece in self._pieces(prompt, strict):
                pieces += 1
                for item in items.feed(piece):
                    sentence = item_sentence(item, lang, prompt.cited)
                    if sentence is not None and on_sentence is not None:
                        on_sentence(sentence)
                if items.closed:  # nothing after the answer array is used ("refused" is implied by an empty one)
                    break
                if self.clock() - started > self.settings.budget_s:
                    stopped = f"stopped at the {self.settings.budget_s:g} s budget"
                    break
        except (ValueError, RuntimeError) as e:  # context overflow, decode failure
            raise GeneratorError(f"llama.cpp: {e}") from e
        if items.closed or stopped:
            draft = parse_items(items, self.name, fragments, lang, prompt.cited)
        else:
            draft = parse_reply(items.text, self.name, fragments, lang, prompt.cited)
        draft.stopped = stopped
        draft.prompt_tokens = prompt_tokens
        draft.completion_tokens = self.decoder.sampled if self.decoder is not None else pieces
        return draft

    def _pieces(self, prompt: Prompt, strict: bool) -> Iterator[str]:
        """The reply's text as it is written: by the scaffolded decoder (the JSON's fixed parts read in a batch),
        or by llama-cpp-python's chat completion."""
        schema = prompt.schema(self.max_sentences)
        temperature = 0.0 if strict else self.settings.temperature
        if self.decoder is not None:
            yield from self.decoder.reply(
                prompt.messages,
                schema,
                ReplyScaffold(prompt.ids, self.max_sentences, MAX_CITES),
                temperature=temperature,
                seed=self.settings.seed,
                max_tokens=self.settings.max_tokens,
            )
            return
        stream = self.llm.create_chat_completion(
            messages=prompt.messages,
            response_format={"type": "json_object", "schema": schema},
            temperature=temperature,
            max_tokens=self.settings.max_tokens,
            seed=self.settings.seed,
            stream=True,
        )
        for chunk in stream:
            piece = chunk["choices"][0].get("delta", {}).get("content") or ""
            if piece:
                yield piece
