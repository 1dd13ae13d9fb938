"""The audit log on real SQLite, the `citewise log` and `citewise serve` commands, file-name
checks and the rate limiter's bucket arithmetic."""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citewise.answer.records import REFUSAL
from citewise.assistant.records import Answer, AnswerSentence
from citewise.cli import app
from citewise.errors import NotFound, StoreError, UnsafeName, UnsupportedFormat
from citewise.serve.audit import FILENAME, AuditLog
from citewise.serve.config import ServeSettings, binding_problem, is_loopback
from citewise.serve.guards import RateLimiter
from citewise.serve.uploads import DOCUMENT_TYPES, safe_filename
from citewise.verify.records import Citation, Verdict

runner = CliRunner()


def cited_answer(question: str = "How long to notify?") -> Answer:
    cite = Citation(
        marker="doc:abc#chunk:3",
        doc_id="abc",
        chunk_id=3,
        doc_title="Harbourview Home Policy",
        label="Section 4.2",
        pages=(3, 3),
        char_start=100,
        char_end=140,
        quote="notify us within 30 days of the damage.",
    )
    sentence = AnswerSentence("You must notify us within 30 days of the damage.", [cite], Verdict("supported", 0.93))
    return Answer(
        question=question,
        lang="en",
        text=f"{sentence.text} [1]",
        sentences=[sentence],
        refused=False,
        reason="",
        confidence=0.81,
        generator="extractive",
        timings={"retrieve.total": 20.0, "total": 31.5},
    )


def refusal() -> Answer:
    return Answer("Boiling point of mercury?", "en", REFUSAL["en"], [], True, "weak evidence", 0.0, "none")


def test_audit_log_records_answers_citations_verdicts_and_reviews(tmp_path: Path) -> None:
    log = AuditLog(tmp_path)
    first = log.record(cited_answer(), generation=4)
    second = log.record(refusal())
    assert [e.id for e in log.entries()] == [second, first]
    entry = log.entries()[1]
    assert entry.citations == 1 and entry.total_ms == 31.5 and entry.outcome == "answered" and entry.review is None
    assert log.entries()[0].outcome == "refused"
    row = log.db.execute("SELECT * FROM sentences WHERE answer_id=?", (first,)).fetchone()
    assert row["status"] == "supported" and json.loads(row["citations"]) == [1] and row["support"] == 0.93
    quote = log.db.execute("SELECT quote, doc_id FROM citations WHERE answer_id=?", (first,)).fetchone()
    assert tuple(quote) == ("notify us within 30 days of the damage.", "abc")

    log.review(first, "flagged", note="cites the wrong section")
    log.review(first, "verified", reviewer="lan")
    assert log.entries(review="verified")[0].id == first
    assert log.entries(review="flagged") == []
    assert [e.id for e in log.entries(review="unreviewed")] == [second]
    full = log.get(first)
    assert full["generation"] == 4 and [r["status"] for r in full["reviews"]] == ["flagged", "verified"]
    assert full["answer"]["references"][0]["quote"] == "notify us within 30 days of the damage."
    with pytest.raises(ValueError, match="verified, flagged"):
        log.review(first, "approved")
    with pytest.raises(NotFound):
        log.review(999, "verified")
    with pytest.raises(ValueError):
        log.entries(review="maybe")
    log.close()

    reopened = AuditLog(tmp_path)  # migrations run once; data stays
    assert len(reopened.entries()) == 2
    reopened.close()


def test_audit_log_written_by_a_newer_version_is_refused(tmp_path: Path) -> None:
    AuditLog(tmp_path).close()
    db = sqlite3.connect(tmp_path / FILENAME)
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(StoreError, match="newer citewise"):
        AuditLog(tmp_path)


