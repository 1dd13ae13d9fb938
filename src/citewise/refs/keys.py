"""Resolve a provision label as people write it to a node of a document's structure tree.

"Điều 17", "khoản 2 điều 17", "điểm a khoản 2 Điều 17", "dieu 17 khoan 2", "Article 6(1)(a)",
"Art. 17", "Recital 47", "Section 4.2", "rule 3.2.1", "4.2", "Annex III", "Chương II"."""

from __future__ import annotations

import re

from citewise.lang import fold
from citewise.refs.markers import number_key
from citewise.types import Node

_VI_PART = re.compile(
    r"\b(diem|khoan|dieu|chuong|muc|phan|phu luc)\s+([0-9]+(?:\.[0-9a-z]+)*[a-z]?|[ivxlc]+|dd|[a-z])\b"
)
_EN_ART = re.compile(r"\b(?:article|art\.?)\s*(\d+[a-z]?)((?:\(\s*[0-9a-z]+\s*\))*)")
_EN_DIV = re.compile(
    r"\b(recital|chapter|annex|part|title|section|rule|clause)\s+\(?([0-9]+(?:\.[0-9]+)*|[ivxlc]+|[a-z])\)?"
)
_DOTTED = re.compile(r"^\s*([1-9]\d*(?:\.[1-9]\d*)+)\s*$")
_KEY_OF = {
    "dieu": "art",
    "khoan": "par",
    "diem": "pt",
    "chuong": "chap",
    "muc": "sec",
    "phan": "part",
    "phu luc": "annex",
    "recital": "recital",
    "chapter": "chap",
    "annex": "annex",
    "part": "part",
    "title": "part",
    "section": "sec",
}


def label_key(label: str) -> str | None:
    """The node key a label names, or None when it names no provision."""
    f = fold(label.strip()).lower()
    m = _DOTTED.match(f)
    if m:
        return f"num:{m.group(1)}"
    m = _EN_ART.search(f)
    if m:
        key = f"art:{m.group(1)}"
        subs = re.findall(r"\(\s*([0-9a-z]+)\s*\)", m.group(2))
        names = ["par", "pt", "sub"]
        for i, s in enumerate(subs[:3]):
            kind = names[i] if not (i == 0 and s.isalpha() and not re.fullmatch(r"[ivx]+", s)) else "pt"
            key += f"/{kind}:{s}"
        return key
    low = label.strip().lower()
    parts: dict[str, str] = {}
    for m in _VI_PART.finditer(f):
        num = low[m.start(2) : m.end(2)] if len(low) == len(f) else m.group(2)
        parts.setdefault(m.group(1), number_key(num) if m.group(1) in ("diem",) else num)
    if "dieu" in parts:
        key = f"art:{parts['dieu']}"
        if "khoan" in parts:
            key += f"/par:{parts['khoan']}"
        if "diem" in parts:
            key += f"/pt:{parts['diem']}"
        return key
    for word in ("phu luc", "chuong", "phan"):
        if word in parts:
            return f"{_KEY_OF[word]}:{number_key(parts[word])}"
    m = _EN_DIV.search(f)
    if m:
        word, num = m.group(1), m.group(2)
        if word in ("rule", "clause", "section") and "." in num:
            return f"num:{num}"
        return f"{_KEY_OF.get(word, 'sec')}:{number_key(num)}"
    return None


def resolve_label(nodes: list[Node], label: str) -> Node | None:
    """Exact key, then the node's label, then an alias (e.g. a Pháp điển origin note)."""
    f = fold(label).lower().strip()
    key = label_key(label)
    if key:
        for n in nodes:
            if n.key.lower() == key:
                return n
        for n in nodes:  # sections keyed under their chapter: match the tail
            if n.key.lower().endswith("/" + key) and n.kind in ("section", "subsection"):
                return n
    for n in nodes:
        if fold(n.label).lower() == f:
            return n
    for n in nodes:
        for a in n.aliases:
            fa = fold(a).lower()
            if fa == f or (fa.startswith(f + " ") and n.kind == "article"):
                return n
    if key and key.startswith("art:"):
        want = key.split("/")[0][4:]
        for n in nodes:
            if n.kind == "article" and any(fold(a).lower().startswith(f"dieu {want} ") for a in n.aliases):
                sub = key[len(f"art:{want}") :]
                if not sub:
                    return n
                for c in nodes:
                    if c.key.lower() == n.key.lower() + sub:
                        return c
                return n
    return None
