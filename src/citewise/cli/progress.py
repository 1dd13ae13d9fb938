"""A ``Progress`` drawn with rich bars on stderr."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


class _RichTask:
    def __init__(self, bar: Progress, task_id: int) -> None:
        self.bar = bar
        self.task_id = task_id

    def advance(self, n: int = 1) -> None:
        self.bar.advance(self.task_id, n)  # type: ignore[arg-type]

    def total(self, n: int) -> None:
        self.bar.update(self.task_id, total=n)  # type: ignore[arg-type]


class RichProgress:
    def __init__(self, console: Console) -> None:
        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        )

    def __enter__(self) -> RichProgress:
        self.bar.start()
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.bar.stop()

    def task(self, name: str, total: int | None = None) -> _RichTask:
        return _RichTask(self.bar, int(self.bar.add_task(name, total=total)))
