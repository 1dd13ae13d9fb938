"""The provision a question names by its heading.

"Người phạm tội trốn tránh nghĩa vụ quân sự trong thời chiến thì bị phạt tù …?" names the offence of Điều 332 ("Tội
trốn tránh nghĩa vụ quân sự"); the found "Điều 402. Tội đào ngũ" also says "trốn tránh nghĩa vụ trong thời chiến" and
its sentence can read closer to the question, but it is another offence. When the sentence a judge chose sits under a
heading that shares no word pair with the question while another piece of evidence sits under one the question names,
the question is asked of the provision it names."""

from __future__ import annotations

import re
from collections.abc import Sequence

from citewise.chunk.header import header_parts
from citewise.chunk.sentences import PROVISION_WORD
from citewise.judge.records import Passage
from citewise.textmatch import query_terms, text_terms

NAMED_PAIRS = 2
"""Word pairs of a heading a question must hold to name it: pairs, because single Vietnamese syllables ("công",
"hành") are in any provision."""

_LABEL = re.compile(rf"^\s*{PROVISION_WORD}\.?\s*[\w.()]*\.?\s*", re.I)
"""The label opening a heading ("Điều 332. ", "Section 4.2 ")."""


def heading(p: Passage) -> str:
    """The heading of the provision ``p`` is from: its header's last part that opens with a provision's label and says
    more than labels ("Bộ luật Hình sự › Điều 14. Chuẩn bị phạm tội › khoản 2 Điều 14" -> "Chuẩn bị phạm tội"),
    without them; "" when no part does (a document's title, a passage's own first words)."""
    for part in reversed(header_parts(p.header)):
        title = part
        while (m := _LABEL.match(title)) and m.end():
            title = title[m.end() :]
        if title != part and title.strip():
            return title.strip()
    return ""


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
