"""Where the shared benchmark data lives: ``$CITEWISE_SHARED_DATA``, else ``../shared/data`` next to
the working directory, else ``../shared/data`` next to the source checkout."""

from __future__ import annotations

import os
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[3]


def shared_data() -> Path:
    """The shared data folder (it may not exist: callers say so when they need it)."""
    env = os.environ.get("CITEWISE_SHARED_DATA")
    if env:
        return Path(env)
    for base in (Path.cwd(), _CHECKOUT):
        candidate = base.parent / "shared" / "data"
        if candidate.is_dir():
            return candidate
    return Path.cwd().parent / "shared" / "data"
