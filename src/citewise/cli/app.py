"""The ``citewise`` Typer app and what its command modules share: options, output, error exits."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from citewise.engine import Engine, open_engine
from citewise.settings import Settings, load_settings

app = typer.Typer(
    help="citewise: answers from authoritative documents, every sentence cited.",
    no_args_is_help=True,
    add_completion=False,
)
out = Console()
err = Console(stderr=True)

IndexOpt = Annotated[
    Path | None, typer.Option("--index", help="Index directory (default ./.citewise or $CITEWISE_INDEX).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def _settings(index: Path | None) -> Settings:
    return load_settings(index=index)


def _open(settings: Settings, dense: bool = True) -> Engine:
    """The engine over the settings' index; ``dense=False`` for commands that never embed (no model load)."""
    if dense:
        return open_engine(settings=settings)
    return open_engine(settings=settings, embedder=None)


def _emit(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


def _fail(e: Exception, code: int = 1) -> typer.Exit:
    err.print(f"[red]error:[/red] {e}")
    return typer.Exit(code)
