"""The page end to end in real headless Chromium (Debian's /usr/bin/chromium driven by Playwright's
Python client) against a real uvicorn server: ask, click a citation, and the highlighted span in
the source pane is exactly the citation's quote. Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from citewise.index.embedder import Embedder
from citewise.serve.api import create_app
from citewise.serve.config import ServeSettings
from citewise.settings import Settings

CHROMIUM = os.environ.get("CITEWISE_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
QUOTE_PAGE = """() => {
  const mark = document.querySelector('#source-text mark');
  const breaks = [...document.querySelectorAll('#source-text .page-break')];
  const before = breaks.filter(b => b.compareDocumentPosition(mark) & Node.DOCUMENT_POSITION_FOLLOWING);
  return before.at(-1).id.replace('page-', '');
}"""
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

playwright_sync = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (make test installs Debian's chromium)", allow_module_level=True)

pytestmark = pytest.mark.slow
expect = playwright_sync.expect  # polls from Playwright's own world: the page's CSP forbids eval


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(index: Path, embedder: Embedder, token: str | None = None) -> Iterator[str]:
    """A real uvicorn server on a free localhost port, in a thread; yields its base address."""
    import uvicorn

    port = free_port()
    app = create_app(Settings(index=index), ServeSettings(token=token, port=port, rate_burst=200), embedder=embedder)
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not srv.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def index(module_index: Path) -> Path:
    return module_index


@pytest.fixture(scope="module")
def server(index: Path, embedder: Embedder) -> Iterator[str]:
    with running(index, embedder) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 900}, locale="en-US")
    page = context.new_page()
    outside: list[str] = []
    problems: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(server) else outside.append(r.url))
    # an HTTP error the page handles (a rejected upload) is logged by Chromium as "Failed to load resource"
    page.on(
        "console", lambda m: problems.append(m.text) if m.type == "error" and "Failed to load" not in m.text else None
    )
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server + "/")
    yield page
    assert outside == [], f"the page fetched from elsewhere: {outside}"
    assert problems == [], f"errors in the page: {problems}"
    context.close()


def ask(page: Any, question: str) -> dict[str, Any]:
    page.fill("#question", question)
    with page.expect_response(lambda r: r.url.endswith("/ask")) as reply:
        page.click("#ask")
    events = [json.loads(line) for line in reply.value.text().splitlines() if line.strip()]
    page.wait_for_selector("#answer:not([hidden])")
    assert events[-1]["event"] == "answer" and all(e["event"] == "sentence" for e in events[:-1])
    answer: dict[str, Any] = events[-1]
    return answer


def highlighted(page: Any) -> str:
    text: str = page.eval_on_selector_all("#source-text mark", "marks => marks.map(m => m.textContent).join('')")
    return text


def test_citation_opens_the_source_at_the_quoted_span(page: Any) -> None:
    answer = ask(page, "How many days do I have to notify Harbourview of damage to my home?")
    assert not answer["refused"] and answer["references"]
    cites = page.locator("#answer-text sup .cite")
    assert cites.count() >= 1
    for i in range(min(cites.count(), 3)):
        cite = cites.nth(i)
        n = int(cite.get_attribute("data-n"))
        ref = answer["references"][n - 1]
        cite.click()
        page.wait_for_selector(f"#source-text mark[data-ref='{n}']")
        assert highlighted(page) == ref["quote"]
        where = page.inner_text("#source-where")
        assert ref["label"] in where
        if ref["pages"][0]:  # the page shown is the one the highlighted quote starts on
            shown = int(page.evaluate(QUOTE_PAGE))
            # a quote over two pages ("pages 3–4", a list quoted with its items) starts on the first
            assert ref["pages"][0] <= shown <= ref["pages"][1] and re.search(rf"pages? {shown}\b", where), where
        assert page.locator("#source-text mark").first.is_visible()  # scrolled into view
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "page-citation-en.png"), full_page=False)
    assert "30 days" in page.inner_text("#answer-text")
    assert "ms" in page.inner_text("#timings") and page.is_hidden("#refusal")

    page.click("#review-verified")
    expect(page.locator("#review-state")).to_have_text("marked verified")


def test_a_sentence_shown_though_not_supported_says_why(page: Any) -> None:
    """The support checks' findings (verify/findings.py) are in the sentence's tooltip. The server's own answer is
    replayed with its first sentence marked partial, as a generator's sentence shown with a warning would be."""
    answer = ask(page, "How many days do I have to notify Harbourview of damage to my home?")
    first = answer["sentences"][0]["verdict"]
    first["status"] = "partial"
    first["details"] = [
        *first.get("details", []),
        "support check: says “may” (a permission) where its source says “must” (a duty)",
    ]
    body = json.dumps({**answer, "event": "answer"}) + "\n"
    page.route("**/ask", lambda route: route.fulfill(status=200, content_type="application/x-ndjson", body=body))
    ask(page, "How many days do I have to notify Harbourview of damage to my home?")
    title = page.locator("#answer-text .sentence").first.get_attribute("title") or ""
    assert title.startswith("partly supported"), title
    assert "says “may” (a permission) where its source says “must” (a duty)" in title
    page.unroute("**/ask")


