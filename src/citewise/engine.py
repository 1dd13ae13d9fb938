"""The one place that assembles citewise: an index folder's store, the embedder, the retriever, the
generators by name, the validator and the assistants built on them, behind one object.

``citewise.open(index=...)`` returns an ``Engine``; the CLI, the HTTP API, the evaluator and the
benchmarks all reach the system through it::

    with citewise.open(index="my-index") as cw:
        cw.ingest(["regulations/"])
        answer = cw.ask("Thời hạn thông báo tổn thất là bao lâu?")

An ``Engine`` is not thread-safe (its SQLite connection belongs to the thread that opened it); the
HTTP API keeps it in a single worker thread."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from citewise.index.base import DocSummary, Store
from citewise.index.embedder import Embedder, get_embedder
from citewise.progress import Progress
from citewise.registry import Registry
from citewise.settings import Settings, load_settings

if TYPE_CHECKING:
    from citewise.answer.base import Generator
    from citewise.assistant import Answer, Assistant
    from citewise.assistant.records import AnswerSentence
    from citewise.index.corpus import Corpus, IngestReport
    from citewise.judge.answerability import AnswerabilityJudge
    from citewise.judge.pair import PairClassifier
    from citewise.retrieve.hybrid import Retriever
    from citewise.retrieve.records import SearchResult
    from citewise.types import Document
    from citewise.verify.pairs import PairVerdict
    from citewise.verify.scorer import SupportScorer

FROM_SETTINGS: Any = object()
"""Default of ``embedder=`` arguments: build the embedder the settings name."""

STORES: Registry[Store] = Registry("store", {"embedded": "citewise.index.embedded:EmbeddedStore"})
"""Index backends by name; a plugin adds one under the entry-point group ``citewise.stores``."""


def open_store(settings: Settings, kind: str = "embedded") -> Store:
    """The store of ``settings.index`` (created when the folder is new)."""
    st = settings.store
    return STORES.create(
        kind,
        folder=settings.index,
        analyzer=st.lexical_analyzer,
        model=st.embedder,
        bm25_k1=st.bm25_k1,
        bm25_b=st.bm25_b,
    )


def build_generator(settings: Settings, name: str) -> Generator:
    """The generator registered as ``name`` with its settings section (``local``, ``openai``)."""
    from citewise.answer.base import GENERATORS

    a = settings.answer
    if name == "local":
        return GENERATORS.create("local", settings=a.llm, max_sentences=min(a.max_sentences, a.llm.max_sentences))
    if name == "openai":
        return GENERATORS.create("openai", settings=a.openai, max_sentences=a.max_sentences)
    return GENERATORS.create(name, max_sentences=a.max_sentences)


class Engine:
    """One open index and everything built on it. Build it with ``citewise.open``."""

    def __init__(
        self,
        settings: Settings,
        store: Store | None = None,
        embedder: Embedder | None = FROM_SETTINGS,
    ) -> None:
        from citewise.retrieve.hybrid import Retriever

        self.settings = settings
        self.store: Store = store or open_store(settings)
        self._owns_store = store is None
        self.embedder = get_embedder(settings.store.embedder) if embedder is FROM_SETTINGS else embedder
        self.retriever: Retriever = Retriever(self.store, self.embedder, settings.retrieve)
        self._assistants: dict[str, Assistant] = {}
        self._seed: dict[str, np.ndarray] | None = None
        self._judge: Any = FROM_SETTINGS
        self._pair: Any = FROM_SETTINGS
        self._scorer: SupportScorer | None = None

    def corpus(self, progress: Progress | None = None) -> Corpus:
        """The ingester writing into this engine's store (with the sample corpus's shipped vectors)."""
        from citewise.index.corpus import Corpus
        from citewise.samples import sample_vectors

        if self._seed is None:
            self._seed = sample_vectors(self.embedder.name) if self.embedder is not None else {}
        return Corpus(self.store, self.embedder, self.settings, progress, seed=self._seed)

    # -- the public surface ------------------------------------------------------------
    def ingest(self, paths: Iterable[str | Path], sync: bool = False, progress: Progress | None = None) -> IngestReport:
        """Parse, chunk, embed and index files and folders (recursively); unchanged files are skipped,
        a bad file is reported on one line in ``report.errors`` and the rest goes on. ``sync`` also
        removes documents whose files are gone from the folders given."""
        return self.corpus(progress).ingest([Path(p) for p in paths], sync=sync)

    def add_document(self, doc: Document) -> None:
        """Chunk, embed and store one parsed document atomically (replacing one from the same source)."""
        self.corpus().add_document(doc)

    def search(self, question: str, k: int | None = None) -> SearchResult:
        """The provisions that answer ``question``, ranked, with the evidence strength."""
        return self.retriever.search(question, k=k)

    def ask(
        self, question: str, generator: str | None = None, on_sentence: Callable[[AnswerSentence], None] | None = None
    ) -> Answer:
        """A cited answer (every sentence checked) or an honest refusal; ``generator`` by name
        (``extractive`` by default, ``local``, ``openai`` or a plugin's). ``on_sentence``: called with each
        sentence of a model's first draft as soon as it is written and has passed every check (the final
        answer may still differ: it is the one to show)."""
        return self.assistant(generator).ask(question, on_sentence)

    def supports(self, claim: str, premise: str) -> PairVerdict:
        """Whether ``premise`` (a quote, a provision) supports ``claim``, as the validator checks a sentence: the
        verdict (supported / partial / unsupported) of the support scorer the settings name and of the figure check,
        the score, the premise's best-matching span, the claim's figures the premise lacks, and for a claim not
        supported what the explicit checks found (parties, counterparts, negation, modality, scope, values)."""
        from citewise.verify.pairs import verify_pair

        return verify_pair(self.support_scorer(), claim, premise)

    def support_scorer(self) -> SupportScorer:
        """The support scorer the settings name, at the thresholds they set, loaded once: every assistant's
        validator and ``supports`` share it."""
        if self._scorer is None:
            from citewise.verify.scorer import get_scorer, overridden

            answer = self.settings.answer
            self._scorer = overridden(
                get_scorer(answer.support_scorer), answer.support_threshold, answer.partial_threshold
            )
        return self._scorer

    def documents(self) -> list[DocSummary]:
        """The indexed documents."""
        return self.store.documents()

    def document(self, ref: str) -> DocSummary:
        """A document by id, id prefix, number, alias or title (``NotFound`` when none or several)."""
        return self.store.find_document(ref)

    def remove(self, ref: str) -> DocSummary:
        """Remove a document (as ``document`` finds it) and return what it was."""
        doc = self.store.find_document(ref)
        self.store.delete_document(doc.doc_id)
        self.store.refresh()
        return doc

    def close(self) -> None:
        if self._owns_store:
            self.store.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- parts, for the API, the evaluator and the benchmarks ---------------------------
    def generator(self, name: str) -> Generator:
        """A new generator registered as ``name``, configured from the settings."""
        return build_generator(self.settings, name)

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
                judge=self.judge(),
                question_policy=self.settings.privacy.store_questions,
                scorer=self.support_scorer(),
            )
        return self._assistants[name]

    def warm(self, generator: str | None = None) -> None:
        """Build the assistant of ``generator`` (default from settings) and let its generator get ready, so
        that the first question does not pay for it (the server does this at start)."""
        self.assistant(generator).generator.warm()

    def judge(self) -> AnswerabilityJudge | None:
        """The answerability judge the settings name (``None`` for ``none``), built once."""
        if self._judge is FROM_SETTINGS:
            from citewise.judge.answerability import JUDGES, Thresholded

            name = self.settings.answer.judge
            if name == "auto":
                from citewise.judge.pair import available

                name = "tiered" if available() else "none"
            answer = self.settings.answer
            shared: dict[str, Any] = {}
            paired = name in ("tiered", "pair")  # these take the thresholds themselves: their reading stops at them
            if paired:
                # the LLM tier reads the score near the threshold: reading stops there only without it
                stop = None if answer.judge_llm else answer.judge_stop
                shared = {
                    "classifier": self.pair_classifier(),
                    "stop": stop,
                    "thresholds": answer.answer_threshold,
                    "reads": answer.judge_reads,
                }
            judge = None if name in ("none", "") else JUDGES.create(name, **shared)
            if judge is not None and answer.answer_threshold and not paired:
                judge = Thresholded(judge, answer.answer_threshold)
            if judge is not None and answer.judge_llm:
                judge = self._llm_tier(judge)
            self._judge = judge
        return self._judge  # type: ignore[no-any-return]

    def _llm_tier(self, judge: AnswerabilityJudge) -> AnswerabilityJudge:
        """``judge`` with the local LLM deciding near its threshold (``answer.judge_llm``)."""
        from citewise.answer.models import model_path
        from citewise.judge.llm import LlmTier, YesNoReader

        answer = self.settings.answer
        reader = YesNoReader(
            settings=answer.llm, purpose="the LLM answerability tier", locate=lambda: model_path(answer.llm.model)
        )
        return LlmTier(judge, reader, answer.judge_llm_band, answer.judge_llm_p_yes)

    def pair_classifier(self) -> PairClassifier | None:
        """The installed pair classifier (``judge/pair.py``), loaded once and shared by the answerability judges of
        this engine and of the engines ``derive`` makes; ``None`` when its weights are not installed."""
        if self._pair is FROM_SETTINGS:
            from citewise.judge.pair import PairClassifier, available

            self._pair = PairClassifier() if available() else None
        return self._pair  # type: ignore[no-any-return]

    def derive(self, **overrides: Any) -> Engine:
        """An engine over the same store and embedder with some settings changed (sections as dicts:
        ``derive(retrieve={"fusion": "rrf"})``); closing it leaves the store open."""
        merged = self.settings.model_dump()
        for key, value in overrides.items():
            if isinstance(value, dict) and isinstance(merged.get(key), dict):
                merged[key] = {**merged[key], **value}
            else:
                merged[key] = value
        derived = Engine(Settings.model_validate(merged), store=self.store, embedder=self.embedder)
        derived._pair = self._pair  # the loaded pair classifier (or the not-yet-loaded mark) is shared
        return derived


def open_engine(
    index: str | Path | None = None,
    *,
    settings: Settings | None = None,
    embedder: Embedder | None = FROM_SETTINGS,
    store: Store | None = None,
    **overrides: Any,
) -> Engine:
    """Open (or create) the index at ``index`` and return the ``Engine`` over it.

    Settings come from defaults < ``citewise.toml`` < ``CITEWISE_*`` environment < ``overrides``
    (sections as dicts: ``open("ix", retrieve={"k": 5}, answer={"generator": "local"})``), or are
    given whole as ``settings``. ``embedder``: an embedder to use instead of the one the settings
    name (``None``: no dense vectors); ``store``: an already open store (left open by ``close``)."""
    if settings is None:
        settings = load_settings(index=Path(index) if index is not None else None, **overrides)
    elif index is not None or overrides:
        settings = settings.model_copy(update={"index": Path(index)} if index is not None else {})
        if overrides:
            return Engine(settings, store=store, embedder=embedder).derive(**overrides)
    return Engine(settings, store=store, embedder=embedder)
