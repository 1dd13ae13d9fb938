"""JSON Lines: one JSON value per line, blank lines skipped, errors naming the line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from citewise.errors import JsonLineError

__all__ = ["JsonLineError", "json_lines"]


def json_lines(lines: Iterable[str]) -> Iterator[tuple[int, Any]]:
    """(line number from 1, value) of every non-blank line."""
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as e:
            raise JsonLineError(n, e.msg) from e
        yield n, value
