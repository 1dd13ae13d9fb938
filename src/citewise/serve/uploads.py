"""Uploaded files into the index, all or nothing, in two steps.

``stage`` (while the request is read): names checked (a plain file name, an allowed type), bytes copied
into a fresh staging folder with their sizes bounded. ``index`` (a job, off the request path): every file
parsed and chunked; only when all of them succeed are their documents written in one transaction, and
only then are the files moved to ``<index>/uploads/``. One bad file rejects the upload with a one-line
reason per file, and nothing is indexed. A crash leaves either nothing or every document of the upload;
at the next start a staging folder's files are moved into place when their documents were committed and
deleted otherwise."""

from __future__ import annotations

import secrets
import shutil
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote

from citewise.engine import Engine
from citewise.errors import IngestError, NotFound, TooLarge, UnsafeName, UnsupportedFormat
from citewise.index.base import DocSummary
from citewise.ingest import PARSER_VERSION
from citewise.ingest.loader import file_hash, load_document
from citewise.settings import Settings
from citewise.types import Document

UPLOADS = "uploads"
DOCUMENT_TYPES = (".pdf", ".docx", ".html", ".htm", ".md", ".markdown", ".txt")
"""Uploadable types: the document formats. JSONL/JSON record imports stay a ``citewise ingest`` job."""
MAX_NAME = 200


def uploads_folder(settings: Settings) -> Path:
    """Where uploaded files are kept: ``<index>/uploads``."""
    return (Path(settings.index) / UPLOADS).resolve()


def allowed_types(settings: Settings) -> list[str]:
    configured = {e.lower() for e in settings.ingest.extensions}
    return [e for e in DOCUMENT_TYPES if e in configured]


def safe_filename(name: str, allowed: list[str]) -> str:
    """``name`` if it is a plain file name of an allowed type; else an ``UnsafeName`` or
    ``UnsupportedFormat`` error. Names are never cleaned up silently: a name with path parts is refused."""
    shown = name[:80]
    if not name or len(name) > MAX_NAME:
        raise UnsafeName(f"file name must have 1 to {MAX_NAME} characters", shown)
    if "/" in name or "\\" in name or name in (".", "..") or ".." in name.split("."):
        raise UnsafeName("file name must not contain path parts ('/', '\\', '..')", shown)
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise UnsafeName("file name must not contain control characters", shown)
    if name.startswith(".") or name != name.strip():
        raise UnsafeName("file name must not start with a dot or space, nor end with a space", shown)
    suffix = Path(name).suffix.lower()
    if suffix not in allowed:
        raise UnsupportedFormat(f"unsupported file type {suffix or '(none)'} (allowed: {' '.join(allowed)})", shown)
    return unicodedata.normalize("NFC", name)


@dataclass
class Upload:
    name: str
    data: BinaryIO
    """The uploaded bytes (read from the current position)."""


@dataclass
class UploadedDocument:
    file: str
    doc_id: str
    title: str
    status: str
    """``added`` | ``replaced`` | ``unchanged``."""
    chunks: int = 0
    warnings: list[str] = field(default_factory=list)


class UploadRejected(IngestError):
    """At least one file of an upload was refused; ``errors`` holds one ``file: reason`` line per bad file."""

    def __init__(self, errors: list[IngestError], total: int) -> None:
        super().__init__(f"{len(errors)} of {total} file(s) rejected; nothing was indexed")
        self.errors = errors
        self.status = max((_status(e) for e in errors), default=422)


def _status(e: IngestError) -> int:
    if isinstance(e, TooLarge):
        return 413
    if isinstance(e, UnsupportedFormat):
        return 415
    if isinstance(e, UnsafeName):
        return 400
    return 422


@dataclass
class StagedUpload:
    """An upload's files, named and size-checked, waiting in their staging folder to be indexed."""

    staging: Path
    names: list[str]


