"""How close a question about unrelated things comes to an index: the weak-evidence cosine limit raised to it.

The weak-evidence rule refuses a question whose best evidence is below a cosine limit (and a coverage limit), chosen
per language on the benchmark corpora. The best cosine of a question about something else grows with the index: of
11,482 ObliQA chunks one is always somewhat close ("How do I change a flat tyre?" reaches 0.824 with a rule on changes
to a paying agent), where a policy of 107 chunks gives such questions 0.78. So the limit an index needs is read from
the index itself: the questions of ``retrieve.probes`` (about things no legal text is about) are searched once per
index state and language, and the limit is at least the cosine most of them reach there (the ``quantile``-th
percentile of their best cosines, plus ``margin``). Never lower than the configured limit."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from citewise.retrieve.probes import PROBES
from citewise.retrieve.records import SearchResult


class Unrelated:
    """The probes' cosine level per language, read on first use and again when the index changes."""

    def __init__(self, search: Callable[[str], SearchResult], quantile: float, margin: float) -> None:
        """``search``: the retriever's search without this limit (no probe reads another probe)."""
        self.search, self.quantile, self.margin = search, quantile, margin
        self._levels: dict[str, tuple[tuple[int, ...], float | None]] = {}

    def level(self, lang: str, state: tuple[int, ...]) -> float | None:
        """The probes' level for ``lang`` in the index at ``state`` (``None``: they find no vectors)."""
        known = self._levels.get(lang)
        if known is None or known[0] != state:
            known = (state, self._level(lang))
            self._levels[lang] = known
        return known[1]

    def known(self, lang: str, state: tuple[int, ...]) -> float | None:
        """The level for ``lang`` when already read at ``state``, else ``None`` (nothing is searched)."""
        known = self._levels.get(lang)
        return known[1] if known is not None and known[0] == state else None

    def _level(self, lang: str) -> float | None:
        best = []
        for question in PROBES.get(lang, ()):
            result = self.search(question)
            if result.analysis.lang == lang and result.strength.dense is not None:
                best.append(result.strength.dense)
        if len(best) < len(PROBES.get(lang, ())) // 2:
            return None  # no vectors yet, or the probes read as another language: the configured limit stands
        return float(np.percentile(best, self.quantile)) + self.margin
