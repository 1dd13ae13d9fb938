"""The sentence that answers a question asking what a term means or comprises: the one defining it
(``retrieve.definitions``), quoted as the provision says it. Of several that read like a definition, the one in the
provision headed by the term ("Điều 105. Tài sản": "1. Tài sản là vật, tiền, giấy tờ có giá và quyền tài sản.") before
one using the term in a case ("5. Tài sản là đối tượng của quyền hưởng dụng không còn.", a case ending a usufruct);
"là" for "là gì", "bao gồm" for "gồm những gì"."""

from __future__ import annotations

import re

from citewise.chunk.header import provision_title
from citewise.lang import fold, folded_words
from citewise.retrieve.definitions import asked_term, definition_verb

_ASKS_MEMBERS = re.compile(r"\bgom (?:nhung )?(?:ai|gi)\b")
_MEMBERS = re.compile(r"\bgom\b")


def title(header: str) -> str:
    """The title of the provision a chunk is from, folded ("[91/2015/QH13 › Điều 105. Tài sản › khoản 1 Điều 105]" ->
    "tai san"; ``chunk.header.provision_title``)."""
    return folded_words(provision_title(header))


def defining(question: str, lang: str, sentences: list[tuple[str, str]]) -> int | None:
    """The index in ``sentences`` (text and chunk header, in reading order) of the one defining the term ``question``
    asks the meaning of, or ``None`` (no term asked, or no sentence defines it)."""
    term = asked_term(question, lang)
    if term is None:
        return None
    members = _ASKS_MEMBERS.search(fold(question).lower()) is not None
    named = folded_words(term)
    verbs = [definition_verb(text, term, True) for text, _ in sentences]
    found = [
        (title(header) != named, members != (_MEMBERS.search(fold(verb).lower()) is not None), i)
        for i, ((_, header), verb) in enumerate(zip(sentences, verbs, strict=True))
        if verb is not None
    ]
    return min(found)[2] if found else None
