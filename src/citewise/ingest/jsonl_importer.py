"""Import pre-split provisions ({doc, id, title, text, ...} per line, or a JSON array of them) as
Documents, one per ``doc`` value, one node per record, hierarchy taken from dotted ids."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from citewise.errors import CorruptFile, EmptyDocument
from citewise.ingest.decode import decode_text
from citewise.ingest.layout import clean_block
from citewise.ingest.metadata import extract_metadata
from citewise.ingest.structure import build_structure
from citewise.jsonlines import JsonLineError, json_lines
from citewise.lang import detect_language
from citewise.refs.markers import number_key
from citewise.refs.mentions import origin_alias
from citewise.refs.xrefs import resolve_xrefs
from citewise.types import Block, Document, Layout, Node

_FIELDS = {
    "doc": ("doc", "DocumentID", "document", "source_doc", "law_id"),
    "id": ("id", "PassageID", "phapdien_id", "article_id", "ID"),
    "title": ("title", "heading"),
    "text": ("text", "Passage", "passage", "content"),
}
_KIND_BY_PREFIX = [("article", "article"), ("recital", "recital"), ("annex", "annex"), ("chapter", "chapter")]


def _get(rec: dict[str, Any], name: str) -> Any:
    for k in _FIELDS[name]:
        if k in rec and rec[k] is not None:
            return rec[k]
    return None


def read_records(path: Path) -> list[dict[str, Any]]:
    text, _ = decode_text(path.read_bytes())
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as e:
            raise CorruptFile(f"invalid JSON ({e.msg} at line {e.lineno})") from e
        if not isinstance(data, list):
            raise CorruptFile("a JSON file must hold an array of provision records")
        records = data
    else:
        try:
            records = [value for _, value in json_lines(text.splitlines())]
        except JsonLineError as e:
            raise CorruptFile(f"invalid JSON on line {e.line} ({e.msg})") from e
    bad = [i for i, r in enumerate(records) if not isinstance(r, dict) or _get(r, "text") is None]
    if bad:
        raise CorruptFile(f"record {bad[0] + 1} has no 'text' field (expected {{doc, id, title, text}})")
    if not records:
        raise EmptyDocument("no records")
    return records


def _kind(rec: dict[str, Any], rid: str) -> str:
    if rec.get("kind") in ("article", "recital", "annex", "chapter", "section"):
        return str(rec["kind"])
    low = rid.lower()
    for prefix, kind in _KIND_BY_PREFIX:
        if low.startswith(prefix):
            return kind
    return "article" if re.search(r"\.(LQ|NĐ|ND|TT|QĐ|QD)\.", rid) else "dotted"


def _number(rid: str) -> str:
    m = re.match(r"^(?:article|recital|annex|chapter)-(.+)$", rid, re.I)
    return m.group(1) if m else rid


def _label(kind: str, number: str, lang: str, rec: dict[str, Any]) -> str:
    if rec.get("label"):
        return str(rec["label"])
    words = {
        "vi": {"article": "Điều", "annex": "Phụ lục", "chapter": "Chương"},
        "en": {"article": "Article", "recital": "Recital", "annex": "Annex", "chapter": "Chapter"},
    }
    word = words.get(lang, {}).get(kind)
    return f"{word} {number}" if word else number


def import_jsonl(path: Path) -> Iterator[Document]:
    """Yield one Document per ``doc`` value in the file, in order of first appearance."""
    records = read_records(path)
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault(str(_get(r, "doc") or path.stem), []).append(r)
    for name, recs in groups.items():
        yield _document(path, name, recs)


def _document(path: Path, name: str, recs: list[dict[str, Any]]) -> Document:
    sample = " ".join(str(_get(r, "text")) for r in recs[:50])
    lang = str(recs[0].get("lang") or detect_language(sample))
    parts: list[str] = []
    nodes: list[Node] = []
    by_id: dict[str, int] = {}
    pos = 0
    for rec in recs:
        rid = str(_get(rec, "id") or len(nodes) + 1)
        kind = _kind(rec, rid)
        number = str(rec.get("number") or _number(rid))
        label = _label(kind, number, lang, rec)
        title = clean_block(str(_get(rec, "title") or "")).replace("\n", " ")
        body = clean_block(str(_get(rec, "text")))
        head = f"{label}. {title}" if title else label
        block = f"{head}\n{body}" if body else head
        if parts:
            parts.append("\n")
            pos += 1
        start = pos
        parts.append(block)
        pos += len(block)
        record = Node(
            node_id=len(nodes),
            kind=kind,
            number=number,
            label=label,
            key=_key(kind, number, rid),
            heading=title or (body if len(body) < 120 and "\n" not in body else ""),
            char_start=start,
            char_end=pos,
            parent_id=_parent(rid, by_id),
            aliases=[rid],
        )
        if rec.get("source_note"):
            note = origin_alias(f"{head}\n({rec['source_note']})")
            record.aliases.append(note or str(rec["source_note"]).split(",")[0].strip())
        by_id[rid] = record.node_id
        nodes.extend(_with_substructure(record, block, len(head) + 1 if body else len(block), lang))
    _extend_parents(nodes)
    text = "".join(parts)
    resolve_xrefs(nodes, text)
    digest = hashlib.sha256(json.dumps(recs, ensure_ascii=False, sort_keys=True).encode()).hexdigest()
    meta = extract_metadata(text, lang)
    title = str(recs[0].get("doc_title") or name)
    return Document(
        doc_id=digest[:16],
        title=title,
        source_uri=f"{path.resolve().as_uri()}#doc={name}",
        lang=lang,
        text=text,
        fmt="jsonl",
        content_hash=digest,
        doc_type=meta.doc_type,
        number=meta.number,
        issued=meta.issued,
        effective=meta.effective,
        aliases=[name, *meta.aliases],
        nodes=nodes,
    )


def _key(kind: str, number: str, rid: str) -> str:
    if kind == "dotted":
        return f"num:{rid}"
    prefix = {"article": "art", "recital": "recital", "annex": "annex", "chapter": "chap", "section": "sec"}[kind]
    return f"{prefix}:{number_key(number) if kind != 'recital' else number}".lower()


def _with_substructure(record: Node, block: str, body_at: int, lang: str) -> list[Node]:
    """The record's node followed by the clauses and points found in its body, offsets in the
    document."""
    offset, doc_id = record.char_start, record.node_id
    local = Node(
        node_id=0,
        kind=record.kind,
        number=record.number,
        label=record.label,
        key=record.key,
        heading=record.heading,
        char_start=0,
        char_end=len(block),
    )
    blocks: list[Block] = []
    at = body_at
    for line in block[body_at:].split("\n"):
        if line:
            blocks.append(Block("para", at, at + len(line)))
        at += len(line) + 1
    found = build_structure(Layout(text=block, blocks=blocks), lang, root=local)
    record.refs = local.refs
    out = [record]
    for n in found[1:]:
        n.node_id += doc_id
        n.parent_id = doc_id if n.parent_id in (None, 0) else n.parent_id + doc_id
        n.char_start += offset
        n.char_end += offset
        n.xrefs = []
        out.append(n)
    return out


def _parent(rid: str, by_id: dict[str, int]) -> int | None:
    """Longest earlier id that is a dotted prefix of ``rid`` ("1.1" of "1.1.1.(1)")."""
    parts = [p for p in rid.split(".") if p]
    for k in range(len(parts) - 1, 0, -1):
        cand = ".".join(parts[:k])
        for c in (cand, cand + "."):
            if c in by_id:
                return by_id[c]
    return None


def _extend_parents(nodes: list[Node]) -> None:
    """A parent's span covers its children's (records are in document order)."""
    for node in reversed(nodes):
        if node.parent_id is not None:
            p = nodes[node.parent_id]
            p.char_end = max(p.char_end, node.char_end)
