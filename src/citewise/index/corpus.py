"""Keep a store in step with files: parse, chunk, embed (cached) and write each document
atomically; skip unchanged files; report bad ones in one line each and go on."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from citewise.chunk.chunker import Chunker
from citewise.errors import IngestError, UnsupportedFormat
from citewise.index.base import Store
from citewise.index.embedded import text_hash
from citewise.index.embedder import Embedder
from citewise.ingest import PARSER_VERSION
from citewise.ingest.jsonl_importer import import_jsonl
from citewise.ingest.loader import check_size, file_hash, load_document
from citewise.progress import NullProgress, Progress
from citewise.settings import Settings
from citewise.types import Chunk, Document


@dataclass
class IngestReport:
    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """One line per bad file: ``file: reason``."""
    chunks: int = 0

    @property
    def ingested(self) -> int:
        return len(self.added) + len(self.replaced)


def walk(paths: Iterable[Path], extensions: list[str]) -> Iterator[tuple[Path, bool]]:
    """Files under ``paths`` (recursively, sorted, hidden ones skipped), with whether each was named."""
    for p in paths:
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                rel = f.relative_to(p).parts
                if f.is_file() and not any(x.startswith(".") for x in rel):
                    yield f, False
        else:
            yield p, True


class Corpus:
    def __init__(
        self,
        store: Store,
        embedder: Embedder | None,
        settings: Settings,
        progress: Progress | None = None,
        seed: Mapping[str, np.ndarray] | None = None,
    ) -> None:
        """``seed``: vectors known in advance by chunk-text hash (the sample corpus's, shipped with the
        package), used before the embedder is asked."""
        self.store = store
        self.seed = seed or {}
        self.embedder = embedder
        self.settings = settings
        self.chunker = Chunker(settings.chunk)
        self.progress = progress or NullProgress()

    def ingest(self, paths: list[Path], sync: bool = False) -> IngestReport:
        report = IngestReport()
        exts = [e.lower() for e in self.settings.ingest.extensions]
        files = list(walk(paths, exts))
        seen: set[str] = set()
        bar = self.progress.task("files", len(files))
        for path, _named in files:
            try:
                if not path.exists():
                    raise IngestError("no such file")
                if path.suffix.lower() not in exts:
                    raise UnsupportedFormat(
                        f"unsupported file type {path.suffix or '(none)'} (supported: {' '.join(exts)})"
                    )
                seen.update(self._ingest_file(path, report))
            except IngestError as e:
                e.source = e.source or str(path)
                report.errors.append(e.line())
            except Exception as e:  # a parser bug must not stop the batch; report it like bad input
                report.errors.append(f"{path}: internal error while ingesting ({type(e).__name__}: {str(e)[:160]})")
            finally:
                bar.advance()
        if sync:
            report.removed.extend(self._remove_missing(paths, seen))
        self.store.refresh()  # searchable (lexically) from here on
        self.embed_pending()
        self.store.refresh()
        return report

    def _ingest_file(self, path: Path, report: IngestReport) -> list[str]:
        """Ingest one file; returns the source URIs it accounts for."""
        check_size(path, self.settings.ingest)
        if path.suffix.lower() == ".jsonl" or path.suffix.lower() == ".json":
            try:
                docs = list(import_jsonl(path))
            except IngestError as e:
                e.source = str(path)
                raise
        else:
            uri = path.resolve().as_uri()
            known = self.store.by_source(uri)
            if known is not None and known.content_hash == file_hash(path) and known.parser == PARSER_VERSION:
                report.skipped.append(str(path))
                return [uri]
            task = self.progress.task(f"pages {path.name}")

            def on_page(done: int, total: int) -> None:
                task.total(total)
                task.advance()

            docs = [load_document(path, self.settings.ingest, on_page=on_page)]
        for doc in docs:
            known = self.store.by_source(doc.source_uri)
            if known is not None and known.content_hash == doc.content_hash and known.parser == PARSER_VERSION:
                report.skipped.append(doc.source_uri)
                continue
            self.add_documents([doc], embed=False)
            (report.replaced if known is not None else report.added).append(
                f"{path}" if len(docs) == 1 else doc.source_uri
            )
            report.chunks += self.store.count_chunks(doc.doc_id)
        return [d.source_uri for d in docs]

    def add_document(self, doc: Document) -> list[Chunk]:
        """Chunk, embed (reusing cached vectors) and store one parsed document atomically."""
        return self.add_documents([doc])[0]

    def add_documents(self, docs: list[Document], embed: bool = True) -> list[list[Chunk]]:
        """Chunk every document, then store them all in one transaction: a crash leaves all of them indexed
        or none. ``embed=False``: stored at once for lexical search, their vectors left to ``embed_pending``
        (the vectors already known — cached, or shipped with the sample corpus — are used at once)."""
        items = []
        for doc in docs:
            chunks = self.chunker.chunk(doc)
            if not chunks:
                raise IngestError("no text to index after parsing", doc.source_uri)
            if embed:
                items.append((doc, chunks, self.embed(chunks)))
            else:
                self._seeded([text_hash(c.index_text) for c in chunks])
                items.append((doc, chunks, None))
        self.store.replace_documents(items)
        return [chunks for _, chunks, _ in items]

    def embed_pending(self, batch: int | None = None, limit: int | None = None) -> int:
        """Embed the chunks stored without a vector (the queue in the index: an ingest killed while embedding
        resumes here), ``batch`` at a time, at most ``limit`` of them; returns how many were embedded."""
        if self.embedder is None:
            return 0
        done, total = self.store.embedding_progress()
        bar = self.progress.task("embeddings", total - done)
        size = batch or self.settings.store.embed_batch
        embedded = 0
        while limit is None or embedded < limit:
            pending = self.store.pending_embeddings(size if limit is None else min(size, limit - embedded))
            if not pending:
                break
            hashes = [h for h, _ in pending]
            seeded = self._seeded(hashes)
            todo = [(h, t) for h, t in pending if h not in seeded]
            if todo:
                vecs = self.embedder.passages([t for _, t in todo])
                self.store.cache_vectors([h for h, _ in todo], vecs)
            embedded += len(pending)
            bar.advance(len(pending))
        return embedded

    def _seeded(self, hashes: list[str]) -> set[str]:
        """Cache the shipped vectors of these chunk texts (when not cached yet); returns the hashes seeded."""
        if not self.seed:
            return set()
        wanted = [h for h in dict.fromkeys(hashes) if h in self.seed]
        cached = self.store.cached_vectors(wanted) if wanted else {}
        new = [h for h in wanted if h not in cached]
        if new:
            self.store.cache_vectors(new, np.stack([self.seed[h] for h in new]).astype(np.float32))
        return set(wanted)

    def embed(self, chunks: list[Chunk]) -> np.ndarray | None:
        if self.embedder is None:
            return None
        texts = [c.index_text for c in chunks]
        hashes = [text_hash(t) for t in texts]
        self._seeded(hashes)
        cached = self.store.cached_vectors(hashes)
        todo = [i for i, h in enumerate(hashes) if h not in cached]
        bar = self.progress.task("embeddings", len(todo))
        batch = self.settings.store.embed_batch
        for i in range(0, len(todo), batch):
            part = todo[i : i + batch]
            vecs = self.embedder.passages([texts[j] for j in part])
            self.store.cache_vectors([hashes[j] for j in part], vecs)
            for j, v in zip(part, vecs, strict=True):
                cached[hashes[j]] = v
            bar.advance(len(part))
        return np.stack([cached[h] for h in hashes]).astype(np.float32)

    def _remove_missing(self, roots: list[Path], seen: set[str]) -> list[str]:
        prefixes = [r.resolve().as_uri().rstrip("/") + "/" for r in roots if r.is_dir()]
        removed = []
        for d in self.store.documents():
            base = d.source_uri.split("#", 1)[0]
            if any(base.startswith(p) for p in prefixes) and d.source_uri not in seen:
                self.store.delete_document(d.doc_id)
                removed.append(f"{d.doc_id} {d.title}")
        return removed
