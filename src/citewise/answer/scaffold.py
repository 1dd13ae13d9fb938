"""The fixed parts of the reply's JSON, written by citewise instead of by the model.

A reply is ``{"answer": [{"cites": ["S2"], "sentence": "..."}, ...], "refused": false}``. Most of its tokens are
fixed by the schema: the keys, the brackets, the quotes. A local model on 2 cores writes a token in about 110 ms
(a forward pass and grammar-checked sampling) but reads one in a batch in about 65 ms, so the generator evaluates
the fixed text in one batch (``forced``) and lets the model write only where it has a choice: whether to write
an item, which sentence ids to cite, the sentence itself. Once the ``answer`` array has closed nothing the draft
needs is left (``refused`` is implied by an empty array), so decoding stops there (``closed``).

The fixed text is the canonical spelling the schema's grammar accepts (``": "``, ``", "``); where the model has
already written part of it in its own spelling, only a continuation it started is completed."""

from __future__ import annotations

from dataclasses import dataclass

OPEN = '{"answer":'
"""Up to the model's first choice: ``[]`` (no answer) or ``[{`` (written `` [{"`` as one token by Qwen2.5)."""


@dataclass
class _Scan:
    anchor: str = "start"
    """The last structural event: start, answer_open, item_open, cites_open, cite_comma, in_cite, cite_closed,
    cites_closed, in_sentence, sentence_closed, item_closed, item_comma, answer_closed."""
    since: str = ""
    """What was written after the anchor."""
    items: int = 0
    cites: int = 0


def _scan(text: str) -> _Scan:
    """Where the reply stands: its structure is fixed (root object > answer array > item objects > cites array),
    so depth says what a bracket or a string is."""
    s = _Scan()
    depth = 0
    in_string = escape = False
    strings = 0  # strings opened at item depth: "cites" key, "sentence" key, the sentence
    mark = 0
    for i, ch in enumerate(text):
        if in_string:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_string = False
                if depth == 4:
                    s.anchor, mark = "cite_closed", i + 1
                    s.cites += 1
                elif depth == 3 and strings == 3:
                    s.anchor, mark = "sentence_closed", i + 1
            continue
        if ch == '"':
            in_string = True
            if depth == 4:
                s.anchor, mark = "in_cite", i + 1
            elif depth == 3:
                strings += 1
                if strings == 3:
                    s.anchor, mark = "in_sentence", i + 1
        elif ch in "{[":
            depth += 1
            if depth == 2:
                s.anchor, mark = "answer_open", i + 1
            elif depth == 3:
                s.anchor, mark = "item_open", i + 1
                strings = s.cites = 0
            elif depth == 4:
                s.anchor, mark = "cites_open", i + 1
        elif ch in "}]":
            depth -= 1
            if depth == 3:
                s.anchor, mark = "cites_closed", i + 1
            elif depth == 2:
                s.anchor, mark = "item_closed", i + 1
                s.items += 1
            elif depth == 1:
                s.anchor, mark = "answer_closed", i + 1
                break
        elif ch == ",":
            if depth == 4:
                s.anchor, mark = "cite_comma", i + 1
            elif depth == 2:
                s.anchor, mark = "item_comma", i + 1
    s.since = text[mark:]
    return s


def _rest(written: str, target: str) -> str:
    """What is left of ``target`` when ``written`` begins it, spaces aside (the grammar allows a space or none
    around each comma, colon and bracket, and the model writes both); nothing when the model wrote something
    else."""
    i = j = 0
    while i < len(written):
        if j < len(target) and written[i] == target[j]:
            i, j = i + 1, j + 1
        elif written[i].isspace():
            i += 1
        elif j < len(target) and target[j] == " ":
            j += 1
        else:
            return ""
    rest = target[j:]
    return rest.lstrip(" ") if written[-1:].isspace() else rest  # one space at most


def _common(texts: list[str]) -> str:
    if not texts:
        return ""
    first, last = min(texts), max(texts)
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    return first[:n]


class ReplyScaffold:
    """The fixed continuation of a reply at any point, for the reply schema of ``prompt.schema``."""

    def __init__(self, ids: list[str], max_items: int, max_cites: int) -> None:
        self.ids = list(ids)
        self.max_items = max(1, max_items)
        self.max_cites = max(1, max_cites)
        self.id_prefix = '"' + _common(self.ids)

    def closed(self, text: str) -> bool:
        """The answer array has ended: the rest of the reply carries nothing a draft uses."""
        return _scan(text).anchor == "answer_closed"

    def forced(self, text: str) -> str:
        """The text that must come next after ``text`` (written so far), as far as it is fixed; empty where the
        model has a choice, or once the answer array has closed."""
        out = ""
        while True:
            step = self._step(_scan(text + out))
            if not step:
                return out
            out += step

    def _step(self, s: _Scan) -> str:
        item = '{"cites": [' + self.id_prefix
        if s.anchor == "start":
            return _rest(s.since, OPEN)
        if s.anchor == "item_open":
            return _rest(s.since, item[1:])
        if s.anchor == "cites_open":
            return _rest(s.since, self.id_prefix)
        if s.anchor == "cite_comma":
            return _rest(s.since, " " + self.id_prefix)
        if s.anchor == "in_cite" and self.ids:
            ends = [i[len(s.since) :] + '"' for i in self.ids if i.startswith(s.since)]
            return _common(ends)
        if s.anchor == "cite_closed" and s.cites >= self.max_cites:
            return _rest(s.since, '], "sentence": "')
        if s.anchor == "cites_closed":
            return _rest(s.since, ', "sentence": "')
        if s.anchor == "sentence_closed":
            return _rest(s.since, "}")
        if s.anchor == "item_closed" and s.items >= self.max_items:
            return _rest(s.since, "]")
        if s.anchor == "item_comma":
            return _rest(s.since, " " + item)
        return ""
