"""Converters from the shared benchmark data sets to a citewise corpus (JSONL records
``{doc, id, title, text, kind, label}``, for ``citewise ingest``) and a question set (JSONL, for
``citewise eval``). One module per data set, registered by name; ``convert`` runs one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from citewise.errors import NotFound


@dataclass
class Converted:
    """What a converter wrote."""

    questions: Path
    corpus: Path | None
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


Converter = Callable[[Path, Path, int | None], Converted]
"""(data folder, output folder, question limit) -> what was written."""

_REGISTRY: dict[str, tuple[str, Converter]] = {}
DEFAULT_SOURCES = {
    "alqac2022": "alqac2022",
    "alqac2023": "alqac2023",
    "obliqa": "obliqa",
    "answerability-en": "answerability",
    "answerability-vi": "answerability",
    "contractnli": "contractnli",
}
"""Folder of ../shared/data each converter reads by default."""


def register_converter(name: str, description: str, converter: Converter) -> None:
    _REGISTRY[name] = (description, converter)


def _builtins() -> None:
    if _REGISTRY:
        return
    from citewise.evaluate.datasets import alqac, answerability, contractnli, obliqa

    for mod in (alqac, obliqa, answerability, contractnli):
        mod.register()


def converters() -> dict[str, str]:
    """Name -> one-line description."""
    _builtins()
    return {name: desc for name, (desc, _) in sorted(_REGISTRY.items())}


def convert(name: str, source: Path, out: Path, limit: int | None = None) -> Converted:
    _builtins()
    if name not in _REGISTRY:
        raise NotFound(f"unknown data set {name!r} (known: {', '.join(sorted(_REGISTRY))})")
    if not source.is_dir():
        raise NotFound(f"data folder not found: {source}")
    out.mkdir(parents=True, exist_ok=True)
    return _REGISTRY[name][1](source, out, limit)
