"""Typed records of reference parsing: a document named in a question (``DocHint``) and a provision
named in it (``QueryRef``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DocHint:
    """A document named in a question: "Thông tư 67/2023/TT-BTC", "tt 67", "NĐ 46/2023", "GDPR"."""

    raw: str
    doc_type: str | None = None
    """Canonical type ("Thông tư", "Nghị định", "Luật", "Regulation", ...)."""
    number: str | None = None
    """Leading number ("67")."""
    year: str | None = None
    suffix: str | None = None
    """Issuer code, folded and lower-cased ("tt-btc", "qh15", "nd-cp")."""
    name: str | None = None
    """An acronym or a name ("kdbh", "gdpr")."""


@dataclass(frozen=True)
class QueryRef:
    """A provision named in a question, with the document it names, if any."""

    raw: str
    key: str | None
    """Node key ("art:17/par:2"), as ``refs.keys.label_key`` gives it."""
    start: int
    end: int
    doc: DocHint | None = None
    mention: bool = False
    """Named as a condition inside the question ("hành vi quy định tại Điều 322", "the data referred
    to in Article 9"), not as the provision asked about: supporting evidence, never pinned first."""
