"""The HTTP API on the sample corpus, through the real app: answers with exact quotes, the audit
log and reviews, documents and their sources, auth, rate limit, size limits, bad uploads and
traversal attempts, and JSON errors everywhere."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from citewise.answer.records import REFUSAL
from citewise.index.embedder import Embedder
from citewise.serve.api import create_app
from citewise.serve.config import ServeSettings
from citewise.settings import Settings
from tests.serve.conftest import AppFactory

HOME_EN = "How many days do I have to notify Harbourview of damage to my home?"
HOME_VI = "Thời hạn giải quyết bồi thường bảo hiểm nhà ở là bao lâu?"
NO_ANSWER = "What is the boiling point of mercury?"
WEB = Path(__file__).resolve().parents[2] / "src" / "citewise" / "serve" / "web"

POLICY_MD = b"""# Harbour Club Rules

Rule 1. Membership
Members must renew their membership every 12 months by paying the annual fee of 40 euros.

Rule 2. Guests
Each member may bring at most 3 guests per visit to the harbour club.
"""


def error_of(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()["error"]
    assert body["code"] and body["message"], body
    return dict(body)


def test_page_docs_and_health_are_served_offline(client: TestClient) -> None:
    health = client.get("/healthz").json()
    embedding = health.pop("embedding")
    assert health == {"status": "ok", "documents": 7, "auth": False}
    assert embedding["done"] == embedding["total"] > 100  # the sample corpus's vectors ship with it
    page = client.get("/")
    assert page.status_code == 200 and '<script type="module" src="/static/app.js"' in page.text
    csp = page.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    for asset in ("app.js", "i18n.js", "style.css", "docs.js", "docs.css"):
        assert client.get(f"/static/{asset}").status_code == 200
    for f in WEB.iterdir():  # no CDN, no remote font, no external script anywhere in the page
        text = f.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, f.name
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/static/docs.js" in docs.text
    spec = client.get("/openapi.json").json()
    for path in ("/ask", "/search", "/documents", "/documents/{doc_id}", "/documents/{doc_id}/source", "/healthz"):
        assert path in spec["paths"], path
    assert set(spec["paths"]["/documents/{doc_id}"]) == {"get", "delete"}
    assert "/answers/{answer_id}/review" in spec["paths"]


def test_ask_answers_with_exact_quotes_and_logs_it(client: TestClient) -> None:
    answer = client.post("/ask", json={"question": HOME_EN}).json()
    assert not answer["refused"] and answer["lang"] == "en" and answer["generator"] == "extractive"
    assert answer["references"] and "30 days" in answer["text"]
    assert answer["timings"]["total"] > 0 and answer["audit_id"] >= 1
    for c in answer["references"]:
        source = client.get(f"/documents/{c['doc_id']}/source").json()
        assert source["text"][c["char_start"] : c["char_end"]] == c["quote"]
        if c["pages"][0] is not None:  # the quote lies on the pages of the provision it cites
            on = [
                p["number"]
                for p in source["pages"]
                if p["char_start"] < c["char_end"] and c["char_start"] < p["char_end"]
            ]
            assert on and c["pages"][0] <= on[0] <= on[-1] <= c["pages"][1]
    for s in answer["sentences"]:
        assert s["verdict"]["status"] == "supported" and s["citations"]

    logged = client.get(f"/answers/{answer['audit_id']}").json()
    assert logged["answer"]["references"] == answer["references"] and logged["reviews"] == []
    entries = client.get("/answers", params={"limit": 5}).json()
    assert entries[0]["id"] == answer["audit_id"] and entries[0]["outcome"] in ("answered", "low confidence")
    assert entries[0]["citations"] == len(answer["references"]) and entries[0]["review"] is None


def test_reviews_mark_answers_verified_or_flagged(client: TestClient) -> None:
    first = client.post("/ask", json={"question": HOME_VI}).json()
    assert first["lang"] == "vi" and not first["refused"]
    url = f"/answers/{first['audit_id']}/review"
    assert client.post(url, json={"status": "flagged", "note": "wrong clause"}).status_code == 200
    latest = client.post(url, json={"status": "verified", "reviewer": "lan"}).json()
    assert latest["status"] == "verified" and latest["answer_id"] == first["audit_id"]
    logged = client.get(f"/answers/{first['audit_id']}").json()
    assert [r["status"] for r in logged["reviews"]] == ["flagged", "verified"]
    verified = client.get("/answers", params={"review": "verified"}).json()
    assert first["audit_id"] in [e["id"] for e in verified]
    assert all(e["review"]["status"] == "verified" for e in verified)
    assert first["audit_id"] not in [e["id"] for e in client.get("/answers?review=flagged").json()]
    error_of(client.post(url, json={"status": "approved"}), 422)
    error_of(client.post("/answers/999999/review", json={"status": "verified"}), 404)
    error_of(client.get("/answers/999999"), 404)


def test_refusals_in_the_question_language(client: TestClient) -> None:
    refusal = client.post("/ask", json={"question": NO_ANSWER}).json()
    assert refusal["refused"] and refusal["text"] == REFUSAL["en"] and refusal["references"] == []
    assert refusal["reason"] and refusal["audit_id"]
    entry = client.get(f"/answers/{refusal['audit_id']}").json()
    assert entry["answer"]["refused"] is True
    vi = client.post("/ask", json={"question": "Nhiệt độ sôi của thủy ngân là bao nhiêu?"}).json()
    assert vi["refused"] and vi["text"] == REFUSAL["vi"]


def test_verify_checks_a_claim_against_its_premise(client: TestClient) -> None:
    rule = "The insured must notify the company within 14 days of the loss."
    held = client.post("/verify", json={"claim": "The notice period is 14 days.", "premise": rule}).json()
    assert held["status"] == "supported" and held["findings"] == [] and held["evidence"] == rule
    swap = "The company must notify the insured within 14 days of the loss."
    failed = client.post("/verify", json={"claim": swap, "premise": rule}).json()
    assert failed["status"] == "unsupported" and "the insurer before the insured" in failed["findings"][0]
    wrong = client.post("/verify", json={"claim": "The notice period is 30 days.", "premise": rule}).json()
    assert wrong["status"] == "unsupported" and wrong["missing_figures"] == ["30"]
    error_of(client.post("/verify", json={"claim": "  ", "premise": rule}), 422)
    error_of(client.post("/verify", json={"claim": swap}), 422)
    error_of(client.post("/verify", json={"claim": swap, "premise": "x" * 20_001}), 413)
    assert "/verify" in client.get("/openapi.json").json()["paths"]


def test_search_and_request_validation(client: TestClient) -> None:
    result = client.get("/search", params={"q": "khoản 2 điều 9 quy tắc 125/2024", "k": 3}).json()
    found = [e for e in result["evidence"] if not e["supporting"]]  # cross-referenced provisions come on top
    assert len(found) == 3 and found[0]["chunk"]["label"] == "Điều 9" and result["analysis"]["lang"] == "vi"
    assert "k" in str(error_of(client.get("/search", params={"q": "x", "k": 0}), 422)["message"])
    error_of(client.get("/search"), 422)
    error_of(client.post("/ask", json={"question": "   "}), 422)
    error_of(client.post("/ask", json={}), 422)
    error_of(client.post("/ask", content=b"{not json", headers={"content-type": "application/json"}), 422)
    assert "unknown generator" in str(
        error_of(client.post("/ask", json={"question": HOME_EN, "generator": "gpt-9"}), 400)["message"]
    )
    error_of(client.get("/no-such-route"), 404)
    error_of(client.put("/ask", json={"question": HOME_EN}), 405)


def test_documents_listing_and_one_document(client: TestClient) -> None:
    docs = client.get("/documents").json()
    assert len(docs) == 7 and {d["lang"] for d in docs} == {"en", "vi"}
    home = next(d for d in docs if d["number"] == "125/2024/QĐ-SH")
    assert home["status"] == "ok" and home["uploaded"] is False and home["file"] == "quy-tac-bao-hiem-nha-o-vi.pdf"
    one = client.get(f"/documents/{home['doc_id']}").json()
    assert one["title"] == home["title"] and any(n["label"] == "Điều 9" for n in one["nodes"])
    original = client.get(f"/documents/{home['doc_id']}/source", params={"format": "original"})
    assert original.status_code == 200 and original.content.startswith(b"%PDF")
    assert original.headers["content-disposition"].startswith("attachment")
    error_of(client.get("/documents/0000000000000000"), 404)
    error_of(client.get("/documents/0000000000000000/source"), 404)
    error_of(client.get(f"/documents/{home['doc_id']}/source", params={"format": "pdf"}), 422)


def wait_for_job(client: TestClient, job: str, seconds: float = 60) -> dict[str, Any]:
    """The job's status once it is done or failed."""
    deadline = time.monotonic() + seconds
    while True:
        status: dict[str, Any] = client.get(f"/jobs/{job}").json()
        if status["status"] in ("done", "failed"):
            return status
        assert time.monotonic() < deadline, status
        time.sleep(0.05)


