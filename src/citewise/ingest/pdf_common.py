"""Shared steps of the PDF backends: error mapping and page assembly without furniture."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from citewise.errors import CorruptFile, EmptyDocument, IngestError
from citewise.ingest.layout import LayoutBuilder
from citewise.ingest.pdf_furniture import furniture
from citewise.types import Layout


@dataclass
class PageItems:
    """What one page holds, top to bottom: ("line", text) or ("table", rows)."""

    number: int
    items: list[tuple[str, object]] = field(default_factory=list)


@contextmanager
def pdf_errors(backend: str) -> Iterator[None]:
    """Map a PDF library's exceptions to one-line ingest errors."""
    try:
        yield
    except IngestError:
        raise
    except Exception as e:  # the libraries raise many unrelated types
        name = type(e).__name__
        inner = " ".join(type(a).__name__ for a in e.args if isinstance(a, BaseException))
        text = f"{name} {inner} {e!r}".lower()
        if "password" in text or "encrypt" in text:
            raise CorruptFile("encrypted PDF (a password is required)") from e
        detail = str(e).strip().splitlines()[0][:120] if str(e).strip() else (inner or name)
        raise CorruptFile(f"not a readable PDF ({backend}: {detail})") from e


def assemble(pages: list[PageItems]) -> Layout:
    """Lines and tables of every page into one layout; page furniture dropped."""
    if not pages:
        raise EmptyDocument("empty PDF (no pages)")
    line_lists = [[str(v) for k, v in p.items if k == "line"] for p in pages]
    drop = furniture(line_lists)
    b = LayoutBuilder()
    chars = 0
    for p, dropped in zip(pages, drop, strict=True):
        b.start_page(p.number)
        li = 0
        for kind, value in p.items:
            if kind == "line":
                if li not in dropped:
                    b.add(str(value))
                    chars += len(str(value).strip())
                li += 1
            else:
                rows = value if isinstance(value, list) else []
                b.add_table(rows)
                chars += sum(len(c or "") for r in rows for c in r)
        b.end_page()
    if chars == 0:
        raise EmptyDocument(
            f"no text layer in {len(pages)} page(s) (a scanned PDF?); OCR it first, e.g. with tesseract-ocr-vie"
        )
    return b.build()
