"""Reading a model's JSON reply while it is being written: each sentence object of the ``answer`` array
is handed on as soon as its closing brace arrives, so that it can be validated and shown before the
model has finished (or when a time budget stops it)."""

from __future__ import annotations

import json
import re
from typing import Any

_ANSWER = re.compile(r'"answer"\s*:\s*\[')


class AnswerItems:
    """Feed text as it comes (``feed``); get back the sentence objects completed by it."""

    def __init__(self) -> None:
        self.text = ""
        self._pos = -1
        """Where scanning resumes inside the answer array; -1 until the array has opened."""
        self._start = -1
        """Where the object being read began; -1 between objects."""
        self._depth = 0
        self._in_string = False
        self._escape = False
        self.closed = False
        """The answer array has ended."""
        self.done: list[dict[str, Any]] = []
        """Every sentence object completed so far."""

    def feed(self, chunk: str) -> list[dict[str, Any]]:
        self.text += chunk
        if self._pos < 0:
            m = _ANSWER.search(self.text)
            if m is None:
                return []
            self._pos = m.end()
        out: list[dict[str, Any]] = []
        text = self.text
        i = self._pos
        while i < len(text) and not self.closed:
            ch = text[i]
            if self._in_string:
                if self._escape:
                    self._escape = False
                elif ch == "\\":
                    self._escape = True
                elif ch == '"':
                    self._in_string = False
            elif ch == '"':
                self._in_string = True
            elif ch in "{[":
                if self._depth == 0 and ch == "{":
                    self._start = i
                self._depth += 1
            elif ch in "}]":
                if self._depth == 0 and ch == "]":
                    self.closed = True
                else:
                    self._depth -= 1
                    if self._depth == 0 and self._start >= 0:
                        item = _load(text[self._start : i + 1])
                        if item is not None:
                            out.append(item)
                        self._start = -1
            i += 1
        self._pos = i
        self.done += out
        return out


def _load(text: str) -> dict[str, Any] | None:
    try:
        item = json.loads(text)
    except json.JSONDecodeError:
        return None
    return item if isinstance(item, dict) else None
