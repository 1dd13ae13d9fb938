"""What every benchmark script shares: the machine it ran on (cores, load, CPU model, RAM, git
commit), text and markdown tables, writing the result JSON, replacing one section of
docs/benchmarks.md, and progress lines on stderr."""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

JSON = dict[str, Any]

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results"
DOCS = REPO / "docs" / "benchmarks.md"
CACHE = REPO / ".bench-cache"
"""Indexes and derived inputs the benchmarks reuse between runs (gitignored)."""


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or ""


def revision() -> str:
    """The short commit, with a note when src/ has uncommitted changes or citewise is imported from
    elsewhere (``PYTHONPATH`` pointing at another source tree)."""
    try:
        head = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "--", "src"], capture_output=True, text=True, check=False
        ).stdout.strip()
    except OSError:
        return "unknown"
    import citewise

    source = Path(citewise.__file__).resolve().parents[1]
    if source != REPO / "src":
        return f"{head} checkout, citewise imported from {source}"
    return f"{head}{' + uncommitted changes in src/' if dirty else ''}"


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def machine(command: str = "", quick: bool = False) -> JSON:
    """Where and when a benchmark ran."""
    try:
        ram = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError):
        ram = 0.0
    return {
        "revision": revision(),
        "cores": os.cpu_count(),
        "cpu": cpu_model(),
        "ram_gb": ram,
        "python": platform.python_version(),
        "date": dt.date.today().isoformat(),
        "command": command,
        "quick": quick,
        "loadavg": loadavg(),
    }


def command_line(script: str, argv: Sequence[str] | None) -> str:
    return f"python bench/{script}" + "".join(f" {a}" for a in (argv if argv is not None else sys.argv[1:]))


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]], left: int = 2) -> str:
    """A plain-text table, the first ``left`` columns left-aligned, the others right-aligned."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    fmt = "  ".join(f"{{:<{w}}}" if i < left else f"{{:>{w}}}" for i, w in enumerate(widths))
    lines = [fmt.format(*headers), fmt.format(*("-" * w for w in widths))]
    lines += [fmt.format(*r) for r in rows]
    return "\n".join("  " + line for line in lines)


def md_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def read_results(path: Path) -> JSON:
    return dict(json.loads(path.read_text(encoding="utf-8"))) if path.exists() else {}


def write_results(path: Path, results: JSON) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def finish(path: Path, results: JSON, started: float, title: str, text: str | Sequence[str]) -> None:
    """The end of a benchmark run: its wall time into ``results["meta"]``, the results file and its docs section."""
    results["meta"]["wall_s"] = round(time.perf_counter() - started)
    write_results(path, results)
    write_section(title, text)
    log(f"wrote {path} and the '{title}' section of docs/benchmarks.md")


def write_if_changed(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def write_section(title: str, text: str | Sequence[str], docs: Path = DOCS) -> None:
    """Replace the "## title" section of docs/benchmarks.md (up to the next "## " heading), or
    append it; the other sections are kept. ``text`` is the section with or without its heading line."""
    block = (text if isinstance(text, str) else "\n".join(text)).rstrip("\n") + "\n"
    if not block.startswith(f"## {title}\n"):
        block = f"## {title}\n\n{block}"
    old = (
        docs.read_text(encoding="utf-8")
        if docs.exists()
        else "# Benchmarks\n\nGenerated by the scripts in `bench/`; do not edit the figures by hand.\n"
    )
    start = re.search(rf"^## {re.escape(title)}\s*$", old, re.M)
    if start is None:
        new = old.rstrip("\n") + "\n\n" + block
    else:
        nxt = re.search(r"^## (?!#)", old[start.end() :], re.M)
        end = start.end() + nxt.start() if nxt else len(old)
        tail = old[end:]
        new = old[: start.start()] + block + ("\n" + tail if tail else "")
    docs.write_text(new, encoding="utf-8")


class StderrProgress:
    """A ``citewise.progress.Progress`` that logs embedding progress to stderr every 30 s."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.done = 0
        self.t0 = time.perf_counter()
        self.last = 0.0

    def task(self, name: str, total: int | None = None) -> _Task:
        return _Task(self, name)


class _Task:
    def __init__(self, owner: StderrProgress, name: str) -> None:
        self.owner, self.name = owner, name

    def advance(self, n: int = 1) -> None:
        o = self.owner
        if self.name != "embeddings":
            return
        o.done += n
        now = time.perf_counter()
        if now - o.last >= 30:
            o.last = now
            el = now - o.t0
            log(f"{o.label}: embedded {o.done} chunks in {el:.0f} s ({o.done / el:.2f}/s)")

    def total(self, n: int) -> None:
        return None
