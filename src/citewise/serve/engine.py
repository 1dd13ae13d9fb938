"""What the CLI and the HTTP API share: building generators by name and an ``Engine`` holding
one open store, embedder, retriever and the assistants built on them.

An ``Engine`` is not thread-safe (its SQLite connection belongs to the thread that opened it);
the API keeps it in a single worker thread."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from citewise.index.embedded import EmbeddedStore
from citewise.index.embedder import Embedder, get_embedder
from citewise.settings import Settings

if TYPE_CHECKING:
    from citewise.answer.base import Generator
    from citewise.assistant import Assistant
    from citewise.assistant.records import Answer
    from citewise.retrieve.hybrid import Retriever
    from citewise.retrieve.records import SearchResult

FROM_SETTINGS: Any = object()
"""Default of ``embedder=`` arguments: build the embedder the settings name."""


def open_store(settings: Settings) -> EmbeddedStore:
    return EmbeddedStore(settings.index, analyzer=settings.store.lexical_analyzer, model=settings.store.embedder)


def build_generator(settings: Settings, name: str) -> Generator:
    """The generator registered as ``name`` with its settings section (``local``, ``openai``)."""
    from citewise.answer.base import GENERATORS

    a = settings.answer
    if name == "local":
        return GENERATORS.create("local", settings=a.llm, max_sentences=a.max_sentences)
    if name == "openai":
        return GENERATORS.create("openai", settings=a.openai, max_sentences=a.max_sentences)
    return GENERATORS.create(name, max_sentences=a.max_sentences)


class Engine:
    def __init__(
        self,
        settings: Settings,
        store: EmbeddedStore | None = None,
        embedder: Embedder | None = FROM_SETTINGS,
    ) -> None:
        from citewise.retrieve.hybrid import Retriever

        self.settings = settings
        self.store = store or open_store(settings)
        self.embedder = get_embedder(settings.store.embedder) if embedder is FROM_SETTINGS else embedder
        self.retriever: Retriever = Retriever(self.store, self.embedder, settings.retrieve)
        self._assistants: dict[str, Assistant] = {}

    def assistant(self, generator: str | None = None) -> Assistant:
        """The assistant answering with ``generator`` (default from settings), built once per name."""
        from citewise.assistant import Assistant

        name = generator or self.settings.answer.generator
        if name not in self._assistants:
            self._assistants[name] = Assistant(
                self.retriever,
                build_generator(self.settings, name),
                self.settings.answer,
                reports=Path(self.settings.index) / "reports",
            )
        return self._assistants[name]

    def ask(self, question: str, generator: str | None = None) -> Answer:
        return self.assistant(generator).ask(question)

    def search(self, question: str, k: int | None = None) -> SearchResult:
        return self.retriever.search(question, k=k)

    def close(self) -> None:
        self.store.close()
