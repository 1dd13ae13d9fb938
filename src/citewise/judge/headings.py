"""The provision a question names by its heading.

"Người phạm tội trốn tránh nghĩa vụ quân sự trong thời chiến thì bị phạt tù …?" names the offence of Điều 332 ("Tội
trốn tránh nghĩa vụ quân sự"); the found "Điều 402. Tội đào ngũ" also says "trốn tránh nghĩa vụ trong thời chiến" and
its sentence can read closer to the question, but it is another offence. When the sentence a judge chose sits under a
heading that shares no word pair with the question while another piece of evidence sits under one the question names,
the question is asked of the provision it names."""

from __future__ import annotations

from collections.abc import Sequence

from citewise.chunk.header import provision_title
from citewise.judge.records import Passage
from citewise.textmatch import query_terms, text_terms

NAMED_PAIRS = 2
"""Word pairs of a heading a question must hold to name it: pairs, because single Vietnamese syllables ("công",
"hành") are in any provision."""


def heading(p: Passage) -> str:
    """The heading of the provision ``p`` is from (``chunk.header.provision_title``)."""
    return provision_title(p.header)


def names_heading(question: str, title: str) -> bool:
    """Whether ``question`` holds ``NAMED_PAIRS`` word pairs of ``title`` or more."""
    return len(query_terms(title, marks=True)[1] & text_terms(question, marks=True)[1]) >= NAMED_PAIRS


def named_instead(question: str, passages: Sequence[Passage], chosen: int) -> list[int]:
    """The passages under a heading ``question`` names, when the ``chosen`` one's heading shares no word pair with it
    (empty otherwise: the chosen provision is named, or none is)."""
    asked = text_terms(question, marks=True)[1]
    if query_terms(heading(passages[chosen]), marks=True)[1] & asked:
        return []
    return [i for i, p in enumerate(passages) if i != chosen and names_heading(question, heading(p))]
