"""Citable labels ("Điều 17", "khoản 2 Điều 17", "Article 6(1)(a)") and language-neutral keys
("art:17/par:2", "art:6/par:1/pt:a") for structure nodes."""

from __future__ import annotations

from citewise.refs.markers import number_key
from citewise.types import Node

_VI_WORD = {
    "part": "Phần",
    "chapter": "Chương",
    "section": "Mục",
    "subsection": "Tiểu mục",
    "annex": "Phụ lục",
    "article": "Điều",
}
_EN_WORD = {
    "part": "Part",
    "chapter": "Chapter",
    "section": "Section",
    "subsection": "Subsection",
    "annex": "Annex",
    "article": "Article",
    "recital": "Recital",
}
_KEY = {
    "part": "part",
    "chapter": "chap",
    "section": "sec",
    "subsection": "subsec",
    "annex": "annex",
    "article": "art",
    "recital": "recital",
    "paragraph": "par",
    "point": "pt",
    "subpoint": "sub",
    "dotted": "num",
    "heading": "h",
}
# Divisions whose numbering restarts inside their parent: their key includes the parent's.
_NESTED = {"section", "subsection", "paragraph", "point", "subpoint"}


def _word(node: Node, written: str, lang: str) -> str:
    if written:
        w = written.strip()
        canon = {"art.": "Article"}.get(w.lower())
        return canon or (w[0].upper() + w[1:].lower())
    table = _VI_WORD if lang == "vi" else _EN_WORD
    return table.get(node.kind, node.kind.title())


def assign_labels(nodes: list[Node], words: list[str], lang: str) -> None:
    """Fill ``label`` and ``key`` of every node (parents come before children)."""
    for node in nodes:
        parent = nodes[node.parent_id] if node.parent_id is not None else None
        node.key = _key(node, parent)
        node.label = _label(node, parent, words[node.node_id], words, nodes, lang)


def _key(node: Node, parent: Node | None) -> str:
    if node.kind == "heading":
        own = f"h:{node.node_id}"
    elif node.kind == "dotted":
        own = f"num:{node.number}"
    elif node.kind == "section" and "." in node.number:
        own = f"num:{node.number}"
    else:
        own = f"{_KEY[node.kind]}:{number_key(node.number) if node.number else ''}"
    if node.kind in _NESTED and parent is not None and parent.kind != "heading":
        return f"{parent.key}/{own}"
    return own


def _nearest_word(node: Node, words: list[str], nodes: list[Node]) -> str:
    cur: Node | None = node
    while cur is not None:
        w = words[cur.node_id]
        if w and cur.kind == "section":
            return _word(cur, w, "en")
        cur = nodes[cur.parent_id] if cur.parent_id is not None else None
    return ""


def _label(node: Node, parent: Node | None, written: str, words: list[str], nodes: list[Node], lang: str) -> str:
    kind, num = node.kind, node.number
    if kind == "heading":
        return node.heading
    if kind == "dotted":
        word = _nearest_word(parent, words, nodes) if parent is not None else ""
        if not word and lang == "en":
            word = "Section"
        return f"{word} {num}".strip()
    if kind in ("paragraph", "point", "subpoint"):
        host = parent.label if parent is not None else ""
        if lang == "vi":
            inner = "khoản" if kind == "paragraph" else "điểm"
            return f"{inner} {num} {host}".strip()
        return f"{host}({num})" if host else f"({num})"
    word = _word(node, written, lang)
    return f"{word} {num}".strip()
