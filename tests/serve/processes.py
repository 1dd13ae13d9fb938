"""Real ``citewise serve`` processes on loopback for the tests that probe them."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(index: Path, env: dict[str, str], wait_s: float = 120) -> Iterator[str]:
    """``citewise serve`` on ``index`` with ``env`` added to the environment; yields its base URL once
    ``/healthz`` answers, and stops it on exit."""
    port = free_port()
    command = [sys.executable, "-m", "citewise.cli", "serve", "--index", str(index), "--port", str(port)]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **env},
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + wait_s
    try:
        while True:
            try:
                httpx.get(f"{base}/healthz", timeout=5)
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                assert time.monotonic() < deadline, "the server did not come up"
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)
