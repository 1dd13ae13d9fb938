"""Uploads as jobs against a real server process: questions are answered while a large upload is being
indexed, and an upload is all or nothing even when a crash cuts it off between the commit and the
files' move into place."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import citewise
from citewise.serve.uploads import Upload, UploadIngester
from tests.serve.processes import running_server

TOKEN = "tok-jobs"
CLUB = (
    "# Club rules\n\n## Rule 1. Guests\n\nMembers may bring up to 3 guests to the club house on weekdays. "
    "Guests must sign the visitors' book at the reception desk on arrival.\n\n## Rule 2. Boats\n\n"
    "Members must register every boat kept at the marina with the harbour office before its first mooring.\n"
)
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def long_rules(n: int = 400) -> bytes:
    """A Markdown document of ``n`` distinct clauses: seconds of embedding on 2 cores."""
    lines = ["# Marina berth rules", ""]
    for i in range(1, n + 1):
        lines += [f"## Rule {i}", "", f"Berth holder {i} must keep pontoon {i % 17} clear of gear number {i * 7}.", ""]
    return "\n".join(lines).encode()


@pytest.fixture(scope="module")
def server(module_index: Path) -> Iterator[str]:
    env = {"CITEWISE_API_TOKEN": TOKEN, "CITEWISE_SERVE__RATE_BURST": "1000", "CITEWISE_SERVE__RATE_PER_MINUTE": "6000"}
    with running_server(module_index, env) as base:
        yield base


def test_an_upload_is_searchable_at_once_and_embedded_in_the_background(server: str) -> None:
    files = {"files": ("marina-rules.md", long_rules(), "text/markdown")}
    started = time.monotonic()
    queued = httpx.post(f"{server}/documents", files=files, headers=AUTH, timeout=60)
    assert queued.status_code == 202, queued.text  # a job, off the request path
    job = queued.json()["job"]
    status = queued.json()
    while status["status"] not in ("done", "failed"):
        assert time.monotonic() - started < 60
        time.sleep(0.1)
        status = httpx.get(f"{server}/jobs/{job}", headers=AUTH).json()
    assert status["status"] == "done" and status["documents"][0]["chunks"] >= 100
    indexed_in = time.monotonic() - started
    health = httpx.get(f"{server}/healthz").json()
    found = httpx.get(f"{server}/search", params={"q": "pontoon clear of gear 2793", "k": 3}, headers=AUTH).json()
    assert found["evidence"][0]["doc_title"] == "Marina berth rules"  # lexically, while vectors are being made
    assert health["embedding"]["done"] < health["embedding"]["total"], (health, indexed_in)
    assert found["strength"]["dense"] is None  # no dense search until every chunk has its vector
    deadline = time.monotonic() + 300
    while health["embedding"]["done"] < health["embedding"]["total"]:
        assert time.monotonic() < deadline, health
        time.sleep(0.5)
        health = httpx.get(f"{server}/healthz").json()
    after = httpx.get(f"{server}/search", params={"q": "pontoon clear of gear 2793", "k": 3}, headers=AUTH).json()
    assert after["evidence"][0]["doc_title"] == "Marina berth rules" and after["strength"]["dense"] is not None


def test_a_crash_between_commit_and_move_is_finished_at_start_and_an_uncommitted_one_undone(
    fresh_index: Path,
) -> None:
    with citewise.open(index=fresh_index) as engine:
        before = len(engine.documents())
        ingester = UploadIngester(engine, 1 << 20)
        committed = ingester.stage([Upload("club.md", _bytes(CLUB))])
        parsed = ingester._parse(committed)
        for name, doc in parsed:
            doc.source_uri = (ingester.folder / name).as_uri()
        engine.corpus().add_documents([doc for _, doc in parsed])  # committed; then the process died
        lost = ingester.stage([Upload("draft.md", _bytes(CLUB.replace("Club", "Draft")))])  # died before commit
    with citewise.open(index=fresh_index) as engine:
        moved = UploadIngester(engine, 1 << 20).recover()
        assert moved == ["club.md"] and (fresh_index / "uploads" / "club.md").is_file()
        assert not committed.staging.exists() and not lost.staging.exists()
        assert not (fresh_index / "uploads" / "draft.md").exists()
        assert len(engine.documents()) == before + 1


def _bytes(text: str) -> io.BytesIO:
    return io.BytesIO(text.encode())
