"""Resolve the cross-references written inside provisions to nodes of the same document:
"khoản 2 Điều này", "theo quy định tại Điều 5 Quy tắc này", "referred to in Article 6(1)",
"paragraph 2 of this Article". A codified (Pháp điển) article's bare "Điều 5" points to the
article of the same origin document. References naming another instrument stay unresolved."""

from __future__ import annotations

import re

from citewise.lang import fold
from citewise.refs.keys import label_key
from citewise.types import Node

_SELF_DOC = re.compile(r"\b(nay|this regulation|this directive|this policy|this act|these rules)\b", re.I)
_OTHER_DOC = re.compile(
    r"\b(luat|nghi dinh|thong tu|bo luat|quyet dinh|quy tac|quy che|regulation|directive|decision|treaty|charter)\b",
    re.I,
)
_THIS_ARTICLE = re.compile(r"\b(dieu nay|this article)\b", re.I)
_EN_PARA_OF_THIS = re.compile(r"paragraph\s+(\d+)(?:\(([a-z])\))?\s+of\s+this\s+article", re.I)
_ORIGIN_NUMBER = re.compile(r"\bso\s+([\w/.\-]+)", re.I)


def _article_of(node: Node, nodes: list[Node]) -> Node | None:
    cur: Node | None = node
    while cur is not None and cur.kind != "article":
        cur = nodes[cur.parent_id] if cur.parent_id is not None else None
    return cur


def _names_other_instrument(ref: str, own: str) -> bool:
    """True when the sentence carrying ``ref`` goes on to name another instrument, as in
    "khoản 2 Điều 6, khoản 5 Điều 11 ... Luật Kinh doanh bảo hiểm"."""
    pos = own.find(ref)
    if pos < 0:
        return False
    end = len(own)
    for stop in (";", "\n", ". "):
        k = own.find(stop, pos + len(ref))
        if 0 <= k < end:
            end = k
    tail = fold(own[pos + len(ref) : end]).lower()
    m = _OTHER_DOC.search(tail)
    if not m:
        return False
    return not _SELF_DOC.search(tail[m.start() : m.start() + 60])


def resolve_xrefs(nodes: list[Node], text: str = "") -> None:
    """Fill ``node.xrefs`` with the ids of the nodes its references name (same document)."""
    by_key = {n.key.lower(): n for n in nodes}
    origin: dict[str, list[Node]] = {}
    for n in nodes:
        for a in n.aliases:
            m = re.match(r"dieu\s+(\d+[a-z]?)\b.*?\bso\s+([\w/.\-]+)", fold(a).lower())
            if m:
                origin.setdefault(f"{m.group(2)}#{m.group(1)}", []).append(n)
    first_child: dict[int, int] = {}
    for n in nodes:
        if n.parent_id is not None:
            first_child.setdefault(n.parent_id, n.char_start)
    for node in nodes:
        targets: list[int] = []
        article = _article_of(node, nodes)
        own = text[node.char_start : first_child.get(node.node_id, node.char_end)] if text else ""
        for ref in node.refs:
            if own and _names_other_instrument(ref, own):
                continue
            target = _resolve(ref, node, article, nodes, by_key, origin)
            if target is not None and target.node_id != node.node_id and target.node_id not in targets:
                targets.append(target.node_id)
        node.xrefs = targets


def _resolve(
    ref: str,
    node: Node,
    article: Node | None,
    nodes: list[Node],
    by_key: dict[str, Node],
    origin: dict[str, list[Node]],
) -> Node | None:
    f = fold(ref).lower()
    m = _EN_PARA_OF_THIS.search(f)
    if m and article is not None:
        key = f"{article.key}/par:{m.group(1)}" + (f"/pt:{m.group(2)}" if m.group(2) else "")
        return by_key.get(key.lower())
    if _THIS_ARTICLE.search(f) and article is not None:
        here = label_key(re.sub(r"\b(dieu nay|this article)\b", f"dieu {article.number}", f))
        if here:
            tail = here.split("/", 1)[1] if "/" in here else ""
            return by_key.get(f"{article.key}/{tail}".rstrip("/").lower())
        return None
    if _OTHER_DOC.search(f) and not _SELF_DOC.search(f):
        return None  # another instrument: resolved at question time, if ever
    found = label_key(ref)
    if found is None:
        return None
    key = found
    if key in by_key:
        return by_key[key]
    # a codified article: "Điều 5" means Điều 5 of the same origin document
    if key.startswith("art:") and article is not None:
        for a in article.aliases:
            om = _ORIGIN_NUMBER.search(fold(a))
            if om:
                num = key.split("/")[0][4:]
                cands = origin.get(f"{om.group(1).lower()}#{num}")
                if cands:
                    base = cands[0]
                    tail = key[len(f"art:{num}") :]
                    return by_key.get((base.key + tail).lower(), base)
    return None
