"""Evidence that repeats other evidence word for word: the same rules ingested twice (a .docx and its
Markdown copy, two uploads of one circular) would otherwise fill the answer's fragments with one provision
twice and leave the next provision out."""

from __future__ import annotations

from citewise.retrieve.records import Evidence


def drop_repeats(evidence: list[Evidence]) -> list[Evidence]:
    """``evidence`` (best first) without the items whose text repeats a better-ranked item's text word for word
    (spacing aside; ingest has already put the text in one Unicode form); the item kept names where else its text
    is."""
    kept: dict[str, Evidence] = {}
    out: list[Evidence] = []
    for e in evidence:
        key = " ".join(e.text.split())
        first = kept.get(key) if key else None
        if first is None:
            kept[key] = e
            out.append(e)
            continue
        where = f"{e.doc_title} ({e.chunk.label})" if e.chunk.label else e.doc_title
        also = f"same text also in: {where}"
        if also not in first.reasons:
            first.reasons.append(also)
        first.pinned = first.pinned or e.pinned
        first.named = first.named or e.named
    return out
