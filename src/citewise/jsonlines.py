"""JSON Lines: one JSON value per line, blank lines skipped, errors naming the line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any


class JsonLineError(ValueError):
    """A line that is not JSON; callers turn it into their own error with ``line`` and ``msg``."""

    def __init__(self, line: int, msg: str) -> None:
        super().__init__(f"line {line}: invalid JSON ({msg})")
        self.line = line
        self.msg = msg


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
