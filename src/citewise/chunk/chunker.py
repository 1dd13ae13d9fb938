"""Chunking rules.

* A unit is an article-level provision (Điều, Article, Recital, a numbered rule or section) or a
  division's own text before its first sub-division. A unit that fits ``max_tokens`` is one chunk.
* A longer unit is cut at clause boundaries (khoản / paragraph), then at point boundaries,
  packing neighbours together up to ``max_tokens``; a piece still too long is cut into
  sentence windows of ``window_tokens`` with ``overlap_tokens`` overlap, restarting at each
  clause. A sentence is never split.
* A table is never split; a table too long for one chunk is cut by rows, its header row
  repeated as the chunk's ``prefix``.
* Every chunk's body is exactly ``Document.text[char_start:char_end]``.
"""

from __future__ import annotations

from dataclasses import dataclass

from citewise.chunk.header import context_header, division_path
from citewise.chunk.sentences import sentence_spans
from citewise.chunk.tokens import TokenCounter, estimate_tokens
from citewise.refs.markers import DOTTED_BASE, RANK, UNIT_RANK_LIMIT
from citewise.settings import ChunkSettings
from citewise.types import Chunk, Document, Node, Table


def rank_of(node: Node) -> int:
    if node.kind == "dotted":
        return DOTTED_BASE + node.number.count(".") + 1
    return RANK.get(node.kind, DOTTED_BASE)


@dataclass
class _Piece:
    start: int
    end: int
    kind: str = "text"
    table: Table | None = None
    label: str = ""
    """Label of the clause/point the piece starts with, for the context header."""


