"""Files to ``Document`` records: size guard, parser by extension, language, structure, metadata."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

from citewise.errors import CorruptFile, EmptyDocument, IngestError, TooLarge
from citewise.ingest.base import PageCallback, parser_for
from citewise.ingest.metadata import extract_metadata, guess_title
from citewise.ingest.structure import build_structure
from citewise.ingest.zipcheck import check_zip
from citewise.lang import detect_language
from citewise.settings import IngestSettings
from citewise.types import Document, Layout


def file_hash(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check_size(path: Path, settings: IngestSettings) -> int:
    size = path.stat().st_size
    if size == 0:
        raise EmptyDocument("empty file (0 bytes)")
    limit = int(settings.max_file_mb * 1024 * 1024)
    if size > limit:
        raise TooLarge(
            f"file too large ({size / 1048576:.0f} MB > limit {settings.max_file_mb:g} MB; "
            "raise CITEWISE_INGEST__MAX_FILE_MB to accept it)"
        )
    return size


def document_from_layout(
    layout: Layout, *, source_uri: str, fmt: str, content_hash: str, lang: str | None = None
) -> Document:
    """Recognise language, structure and header metadata of an extracted layout."""
    if not layout.text.strip():
        raise EmptyDocument("no text")
    lang = lang or detect_language(layout.text)
    nodes = build_structure(layout, lang)
    title = guess_title(layout.text, layout.title_hint)
    meta = extract_metadata(layout.text, lang, title)
    return Document(
        doc_id=content_hash[:16],
        title=title,
        source_uri=source_uri,
        lang=lang,
        text=layout.text,
        fmt=fmt,
        content_hash=content_hash,
        doc_type=meta.doc_type,
        number=meta.number,
        issued=meta.issued,
        effective=meta.effective,
        aliases=meta.aliases,
        pages=layout.pages,
        tables=layout.tables,
        nodes=nodes,
        warnings=layout.warnings,
    )


def load_document(path: Path, settings: IngestSettings | None = None, on_page: PageCallback | None = None) -> Document:
    """Parse one file. Raises an ``IngestError`` whose ``line()`` names the file and the reason."""
    settings = settings or IngestSettings()
    try:
        check_size(path, settings)
        parser = parser_for(path, settings.pdf_backend)
        if parser.zipped and zipfile.is_zipfile(path):  # not a zip at all: the parser says what it is not
            check_zip(path, int(settings.max_unpacked_mb * 1024 * 1024))
        layout = parser.parse(path, on_page)
        return document_from_layout(
            layout, source_uri=path.resolve().as_uri(), fmt=parser.fmt, content_hash=file_hash(path)
        )
    except IngestError as e:
        e.source = e.source or str(path)
        raise
    except RecursionError as e:  # structure nested beyond what the parser walks (an HTML page 100,000 deep)
        raise CorruptFile("nested too deeply to read (thousands of levels of elements)", str(path)) from e
    except (OSError, ValueError, MemoryError) as e:
        raise IngestError(f"cannot read ({type(e).__name__}: {str(e)[:120]})", str(path)) from e