def test_an_exclusion_the_case_meets_is_said_above_the_answer(page: Any) -> None:
    answer = ask(page, "What happens if I leave my house empty for three months?")
    assert answer["outcome"] == "answered" and answer["note"]
    page.wait_for_selector("#note:not([hidden])")
    assert page.inner_text("#note") == answer["note"]
    assert "“more than 60 consecutive days”, the question states “3 months”" in answer["note"]
    assert "unoccupied for more than 60 consecutive days" in page.inner_text("#answer-text .sentence >> nth=0")
    ask(page, "How many days do I have to notify Harbourview of damage to my home?")
    assert page.is_hidden("#note")  # an answer with nothing to say of the case


def test_interface_follows_the_question_language_and_shows_refusals(page: Any) -> None:
    answer = ask(page, "Thời hạn giải quyết bồi thường bảo hiểm nhà ở là bao lâu?")
    assert answer["lang"] == "vi" and not answer["refused"]
    assert page.get_attribute("html", "lang") == "vi"
    assert page.inner_text("#ask") == "Hỏi" and page.inner_text("#references-title") == "Nguồn trích dẫn"
    first = page.locator("#answer-text sup .cite").first
    n = int(first.get_attribute("data-n"))
    first.click()
    page.wait_for_selector("#source-text mark")
    assert highlighted(page) == answer["references"][n - 1]["quote"]
    assert "trang" in page.inner_text("#source-where")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "page-citation-vi.png"))

    refused = ask(page, "What is the boiling point of mercury?")
    assert refused["refused"]
    page.wait_for_selector("#refusal:not([hidden])")
    assert page.inner_text("#refusal").startswith(refused["text"])
    assert page.get_attribute("html", "lang") == "en" and page.inner_text("#ask") == "Ask"
    assert page.locator("#answer-text .cite").count() == 0 and page.is_hidden("#source")


def test_documents_tab_uploads_and_reports_errors(page: Any, tmp_path: Path) -> None:
    page.click("#tab-documents")
    page.wait_for_selector("#documents tbody tr[data-doc]")
    assert page.locator("#documents tbody tr[data-doc]").count() == 7
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.7 not really")
    page.set_input_files("#files", [str(bad)])
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector("#upload-result .bad")
    assert "broken.pdf" in page.inner_text("#upload-result")
    assert page.locator("#documents tbody tr[data-doc]").count() == 7

    good = tmp_path / "club-rules.md"
    good.write_text("# Club Rules\n\nRule 1. Guests\nEach member may bring at most 3 guests.\n", encoding="utf-8")
    page.set_input_files("#files", [str(good)])
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector("#upload-result .ok")
    assert "club-rules.md: added" in page.inner_text("#upload-result")
    expect(page.locator("#documents tbody tr[data-doc]")).to_have_count(8)
    expect(page.locator("#embedding")).to_be_hidden(timeout=60_000)  # its vectors follow in the background

    page.click("#tab-log")
    page.wait_for_selector("#log tbody tr[data-answer]")
    assert page.locator("#log tbody tr[data-answer]").count() >= 1


def test_documents_tab_shows_background_embedding_progress(page: Any) -> None:
    state = {"done": 40, "total": 107}

    def healthz(route: Any) -> None:
        route.fulfill(json={"status": "ok", "auth": False, "embedding": dict(state)})

    page.route("**/healthz", healthz)
    page.click("#tab-documents")
    expect(page.locator("#embedding")).to_have_text(re.compile(r"40 of 107 passages ready"))
    state["done"] = 107
    expect(page.locator("#embedding")).to_be_hidden(timeout=10_000)


def test_api_docs_page_reads_the_schema_offline(page: Any, server: str) -> None:
    page.goto(server + "/docs")
    routes = page.locator("#routes section.route")
    expect(routes.filter(has_text="/documents/{doc_id}/source")).to_have_count(1)
    assert routes.count() >= 10
    ask_route = routes.filter(has=page.locator("code", has_text="/ask")).first
    assert "question" in ask_route.inner_text() and "POST" in ask_route.inner_text()


def test_page_asks_for_the_token_when_the_server_needs_one(browser: Any, index: Path, embedder: Embedder) -> None:
    with running(index, embedder, token="page-token") as base:
        context = browser.new_context(locale="en-US")
        page = context.new_page()
        page.goto(base + "/")
        expect(page.locator("#token-form")).to_be_visible()
        expect(page.locator("#status")).to_have_text("This server needs an API token.")
        page.fill("#question", "How many days do I have to notify Harbourview of damage to my home?")
        page.click("#ask")
        expect(page.locator("#status")).to_have_text("Error: missing bearer token")
        page.fill("#token", "page-token")
        page.click("#token-form button[type=submit]")
        expect(page.locator("#token-form")).to_be_hidden()
        page.click("#ask")
        expect(page.locator("#answer-text sup .cite").first).to_be_visible()
        context.close()
