"""The one thread that owns the index: the engine (store, embedder, retriever, assistants), the
audit log and the upload ingester are created, used and closed there, so their SQLite
connections never cross threads. Requests wait their turn (``await worker.run(fn)``)."""

from __future__ import annotations

import asyncio
import functools
import math
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from citewise.engine import FROM_SETTINGS, open_engine
from citewise.errors import StoreError
from citewise.index.embedder import Embedder
from citewise.serve.audit import AuditLog
from citewise.serve.uploads import UploadIngester
from citewise.settings import Settings

T = TypeVar("T")


class Services:
    """Everything built on the index folder; only ever touched from the worker thread."""

    def __init__(self, settings: Settings, embedder: Embedder | None, max_upload_bytes: int) -> None:
        self.engine = open_engine(settings=settings, embedder=embedder)
        self.audit = AuditLog(settings.index, settings.privacy.store_questions, settings.privacy.retention_days)
        self.uploads = UploadIngester(self.engine, max_upload_bytes)

    def close(self) -> None:
        self.audit.close()
        self.engine.close()


class Busy(StoreError):
    """Too many requests wait for the index worker."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the server is busy: try again in {retry_after} s")
        self.retry_after = retry_after


class TimedOut(StoreError):
    """A request's answer was not ready within its deadline."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"no answer within {seconds:g} s; the server is overloaded or the generator is slow")


class Worker:
    def __init__(
        self,
        settings: Settings,
        embedder: Embedder | None = FROM_SETTINGS,
        max_upload_bytes: int = 25 << 20,
        max_queue: int = 8,
        deadline_s: float = 60.0,
    ) -> None:
        self.settings = settings
        self.embedder = embedder
        self.max_upload_bytes = max_upload_bytes
        self.max_queue = max_queue
        self.deadline_s = deadline_s
        self.pending = 0
        """Requests submitted and not finished (running or waiting)."""
        self.recent_ms = 1000.0
        """How long the last request took, waiting included (for Retry-After)."""
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="citewise-index")
        self._services: Services | None = None
        self.documents = 0
        """Documents in the index as of the last write seen (for /healthz, which never waits)."""

    async def start(self) -> None:
        def build() -> Services:
            services = Services(self.settings, self.embedder, self.max_upload_bytes)
            services.engine.store.refresh()  # load (or build) the derived indexes before the first question
            services.engine.warm()  # the default generator (a local model evaluates its system prompt)
            self.documents = len(services.engine.store.documents())
            return services

        self._services = await self._submit(build)

    async def stop(self) -> None:
        if self._services is not None:
            await self._submit(self._services.close)
            self._services = None
        self.executor.shutdown(wait=True)

    async def run(self, fn: Callable[[Services], T]) -> T:
        """Run ``fn(services)`` in the worker thread: ``Busy`` when ``max_queue`` requests already wait,
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

    async def _submit(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn)
