"""Reliability: what a crash, bad files and load do to citewise, measured on loopback only.

    python bench/reliability.py [--kills-cli 60] [--kills-api 40] [--load 240] [--quick]

1. Kill during ingest (``kill -9``): a CLI ``citewise ingest`` of a copy of the sample corpus plus
   generated documents, killed at a random moment, then run again to the end; and an API upload of 12
   files, the server killed at a random moment, then started again. After each kill the index is checked:
   documents half-indexed (``Store.check``: no chunks, spans outside the text), duplicated (two documents
   from one source), lost (a file of a finished ingest not indexed) and, for uploads, all or nothing (the
   upload's documents and files all present or all absent; no staging folder left).
2. Bad files: corrupt, encrypted, scanned, empty, huge, zip bomb, wrong encoding, binary, fake DOCX, deep
   HTML — through the CLI (one line per file, peak memory of the process) and the API (one reason per
   file, the server's peak memory).
3. Load: concurrent questions and searches from loopback clients against one server: p50/p95 and every
   status code. Every loop is bounded in count and time."""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.helpers.badfiles import blank_pdf, deep_html, encode, encrypted_pdf, huge_text, zip_bomb
from tests.serve.processes import free_port

import reliability_report
from citewise.index.embedded import EmbeddedStore
from common import command_line, log, machine, read_results, write_results, write_section  # bench/common.py

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "src" / "citewise" / "samples" / "corpus"
CLI = [sys.executable, "-m", "citewise.cli"]
TOKEN = "bench-reliability"


def generated(folder: Path, n: int, tag: str) -> list[Path]:
    """``n`` small distinct Markdown rule books (so that kills land between documents and inside them)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        lines = [f"# {tag} rule book {i}", ""]
        for j in range(1, 9):
            lines += [f"## Rule {j}", "", f"Member {i}-{j} must return key {i * 31 + j} within {j + 2} days.", ""]
        path = folder / f"{tag}-{i:02d}.md"
        path.write_text("\n".join(lines))
        out.append(path)
    return out


def inspect(index: Path) -> dict[str, Any]:
    """The index's documents by source, and its integrity problems."""
    store = EmbeddedStore(index)
    try:
        problems = store.check()
        sources: dict[str, int] = {}
        for d in store.documents():
            sources[d.source_uri] = sources.get(d.source_uri, 0) + 1
    finally:
        store.close()
    return {"problems": problems, "sources": sources}


