"""The ``Generator`` port: evidence fragments in, a draft with markers out. Backends are found by
name in ``GENERATORS`` ("extractive", "local", "openai", or a plugin's entry point)."""

from __future__ import annotations

import abc
from collections.abc import Callable

from citewise.answer.records import Draft, DraftSentence, Fragment
from citewise.errors import GeneratorError
from citewise.registry import Registry

__all__ = ["GENERATORS", "Generator", "GeneratorError", "SentenceSink"]

SentenceSink = Callable[[DraftSentence], None]
"""Called with each sentence of a draft as soon as the generator has written it whole (streaming)."""


class Generator(abc.ABC):
    name: str = ""

    @abc.abstractmethod
    def generate(
        self,
        question: str,
        fragments: list[Fragment],
        lang: str,
        strict: bool = False,
        on_sentence: SentenceSink | None = None,
    ) -> Draft:
        """Write a draft whose every sentence ends with fragment markers, or a refusal.
        ``strict`` is the retry after a failed validation: fewer fragments, stricter rules.
        ``on_sentence``: a generator that writes token by token calls it with each sentence as soon as it
        is complete (it is also in the returned draft); others may never call it."""

    def warm(self) -> None:
        """Get ready for the first question (a local model evaluates its fixed system prompt once, and every
        question then reuses it); nothing by default."""
        return None


GENERATORS: Registry[Generator] = Registry(
    "generator",
    {
        "extractive": "citewise.answer.extractive:ExtractiveGenerator",
        "local": "citewise.answer.llama_local:LlamaCppGenerator",
        "openai": "citewise.answer.openai_compat:OpenAICompatGenerator",
    },
)
"""Generators by name; a plugin adds one under the entry-point group ``citewise.generators``."""
