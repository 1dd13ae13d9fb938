"""The one thread that owns the index: the engine (store, embedder, retriever, assistants), the
audit log and the upload ingester are created, used and closed there, so their SQLite
connections never cross threads. Requests wait their turn (``await worker.run(fn)``)."""

from __future__ import annotations

import asyncio
import functools
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
        self.audit = AuditLog(settings.index)
        self.uploads = UploadIngester(self.engine, max_upload_bytes)

    def close(self) -> None:
        self.audit.close()
        self.engine.close()


class Worker:
    def __init__(
        self, settings: Settings, embedder: Embedder | None = FROM_SETTINGS, max_upload_bytes: int = 25 << 20
    ) -> None:
        self.settings = settings
        self.embedder = embedder
        self.max_upload_bytes = max_upload_bytes
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="citewise-index")
        self._services: Services | None = None
        self.documents = 0
        """Documents in the index as of the last write seen (for /healthz, which never waits)."""

    async def start(self) -> None:
        def build() -> Services:
            services = Services(self.settings, self.embedder, self.max_upload_bytes)
            services.engine.store.refresh()  # load (or build) the derived indexes before the first question
            self.documents = len(services.engine.store.documents())
            return services

        self._services = await self._submit(build)

    async def stop(self) -> None:
        if self._services is not None:
            await self._submit(self._services.close)
            self._services = None
        self.executor.shutdown(wait=True)

    async def run(self, fn: Callable[[Services], T]) -> T:
        """Run ``fn(services)`` in the worker thread."""
        services = self._services
        if services is None:
            raise StoreError("the index worker is not running")
        return await self._submit(functools.partial(fn, services))

    async def _submit(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn)
