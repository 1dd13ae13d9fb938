"""The parser port and its registry: one parser per format, chosen by file extension."""

from __future__ import annotations

import abc
from collections.abc import Callable
from pathlib import Path

from citewise.errors import UnsupportedFormat
from citewise.types import Layout

PageCallback = Callable[[int, int], None]


class Parser(abc.ABC):
    """Turns one file into a ``Layout`` (text, blocks, pages, tables). Raises ``IngestError``."""

    name: str = ""
    fmt: str = ""
    extensions: tuple[str, ...] = ()

    @abc.abstractmethod
    def parse(self, path: Path, on_page: PageCallback | None = None) -> Layout:
        """Extract the layout of ``path``; ``on_page(done, total)`` reports paged progress."""


ParserFactory = Callable[[], Parser]
_REGISTRY: dict[str, ParserFactory] = {}


def register_parser(name: str, factory: ParserFactory) -> None:
    """Register a parser under ``name`` (built-ins register exactly as extensions would)."""
    _REGISTRY[name] = factory


def parser_names() -> list[str]:
    _load_builtins()
    return sorted(_REGISTRY)


def get_parser(name: str) -> Parser:
    _load_builtins()
    try:
        return _REGISTRY[name]()
    except KeyError:
        raise UnsupportedFormat(f"unknown parser {name!r} (known: {', '.join(sorted(_REGISTRY))})") from None


def parser_for(path: Path, pdf_backend: str = "pdfplumber") -> Parser:
    """The parser for a file's extension; ``UnsupportedFormat`` names the supported ones."""
    _load_builtins()
    ext = path.suffix.lower()
    if ext == ".pdf":
        return get_parser(pdf_backend)
    for name in sorted(_REGISTRY):
        parser = _REGISTRY[name]()
        if ext in parser.extensions and parser.fmt != "pdf":
            return parser
    known = sorted({e for f in _REGISTRY.values() for e in f().extensions} | {".jsonl"})
    raise UnsupportedFormat(f"unsupported file type {ext or '(none)'} (supported: {' '.join(known)})")


def _load_builtins() -> None:
    if _REGISTRY:
        return
    from citewise.ingest import docx_parser, html_parser, markdown_parser, pdf_pdfplumber, pdf_pypdfium2, text_parser

    for mod in (docx_parser, html_parser, markdown_parser, pdf_pdfplumber, pdf_pypdfium2, text_parser):
        mod.register()
