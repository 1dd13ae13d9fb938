"""Progress reporting passed into long work; ``NullProgress`` is silent."""

from __future__ import annotations

from typing import Protocol


class Task(Protocol):
    def advance(self, n: int = 1) -> None: ...

    def total(self, n: int) -> None: ...


class Progress(Protocol):
    def task(self, name: str, total: int | None = None) -> Task: ...


class _NullTask:
    def advance(self, n: int = 1) -> None:
        return None

    def total(self, n: int) -> None:
        return None


class NullProgress:
    def task(self, name: str, total: int | None = None) -> Task:
        return _NullTask()
