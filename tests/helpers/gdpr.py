"""Render the GDPR units of ../shared/data/gdpr_en as an HTML page laid out like EUR-Lex:
marker lines ("Article 6", "1.", "(a)") on their own, titles on the next line."""

from __future__ import annotations

import html
import json
from pathlib import Path


def gdpr_html(units: Path) -> str:
    rows = [json.loads(line) for line in units.read_text(encoding="utf-8").splitlines() if line.strip()]
    out = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>GDPR</title></head><body>",
        "<nav><a href='#'>EUR-Lex</a></nav><main>",
        "<h1>Regulation (EU) 2016/679 of the European Parliament and of the Council of 27 April 2016"
        " on the protection of natural persons with regard to the processing of personal data"
        " (General Data Protection Regulation)</h1>",
        "<p>Whereas:</p>",
    ]

    def p(text: str) -> None:
        for line in text.split("\n"):
            if line.strip():
                out.append(f"<p>{html.escape(line.strip())}</p>")

    current: list[str] = []
    for r in rows:
        if r["kind"] == "recital":
            p(r["text"])
            continue
        hierarchy = r.get("hierarchy") or []
        for depth, level in enumerate(hierarchy):
            if depth < len(current) and current[depth] == level:
                continue
            marker, _, title = level.partition(" - ")
            p(marker)
            p(title)
        current = list(hierarchy)
        p(f"Article {r['number']}")
        p(r["title"] or "")
        for para in r.get("paragraphs") or []:
            p(para["text"])
        if not r.get("paragraphs"):
            p(r["text"])
    out.append("</main><footer>© European Union</footer></body></html>")
    return "\n".join(out)
