"""Resolve the references of a question against the store: the document by number, type, name,
acronym or alias; the provision by its key. Codified (Pháp điển) articles are reached through
their origin notes, so "Điều 12 Thông tư 67/2023/TT-BTC" finds "Điều 2.3.TT.x.12"."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from citewise.lang import fold
from citewise.refs.query import _type_name
from citewise.refs.records import DocHint, QueryRef
from citewise.types import Node


class CatalogDocument(Protocol):
    """What resolution reads of an indexed document."""

    @property
    def doc_id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def doc_type(self) -> str | None: ...
    @property
    def number(self) -> str | None: ...
    @property
    def aliases(self) -> Sequence[str]: ...


class Catalog(Protocol):
    """The documents and provisions references are resolved against (an index's ``Store``)."""

    def generation(self) -> int: ...
    def documents(self) -> Sequence[CatalogDocument]: ...
    def nodes(self, doc_id: str) -> list[Node]: ...
    def lexical_search(self, query: str, k: int = 10, doc_ids: list[str] | None = None) -> Sequence[object]: ...


_STOP = {"of", "the", "on", "and", "for", "in", "to", "with", "regard", "a", "an", "its", "by", "va", "cua", "ve"}
_NUMBER = re.compile(r"^(?P<a>\d{1,4})(?:/(?P<b>\d{1,4}))?(?:/(?P<suffix>[\w\-]+))?$")
_ORIGIN = re.compile(r"^dieu\s+(?P<art>\d+[a-z]?)\s+(?P<type>.+?)\s+so\s+(?P<number>[\w/.\-]+)", re.I)


def split_number(number: str) -> tuple[str | None, str | None, str | None]:
    """(number, year, suffix) of "08/2022/QH15" -> ("8", "2022", "qh15"); "2016/679" -> ("679", "2016", None)."""
    m = _NUMBER.match(fold(number).lower().strip())
    if not m:
        return None, None, None
    a, b, suffix = m.group("a"), m.group("b"), m.group("suffix")
    if b and len(a) == 4 and a.startswith(("19", "20")) and len(b) < 4:
        return str(int(b)), a, suffix
    if b and len(b) == 4:
        return str(int(a)), b, suffix
    return str(int(a)), None, (b or suffix)


def _norm(text: str) -> str:
    return re.sub(r"[\s,.;:()\-–_]+", " ", fold(text).lower()).strip()


def acronyms(name: str) -> set[str]:
    """Initials of a name with and without its type word and small words: GDPR, KDBH, LKDBH."""
    out: set[str] = set()
    parts = [name, *re.findall(r"\(([^)]{6,})\)", name)]
    for part in parts:
        words = [w for w in re.findall(r"[^\W\d_]+", fold(part).lower())]
        if len(words) < 2:
            continue
        content = [w for w in words if w not in _STOP]
        out.add("".join(w[0] for w in content))
        if _type_name(words[0]) or (len(words) > 2 and _type_name(" ".join(words[:2]))):
            skip = 2 if len(words) > 2 and _type_name(" ".join(words[:2])) and not _type_name(words[0]) else 1
            out.add("".join(w[0] for w in content[skip:]))
    return {a for a in out if len(a) >= 3}


def _longest_run(words: list[str], q_words: list[str]) -> int:
    """Length of the longest run of consecutive ``words`` that also appears in ``q_words``."""
    best = 0
    for i in range(len(words)):
        for j in range(len(q_words)):
            n = 0
            while i + n < len(words) and j + n < len(q_words) and words[i + n] == q_words[j + n]:
                n += 1
            best = max(best, n)
    return best


def _sub_provision(nodes: dict[str, Node], key: str) -> Node | None:
    """A rule's paragraph or point ("num:2.6.4/par:1/pt:a"), keyed as the structure tree has it: under the rule
    ("num:2.6.4/par:1/pt:a") or with the paragraph in the rule's own number, as rulebooks number passages
    ("num:2.6.4.(1)/pt:a"); failing that, the deepest part of it that exists (the paragraph, then the rule)."""
    base, *parts = key.split("/")
    for n in range(len(parts), -1, -1):
        tail = parts[:n]
        forms = ["/".join([base, *tail])]
        if tail and tail[0].startswith("par:"):
            forms.append("/".join([f"{base}.({tail[0][4:]})", *tail[1:]]))
        for form in forms:
            if form in nodes:
                return nodes[form]
    return None


@dataclass
class Instrument:
    """A document, or an instrument codified inside one (a Pháp điển topic holds several)."""

    doc_id: str
    doc_type: str | None
    number: str | None
    year: str | None
    suffix: str | None
    names: set[str] = field(default_factory=set)
    acronyms: set[str] = field(default_factory=set)
    origin: str | None = None
    """For a codified instrument: its number as the origin notes write it ("08/2022/QH15")."""


@dataclass
class Resolution:
    """What the references of a question point to."""

    pins: list[tuple[str, Node, QueryRef]] = field(default_factory=list)
    """(doc_id, node, ref) of each provision named and found."""
    candidates: list[tuple[str, Node, QueryRef]] = field(default_factory=list)
    """Provisions found in several documents when none was named: pinned only if the search agrees."""
    mentions: list[tuple[str, Node, QueryRef]] = field(default_factory=list)
    """Provisions named as a condition inside the question: supporting evidence, not pinned."""
    docs: dict[str, str] = field(default_factory=dict)
    """doc_id -> why it is boosted ("named: Thông tư 67/2023")."""
    unresolved: list[str] = field(default_factory=list)


class ReferenceResolver:
    def __init__(self, store: Catalog) -> None:
        self.store = store
        self._version: object = None
        self.instruments: list[Instrument] = []
        self.nodes: dict[str, dict[str, Node]] = {}
        self.node_lists: dict[str, list[Node]] = {}
        self._titles: dict[str, str] = {}
        self._vocab_cache: tuple[object, dict[str, int]] | None = None
        self._own_words: dict[tuple[str, str], bool] = {}
        """(word, doc_id) -> whether no other document's text holds the word (per store generation)."""
        self.origin_nodes: dict[tuple[str, str, str], Node] = {}
        """(doc_id, origin number folded, article number) -> node."""
        self._starts: dict[str, tuple[list[int], list[int]]] = {}
        """doc_id -> its nodes' start offsets in ascending order and the node ids in that order (``nodes_within``)."""

    def _load(self) -> None:
        version = self.store.generation()
        if version == self._version:
            return
        self._version = version
        self._own_words = {}
        docs = self.store.documents()
        self._titles = {d.doc_id: d.title for d in docs}
        self.instruments, self.nodes, self.node_lists, self.origin_nodes = [], {}, {}, {}
        self._starts = {}
        for d in docs:
            num, year, suffix = split_number(d.number) if d.number else (None, None, None)
            names = {_norm(d.title), *(_norm(a) for a in d.aliases)}
            acr = set().union(*(acronyms(n) for n in [d.title, *d.aliases]))
            self.instruments.append(Instrument(d.doc_id, d.doc_type, num, year, suffix, names, acr))
            nodes = self.store.nodes(d.doc_id)
            self.nodes[d.doc_id] = {n.key.lower(): n for n in nodes}
            self.node_lists[d.doc_id] = nodes
            order = sorted(range(len(nodes)), key=lambda i: nodes[i].char_start)
            self._starts[d.doc_id] = ([nodes[i].char_start for i in order], order)
            seen: set[str] = set()
            for n in nodes:
                for alias in n.aliases:
                    m = _ORIGIN.match(fold(alias).lower())
                    if not m:
                        continue
                    origin = m.group("number")
                    self.origin_nodes.setdefault((d.doc_id, origin, m.group("art")), n)
                    if origin not in seen:
                        seen.add(origin)
                        onum, oyear, osuffix = split_number(origin)
                        otype = _type_name(m.group("type"))
                        self.instruments.append(
                            Instrument(d.doc_id, otype, onum, oyear, osuffix, set(), set(), origin=origin)
                        )

    def titles(self) -> dict[str, str]:
        self._load()
        return self._titles

    @property
    def _vocab(self) -> dict[str, int]:
        """In how many documents' names each word occurs (computed once per store generation)."""
        if self._vocab_cache is None or self._vocab_cache[0] != self._version:
            vocab: dict[str, int] = {}
            for ins in self.instruments:
                if ins.origin is None:
                    for w in {w for n in ins.names for w in n.split()}:
                        vocab[w] = vocab.get(w, 0) + 1
            self._vocab_cache = (self._version, vocab)
        return self._vocab_cache[1]

    def nodes_of(self, doc_id: str) -> list[Node]:
        """A document's nodes, indexed by node id."""
        self._load()
        return self.node_lists.get(doc_id, [])

    def nodes_within(self, doc_id: str, start: int, end: int) -> list[Node]:
        """A document's nodes that start inside ``[start, end)`` (a chunk's span), in node id order; a binary search
        over their sorted starts (a scan of every node of a long document cost about 1 ms a search)."""
        self._load()
        starts, order = self._starts.get(doc_id, ([], []))
        nodes = self.node_lists.get(doc_id, [])
        return [nodes[i] for i in sorted(order[bisect_left(starts, start) : bisect_left(starts, end)])]

    # -- matching -----------------------------------------------------------------------
    def match(self, hint: DocHint, question: str = "") -> list[Instrument]:
        self._load()
        scored: list[tuple[int, Instrument]] = []
        for ins in self.instruments:
            score = self._score(hint, ins)
            if score > 0:
                scored.append((score, ins))
        if not scored:
            return []
        best = max(s for s, _ in scored)
        return [ins for s, ins in scored if s == best]

    @staticmethod
    def _score(hint: DocHint, ins: Instrument) -> int:
        score = 0
        if hint.number is not None:
            if ins.number != hint.number:
                return 0
            score += 4
            if hint.year is not None:
                if ins.year is not None and ins.year != hint.year:
                    return 0
                score += 2
            if hint.suffix is not None and ins.suffix is not None:
                if not ins.suffix.startswith(hint.suffix.split("-")[0]):
                    return 0
                score += 1
        if hint.doc_type is not None and ins.doc_type is not None:
            if hint.doc_type != ins.doc_type and not (hint.number is not None and ins.origin is None):
                return 0
            score += 1
        if hint.name is not None:
            if hint.name in ins.acronyms:
                score += 5
            elif hint.number is None:
                return 0
            if hint.year is not None and ins.year is not None and hint.year != ins.year:
                return 0
        return score

    def named_documents(self, question: str) -> dict[str, str]:
        """Documents the question names in words: a title or alias written out, the longest run of
        four or more title words, or a title word no other document has ("the Harbourview policy")."""
        self._load()
        q_words = _norm(question).split()
        q = f" {' '.join(q_words)} "
        q_set = set(q_words)
        best: dict[str, tuple[int, str]] = {}
        docs = [i for i in self.instruments if i.origin is None]
        vocab = self._vocab
        q_grams = set(zip(q_words, q_words[1:], q_words[2:], q_words[3:], strict=False))
        for ins in docs:
            for name in ins.names:
                words = name.split()
                if len(name) >= 8 and f" {name} " in q:
                    score = 100 + len(words)
                elif q_grams & set(zip(words, words[1:], words[2:], words[3:], strict=False)):
                    score = _longest_run(words, q_words)
                else:
                    score = 0
                if not score:
                    rare = [w for w in words if len(w) >= 6 and vocab.get(w) == 1 and w in q_set and w not in _STOP]
                    if any(self._own_word(w, ins.doc_id) for w in rare):
                        score = 3
                if score and score > best.get(ins.doc_id, (0, ""))[0]:
                    best[ins.doc_id] = (score, name)
        if not best:
            return {}
        top = max(s for s, _ in best.values())
        return {d: f"named: {n}" for d, (s, n) in best.items() if s == top}

    def _own_word(self, word: str, doc_id: str) -> bool:
        """Whether ``word`` of ``doc_id``'s title names that document alone: no other document's text
        uses it. "Harbourview" does; "policy" in "Harbourview Mutual Home Insurance Policy" does not
        when the travel terms say "this policy" too."""
        key = (word, doc_id)
        if key not in self._own_words:
            others = [i.doc_id for i in self.instruments if i.origin is None and i.doc_id != doc_id]
            self._own_words[key] = not others or not self.store.lexical_search(word, k=1, doc_ids=others)
        return self._own_words[key]

    # -- provisions ---------------------------------------------------------------------
    def find(self, ins: Instrument, key: str) -> Node | None:
        self._load()
        nodes = self.nodes.get(ins.doc_id, {})
        art = key.split("/")[0][4:] if key.startswith("art:") else None
        if ins.origin is not None and art is not None:
            base = self.origin_nodes.get((ins.doc_id, ins.origin, art))
            if base is None:
                return None
            return nodes.get(base.key.lower() + key[len(f"art:{art}") :], base)
        hit = nodes.get(key)
        if hit is not None:
            return hit
        if key.startswith("num:") and "/" in key:
            return _sub_provision(nodes, key)
        if ins.number is not None and art is not None:  # a codified document named by its own number
            for (doc_id, origin, a), node in self.origin_nodes.items():
                if doc_id == ins.doc_id and a == art and split_number(origin)[:2] == (ins.number, ins.year):
                    return nodes.get(node.key.lower() + key[len(f"art:{art}") :], node)
        return None

    def resolve(self, question: str, refs: Sequence[QueryRef], docs: Sequence[DocHint] = ()) -> Resolution:
        """What the question's provision references ``refs`` and document names ``docs`` point to."""
        self._load()
        res = Resolution()
        for doc_id, why in self.named_documents(question).items():
            res.docs[doc_id] = why
        for hint in docs:
            for ins in self.match(hint):
                res.docs.setdefault(ins.doc_id, f"named: {hint.raw}")
        for ref in refs:
            if ref.key is None:
                continue
            named = self.match(ref.doc) if ref.doc is not None else []
            for ins in named:
                res.docs.setdefault(ins.doc_id, f"named: {ref.doc.raw if ref.doc else ''}")
            if named:
                instruments = named
            elif res.docs:
                instruments = [i for i in self.instruments if i.doc_id in res.docs and i.origin is None]
            else:
                instruments = [i for i in self.instruments if i.origin is None]
            found = [(ins.doc_id, node) for ins in instruments if (node := self.find(ins, ref.key)) is not None]
            found = list({(d, n.node_id): (d, n) for d, n in found}.values())
            if not found:
                res.unresolved.append(ref.raw)
            elif ref.mention:
                res.mentions.extend((d, n, ref) for d, n in found)
            elif len(found) == 1 or named or res.docs:
                res.pins.extend((d, n, ref) for d, n in found)
            else:
                res.candidates.extend((d, n, ref) for d, n in found)
        return res
