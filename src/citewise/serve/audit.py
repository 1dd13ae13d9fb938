"""The audit log: every question asked through the API, its answer, citations, per-sentence
verdicts and timings, and the reviews people gave it (verified / flagged). One SQLite file,
``audit.sqlite3``, beside the index (separate from ``citewise.sqlite``, which ingest owns), with
numbered migrations in ``PRAGMA user_version``. No client address or other personal data is kept."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citewise.assistant.records import Answer
from citewise.errors import InvalidValue, NotFound, StoreError
from citewise.redact import keep

FILENAME = "audit.sqlite3"
REVIEW_STATUSES = ("verified", "flagged")

_MIGRATIONS = [
    """
    CREATE TABLE answers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        asked_at TEXT NOT NULL,
        question TEXT NOT NULL,
        lang TEXT NOT NULL,
        text TEXT NOT NULL,
        refused INTEGER NOT NULL,
        reason TEXT NOT NULL,
        confidence REAL NOT NULL,
        generator TEXT NOT NULL,
        warning TEXT NOT NULL,
        partial INTEGER NOT NULL,
        total_ms REAL NOT NULL,
        timings TEXT NOT NULL,
        generation INTEGER,
        record TEXT NOT NULL
    );
    CREATE TABLE citations (
        answer_id INTEGER NOT NULL REFERENCES answers(id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        marker TEXT NOT NULL,
        doc_id TEXT NOT NULL,
        chunk_id INTEGER NOT NULL,
        label TEXT NOT NULL,
        char_start INTEGER NOT NULL,
        char_end INTEGER NOT NULL,
        quote TEXT NOT NULL,
        PRIMARY KEY (answer_id, n)
    );
    CREATE INDEX citations_doc ON citations(doc_id);
    CREATE TABLE sentences (
        answer_id INTEGER NOT NULL REFERENCES answers(id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        text TEXT NOT NULL,
        status TEXT NOT NULL,
        support REAL NOT NULL,
        failed TEXT NOT NULL,
        citations TEXT NOT NULL,
        PRIMARY KEY (answer_id, n)
    );
    CREATE TABLE reviews (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        answer_id INTEGER NOT NULL REFERENCES answers(id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('verified', 'flagged')),
        note TEXT NOT NULL,
        reviewer TEXT NOT NULL,
        reviewed_at TEXT NOT NULL
    );
    CREATE INDEX reviews_answer ON reviews(answer_id);
    """,
    """
    ALTER TABLE answers ADD COLUMN outcome TEXT NOT NULL DEFAULT '';
    """,
]


@dataclass
class Review:
    status: str
    """``verified`` | ``flagged``."""
    note: str
    reviewer: str
    reviewed_at: str


@dataclass
class AuditEntry:
    """One logged answer as listed (the full answer is in ``AuditLog.record``)."""

    id: int
    asked_at: str
    question: str
    lang: str
    text: str
    refused: bool
    reason: str
    confidence: float
    generator: str
    warning: str
    total_ms: float
    citations: int
    review: Review | None
    """The latest review, if any."""
    kind: str = ""
    """The answer's outcome as recorded (``answered``, ``no_direct_answer``, ``refused``; empty in logs
    written before outcomes were recorded)."""

    @property
    def outcome(self) -> str:
        if self.refused:
            return "refused"
        if self.kind == "no_direct_answer":
            return "no_direct_answer"
        return "low confidence" if self.warning else "answered"


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


class AuditLog:
    def __init__(self, folder: Path | str, questions: str = "yes", retention_days: int | None = None) -> None:
        """``questions``: how questions are kept (``redact.keep``: yes, redacted, no); ``retention_days``:
        answers older than this are purged at start and as new ones are logged."""
        self.questions = questions
        self.retention_days = retention_days
        self.path = Path(folder) / FILENAME
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
            self.purge()
        except sqlite3.Error as e:
            raise StoreError(f"cannot open the audit log at {self.path}: {e}") from e

    def _migrate(self) -> None:
        version = int(self.db.execute("PRAGMA user_version").fetchone()[0])
        if version > len(_MIGRATIONS):
            raise StoreError(f"the audit log {self.path} was written by a newer citewise (schema {version})")
        for number, script in enumerate(_MIGRATIONS[version:], start=version + 1):
            self.db.executescript(f"BEGIN IMMEDIATE; {script}; PRAGMA user_version = {number}; COMMIT;")

    def purge(self) -> int:
        """Delete the answers older than the retention period; returns how many went."""
        if self.retention_days is None:
            return 0
        cutoff = (dt.datetime.now(dt.UTC) - dt.timedelta(days=self.retention_days)).isoformat(timespec="seconds")
        cur = self.db.execute("DELETE FROM answers WHERE asked_at < ?", (cutoff,))
        return cur.rowcount

    def delete(self, answer_id: int) -> None:
        """Remove one answer with its citations, sentences and reviews."""
        if self.db.execute("DELETE FROM answers WHERE id=?", (answer_id,)).rowcount == 0:
            raise NotFound(f"no answer {answer_id} in the audit log")

    def record(self, answer: Answer, generation: int | None = None) -> int:
        """Log one answer (its question kept as the policy says); returns its id."""
        self.purge()
        question = keep(answer.question, self.questions)
        stored = answer.to_dict()
        stored["question"] = question
        numbers: dict[str, int] = {}
        for c in answer.references:
            numbers[f"{c.marker}@{c.char_start}"] = len(numbers) + 1
        self.db.execute("BEGIN IMMEDIATE")
        try:
            cur = self.db.execute(
                "INSERT INTO answers (asked_at, question, lang, text, refused, reason, confidence, generator, warning,"
                " partial, total_ms, timings, generation, record, outcome) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    _now(),
                    question,
                    answer.lang,
                    answer.text,
                    int(answer.refused),
                    answer.reason,
                    answer.confidence,
                    answer.generator,
                    answer.warning,
                    int(answer.partial),
                    answer.timings.get("total", 0.0),
                    json.dumps(answer.timings),
                    generation,
                    json.dumps(stored, ensure_ascii=False),
                    answer.outcome,
                ),
            )
            answer_id = int(cur.lastrowid or 0)
            self.db.executemany(
                "INSERT INTO citations VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (answer_id, n, c.marker, c.doc_id, c.chunk_id, c.label, c.char_start, c.char_end, c.quote)
                    for n, c in enumerate(answer.references, start=1)
                ],
            )
            self.db.executemany(
                "INSERT INTO sentences VALUES (?,?,?,?,?,?,?)",
                [
                    (
                        answer_id,
                        n,
                        s.text,
                        s.verdict.status,
                        s.verdict.support,
                        json.dumps(s.verdict.failed),
                        json.dumps([numbers[f"{c.marker}@{c.char_start}"] for c in s.citations]),
                    )
                    for n, s in enumerate(answer.sentences, start=1)
                ],
            )
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return answer_id

    def review(self, answer_id: int, status: str, note: str = "", reviewer: str = "") -> Review:
        """Mark an answer verified or flagged; the latest review is the one that counts."""
        if status not in REVIEW_STATUSES:
            raise InvalidValue(f"review status must be one of {', '.join(REVIEW_STATUSES)}, not {status!r}")
        if self.db.execute("SELECT 1 FROM answers WHERE id=?", (answer_id,)).fetchone() is None:
            raise NotFound(f"no answer {answer_id} in the audit log")
        review = Review(status, note, reviewer, _now())
        self.db.execute(
            "INSERT INTO reviews (answer_id, status, note, reviewer, reviewed_at) VALUES (?,?,?,?,?)",
            (answer_id, review.status, review.note, review.reviewer, review.reviewed_at),
        )
        return review

    _LIST_SQL = (
        "SELECT a.*, (SELECT COUNT(*) FROM citations c WHERE c.answer_id=a.id) AS ncitations,"
        " r.status AS r_status, r.note AS r_note, r.reviewer AS r_reviewer, r.reviewed_at AS r_at"
        " FROM answers a LEFT JOIN reviews r ON r.id = (SELECT MAX(id) FROM reviews WHERE answer_id=a.id)"
    )

    @staticmethod
    def _entry(r: sqlite3.Row) -> AuditEntry:
        review = Review(r["r_status"], r["r_note"], r["r_reviewer"], r["r_at"]) if r["r_status"] else None
        return AuditEntry(
            id=r["id"],
            asked_at=r["asked_at"],
            question=r["question"],
            lang=r["lang"],
            text=r["text"],
            refused=bool(r["refused"]),
            reason=r["reason"],
            confidence=r["confidence"],
            generator=r["generator"],
            warning=r["warning"],
            total_ms=r["total_ms"],
            citations=r["ncitations"],
            review=review,
            kind=r["outcome"],
        )

    def entries(self, limit: int = 50, review: str | None = None) -> list[AuditEntry]:
        """The latest answers first; ``review`` keeps only ``verified``, ``flagged`` or ``unreviewed`` ones."""
        where, args = "", []
        if review == "unreviewed":
            where = " WHERE r.status IS NULL"
        elif review is not None:
            if review not in REVIEW_STATUSES:
                raise InvalidValue(f"review filter must be verified, flagged or unreviewed, not {review!r}")
            where, args = " WHERE r.status = ?", [review]
        rows = self.db.execute(self._LIST_SQL + where + " ORDER BY a.id DESC LIMIT ?", [*args, limit])
        return [self._entry(r) for r in rows]

    def get(self, answer_id: int) -> dict[str, Any]:
        """One logged answer in full: the answer object, its id, time, reviews (oldest first)."""
        r = self.db.execute("SELECT id, asked_at, generation, record FROM answers WHERE id=?", (answer_id,)).fetchone()
        if r is None:
            raise NotFound(f"no answer {answer_id} in the audit log")
        reviews = [
            Review(x["status"], x["note"], x["reviewer"], x["reviewed_at"])
            for x in self.db.execute("SELECT * FROM reviews WHERE answer_id=? ORDER BY id", (answer_id,))
        ]
        return {
            "id": r["id"],
            "asked_at": r["asked_at"],
            "generation": r["generation"],
            "answer": json.loads(r["record"]),
            "reviews": [vars(x) for x in reviews],
        }

    def close(self) -> None:
        self.db.close()
