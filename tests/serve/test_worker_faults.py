"""A fault of ours while an upload is indexed (a bug, not a bad file) fails the job with its reason; the job
never stays "running", and the index is left as it was."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from citewise.index.embedder import Embedder
from citewise.serve.uploads import Upload, UploadIngester
from citewise.serve.worker import Worker
from citewise.settings import Settings


def test_an_unexpected_error_while_indexing_fails_the_job(
    fresh_index: Path, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self: UploadIngester, staged: object) -> list[object]:
        raise RuntimeError("disk quota arithmetic went wrong")  # scripted fault: the failure path only

    async def scenario() -> tuple[str, str, int, int]:
        worker = Worker(Settings(index=fresh_index), embedder)
        await worker.start()
        try:
            before = await worker.write(lambda w: len(w.engine.store.documents()))
            monkeypatch.setattr(UploadIngester, "index", broken)
            data = io.BytesIO(b"# Club rules\n\n## Rule 1\n\nMembers may bring 3 guests.\n")
            staged = worker.stage(lambda u: u.stage([Upload("club.md", data)]))
            job = await worker.wait(worker.submit(staged))
            after = await worker.write(lambda w: len(w.engine.store.documents()))
            return job.status, job.message, before, after
        finally:
            await worker.stop()

    status, message, before, after = asyncio.run(scenario())
    assert status == "failed"
    assert "RuntimeError" in message and "disk quota" in message
    assert after == before