def test_log_command_lists_filters_and_shows(tmp_path: Path) -> None:
    log = AuditLog(tmp_path)
    answered = log.record(cited_answer())
    refused = log.record(refusal())
    log.review(refused, "flagged", note="should have answered")
    log.close()
    listed = runner.invoke(app, ["log", "--index", str(tmp_path), "--json"])
    assert listed.exit_code == 0, listed.output
    entries = json.loads(listed.stdout)
    assert [e["id"] for e in entries] == [refused, answered]
    assert entries[0]["review"]["status"] == "flagged" and entries[0]["outcome"] == "refused"
    flagged = json.loads(runner.invoke(app, ["log", "--index", str(tmp_path), "--json", "--review", "flagged"]).stdout)
    assert [e["id"] for e in flagged] == [refused]
    one = json.loads(runner.invoke(app, ["log", "--index", str(tmp_path), "--id", str(answered)]).stdout)
    assert one["answer"]["sentences"][0]["verdict"]["status"] == "supported"
    human = runner.invoke(app, ["log", "--index", str(tmp_path)], env={"COLUMNS": "200"})
    assert human.exit_code == 0 and "flagged: should have answered" in human.stdout and "answered" in human.stdout
    bad = runner.invoke(app, ["log", "--index", str(tmp_path), "--review", "maybe"])
    assert bad.exit_code == 1 and "verified, flagged or unreviewed" in bad.stderr
    missing = runner.invoke(app, ["log", "--index", str(tmp_path), "--id", "404"])
    assert missing.exit_code == 1 and "no answer 404" in missing.stderr


def test_binding_rules() -> None:
    assert binding_problem(ServeSettings(host="192.168.1.20", token=None)) is not None
    assert binding_problem(ServeSettings(host="192.168.1.20", token="t")) is None
    assert binding_problem(ServeSettings(host="127.0.0.1", token=None)) is None
    assert is_loopback("localhost") and is_loopback("::1") and is_loopback("127.0.0.2")
    assert not is_loopback("0.0.0.0") and not is_loopback("example.org")
    help_text = runner.invoke(app, ["serve", "--help"]).stdout
    assert "--host" in help_text and "--port" in help_text and "CITEWISE_API_TOKEN" in help_text


def test_token_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEWISE_API_TOKEN", "from-env")
    monkeypatch.setenv("CITEWISE_SERVE__RATE_BURST", "7")
    config = ServeSettings()
    assert config.token == "from-env" and config.rate_burst == 7
    assert ServeSettings(token="flag").token == "flag"


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("../x.md", UnsafeName),
        ("a/b.md", UnsafeName),
        ("a\\b.md", UnsafeName),
        ("..", UnsafeName),
        (".env.md", UnsafeName),
        ("x\x00.md", UnsafeName),
        ("tab\there.md", UnsafeName),
        (" padded.md", UnsafeName),
        ("y" * 300 + ".md", UnsafeName),
        ("", UnsafeName),
        ("run.sh", UnsupportedFormat),
        ("notes", UnsupportedFormat),
        ("data.jsonl", UnsupportedFormat),
    ],
)
def test_unsafe_file_names(name: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        safe_filename(name, list(DOCUMENT_TYPES))


def test_plain_file_names_pass_as_nfc() -> None:
    decomposed = unicodedata.normalize("NFD", "Quy định bảo vệ dữ liệu.pdf")
    assert safe_filename(decomposed, list(DOCUMENT_TYPES)) == "Quy định bảo vệ dữ liệu.pdf"
    assert safe_filename("policy v2.1 (final).DOCX", list(DOCUMENT_TYPES)) == "policy v2.1 (final).DOCX"


def test_rate_limiter_bucket() -> None:
    now = [0.0]
    limiter = RateLimiter(per_minute=60, burst=2, clock=lambda: now[0])
    assert limiter.take("a") == 0 and limiter.take("a") == 0
    assert limiter.take("a") == pytest.approx(1.0)
    assert limiter.take("b") == 0  # clients have separate buckets
    now[0] = 0.5
    assert limiter.take("a") == pytest.approx(0.5)
    now[0] = 1.0
    assert limiter.take("a") == 0
    small = RateLimiter(per_minute=60, burst=1, clock=lambda: now[0], max_clients=2)
    for client in "xyz":
        small.take(client)
    assert len(small.buckets) <= 2