# -- 1. kills --------------------------------------------------------------------------------
def kill_cli(rounds: int, work: Path, rng: random.Random) -> dict[str, Any]:
    corpus = work / "corpus"
    shutil.copytree(SAMPLES, corpus)
    files = sorted(p for p in corpus.rglob("*") if p.is_file()) + generated(corpus / "gen", 12, "cli")
    index = work / "cli-index"
    full = subprocess.run([*CLI, "ingest", "--index", str(index), str(corpus)], capture_output=True, text=True)
    if full.returncode != 0:
        raise RuntimeError(full.stderr[-500:])
    timing = _timed_ingest(index, corpus)
    shutil.rmtree(index)
    half = duplicated = lost = 0
    problems: list[str] = []
    for i in range(rounds):
        if i % 3 == 0 and index.exists():
            shutil.rmtree(index)  # every third round from an empty index, so kills land in first ingests too
        proc = subprocess.Popen(
            [*CLI, "ingest", "--index", str(index), str(corpus)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(rng.uniform(0.2, timing * 1.1))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        seen = inspect(index) if index.exists() else {"problems": [], "sources": {}}
        half += len(seen["problems"])
        duplicated += sum(n - 1 for n in seen["sources"].values() if n > 1)
        problems += seen["problems"][:3]
        done = subprocess.run([*CLI, "ingest", "--index", str(index), str(corpus)], capture_output=True, text=True)
        after = inspect(index)
        indexed = set(after["sources"])
        lost += sum(p.resolve().as_uri() not in indexed for p in files)
        half += len(after["problems"])
        duplicated += sum(n - 1 for n in after["sources"].values() if n > 1)
        if done.returncode != 0:
            problems.append(f"re-ingest exited {done.returncode}: {done.stderr[-200:]}")
        if (i + 1) % 10 == 0:
            log(f"cli kills: {i + 1}/{rounds}")
    return {
        "kills": rounds,
        "files": len(files),
        "ingest_s": round(timing, 2),
        "half_indexed": half,
        "duplicated": duplicated,
        "lost_after_reingest": lost,
        "problems": problems[:10],
    }


def _timed_ingest(index: Path, corpus: Path) -> float:
    """How long a first ingest of the corpus takes (vectors cached: the kills land in that window)."""
    fresh = index.with_name(index.name + "-timing")
    started = time.perf_counter()
    subprocess.run([*CLI, "ingest", "--index", str(fresh), str(corpus)], capture_output=True, check=True)
    shutil.rmtree(fresh)
    return time.perf_counter() - started


class Server:
    """``citewise serve`` on loopback, started and killed at will."""

    def __init__(self, index: Path, env: dict[str, str] | None = None) -> None:
        self.index = index
        self.env = {
            **os.environ,
            "CITEWISE_API_TOKEN": TOKEN,
            "CITEWISE_SERVE__RATE_BURST": "100000",
            "CITEWISE_SERVE__RATE_PER_MINUTE": "1000000",
            **(env or {}),
        }
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = ""

    def start(self, wait_s: float = 180) -> None:
        port = free_port()
        self.proc = subprocess.Popen(
            [*CLI, "serve", "--index", str(self.index), "--port", str(port)],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + wait_s
        while True:
            try:
                httpx.get(f"{self.base}/healthz", timeout=5)
                return
            except httpx.TransportError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not come up") from None
                time.sleep(0.1)

    def peak_mb(self) -> float:
        """The server's peak resident memory (VmHWM)."""
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
        return 0.0

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
            self.proc = None


def headers() -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKEN}"}


def kill_api(rounds: int, work: Path, rng: random.Random) -> dict[str, Any]:
    index = work / "api-index"
    subprocess.run([*CLI, "ingest", "--index", str(index), str(SAMPLES)], capture_output=True, check=True)
    server = Server(index)
    partial = leftovers = half = duplicated = 0
    outcomes = {"all": 0, "none": 0}
    window = 1.0
    problems: list[str] = []
    for i in range(rounds):
        batch = generated(work / f"api-{i}", 12, f"api{i}")
        files = [("files", (p.name, p.read_bytes(), "text/markdown")) for p in batch]
        server.start()
        reply = httpx.post(f"{server.base}/documents", files=files, headers=headers(), timeout=120)
        job = reply.json().get("job", "")
        took = _job_seconds(server, job) if i == 0 else None
        if took is not None:  # the first round measures how long an upload takes: the kill window
            window = max(0.5, took)
            log(f"an upload of 12 files is indexed in {took:.2f} s")
        else:
            time.sleep(rng.uniform(0.0, window))
        server.kill()
        server.start()  # recovery runs at start
        server.stop()
        seen = inspect(index)
        names = {p.name for p in batch}
        uploaded = {Path(s).name for s in seen["sources"] if "/uploads/" in s}
        on_disk = (
            {p.name for p in (index / "uploads").iterdir() if p.is_file()} if (index / "uploads").exists() else set()
        )
        present = names & uploaded
        files_present = names & on_disk
        if present == names and files_present == names:
            outcomes["all"] += 1
        elif not present and not files_present:
            outcomes["none"] += 1
        else:
            partial += 1
            problems.append(f"round {i}: {len(present)} documents and {len(files_present)} files of 12 present")
        leftovers += len(list((index / "uploads").glob(".staging-*"))) if (index / "uploads").exists() else 0
        half += len(seen["problems"])
        duplicated += sum(n - 1 for n in seen["sources"].values() if n > 1)
        if (i + 1) % 10 == 0:
            log(f"api kills: {i + 1}/{rounds} ({outcomes})")
    return {
        "kills": rounds,
        "files_per_upload": 12,
        "uploads_all": outcomes["all"],
        "uploads_none": outcomes["none"],
        "uploads_partial": partial,
        "staging_left": leftovers,
        "half_indexed": half,
        "duplicated": duplicated,
        "problems": problems[:10],
    }


def _job_seconds(server: Server, job: str, limit_s: float = 120) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < limit_s:
        status = httpx.get(f"{server.base}/jobs/{job}", headers=headers()).json()
        if status.get("status") in ("done", "failed"):
            break
        time.sleep(0.05)
    return time.perf_counter() - started


# -- 2. bad files ----------------------------------------------------------------------------
VI = "Điều 1. Phạm vi điều chỉnh\n1. Quy tắc này quy định về bảo hiểm nhà ở tư nhân.\n2. Người được bảo hiểm phải thông báo trong 14 ngày."


def bad_corpus(folder: Path) -> dict[str, str]:
    """The bad files, each with what it is; plus one good file the batch must still index."""
    folder.mkdir(parents=True)
    (folder / "corrupt.pdf").write_bytes(b"%PDF-1.7\n this is not really a pdf \x00\x01\x02")
    encrypted_pdf(folder / "locked.pdf")
    blank_pdf(folder / "scanned.pdf")
    (folder / "empty.txt").write_bytes(b"")
    huge_text(folder / "huge.txt", 70)  # over the 64 MB default limit
    zip_bomb(folder / "bomb.docx", 300)
    (folder / "fake.docx").write_text("I am not a zip")
    (folder / "binary.txt").write_bytes(bytes(range(256)) * 50)
    (folder / "cp1258.txt").write_bytes(encode(VI, "cp1258"))
    (folder / "utf16.md").write_bytes(("# Quy tắc\n\n" + VI).encode("utf-16"))
    deep_html(folder / "deep.html")
    shutil.copy(SAMPLES / "quy-tac-bao-hiem-du-lich-vi.md", folder / "good.md")
    return {
        "corrupt.pdf": "corrupt",
        "locked.pdf": "encrypted",
        "scanned.pdf": "scanned (no text layer)",
        "empty.txt": "empty",
        "huge.txt": "huge (70 MiB)",
        "bomb.docx": "zip bomb (300 MiB inflated)",
        "fake.docx": "not a zip",
        "binary.txt": "binary",
        "cp1258.txt": "legacy encoding (valid)",
        "utf16.md": "UTF-16 (valid)",
        "deep.html": "100,000-deep HTML",
        "good.md": "good",
    }


def bad_files_cli(work: Path) -> dict[str, Any]:
    folder = work / "bad"
    kinds = bad_corpus(folder)
    index = work / "bad-index"
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    run = subprocess.run(
        [*CLI, "ingest", "--index", str(index), str(folder)], capture_output=True, text=True, timeout=600
    )
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    lines = [line for line in run.stderr.splitlines() if ": " in line and any(name in line for name in kinds)]
    by_file = {name: [line for line in lines if name in line] for name in kinds}
    indexed = set(inspect(index)["sources"]) if index.exists() else set()
    rows = []
    for name, kind in kinds.items():
        ok = (folder / name).resolve().as_uri() in indexed
        rows.append(
            {
                "file": name,
                "kind": kind,
                "indexed": ok,
                "lines": len(by_file[name]),
                "error": by_file[name][0].split(": ", 1)[-1][:160] if by_file[name] else "",
            }
        )
    return {"exit_code": run.returncode, "peak_rss_mb": round(max(peak, before) / 1024, 1), "files": rows}


def bad_files_api(work: Path) -> dict[str, Any]:
    folder = work / "bad"
    index = work / "bad-api-index"
    subprocess.run([*CLI, "ingest", "--index", str(index), str(SAMPLES)], capture_output=True, check=True)
    server = Server(index, {"CITEWISE_SERVE__MAX_UPLOAD_MB": "80"})
    server.start()
    rows = []
    try:
        for path in sorted(folder.iterdir()):
            with path.open("rb") as fh:
                reply = httpx.post(
                    f"{server.base}/documents?wait=true",
                    headers=headers(),
                    timeout=300,
                    files={"files": (path.name, fh, "application/octet-stream")},
                )
            body = reply.json()
            errors = body.get("error", {}).get("files", []) if reply.status_code >= 400 else []
            rows.append(
                {
                    "file": path.name,
                    "status": reply.status_code,
                    "error": errors[0]["error"][:160] if errors else body.get("error", {}).get("message", "")[:160],
                }
            )
        peak = server.peak_mb()
    finally:
        server.stop()
    return {"peak_rss_mb": peak, "files": rows}


# -- 3. load ---------------------------------------------------------------------------------
QUESTIONS = [
    "Within how many hours must a personal data breach be notified to the Authority?",
    "How many days do I have to notify Harbourview of damage to my home?",
    "Thời hạn giải quyết bồi thường bảo hiểm nhà ở là bao lâu?",
    "Người được bảo hiểm phải thông báo tổn thất trong bao lâu?",
    "What does the travel policy pay if my trip is cancelled?",
    "khoản 2 điều 9 quy tắc 125/2024",
]


def load_run(requests: int, clients: int, work: Path, rng: random.Random) -> dict[str, Any]:
    index = work / "load-index"
    subprocess.run([*CLI, "ingest", "--index", str(index), str(SAMPLES)], capture_output=True, check=True)
    server = Server(index)
    server.start()
    plan = [
        (rng.choice(["ask", "search"]), rng.choice(QUESTIONS) + ("" if i < len(QUESTIONS) else f" ({i})"))
        for i in range(requests)
    ]

    def one(item: tuple[str, str]) -> tuple[str, int, float]:
        kind, q = item
        started = time.perf_counter()
        try:
            if kind == "ask":
                r = httpx.post(f"{server.base}/ask", json={"question": q}, headers=headers(), timeout=120)
            else:
                r = httpx.get(f"{server.base}/search", params={"q": q}, headers=headers(), timeout=120)
            code = r.status_code
        except httpx.HTTPError:
            code = 0
        return kind, code, (time.perf_counter() - started) * 1000

    try:
        started = time.perf_counter()
        with ThreadPoolExecutor(clients) as pool:
            results = list(pool.map(one, plan))
        wall = time.perf_counter() - started
        peak = server.peak_mb()
    finally:
        server.stop()
    out: dict[str, Any] = {"requests": requests, "clients": clients, "wall_s": round(wall, 1), "peak_rss_mb": peak}
    for kind in ("ask", "search"):
        ok = sorted(ms for k, c, ms in results if k == kind and c == 200)
        codes: dict[str, int] = {}
        for k, c, _ in results:
            if k == kind:
                codes[str(c)] = codes.get(str(c), 0) + 1
        out[kind] = {
            "codes": codes,
            "p50_ms": round(statistics.median(ok), 1) if ok else None,
            "p95_ms": round(ok[int(0.95 * (len(ok) - 1))], 1) if ok else None,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--kills-cli", type=int, default=60)
    ap.add_argument("--kills-api", type=int, default=40)
    ap.add_argument("--load", type=int, default=240, help="requests in the load run")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--only", choices=["kills", "bad", "load"], action="append")
    ap.add_argument("--quick", action="store_true", help="10 + 5 kills, 60 requests")
    ap.add_argument("--no-docs", action="store_true")
    args = ap.parse_args(argv)
    if args.quick:
        args.kills_cli, args.kills_api, args.load = 10, 5, 60
    only = set(args.only or ["kills", "bad", "load"])
    rng = random.Random(20261123)
    name = "reliability-quick.json" if args.quick else "reliability.json"
    # a partial run (--only) updates its parts of the saved results and keeps the others
    report: dict[str, Any] = read_results(REPO / "bench" / "results" / name) if args.only else {}
    with tempfile.TemporaryDirectory(prefix="citewise-reliability-") as tmp:
        work = Path(tmp)
        if "bad" in only:
            log("bad files through the CLI")
            report["bad_cli"] = bad_files_cli(work)
            log("bad files through the API")
            report["bad_api"] = bad_files_api(work)
        if "kills" in only:
            log(f"{args.kills_cli} kills during CLI ingest")
            report["cli_kills"] = kill_cli(args.kills_cli, work, rng)
            log(f"{args.kills_api} kills during API uploads")
            report["api_kills"] = kill_api(args.kills_api, work, rng)
        if "load" in only:
            log(f"load: {args.load} requests from {args.clients} clients")
            report["load"] = load_run(args.load, args.clients, work, rng)
    report["machine"] = machine(command_line("reliability.py", argv), args.quick)
    report.setdefault("parts", {}).update({part: report["machine"] for part in only})
    write_results(REPO / "bench" / "results" / name, report)
    text = "\n".join(reliability_report.docs(report))
    print(text)
    if not args.no_docs and not args.quick:
        write_section("Reliability", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