class UploadIngester:
    def __init__(self, engine: Engine, max_file_bytes: int) -> None:
        self.store = engine.store
        self.settings = settings = engine.settings
        self.corpus = engine.corpus()
        self.folder = uploads_folder(settings)
        self.max_file_bytes = min(max_file_bytes, int(settings.ingest.max_file_mb * 1024 * 1024))

    def recover(self) -> list[str]:
        """Finish or undo the uploads a crash cut off: a staged file whose document was committed (same
        source, same content hash) is moved into place; every other staged file is deleted. Returns the
        names moved into place."""
        moved: list[str] = []
        for staging in self.folder.glob(".staging-*"):
            for path in staging.iterdir() if staging.is_dir() else []:
                final = self.folder / path.name
                known = self.store.by_source(final.as_uri())
                if (
                    known is not None
                    and not final.exists()
                    and path.is_file()
                    and file_hash(path) == known.content_hash
                ):
                    path.replace(final)
                    moved.append(path.name)
            shutil.rmtree(staging, ignore_errors=True)
        return moved

    def check_names(self, names: list[str]) -> list[str]:
        """Validate names before any byte is stored; raises ``UploadRejected`` listing every bad one."""
        allowed = allowed_types(self.settings)
        errors: list[IngestError] = []
        clean: list[str] = []
        for name in names:
            try:
                clean.append(safe_filename(name, allowed))
            except IngestError as e:
                errors.append(e)
        dupes = {n for n in clean if clean.count(n) > 1}
        errors.extend(UnsafeName("the same file name appears twice in one upload", n) for n in sorted(dupes))
        if errors:
            raise UploadRejected(errors, len(names))
        return clean

    def ingest(self, uploads: list[Upload]) -> list[UploadedDocument]:
        """``stage`` then ``index``, in one call."""
        return self.index(self.stage(uploads))

    def stage(self, uploads: list[Upload]) -> StagedUpload:
        """Check the names and copy the bytes (bounded) into a new staging folder."""
        names = self.check_names([u.name for u in uploads])
        self.folder.mkdir(parents=True, exist_ok=True)
        staging = self.folder / f".staging-{secrets.token_hex(8)}"
        staging.mkdir()
        errors: list[IngestError] = []
        for upload, name in zip(uploads, names, strict=True):
            try:
                self._copy_bounded(upload.data, staging / name, name)
            except IngestError as e:
                errors.append(e)
        if errors:
            shutil.rmtree(staging, ignore_errors=True)
            raise UploadRejected(errors, len(uploads))
        return StagedUpload(staging, names)

    def index(self, staged: StagedUpload) -> list[UploadedDocument]:
        """Parse every staged file, then commit all documents at once and move the files into place."""
        try:
            parsed = self._parse(staged)
            return self._commit(parsed, staged.staging)
        finally:
            shutil.rmtree(staged.staging, ignore_errors=True)

    def _parse(self, staged: StagedUpload) -> list[tuple[str, Document]]:
        errors: list[IngestError] = []
        parsed: list[tuple[str, Document]] = []
        for name in staged.names:
            try:
                doc = load_document(staged.staging / name, self.settings.ingest)
                if not self.corpus.chunker.chunk(doc):
                    raise IngestError("no text to index after parsing", name)
                parsed.append((name, doc))
            except IngestError as e:
                e.source = name  # never the server's staging path
                errors.append(e)
            except Exception as e:  # a parser bug: report it like bad input, keep the upload atomic
                errors.append(IngestError(f"internal error while parsing ({type(e).__name__}: {str(e)[:160]})", name))
        if errors:
            raise UploadRejected(errors, len(staged.names))
        return parsed

    def _copy_bounded(self, data: BinaryIO, path: Path, name: str) -> None:
        written = 0
        with path.open("wb") as out:
            while block := data.read(1 << 20):
                written += len(block)
                if written > self.max_file_bytes:
                    raise TooLarge(f"file too large (limit {self.max_file_bytes / 1048576:g} MB)", name)
                out.write(block)

    def _commit(self, parsed: list[tuple[str, Document]], staging: Path) -> list[UploadedDocument]:
        results: list[UploadedDocument] = []
        changed: list[tuple[str, Document, DocSummary | None]] = []
        for name, doc in parsed:
            final = self.folder / name
            if final.resolve().parent != self.folder:  # belt and braces: safe_filename already ensures it
                raise UnsafeName("file name resolves outside the uploads folder", name)
            doc.source_uri = final.as_uri()
            known = self.store.by_source(doc.source_uri) or self._by_id(doc.doc_id)
            if known is not None and known.content_hash == doc.content_hash and known.parser == PARSER_VERSION:
                results.append(UploadedDocument(name, known.doc_id, known.title, "unchanged", known.chunks))
                continue
            changed.append((name, doc, known))
        chunked = self.corpus.add_documents([doc for _, doc, _ in changed], embed=False) if changed else []
        for (name, doc, known), chunks in zip(changed, chunked, strict=True):
            (staging / name).replace(self.folder / name)  # after the commit: no file without its document
            status = "replaced" if known is not None else "added"
            results.append(UploadedDocument(name, doc.doc_id, doc.title, status, len(chunks), doc.warnings))
        self.store.refresh()
        order = {name: i for i, (name, _) in enumerate(parsed)}
        return sorted(results, key=lambda r: order[r.file])

    def _by_id(self, doc_id: str) -> DocSummary | None:
        try:
            found = self.store.find_document(doc_id)
        except NotFound:
            return None
        return found if found.doc_id == doc_id else None

    def remove_file(self, source_uri: str) -> bool:
        """Delete the stored upload behind ``source_uri`` (documents ingested from elsewhere are left alone)."""
        prefix = self.folder.as_uri() + "/"
        if not source_uri.startswith(prefix):
            return False
        path = self.folder / Path(unquote(source_uri[len(prefix) :])).name
        if path.is_file():
            path.unlink()
            return True
        return False
