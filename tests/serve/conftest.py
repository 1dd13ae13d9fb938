"""A served copy of the sample index: the app under test writes (audit log, uploads), so every
module gets its own copy of the shared, read-only ``sample_index``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from citewise.index.embedder import Embedder
from citewise.serve.api import create_app
from citewise.serve.config import ServeSettings
from citewise.settings import Settings

AppFactory = Callable[..., Any]


@pytest.fixture(scope="module")
def served_index(module_index: Path) -> Path:
    return module_index


@pytest.fixture(scope="module")
def make_client(served_index: Path, embedder: Embedder) -> AppFactory:
    """``with make_client(token=..., rate_burst=...) as client``: the real app on the served index."""

    @contextmanager
    def make(index: Path | None = None, **serve: Any) -> Iterator[TestClient]:
        app = create_app(
            Settings(index=index or served_index), ServeSettings(**{"token": None, **serve}), embedder=embedder
        )
        with TestClient(app, base_url="http://127.0.0.1:8000") as client:
            yield client

    return make


@pytest.fixture(scope="module")
def client(make_client: AppFactory) -> Iterator[TestClient]:
    with make_client(rate_burst=1000) as c:
        yield c
