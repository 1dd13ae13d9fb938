"""The ``citewise`` command line: ``app`` (Typer) with its commands; errors become one-line messages
and exit codes here only."""

from citewise.cli.app import app
from citewise.cli.commands import main

__all__ = ["app", "main"]
