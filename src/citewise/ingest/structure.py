"""Build the legal structure tree (parts, chapters, articles, clauses, points, annexes, ...)
from a parser's ``Layout``.

The builder reads the layout line by line. A line that opens a division becomes a node whose
span runs to the next line that opens a node of the same or a higher rank. Clause and point
numbers must follow their predecessor (1, 2, 3 / a, b, c, d, đ, e), which keeps wrapped lines
such as "17. ..." in the middle of a sentence from opening false nodes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from citewise.lang import fold
from citewise.refs import markers as mk
from citewise.refs.labels import assign_labels
from citewise.refs.mentions import find_references, origin_alias
from citewise.refs.xrefs import resolve_xrefs
from citewise.types import Layout, Node

_TOC = re.compile(r"^(muc luc|danh sach dieu khoan|table of contents|contents)\s*$", re.I)


@dataclass
class _Open:
    node: Node
    rank: int
    last_clause: int = 0
    clause_style: str = ""
    last_point: str | None = None
    last_subpoint: int = 0
    word: str = ""
    dotted: str = ""
    child_count: dict[str, int] = field(default_factory=dict)


_ROMAN_SEQ = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"]


class StructureBuilder:
    """Turns a layout's lines into ``Node`` records (see module doc)."""

    def __init__(self, layout: Layout, lang: str, root: Node | None = None) -> None:
        self.layout = layout
        self.root = root
        self.text = layout.text
        self.lang = lang
        self.nodes: list[Node] = []
        self.stack: list[_Open] = []
        self.words: list[str] = []
        self.last_recital = 0
        self.pending_heading: Node | None = None
        self.seen_division = False
        self.toc_level: int | None = None
        self._pos_hint = 0
        self.seen_heading = False
        self.numbers_seen: set[tuple[str, str]] = set()
        if root is not None:  # parse the body of one known provision (imported records)
            self.nodes.append(root)
            self.words.append("")
            self.stack.append(_Open(root, mk.RANK.get(root.kind, mk.DOTTED_BASE)))
            self.seen_division = True

    # -- public -------------------------------------------------------------------------
    def build(self) -> list[Node]:
        for block in self.layout.blocks:
            if block.kind == "table":
                self.pending_heading = None
                continue
            pos = block.char_start
            for raw in self.text[block.char_start : block.char_end].split("\n"):
                self._line(pos, raw, block.kind == "heading", block.level)
                pos += len(raw) + 1
        self._close_to(-1, len(self.text))
        self._finish()
        return self.nodes

    # -- line handling ------------------------------------------------------------------
    def _line(self, start: int, raw: str, is_heading: bool, level: int | None) -> None:
        lead = len(raw) - len(raw.lstrip())
        line = raw.strip()
        if not line:
            return
        start += lead
        self._pos_hint = start
        if is_heading and self._toc(line, level):
            return
        if self.toc_level is not None:
            return
        if self.pending_heading is not None:
            node = self.pending_heading
            self.pending_heading = None
            if len(line) < 200 and not self._any_marker(line):
                node.heading = line.rstrip(".")
                return
        if self.root is not None:  # inside one imported provision: only its clauses and points
            self._try_clause(line, start) or self._try_point(line, start)
            return
        m = mk.division_marker(line, self.lang)
        scope = self._section_scope()
        if m is not None and m.kind == "section" and (f"section@{scope}", m.number) in self.numbers_seen:
            m = None  # a number repeated in the same chapter is a reference, not a new division
        if m is not None:
            if m.kind == "section":
                self.numbers_seen.add((f"section@{scope}", m.number))
            rank = mk.RANK[m.kind]
            if m.kind == "section" and m.dotted_depth > 1:
                rank = mk.DOTTED_BASE + m.dotted_depth
            self._open(m.kind, m.number, m.heading, start, rank, word=m.word)
            self.seen_division = True
            return
        if self._try_dotted(line, start):
            return
        if self._try_clause(line, start) or self._try_point(line, start):
            return
        if self._try_recital(line, start):
            return
        if is_heading and not self.seen_heading and (level or 1) <= 1 and not self.nodes:
            self.seen_heading = True  # the document's own title, not a division
            return
        if is_heading and level is not None and not self._inside_article():
            self._open("heading", str(len(self.nodes)), line, start, mk.RANK["heading"] + level, word="")
            self.pending_heading = None

    def _section_scope(self) -> int:
        """Sections are numbered afresh in each chapter or part: the open one scopes them."""
        for o in reversed(self.stack):
            if o.node.kind in ("chapter", "part"):
                return o.node.node_id
        return -1

    def _toc(self, line: str, level: int | None) -> bool:
        """Tables of contents repeat every heading; nothing under one opens a node."""
        lvl = level or 1
        if self.toc_level is not None and lvl <= self.toc_level:
            self.toc_level = None
        if _TOC.match(fold(line)):
            self._close_to(-1, max(0, self._pos_hint))
            self.toc_level = lvl
            return True
        return False

    def _any_marker(self, line: str) -> bool:
        return bool(
            mk.division_marker(line, self.lang)
            or mk.clause_marker(line, self.lang)
            or mk.point_marker(line, self.lang)
            or mk.dotted_marker(line)
        )

    def _inside_article(self) -> bool:
        return any(o.node.kind in ("article", "recital") for o in self.stack)

    def _try_dotted(self, line: str, start: int) -> bool:
        if self._inside_article():
            return False
        m = mk.dotted_marker(line)
        if m is None or ("dotted", m.number) in self.numbers_seen:
            return False
        # A dotted number must extend or follow the numbering already open, if any.
        open_dotted = [o.dotted for o in self.stack if o.dotted]
        if open_dotted:
            cur = open_dotted[-1]
            prefix_ok = any(m.number.startswith(d + ".") for d in open_dotted)
            sibling_ok = m.number.rsplit(".", 1)[0] == cur.rsplit(".", 1)[0]
            top_ok = m.number.split(".")[0] != cur.split(".")[0]
            if not (prefix_ok or sibling_ok or top_ok):
                return False
        self.numbers_seen.add(("dotted", m.number))
        self._open("dotted", m.number, m.heading, start, mk.DOTTED_BASE + m.dotted_depth, dotted=m.number)
        return True

    def _clause_parent(self) -> _Open | None:
        for o in reversed(self.stack):
            if o.rank < mk.UNIT_RANK_LIMIT:
                return o
        return None

    def _try_clause(self, line: str, start: int) -> bool:
        m = mk.clause_marker(line, self.lang)
        if m is None:
            return False
        parent = self._clause_parent()
        if parent is None or (parent.node.kind in ("heading",) and self.seen_division):
            return False
        if not m.number.isdigit():
            return False
        n = int(m.number)
        style = "paren" if line.lstrip().startswith("(") else "dot"
        if n != parent.last_clause + 1 or (parent.clause_style and style != parent.clause_style):
            return False
        self._close_to(mk.RANK["paragraph"], start)
        parent.last_clause = n
        parent.clause_style = style
        self._open("paragraph", m.number, "", start, mk.RANK["paragraph"], pop=False)
        return True

    def _try_point(self, line: str, start: int) -> bool:
        m = mk.point_marker(line, self.lang)
        if m is None:
            return False
        owner: _Open | None = None
        for o in reversed(self.stack):
            if o.rank < mk.RANK["point"]:
                owner = o
                break
        if owner is None or owner.rank < mk.DOTTED_BASE:
            return False
        letter = m.number
        if letter in mk.next_letter(owner.last_point, self.lang):
            self._close_to(mk.RANK["point"], start)
            owner.last_point = letter
            self._open("point", letter, "", start, mk.RANK["point"], pop=False)
            return True
        # Roman subpoints (i), (ii) under an open point.
        top = self.stack[-1] if self.stack else None
        if top is not None and top.node.kind in ("point", "subpoint"):
            point = top if top.node.kind == "point" else self.stack[-2]
            idx = point.last_subpoint
            if idx < len(_ROMAN_SEQ) and letter == _ROMAN_SEQ[idx]:
                self._close_to(mk.RANK["subpoint"], start)
                point.last_subpoint = idx + 1
                self._open("subpoint", letter, "", start, mk.RANK["subpoint"], pop=False)
                return True
        return False

    def _try_recital(self, line: str, start: int) -> bool:
        if self.lang != "en" or self.seen_division:
            return False
        if any(o.node.kind not in ("heading", "recital") for o in self.stack):
            return False
        m = mk.recital_marker(line)
        if m is None or int(m.number) != self.last_recital + 1:
            return False
        self.last_recital += 1
        self._open("recital", m.number, "", start, mk.RANK["recital"])
        return True

    # -- tree bookkeeping ---------------------------------------------------------------
    def _open(
        self,
        kind: str,
        number: str,
        heading: str,
        start: int,
        rank: int,
        *,
        word: str = "",
        dotted: str = "",
        pop: bool = True,
    ) -> None:
        if pop:
            self._close_to(rank, start)
        parent = self.stack[-1].node.node_id if self.stack else None
        node = Node(
            node_id=len(self.nodes),
            kind=kind,
            number=number,
            label="",
            key="",
            heading=heading.strip().rstrip("."),
            char_start=start,
            char_end=len(self.text),
            parent_id=parent,
        )
        self.nodes.append(node)
        self.words.append(word)
        self.stack.append(_Open(node, rank, word=word, dotted=dotted))
        needs_title = kind in ("chapter", "part", "section", "subsection", "annex", "article")
        self.pending_heading = node if needs_title and not heading else None

    def _close_to(self, rank: int, at: int) -> None:
        """Close every open node ranked ``rank`` or deeper; they end where ``at`` begins."""
        while self.stack and self.stack[-1].rank >= rank:
            o = self.stack.pop()
            end = at
            while end > o.node.char_start and self.text[end - 1].isspace():
                end -= 1
            o.node.char_end = end

    def _drop_toc_duplicates(self) -> None:
        """A division repeated later with nothing but its heading line is a contents entry."""
        seen: set[tuple[str, str, int | None]] = set()
        keep: list[Node] = []
        for node in self.nodes:
            sig = (node.kind, fold(node.number).lower(), None if node.kind == "article" else node.parent_id)
            body = self.text[node.char_start : node.char_end]
            has_children = any(c.parent_id == node.node_id for c in self.nodes[node.node_id + 1 : node.node_id + 2])
            if sig in seen and node.kind in ("article", "chapter") and "\n" not in body and not has_children:
                continue
            seen.add(sig)
            keep.append(node)
        if len(keep) == len(self.nodes):
            return
        remap = {n.node_id: i for i, n in enumerate(keep)}
        words = [self.words[n.node_id] for n in keep]
        for i, n in enumerate(keep):
            pid = n.parent_id
            while pid is not None and pid not in remap:
                pid = self.nodes[pid].parent_id
            n.parent_id = remap[pid] if pid is not None else None
            n.node_id = i
        self.nodes, self.words = keep, words

    def _finish(self) -> None:
        self._drop_toc_duplicates()
        pages = self.layout.pages
        for node in self.nodes:
            if pages:
                hit = [p.number for p in pages if p.char_start < node.char_end and node.char_start < p.char_end]
                if hit:
                    node.page_start, node.page_end = hit[0], hit[-1]
        fixed = (self.root.label, self.root.key) if self.root is not None else None
        assign_labels(self.nodes, self.words, self.lang)
        if self.root is not None and fixed is not None:
            self.root.label, self.root.key = fixed
        first_child: dict[int, int] = {}
        for c in self.nodes:
            if c.parent_id is not None and c.parent_id not in first_child:
                first_child[c.parent_id] = c.char_start
        for node in self.nodes:
            own_end = first_child.get(node.node_id, node.char_end)
            own = self.text[node.char_start : own_end]
            heading = node.kind not in ("paragraph", "point", "subpoint", "recital")
            node.refs = find_references(own, self.lang, skip=node.label, heading_line=heading)
            if node.kind == "article":
                alias = origin_alias(own)
                if alias:
                    node.aliases.append(alias)
                    node.refs = [r for r in node.refs if not r.startswith(alias)]
        resolve_xrefs(self.nodes, self.text)


def build_structure(layout: Layout, lang: str, root: Node | None = None) -> list[Node]:
    """Recognise the legal hierarchy of a layout (see ``StructureBuilder``). With ``root``, the
    layout is the body of that provision and the nodes found become its descendants (``root``
    is returned first)."""
    return StructureBuilder(layout, lang, root).build()
