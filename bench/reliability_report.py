"""The "Reliability" section of docs/benchmarks.md from bench/reliability.py's results."""

from __future__ import annotations

import json
from typing import Any

from common import md_table  # bench/common.py


def docs(report: dict[str, Any]) -> list[str]:
    m = report["machine"]
    lines = [
        f"`{m['command']}` — {m['date']}, {m['cores']} cores, load {m['loadavg']} at the end, commit {m['revision']}.",
        "",
    ]
    earlier = {part: pm for part, pm in report.get("parts", {}).items() if pm != m}
    if earlier:
        lines += [
            "Parts kept from earlier runs: "
            + "; ".join(
                f"{part}: `{pm['command']}`, {pm['date']}, load {pm['loadavg']}, commit {pm['revision']}"
                for part, pm in earlier.items()
            )
            + ".",
            "",
        ]
    if "cli_kills" in report:
        c = report["cli_kills"]
        lines += [
            f"**Kill -9 during CLI ingest** ({c['kills']} kills, {c['files']} files, a full ingest {c['ingest_s']} s): "
            f"half-indexed {c['half_indexed']}, duplicated {c['duplicated']}, lost after re-ingest {c['lost_after_reingest']}.",
            "",
        ]
    if "api_kills" in report:
        a = report["api_kills"]
        lines += [
            f"**Kill -9 during API upload** ({a['kills']} kills, 12 files per upload): all indexed {a['uploads_all']}, "
            f"none {a['uploads_none']}, partial {a['uploads_partial']}; staging folders left {a['staging_left']}, "
            f"half-indexed {a['half_indexed']}, duplicated {a['duplicated']}.",
            "",
        ]
    if "bad_cli" in report:
        b = report["bad_cli"]
        lines += [f"**Bad files, CLI** (exit {b['exit_code']}, peak memory {b['peak_rss_mb']} MB):", ""]
        lines += md_table(
            ["file", "what", "indexed", "lines", "reason"],
            [[r["file"], r["kind"], "yes" if r["indexed"] else "no", str(r["lines"]), r["error"]] for r in b["files"]],
        ).splitlines()
        lines.append("")
    if "bad_api" in report:
        b = report["bad_api"]
        lines += [f"**Bad files, API** (one upload each, server peak memory {b['peak_rss_mb']} MB):", ""]
        lines += md_table(
            ["file", "status", "reason"], [[r["file"], str(r["status"]), r["error"]] for r in b["files"]]
        ).splitlines()
        lines.append("")
    if "load" in report:
        x = report["load"]
        rows = [[k, json.dumps(x[k]["codes"]), str(x[k]["p50_ms"]), str(x[k]["p95_ms"])] for k in ("ask", "search")]
        lines += [
            f"**Load** ({x['requests']} requests from {x['clients']} loopback clients in {x['wall_s']} s, "
            f"server peak memory {x['peak_rss_mb']} MB):",
            "",
        ]
        lines += md_table(["kind", "status codes", "p50 ms", "p95 ms"], rows).splitlines()
    return lines