def test_upload_source_and_delete(make_client: AppFactory, served_index: Path, tmp_path: Path) -> None:
    index = tmp_path / "index"
    import shutil

    shutil.copytree(served_index, index)
    with make_client(index=index, rate_burst=1000) as client:
        queued = client.post("/documents", files={"files": ("harbour-club rules.md", POLICY_MD, "text/markdown")})
        assert queued.status_code == 202, queued.text  # indexed as a job, off the request path
        job = queued.json()
        assert job["status"] in ("queued", "running", "done") and job["files"] == ["harbour-club rules.md"]
        assert queued.headers["location"] == job["status_url"] == f"/jobs/{job['job']}"
        created = wait_for_job(client, job["job"])
        assert created["status"] == "done" and created["errors"] == [] and created["finished_at"]
        [doc] = created["documents"]
        assert doc["status"] == "added" and doc["chunks"] >= 1 and doc["file"] == "harbour-club rules.md"
        stored = index / "uploads" / "harbour-club rules.md"
        assert stored.read_bytes() == POLICY_MD
        assert client.get("/healthz").json()["documents"] == 8
        listed = {d["doc_id"]: d for d in client.get("/documents").json()}
        assert listed[doc["doc_id"]]["uploaded"] is True

        again = client.post(
            "/documents?wait=true", files={"files": ("harbour-club rules.md", POLICY_MD, "text/markdown")}
        )
        assert again.status_code == 201 and again.json()["documents"][0]["status"] == "unchanged"

        answer = client.post("/ask", json={"question": "How many guests may a member bring to the harbour club?"})
        refs = answer.json()["references"]
        assert answer.json()["sentences"][0]["text"] == "The figure is 3 guests."  # not the "2" of "Rule 2."
        assert refs and all(r["doc_id"] == doc["doc_id"] for r in refs[:2])
        assert refs[0]["quote"] == "3 guests" and "3 guests" in refs[1]["quote"]
        source = client.get(f"/documents/{doc['doc_id']}/source").json()
        assert source["pages"] == [] and source["original"] is True and source["file"] == "harbour-club rules.md"
        original = client.get(f"/documents/{doc['doc_id']}/source?format=original")
        assert original.content == POLICY_MD and original.headers["content-disposition"].startswith("attachment")

        removed = client.delete(f"/documents/{doc['doc_id']}").json()
        assert removed == {"removed": doc["doc_id"], "title": doc["title"], "file_removed": True}
        assert not stored.exists()
        error_of(client.get(f"/documents/{doc['doc_id']}"), 404)
        error_of(client.delete(f"/documents/{doc['doc_id']}"), 404)
        assert client.get("/healthz").json()["documents"] == 7
        nothing = client.post("/ask", json={"question": "How many guests may a member bring to the harbour club?"})
        assert all(r["doc_id"] != doc["doc_id"] for r in nothing.json()["references"])


