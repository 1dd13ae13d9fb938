"""How close a question about unrelated things comes to an index: the weak-evidence cosine limit raised to it.

The weak-evidence rule refuses a question whose best evidence is below a cosine limit (and a coverage limit), chosen
per language on the benchmark corpora. The best cosine of a question about something else grows with the index: of
11,482 ObliQA chunks one is always somewhat close ("How do I change a flat tyre?" reaches 0.824 with a rule on changes
to a paying agent), where a policy of 107 chunks gives such questions 0.78. So the limit an index needs is read from
the index itself: the questions of ``retrieve.probes`` (about things no legal text is about) are searched once per
index state and language, and the limit is at least the cosine most of them reach there (the ``quantile``-th
percentile of their best cosines, plus ``margin``). Never lower than the configured limit."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from citewise.retrieve.probes import PROBES
from citewise.retrieve.records import SearchResult

STALE_S = 60.0
"""Seconds a level read stays in force while only vectors are being added to the index (its documents unchanged):
during background embedding the index state changes with every batch, and reading the level again each time would
cost a near-weak question 0.5-0.7 s per batch."""


class Unrelated:
    """The probes' cosine level per language, read on first use and again when the index changes: at once when its
    documents change (the state's first part, the generation), at most every ``STALE_S`` seconds while only its vectors
    do."""

    def __init__(
        self,
        search: Callable[[str], SearchResult],
        quantile: float,
        margin: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``search``: the retriever's search without this limit (no probe reads another probe)."""
        self.search, self.quantile, self.margin, self.clock = search, quantile, margin, clock
        self._levels: dict[str, tuple[tuple[int, ...], float | None, float]] = {}

    def level(self, lang: str, state: tuple[int, ...]) -> float | None:
        """The probes' level for ``lang`` in the index at ``state`` (``None``: they find no vectors)."""
        if not self._fresh(lang, state):
            self._levels[lang] = (state, self._level(lang), self.clock())
        return self._levels[lang][1]

    def known(self, lang: str, state: tuple[int, ...]) -> float | None:
        """The level for ``lang`` when read for ``state`` and still in force, else ``None`` (nothing is searched)."""
        return self._levels[lang][1] if self._fresh(lang, state) else None

    def _fresh(self, lang: str, state: tuple[int, ...]) -> bool:
        read = self._levels.get(lang)
        if read is None:
            return False
        if read[0] == state:
            return True
        return read[0][:1] == state[:1] and self.clock() - read[2] < STALE_S

    def _level(self, lang: str) -> float | None:
        probes = PROBES.get(lang, ())
        best = []
        for question in probes:
            result = self.search(question)
            if result.analysis.lang == lang and result.strength.dense is not None:
                best.append(result.strength.dense)
        if len(best) < len(probes) // 2:
            return None  # no vectors yet, or the probes read as another language: the configured limit stands
        return float(np.percentile(best, self.quantile)) + self.margin
