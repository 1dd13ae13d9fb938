"""Replace (or append) one "## Title" section of docs/benchmarks.md, keeping the others."""

from __future__ import annotations

from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"


def write_section(title: str, lines: list[str], docs: Path = DOCS) -> None:
    text = docs.read_text(encoding="utf-8") if docs.exists() else "# Benchmarks\n"
    start = text.find(f"## {title}")
    block = "\n".join(lines)
    if start >= 0:
        end = text.find("\n## ", start + 5)
        text = text[:start] + block + (text[end:] if end >= 0 else "\n")
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    docs.write_text(text, encoding="utf-8")
