"""The threads that own the index. A reader thread answers (the engine used for questions and listings,
and the audit log); a writer thread indexes uploads and removes documents, with its own engine. Each
creates, uses and closes its objects itself, so no SQLite connection crosses threads; SQLite's WAL lets
the reader read while the writer writes, and the reader sees a write at its next search (the store's
generation). Requests wait their turn (``await worker.run(fn)``, ``await worker.write(fn)``), bounded
in number and time; an upload is a job (``worker.submit``) whose status is polled."""

from __future__ import annotations

import asyncio
import collections
import datetime as dt
import functools
import logging
import math
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from typing import Any, TypeVar

import numpy as np

from citewise.engine import FROM_SETTINGS, open_engine
from citewise.errors import IngestError, NotFound, StoreError
from citewise.index.embedder import Embedder
from citewise.serve.audit import AuditLog
from citewise.serve.uploads import StagedUpload, UploadedDocument, UploadIngester, UploadRejected
from citewise.settings import Settings

T = TypeVar("T")
log = logging.getLogger("citewise.serve")


class Services:
    """The reader's objects; only ever touched from the reader thread."""

    def __init__(self, settings: Settings, embedder: Embedder | None) -> None:
        self.engine = open_engine(settings=settings, embedder=embedder)
        self.audit = AuditLog(settings.index, settings.privacy.store_questions, settings.privacy.retention_days)

    def close(self) -> None:
        self.audit.close()
        self.engine.close()


class Writer:
    """The writer's objects; only ever touched from the writer thread."""

    def __init__(self, settings: Settings, embedder: Embedder | None, max_upload_bytes: int) -> None:
        self.engine = open_engine(settings=settings, embedder=embedder)
        self.uploads = UploadIngester(self.engine, max_upload_bytes)

    def close(self) -> None:
        self.engine.close()


class LockedEmbedder(Embedder):
    """One embedder shared by the reader and the writer, used by one of them at a time."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.lock = threading.Lock()

    def passages(self, texts: list[str]) -> np.ndarray:
        with self.lock:
            return self.inner.passages(texts)

    def query(self, text: str) -> np.ndarray:
        with self.lock:
            return self.inner.query(text)


class Busy(StoreError):
    """Too many requests wait for the index worker."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the server is busy: try again in {retry_after} s")
        self.retry_after = retry_after


