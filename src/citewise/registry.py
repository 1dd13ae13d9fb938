"""One registry for every pluggable part: generators, embedders, analyzers, parsers, support
scorers, stores and data-set converters.

A ``Registry`` maps a name to a factory. Built-in backends are declared the way a plugin declares
them, as ``"module:attribute"`` strings imported on first use; a plugin package adds its own under
the entry-point group ``citewise.<kind>`` (for example ``[project.entry-points."citewise.generators"]
mine = "my_pkg.gen:MyGenerator"``) and is found without being imported by hand. An unknown name
raises ``UnknownName`` (a ``CitewiseError`` and a ``KeyError``) listing the known ones."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from importlib.metadata import entry_points
from typing import Generic, TypeVar

from citewise.errors import CitewiseError, UnknownName

T = TypeVar("T")


class Registry(Generic[T]):
    """Name -> factory of ``T`` for one kind of part (``kind`` names it in errors and entry points)."""

    def __init__(self, kind: str, builtins: dict[str, str] | None = None, group: str | None = None) -> None:
        self.kind = kind
        self.group = group or f"citewise.{kind}s"
        self._lazy: dict[str, str] = dict(builtins or {})
        self._factories: dict[str, Callable[..., T]] = {}
        self._discovered = False

    def register(self, name: str, factory: Callable[..., T] | str) -> None:
        """Add (or replace) ``name``: a factory, or a ``"module:attribute"`` path imported on first use."""
        self._factories.pop(name, None)
        self._lazy.pop(name, None)
        if isinstance(factory, str):
            self._lazy[name] = factory
        else:
            self._factories[name] = factory

    def names(self) -> list[str]:
        self._discover()
        return sorted(set(self._factories) | set(self._lazy))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self.names()

    def factory(self, name: str) -> Callable[..., T]:
        """The factory registered as ``name``; ``UnknownName`` when there is none."""
        self._discover()
        if name not in self._factories:
            path = self._lazy.get(name)
            if path is None:
                raise UnknownName(self.kind, name, self.names())
            self._factories[name] = _load(path)
        return self._factories[name]

    def create(self, name: str, **kwargs: object) -> T:
        """A new ``T`` from the factory registered as ``name``."""
        return self.factory(name)(**kwargs)

    def items(self) -> Iterable[tuple[str, Callable[..., T]]]:
        for name in self.names():
            yield name, self.factory(name)

    def _discover(self) -> None:
        if self._discovered:
            return
        self._discovered = True
        for ep in entry_points(group=self.group):
            if ep.name not in self._factories and ep.name not in self._lazy:
                self._lazy[ep.name] = ep.value


def _load(path: str) -> Callable[..., T]:
    module, _, attr = path.partition(":")
    obj: object = importlib.import_module(module)
    for part in attr.split(".") if attr else []:
        obj = getattr(obj, part)
    if not callable(obj):
        raise CitewiseError(f"{path} is registered as a factory but is not callable")
    return obj  # type: ignore[return-value]
