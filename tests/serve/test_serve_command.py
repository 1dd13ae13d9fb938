"""`citewise serve` as a user runs it: a real process that prints its address, serves the page
and the API with the token from the environment, and refuses a non-loopback address without one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
from typer.testing import CliRunner

from citewise.cli import app
from tests.serve.processes import free_port


def test_serve_prints_its_address_and_serves_with_the_token(fresh_index: Path) -> None:
    index = fresh_index
    port = free_port()
    command = [sys.executable, "-m", "citewise.cli", "serve", "--index", str(index), "--port", str(port)]
    env = {**os.environ, "CITEWISE_API_TOKEN": "tok-123", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"at http://127.0.0.1:{port}/ (bearer token required" in line, line
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                health = httpx.get(f"{base}/healthz", timeout=5).json()
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                assert time.monotonic() < deadline, "the server did not come up"
                time.sleep(0.2)
        assert health["embedding"]["done"] == health["embedding"]["total"]
        assert {k: v for k, v in health.items() if k != "embedding"} == {"status": "ok", "documents": 7, "auth": True}
        assert httpx.get(f"{base}/documents").status_code == 401
        docs = httpx.get(f"{base}/documents", headers={"Authorization": "Bearer tok-123"}).json()
        assert len(docs) == 7
        assert "citewise" in httpx.get(f"{base}/").text
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_serve_refuses_a_public_address_without_a_token(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["serve", "--host", "0.0.0.0", "--index", str(tmp_path)], env={"CITEWISE_API_TOKEN": ""}
    )
    assert result.exit_code == 2 and "refusing to listen on 0.0.0.0 without a token" in result.stderr
    assert not (tmp_path / "audit.sqlite3").exists()  # refused before anything was opened


def test_ask_command_answers_through_the_shared_engine(fresh_index: Path) -> None:
    index = fresh_index
    question = "How many days do I have to notify Harbourview of damage to my home?"
    result = CliRunner().invoke(app, ["ask", "--index", str(index), "--json", question])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert not answer["refused"] and answer["references"] and "30 days" in answer["text"]
    human = CliRunner().invoke(app, ["ask", "--index", str(index), "What is the boiling point of mercury?"])
    assert human.exit_code == 0 and "contain no answer" in human.stdout
    unknown = CliRunner().invoke(app, ["ask", "--index", str(index), "-g", "gpt-9", question])
    assert unknown.exit_code == 1 and "unknown generator 'gpt-9'" in unknown.stderr
