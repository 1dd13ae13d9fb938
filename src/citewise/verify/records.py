"""Typed records of the verification stage: a ``Verdict`` per sentence (with the legal references it
names, checked) and the ``Citation`` each supported sentence carries: document, provision, pages and
the exact character span of the supporting text."""

from __future__ import annotations

from dataclasses import dataclass, field

from citewise.retrieve.records import Evidence


@dataclass
class Citation:
    marker: str
    """``doc:ID#chunk:N``."""
    doc_id: str
    chunk_id: int
    doc_title: str
    label: str
    pages: tuple[int | None, int | None]
    char_start: int
    char_end: int
    quote: str
    """The supporting text, exactly ``Document.text[char_start:char_end]``."""
    source_uri: str = ""

    @classmethod
    def of(cls, evidence: Evidence, char_start: int, char_end: int) -> Citation:
        """The citation of ``[char_start, char_end)`` inside ``evidence`` (offsets in ``Document.text``)."""
        c = evidence.chunk
        text = evidence.text or c.body
        base = evidence.text_start
        return cls(
            marker=evidence.ref,
            doc_id=c.doc_id,
            chunk_id=c.chunk_id,
            doc_title=evidence.doc_title,
            label=c.label,
            pages=(c.page_start, c.page_end),
            char_start=char_start,
            char_end=char_end,
            quote=text[char_start - base : char_end - base],
            source_uri=c.source_uri,
        )


@dataclass
class ReferenceCheck:
    """A legal reference written in a sentence ("Article 6(1)", "khoản 2 Điều 17"), checked
    against the cited sources."""

    raw: str
    status: str
    """``valid`` (in a cited source, context matches) | ``mismatch`` (in a cited source, context
    differs) | ``invalid`` (in no cited source)."""
    source: str = ""
    """Title of the cited source that holds it."""
    context: float = 0.0
    """Similarity of the sentence around the reference to the source around it."""


@dataclass
class Verdict:
    """The zero-token checks of one sentence."""

    status: str
    """``supported`` | ``partial`` | ``unsupported``."""
    support: float
    failed: list[str] = field(default_factory=list)
    """Names of failed checks: marker, support, number, reference, url."""
    details: list[str] = field(default_factory=list)
    references: list[ReferenceCheck] = field(default_factory=list)
    evidence: str = ""
    """The cited text span that matches the sentence best."""
