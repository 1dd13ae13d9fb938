"""The parser port and its registry: one parser per format, chosen by file extension."""

from __future__ import annotations

import abc
from collections.abc import Callable
from pathlib import Path

from citewise.errors import UnsupportedFormat
from citewise.registry import Registry
from citewise.types import Layout

PageCallback = Callable[[int, int], None]


class Parser(abc.ABC):
    """Turns one file into a ``Layout`` (text, blocks, pages, tables). Raises ``IngestError``."""

    name: str = ""
    fmt: str = ""
    extensions: tuple[str, ...] = ()
    zipped: bool = False
    """The format is a zip package: its members' inflated sizes are checked before parsing."""

    @abc.abstractmethod
    def parse(self, path: Path, on_page: PageCallback | None = None) -> Layout:
        """Extract the layout of ``path``; ``on_page(done, total)`` reports paged progress."""


PARSERS: Registry[Parser] = Registry(
    "parser",
    {
        "docx": "citewise.ingest.docx_parser:DocxParser",
        "html": "citewise.ingest.html_parser:HtmlParser",
        "markdown": "citewise.ingest.markdown_parser:MarkdownParser",
        "pdfplumber": "citewise.ingest.pdf_pdfplumber:PdfplumberParser",
        "pypdfium2": "citewise.ingest.pdf_pypdfium2:Pypdfium2Parser",
        "text": "citewise.ingest.text_parser:TextParser",
    },
)
"""Parsers by name; a plugin adds one under the entry-point group ``citewise.parsers``."""


def parser_for(path: Path, pdf_backend: str = "pdfplumber") -> Parser:
    """The parser for a file's extension; ``UnsupportedFormat`` names the supported ones."""
    ext = path.suffix.lower()
    if ext == ".pdf":
        return PARSERS.create(pdf_backend)
    parsers = [factory() for _, factory in PARSERS.items()]
    for parser in parsers:
        if ext in parser.extensions and parser.fmt != "pdf":
            return parser
    known = sorted({e for p in parsers for e in p.extensions} | {".jsonl"})
    raise UnsupportedFormat(f"unsupported file type {ext or '(none)'} (supported: {' '.join(known)})")