class TimedOut(StoreError):
    """A request's answer was not ready within its deadline."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"no answer within {seconds:g} s; the server is overloaded or the generator is slow")


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


@dataclass
class Job:
    """An upload being indexed: ``queued`` → ``running`` → ``done`` or ``failed`` (nothing indexed)."""

    job: str
    files: list[str]
    status: str = "queued"
    submitted_at: str = field(default_factory=_now)
    finished_at: str = ""
    documents: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, str]] = field(default_factory=list)
    """One ``{"file", "error", "kind"}`` per refused file, or the reason the job failed."""
    message: str = ""
    error: IngestError | StoreError | None = field(default=None, repr=False)
    """What made it fail (not in ``to_dict``): re-raised for a client that waits."""

    def to_dict(self) -> dict[str, Any]:
        out = asdict(replace(self, error=None))
        out.pop("error")
        return out


def _fail(job: Job, error: IngestError | StoreError, message: str, errors: list[dict[str, str]]) -> None:
    """Mark ``job`` failed, its status set last (a client polling it sees everything else already set)."""
    job.errors, job.message, job.error, job.finished_at = errors, message, error, _now()
    job.status = "failed"


class Worker:
    def __init__(
        self,
        settings: Settings,
        embedder: Embedder | None = FROM_SETTINGS,
        max_upload_bytes: int = 25 << 20,
        max_queue: int = 8,
        deadline_s: float = 60.0,
        max_jobs: int = 4,
    ) -> None:
        self.settings = settings
        self.embedder = embedder
        self.max_upload_bytes = max_upload_bytes
        self.max_queue = max_queue
        self.deadline_s = deadline_s
        self.max_jobs = max_jobs
        self.pending = 0
        """Requests submitted to the reader and not finished (running or waiting)."""
        self.recent_ms = 1000.0
        """How long the last reader request took, waiting included (for Retry-After)."""
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="citewise-reader")
        self.writer_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="citewise-writer")
        self._services: Services | None = None
        self._writer: Writer | None = None
        self.jobs: collections.OrderedDict[str, Job] = collections.OrderedDict()
        self._futures: dict[str, Future[None]] = {}
        """Upload jobs by id: the unfinished ones and the last 100 finished."""
        self.documents = 0
        """Documents in the index as of the last write seen (for /healthz, which never waits)."""
        self.embedding = (0, 0)
        """(chunk texts with a vector, chunk texts) as of the writer's last look (for /healthz)."""

    async def start(self) -> None:
        shared = (
            self.embedder if self.embedder is FROM_SETTINGS or self.embedder is None else LockedEmbedder(self.embedder)
        )

        def build_writer() -> Writer:
            writer = Writer(self.settings, shared, self.max_upload_bytes)
            writer.uploads.recover()  # uploads a crash cut off: finished or undone before anything is read
            self._embed_later(writer)  # vectors a killed ingest or upload left to embed
            return writer

        def build() -> Services:
            services = Services(self.settings, shared)
            services.engine.store.refresh()  # load (or build) the derived indexes before the first question
            services.engine.warm()  # the default generator (a local model evaluates its system prompt)
            self.documents = len(services.engine.store.documents())
            return services

        loop = asyncio.get_running_loop()
        self._writer = await loop.run_in_executor(self.writer_executor, build_writer)
        self._services = await loop.run_in_executor(self.executor, build)

    async def stop(self) -> None:
        loop = asyncio.get_running_loop()
        if self._writer is not None:
            await loop.run_in_executor(self.writer_executor, self._writer.close)
            self._writer = None
        if self._services is not None:
            await loop.run_in_executor(self.executor, self._services.close)
            self._services = None
        self.writer_executor.shutdown(wait=True)
        self.executor.shutdown(wait=True)

    async def run(self, fn: Callable[[Services], T]) -> T:
        """Run ``fn(services)`` in the reader thread: ``Busy`` when ``max_queue`` requests already wait,
        ``TimedOut`` when the answer is not ready within ``deadline_s``."""
        services = self._services
        if services is None:
            raise StoreError("the index worker is not running")
        if self.pending >= self.max_queue:
            raise Busy(max(1, math.ceil(self.pending * self.recent_ms / 1000)))
        self.pending += 1
        started = time.perf_counter()
        future = asyncio.get_running_loop().run_in_executor(self.executor, functools.partial(fn, services))

        def done(_: object) -> None:
            self.pending -= 1
            self.recent_ms = (time.perf_counter() - started) * 1000

        future.add_done_callback(done)
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout=self.deadline_s)
        except TimeoutError:
            raise TimedOut(self.deadline_s) from None

    async def write(self, fn: Callable[[Writer], T]) -> T:
        """Run ``fn(writer)`` in the writer thread, after the upload jobs queued before it."""
        writer = self._writer
        if writer is None:
            raise StoreError("the index worker is not running")
        if self._unfinished() >= self.max_jobs + self.max_queue:
            raise Busy(max(1, math.ceil(self.recent_ms / 1000)))
        future = asyncio.get_running_loop().run_in_executor(self.writer_executor, functools.partial(fn, writer))
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout=self.deadline_s)
        except TimeoutError:
            raise TimedOut(self.deadline_s) from None

    def stage(self, fn: Callable[[UploadIngester], StagedUpload]) -> StagedUpload:
        """``fn(uploads)`` where it only checks names and copies bytes (no index access): any thread."""
        if self._writer is None:
            raise StoreError("the index worker is not running")
        if self._unfinished() >= self.max_jobs:
            raise Busy(max(1, math.ceil(self.recent_ms / 1000)))
        return fn(self._writer.uploads)

    def submit(self, staged: StagedUpload) -> Job:
        """Index a staged upload as a job in the writer thread; its status is ``self.jobs[id]``."""
        job = Job(secrets.token_hex(8), list(staged.names))
        self.jobs[job.job] = job
        self._forget_old()

        def index(writer: Writer) -> None:
            job.status = "running"
            # the status is set last: a client polling the job sees "done" or "failed" with everything else set
            try:
                results: list[UploadedDocument] = writer.uploads.index(staged)
            except UploadRejected as e:
                errors = [{"file": x.source or "", "error": x.reason, "kind": type(x).__name__} for x in e.errors]
                _fail(job, e, e.reason, errors)
            except (IngestError, StoreError) as e:
                _fail(job, e, str(e), [{"file": "", "error": str(e), "kind": type(e).__name__}])
            except Exception as e:  # a fault of ours: the job fails and says so, it never stays "running"
                log.exception("indexing upload job %s failed", job.job)
                failure = StoreError(f"indexing failed: {type(e).__name__}: {e}")
                _fail(job, failure, str(failure), [{"file": "", "error": str(failure), "kind": type(e).__name__}])
            else:
                job.documents = [asdict(r) for r in results]
                self.documents = len(writer.engine.store.documents())
                job.finished_at = _now()
                job.status = "done"
                self._embed_later(writer)
            finally:
                job.finished_at = job.finished_at or _now()

        writer = self._writer
        if writer is None:
            raise StoreError("the index worker is not running")
        self._futures[job.job] = self.writer_executor.submit(index, writer)
        return job

    async def wait(self, job: Job) -> Job:
        """``job`` once finished (``TimedOut`` after ``deadline_s``; the job goes on)."""
        future = self._futures.get(job.job)
        if future is not None:
            try:
                await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), timeout=self.deadline_s)
            except TimeoutError:
                raise TimedOut(self.deadline_s) from None
        return job

    def _embed_later(self, writer: Writer, slice_size: int = 32) -> None:
        """Embed the chunks waiting for vectors a slice at a time in the writer thread, so that uploads and
        removals submitted meanwhile run between slices; dense search starts once all are embedded."""
        if writer.uploads.corpus.embedder is None:
            return
        self.embedding = writer.engine.store.embedding_progress()
        if self.embedding[0] >= self.embedding[1]:
            return

        def some(w: Writer) -> None:
            try:
                w.uploads.corpus.embed_pending(limit=slice_size)
            except Exception:  # a failing embedder must not kill the writer; the queue stays in the index
                log.exception("embedding in the background failed; it resumes at the next upload or start")
                return
            self.embedding = w.engine.store.embedding_progress()
            if self.embedding[0] < self.embedding[1]:
                self.writer_executor.submit(some, w)
            else:
                w.engine.store.refresh()  # build and save the dense index for the reader to load

        self.writer_executor.submit(some, writer)

    def job(self, job_id: str) -> Job:
        try:
            return self.jobs[job_id]
        except KeyError:
            raise NotFound(f"no upload job {job_id[:40]}") from None

    def _unfinished(self) -> int:
        return sum(j.status in ("queued", "running") for j in self.jobs.values())

    def _forget_old(self, keep: int = 100) -> None:
        finished = [k for k, j in self.jobs.items() if j.status in ("done", "failed")]
        for k in finished[: max(0, len(finished) - keep)]:
            del self.jobs[k]
            self._futures.pop(k, None)