@pytest.mark.parametrize(
    "name",
    ["../evil.md", "..\\evil.md", "/etc/evil.md", "sub/evil.md", "..", ".hidden.md", "evil..md/..", "../../evil.md"],
)
def test_traversal_and_unsafe_names_are_refused(client: TestClient, served_index: Path, name: str) -> None:
    response = client.post("/documents", files={"files": (name, POLICY_MD, "text/markdown")})
    body = error_of(response, response.status_code)
    assert response.status_code in (400, 415) and body["code"] == "upload_rejected"
    assert isinstance(body["files"], list) and body["files"][0]["error"]
    assert not list(served_index.parent.rglob("evil*")) and not Path("/etc/evil.md").exists()
    uploads = served_index / "uploads"
    assert not uploads.exists() or [p.name for p in uploads.iterdir()] == []


def test_bad_uploads_are_rejected_whole(client: TestClient, served_index: Path) -> None:
    before = client.get("/documents").json()
    exe = client.post("/documents", files={"files": ("tool.exe", b"MZ\x90\x00", "application/octet-stream")})
    assert "unsupported file type .exe" in str(error_of(exe, 415)["files"])
    bare = client.post("/documents", files={"files": ("README", b"hello", "text/plain")})
    assert error_of(bare, 415)["code"] == "upload_rejected"
    json_records = client.post("/documents", files={"files": ("records.jsonl", b"{}\n", "application/json")})
    error_of(json_records, 415)

    # one good file and one corrupt one: nothing is indexed, nothing is kept
    mixed = client.post(
        "/documents?wait=true",
        files=[
            ("files", ("good.md", POLICY_MD, "text/markdown")),
            ("files", ("broken.pdf", b"%PDF-1.7 this is not a pdf", "application/pdf")),
            ("files", ("empty.txt", b"", "text/plain")),
        ],
    )
    body = error_of(mixed, 422)
    assert body["code"] == "upload_rejected" and "nothing was indexed" in str(body["message"])
    by_file = {f["file"]: f["error"] for f in body["files"]}
    assert set(by_file) == {"broken.pdf", "empty.txt"} and "empty" in by_file["empty.txt"]
    assert all("/" not in f for f in by_file)  # reasons name the upload, never a server path
    assert client.get("/documents").json() == before
    uploads = served_index / "uploads"
    assert not uploads.exists() or [p.name for p in uploads.iterdir()] == []

    queued = client.post(  # the same, as a job: it fails, and says why per file
        "/documents",
        files=[("files", ("good.md", POLICY_MD, "text/markdown")), ("files", ("empty.txt", b"", "text/plain"))],
    )
    failed = wait_for_job(client, queued.json()["job"])
    assert failed["status"] == "failed" and failed["documents"] == [] and "nothing was indexed" in failed["message"]
    assert [e["file"] for e in failed["errors"]] == ["empty.txt"]
    assert client.get("/documents").json() == before
    error_of(client.get("/jobs/0123456789abcdef"), 404)

    twice = client.post(
        "/documents",
        files=[("files", ("a.md", POLICY_MD, "text/markdown")), ("files", ("a.md", POLICY_MD, "text/markdown"))],
    )
    assert "appears twice" in str(error_of(twice, 400)["files"])
    error_of(client.post("/documents"), 422)


