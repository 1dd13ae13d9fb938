"""Converters from the shared benchmark data sets to a citewise corpus (JSONL records
``{doc, id, title, text, kind, label}``, for ``citewise ingest``) and a question set (JSONL, for
``citewise eval``). One module per data set, found by name in ``DATASETS`` (a plugin adds one under
the entry-point group ``citewise.datasets``); ``convert`` runs one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from citewise.errors import NotFound
from citewise.registry import Registry


@dataclass
class Converted:
    """What a converter wrote."""

    questions: Path
    corpus: Path | None
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


Converter = Callable[[Path, Path, int | None], Converted]
"""(data folder, output folder, question limit) -> what was written."""


@dataclass(frozen=True)
class Dataset:
    """A converter with its one-line description."""

    description: str
    convert: Converter


DATASETS: Registry[Dataset] = Registry(
    "data set",
    {
        "alqac2022": "citewise.evaluate.datasets.alqac:alqac2022",
        "alqac2023": "citewise.evaluate.datasets.alqac:alqac2023",
        "obliqa": "citewise.evaluate.datasets.obliqa:dataset",
        "answerability-en": "citewise.evaluate.datasets.answerability:english",
        "answerability-vi": "citewise.evaluate.datasets.answerability:vietnamese",
        "contractnli": "citewise.evaluate.datasets.contractnli:dataset",
    },
    group="citewise.datasets",
)
DEFAULT_SOURCES = {
    "alqac2022": "alqac2022",
    "alqac2023": "alqac2023",
    "obliqa": "obliqa",
    "answerability-en": "answerability",
    "answerability-vi": "answerability",
    "contractnli": "contractnli",
}
"""Folder of the shared data each converter reads by default."""


def converters() -> dict[str, str]:
    """Name -> one-line description."""
    return {name: factory().description for name, factory in DATASETS.items()}


def convert(name: str, source: Path, out: Path, limit: int | None = None) -> Converted:
    dataset = DATASETS.create(name)
    if not source.is_dir():
        raise NotFound(f"data folder not found: {source}")
    out.mkdir(parents=True, exist_ok=True)
    return dataset.convert(source, out, limit)
