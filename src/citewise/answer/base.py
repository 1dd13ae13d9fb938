"""The ``Generator`` port: evidence fragments in, a draft with markers out. Backends are found by
name in ``GENERATORS`` ("extractive", "local", "openai", or a plugin's entry point)."""

from __future__ import annotations

import abc

from citewise.answer.records import Draft, Fragment
from citewise.errors import GeneratorError
from citewise.registry import Registry

__all__ = ["GENERATORS", "Generator", "GeneratorError"]


class Generator(abc.ABC):
    name: str = ""

    @abc.abstractmethod
    def generate(self, question: str, fragments: list[Fragment], lang: str, strict: bool = False) -> Draft:
        """Write a draft whose every sentence ends with fragment markers, or a refusal.
        ``strict`` is the retry after a failed validation: fewer fragments, stricter rules."""


GENERATORS: Registry[Generator] = Registry(
    "generator",
    {
        "extractive": "citewise.answer.extractive:ExtractiveGenerator",
        "local": "citewise.answer.llama_local:LlamaCppGenerator",
        "openai": "citewise.answer.openai_compat:OpenAICompatGenerator",
    },
)
"""Generators by name; a plugin adds one under the entry-point group ``citewise.generators``."""