class Chunker:
    def __init__(self, settings: ChunkSettings | None = None, count_tokens: TokenCounter = estimate_tokens) -> None:
        self.settings = settings or ChunkSettings()
        self.count = count_tokens
        self._budget = self.settings.max_tokens

    # -- units ------------------------------------------------------------------------------
    def units(self, doc: Document) -> list[tuple[Node | None, int, int]]:
        """(node, start, end) of every unit's own text, in document order."""
        out: list[tuple[Node | None, int, int]] = []
        divisions = [n for n in doc.nodes if rank_of(n) < UNIT_RANK_LIMIT]
        first_div_child: dict[int, int] = {}
        for n in divisions:
            if n.parent_id is not None and n.parent_id not in first_div_child:
                first_div_child[n.parent_id] = n.char_start
        first = min((n.char_start for n in divisions), default=len(doc.text))
        preamble = doc.text[:first].strip()
        if preamble and (len(preamble) >= 120 or preamble.count("\n") >= 2):  # more than a bare title
            out.append((None, 0, _rstrip(doc.text, 0, first)))
        for n in divisions:
            end = first_div_child.get(n.node_id, n.char_end)
            end = _rstrip(doc.text, n.char_start, end)
            own = doc.text[n.char_start : end]
            if n.node_id in first_div_child and _heading_only(own):
                continue  # only the division's heading: carried by its children's headers
            if end > n.char_start:
                out.append((n, n.char_start, end))
        return out

    # -- chunks -----------------------------------------------------------------------------
    def chunk(self, doc: Document) -> list[Chunk]:
        chunks: list[Chunk] = []
        for node, start, end in self.units(doc):
            header_tokens = self.count(context_header(doc, node))
            self._budget = max(self.settings.max_tokens - header_tokens, self.settings.max_tokens // 2)
            for piece_start, piece_end, prefix, kind, sub in self._split(doc, node, start, end):
                chunks.append(self._make(doc, node, len(chunks), piece_start, piece_end, prefix, kind, sub))
        return chunks

    def _make(
        self, doc: Document, node: Node | None, cid: int, start: int, end: int, prefix: str, kind: str, sub: str
    ) -> Chunk:
        body = doc.text[start:end]
        p0, p1 = doc.pages_of(start, end)
        path = division_path(doc, node)
        label = node.label if node is not None else ("Phần mở đầu" if doc.lang == "vi" else "Preamble")
        header = context_header(doc, node, sub)
        return Chunk(
            doc_id=doc.doc_id,
            chunk_id=cid,
            node_id=node.node_id if node is not None else None,
            label=label,
            path=path,
            header=header,
            body=body,
            char_start=start,
            char_end=end,
            lang=doc.lang,
            source_uri=doc.source_uri,
            page_start=p0,
            page_end=p1,
            parent=path[-2] if len(path) >= 2 else None,
            effective=doc.effective,
            prefix=prefix,
            kind=kind,
            tokens=self.count("\n".join(x for x in (header, prefix, body) if x)),
        )

    def _split(self, doc: Document, node: Node | None, start: int, end: int) -> list[tuple[int, int, str, str, str]]:
        """(start, end, prefix, kind, sub-label) of each chunk of one unit."""
        limit = self._budget
        tables = [t for t in doc.tables if start <= t.char_start and t.char_end <= end]
        if self.count(doc.text[start:end]) <= limit and not any(
            self.count(doc.text[t.char_start : t.char_end]) > limit for t in tables
        ):
            return [(start, end, "", "text", "")]
        pieces = self._pieces(doc, node, start, end, tables)
        out: list[tuple[int, int, str, str, str]] = []
        group: list[_Piece] = []
        size = 0
        for piece in pieces:
            n = self.count(doc.text[piece.start : piece.end])
            if piece.kind == "text" and n > limit and group and size < self.settings.window_tokens // 2:
                # a short lead-in (the article heading) opens the first window instead of standing alone
                piece = _Piece(group[0].start, piece.end, "text", None, group[0].label or piece.label)
                group, size = [], 0
            if piece.kind == "table" or n > limit:
                if group:
                    out.append((group[0].start, group[-1].end, "", "text", group[0].label))
                    group, size = [], 0
                out.extend(self._oversize(doc, piece) if n > limit else [(piece.start, piece.end, "", "table", "")])
                continue
            if group and size + n > limit:
                out.append((group[0].start, group[-1].end, "", "text", group[0].label))
                group, size = [], 0
            group.append(piece)
            size += n
        if group:
            out.append((group[0].start, group[-1].end, "", "text", group[0].label))
        return out

    def _pieces(self, doc: Document, node: Node | None, start: int, end: int, tables: list[Table]) -> list[_Piece]:
        """The unit cut at clause boundaries (points for a clause that is too long), tables apart."""
        clauses = (
            [c for c in doc.nodes if c.parent_id == node.node_id and rank_of(c) >= UNIT_RANK_LIMIT]
            if node is not None
            else []
        )
        cuts: list[tuple[int, str]] = [(start, "")]
        for c in clauses:
            if start < c.char_start < end:
                cuts.append((c.char_start, c.label))
                if self.count(doc.text[c.char_start : c.char_end]) > self._budget:
                    for p in doc.nodes:
                        if p.parent_id == c.node_id and c.char_start < p.char_start < end:
                            cuts.append((p.char_start, p.label))
        for t in tables:
            cuts.append((t.char_start, "#table"))
            cuts.append((t.char_end, ""))
        cuts.sort()
        pieces: list[_Piece] = []
        for i, (s, label) in enumerate(cuts):
            e = cuts[i + 1][0] if i + 1 < len(cuts) else end
            e = _rstrip(doc.text, s, e)
            s = _lstrip(doc.text, s, e)
            if e <= s:
                continue
            table = next((t for t in tables if t.char_start == s), None)
            if table is not None:
                pieces.append(_Piece(s, table.char_end, "table", table))
            else:
                pieces.append(_Piece(s, e, "text", None, "" if label == "#table" else label))
        return pieces

    def _oversize(self, doc: Document, piece: _Piece) -> list[tuple[int, int, str, str, str]]:
        if piece.table is not None:
            return self._table_rows(doc, piece.table)
        return [(s, e, "", "text", piece.label) for s, e in self._windows(doc.text, piece.start, piece.end)]

    def _table_rows(self, doc: Document, table: Table) -> list[tuple[int, int, str, str, str]]:
        spans = table.row_spans
        header = doc.text[spans[0][0] : spans[0][1]] if spans else ""
        budget = self._budget - self.count(header)
        out: list[tuple[int, int, str, str, str]] = []
        first, size = 0, 0
        for i, (s, e) in enumerate(spans):
            n = self.count(doc.text[s:e])
            if i > first and size + n > budget:
                out.append((spans[first][0], spans[i - 1][1], header if first > 0 else "", "table", ""))
                first, size = i, 0
            size += n
        out.append((spans[first][0], spans[-1][1], header if first > 0 else "", "table", ""))
        return out

    def _windows(self, text: str, start: int, end: int) -> list[tuple[int, int]]:
        """Sentence windows of about ``window_tokens`` overlapping by about ``overlap_tokens``."""
        sents = sentence_spans(text, start, end)
        sizes = [self.count(text[s:e]) for s, e in sents]
        window, overlap = self.settings.window_tokens, self.settings.overlap_tokens
        out: list[tuple[int, int]] = []
        i = 0
        while i < len(sents):
            j, size = i, 0
            while j < len(sents) and (j == i or size + sizes[j] <= window):
                size += sizes[j]
                j += 1
            out.append((sents[i][0], sents[j - 1][1]))
            if j >= len(sents):
                break
            back, k = 0, j
            while k - 1 > i and back + sizes[k - 1] <= overlap:
                k -= 1
                back += sizes[k]
            i = k
        return out


def _rstrip(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _lstrip(text: str, start: int, end: int) -> int:
    while start < end and text[start].isspace():
        start += 1
    return start


def chunk_document(doc: Document, settings: ChunkSettings | None = None) -> list[Chunk]:
    return Chunker(settings).chunk(doc)


def _heading_only(own: str) -> bool:
    """A division's own text that is just its heading ("Chương I\nQUY ĐỊNH CHUNG", "Rule 6.6
    Complaints"), not a provision of its own ("7/6.2.1 Each Authorised Person must prepare financial
    statements for each financial year."), which must be a unit or its text is in no chunk."""
    text = own.strip()
    if text.count("\n") >= 2 or len(text) >= 200:
        return False
    last = text.rsplit("\n", 1)[-1].strip()
    return not (last.endswith((".", ";", "!", "?")) and len(last.split()) >= 6)
