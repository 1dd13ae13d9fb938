"""The ``Generator`` port: evidence fragments in, a draft with markers out. Backends register by
name ("extractive", "local", "openai"); unknown names raise a clear error."""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import Any

from citewise.answer.records import Draft, Fragment


class GeneratorError(Exception):
    """A generator could not produce a draft (model missing, server down, bad output)."""


class Generator(abc.ABC):
    name: str = ""

    @abc.abstractmethod
    def generate(self, question: str, fragments: list[Fragment], lang: str, strict: bool = False) -> Draft:
        """Write a draft whose every sentence ends with fragment markers, or a refusal.
        ``strict`` is the retry after a failed validation: fewer fragments, stricter rules."""


GeneratorFactory = Callable[..., Generator]
_REGISTRY: dict[str, GeneratorFactory] = {}


def register_generator(name: str, factory: GeneratorFactory) -> None:
    _REGISTRY[name] = factory


def get_generator(name: str, **kwargs: Any) -> Generator:
    _builtins()
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown generator {name!r} (known: {', '.join(sorted(_REGISTRY))})") from None
    return factory(**kwargs)


def generator_names() -> list[str]:
    _builtins()
    return sorted(_REGISTRY)


def _builtins() -> None:
    if _REGISTRY:
        return
    from citewise.answer import extractive, llama_local, openai_compat

    for mod in (extractive, llama_local, openai_compat):
        mod.register()