def test_request_size_limits(make_client: AppFactory) -> None:
    with make_client(max_json_kb=4, max_upload_mb=0.01, max_question_chars=100, rate_burst=1000) as client:
        big_json = json.dumps({"question": "x" * 5000})
        error_of(client.post("/ask", content=big_json, headers={"content-type": "application/json"}), 413)
        streamed = client.post(  # no Content-Length: counted while it streams
            "/ask", content=iter([b'{"question": "', b"y" * 6000, b'"}']), headers={"content-type": "application/json"}
        )
        error_of(streamed, 413)
        assert "100 characters" in str(error_of(client.post("/ask", json={"question": "z" * 101}), 413)["message"])
        big_file = client.post("/documents", files={"files": ("big.md", b"# Big\n" + b"word " * 4000, "text/markdown")})
        assert error_of(big_file, 413)["code"] == "too_large"
    with make_client(max_files=2, rate_burst=1000) as client:
        many = [("files", (f"f{i}.md", POLICY_MD, "text/markdown")) for i in range(3)]
        assert error_of(client.post("/documents", files=many), 413)["code"] == "too_many_files"


def test_bearer_token(make_client: AppFactory) -> None:
    with make_client(token="s3cret-token", rate_burst=1000) as client:
        assert client.get("/healthz").json()["auth"] is True
        assert client.get("/").status_code == 200  # the page loads, then asks for the token
        missing = client.get("/documents")
        assert error_of(missing, 401)["code"] == "unauthorized" and missing.headers["www-authenticate"] == "Bearer"
        error_of(client.get("/documents", headers={"Authorization": "Bearer wrong"}), 401)
        error_of(client.get("/documents", headers={"Authorization": "Basic s3cret-token"}), 401)
        error_of(client.post("/ask", json={"question": HOME_EN}), 401)
        ok = client.get("/documents", headers={"Authorization": "Bearer s3cret-token"})
        assert ok.status_code == 200 and len(ok.json()) == 7


def test_rate_limit_per_client(make_client: AppFactory) -> None:
    with make_client(rate_per_minute=6, rate_burst=3) as client:
        assert [client.get("/documents").status_code for _ in range(3)] == [200, 200, 200]
        limited = client.get("/documents")
        body = error_of(limited, 429)
        assert body["code"] == "rate_limited" and int(limited.headers["retry-after"]) >= 1
        assert client.get("/healthz").status_code == 200  # health checks are not rate limited


def test_a_case_the_condition_excludes_is_said_over_the_api(served_index: Path, embedder: Embedder) -> None:
    """The sample travel policy pays for a delay of at least 12 hours: with a judge (the fast tier here; the condition
    is read against the sentence a judge names), an 8-hour delay gets no direct answer that names the condition and
    cites it first, logged as such; /verify fails the condition turned around."""
    settings = Settings(index=served_index, answer={"judge": "features"})
    app = create_app(settings, ServeSettings(token=None, rate_burst=1000), embedder=embedder)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        answer = client.post("/ask", json={"question": "My flight was delayed 8 hours, how much will I get?"}).json()
        logged = client.get("/answers", params={"limit": 1}).json()
        clause = "If your flight is delayed by at least 12 hours, we will pay USD 40."
        claim = "We pay USD 40 for a delay of less than 12 hours."
        verdict = client.post("/verify", json={"claim": claim, "premise": clause}).json()
    assert answer["outcome"] == "no_direct_answer" and answer["sentences"] == []
    assert answer["text"].split("\n")[0] == (
        "The case in the question does not meet a condition the sources set: the provision below says “at least 12 "
        "hours”, the question states “8 hours”."
    )
    assert "delayed by at least 12 hours" in answer["closest"][0]["quote"]
    assert logged[0]["outcome"] == "no_direct_answer"
    assert verdict["status"] == "unsupported"
    assert verdict["findings"][0].startswith("bounded on another side than in the source: less than 12 hours")
