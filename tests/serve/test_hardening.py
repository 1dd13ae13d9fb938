"""What a probe of the server and the ingest found, closed; each checked against a real server process on
loopback or real files: zip bombs, foreign Host and Origin, rate limiting before authentication, forwarded
addresses, oversized ids, terminal escapes in the log, server paths, a token with whitespace."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from citewise.cli import app
from citewise.cli.commands import printable
from citewise.errors import CorruptFile, TooLarge
from citewise.ingest.loader import load_document
from citewise.serve.config import ServeSettings
from tests.helpers.badfiles import zip_bomb
from tests.serve.processes import running_server

TOKEN = "tok-hardening"
REVIEWER = "tok-reviewer"


def test_a_zip_bomb_is_refused_before_it_is_parsed_and_memory_stays_flat(tmp_path: Path) -> None:
    bomb = zip_bomb(tmp_path / "bomb.docx")
    assert bomb.stat().st_size < 1 << 20
    with pytest.raises((CorruptFile, TooLarge)) as err:
        load_document(bomb)
    assert "MB" in str(err.value) or "zip bomb" in str(err.value)
    code = (
        "import resource, sys\n"
        "from pathlib import Path\n"
        "from citewise.ingest.loader import load_document\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "try:\n"
        f"    load_document(Path({str(bomb)!r}))\n"
        "except Exception as e:\n"
        "    print(type(e).__name__)\n"
        "print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] in ("CorruptFile", "TooLarge") and int(out[1]) < 50, out  # MB gained while refusing it
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 0


@pytest.fixture(scope="module")
def server(module_index: Path) -> Iterator[str]:
    env = {
        "CITEWISE_API_TOKEN": f"  {TOKEN}\n",  # as read from a secrets file: whitespace around it
        "CITEWISE_SERVE__RATE_BURST": "25",
        "CITEWISE_SERVE__MAX_QUEUE": "2",
        "CITEWISE_REVIEWER_TOKEN": REVIEWER,
        "CITEWISE_PRIVACY__STORE_QUESTIONS": "redacted",
        "CITEWISE_SERVE__RATE_PER_MINUTE": "30",
    }
    leftover = module_index / "uploads" / ".staging-0123abcd"  # an upload cut off by a crash
    leftover.mkdir(parents=True, exist_ok=True)
    (leftover / "half.md").write_text("# half an upload")
    with running_server(module_index, env) as base:
        yield base


def auth(**more: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKEN}", **more}


def test_foreign_hosts_and_origins_are_refused(server: str) -> None:
    port = server.rsplit(":", 1)[1]
    assert httpx.get(f"{server}/documents", headers=auth()).status_code == 200  # the token had whitespace
    rebinding = httpx.get(f"{server}/documents", headers=auth(Host=f"evil.example:{port}"))
    assert rebinding.status_code == 421 and rebinding.json()["error"]["code"] == "host_not_allowed"
    assert httpx.get(f"{server}/", headers={"Host": f"evil.example:{port}"}).status_code == 421
    files = {"files": ("x.md", b"# Title\n\nSome text of a document.", "text/markdown")}
    cross = httpx.post(f"{server}/documents", headers=auth(Origin="http://evil.example"), files=files)
    assert cross.status_code == 403 and cross.json()["error"]["code"] == "cross_origin"
    site = httpx.post(f"{server}/ask", headers=auth(**{"Sec-Fetch-Site": "cross-site"}), json={"question": "x"})
    assert site.status_code == 403
    same = httpx.post(f"{server}/ask", headers=auth(Origin=server), json={"question": "What is personal data?"})
    assert same.status_code == 200
    docs = httpx.get(f"{server}/documents", headers=auth()).json()
    assert len(docs) == 7 and all("source_uri" not in d and "/" not in d["file"] for d in docs)


def test_staging_left_by_a_crash_is_cleaned_at_start(server: str, module_index: Path) -> None:
    assert not list((module_index / "uploads").glob(".staging-*"))


def test_clients_may_not_pick_the_slow_generator_and_the_queue_is_bounded(server: str) -> None:
    local = httpx.post(
        f"{server}/ask", headers=auth(), json={"question": "What is personal data?", "generator": "local"}
    )
    assert local.status_code == 403 and local.json()["error"]["code"] == "generator_not_allowed"
    questions = [f"Within how many hours must a personal data breach be notified? ({i})" for i in range(8)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        replies = list(pool.map(lambda q: httpx.post(f"{server}/ask", headers=auth(), json={"question": q}, timeout=120),
                                questions))  # fmt: skip
    codes = [r.status_code for r in replies]
    assert 503 in codes and 200 in codes, codes
    busy = next(r for r in replies if r.status_code == 503)
    assert busy.json()["error"]["code"] == "busy" and int(busy.headers["Retry-After"]) >= 1


def test_the_audit_log_is_for_reviewers_and_keeps_questions_redacted(server: str) -> None:
    question = "My CCCD is 079203001234 and my e-mail an@example.com: within how many hours must a breach be notified?"
    asked = httpx.post(f"{server}/ask", headers=auth(), json={"question": question}, timeout=120)
    assert asked.status_code == 200
    audit_id = asked.json()["audit_id"]
    assert httpx.get(f"{server}/answers", headers=auth()).status_code == 401  # the API token reads no questions
    reviewer = {"Authorization": f"Bearer {REVIEWER}"}
    logged = httpx.get(f"{server}/answers/{audit_id}", headers=reviewer).json()
    kept = logged["answer"]["question"] if "answer" in logged else json.dumps(logged)
    assert "079203001234" not in kept and "an@example.com" not in kept and "[id]" in kept and "[email]" in kept
    assert httpx.delete(f"{server}/answers/{audit_id}", headers=reviewer).json() == {"deleted": audit_id}
    assert httpx.get(f"{server}/answers/{audit_id}", headers=reviewer).status_code == 404


def test_ids_out_of_range_are_not_found(server: str) -> None:
    reviewer = {"Authorization": f"Bearer {REVIEWER}"}
    big = httpx.get(f"{server}/answers/99999999999999999999", headers=reviewer)
    assert big.status_code == 404 and big.json()["error"]["code"] == "not_found"
    assert httpx.get(f"{server}/answers/-1", headers=reviewer).status_code == 404


def test_wrong_tokens_are_rate_limited_and_forwarded_addresses_are_not_believed(server: str) -> None:
    codes = []
    for i in range(20):
        r = httpx.get(
            f"{server}/documents", headers={"Authorization": "Bearer wrong", "X-Forwarded-For": f"10.0.0.{i}"}
        )
        codes.append(r.status_code)
    assert 401 in codes and 429 in codes  # each failure costs 6 (itself and 5 more): the burst is soon gone
    limited = httpx.get(f"{server}/documents", headers=auth(**{"X-Forwarded-For": "10.9.9.9"}))
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1


def test_the_log_never_prints_escape_sequences(tmp_path: Path) -> None:
    assert printable("what \x1b[2J\x1b]0;pwned\x07 is it?") == "what \ufffd[2J\ufffd]0;pwned\ufffd is it?"
    result = CliRunner().invoke(app, ["log", "--index", str(tmp_path)])
    assert result.exit_code == 0


def test_token_whitespace_is_removed() -> None:
    assert ServeSettings(token="  abc \n").token == "abc"
    assert ServeSettings(token="   ").token is None


def test_retention_purges_old_answers(tmp_path: Path) -> None:
    from citewise.assistant.records import Answer
    from citewise.serve.audit import AuditLog

    log = AuditLog(tmp_path, questions="no", retention_days=30)
    answer = Answer("Số CMND 012345678 của tôi?", "vi", "…", [], True, "none", 0.0, "none")
    kept = log.record(answer)
    old = log.record(answer)
    log.db.execute("UPDATE answers SET asked_at='2020-01-01T00:00:00+00:00' WHERE id=?", (old,))
    assert log.purge() == 1 and [e.id for e in log.entries()] == [kept]
    assert log.entries()[0].question == ""  # questions not kept at all
    log.close()
