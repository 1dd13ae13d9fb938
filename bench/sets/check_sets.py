#!/usr/bin/env python3
"""Validate the hand-written evaluation sets in bench/sets/.

Checks, for each of legal_nearmiss.jsonl, support_contrast.jsonl and injection_probes.jsonl:
one JSON object per line, required fields and allowed values, unique ids, minimum counts,
and that every quoted passage / premise occurs verbatim (after Unicode NFC and whitespace
normalisation) in the source file it names.  Gold answers must occur verbatim in their passage.

Usage:  python bench/sets/check_sets.py [--data /work/shared/data] [--samples src/citewise/samples/corpus]
PDF sources need pdfplumber (a project dependency); run with the project's virtualenv.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import unicodedata
import zipfile
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DEFAULT_DATA = Path("/work/shared/data")
DEFAULT_SAMPLES = REPO / "src" / "citewise" / "samples" / "corpus"

SOURCES = ("gdpr_en", "eu_ai_act", "vn_insurance_law_phapdien", "samples")
LANGS = ("en", "vi")

NEARMISS_ANSWERABLE_KINDS = {
    "duration",
    "amount",
    "party",
    "condition",
    "list",
    "yes_no",
    "definition",
    "swapped_figure_answerable",
}
NEARMISS_UNANSWERABLE_KINDS = {
    "neighbour_topic",
    "unstated_detail",
    "swapped_party",
    "swapped_figure",
    "negation",
    "out_of_scope_specific",
}
SUPPORTED_KINDS = {"restatement", "summary", "reorder"}
UNSUPPORTED_KINDS = {
    "figure_swap",
    "date_swap",
    "party_swap",
    "negation",
    "modality",
    "exception_flip",
    "condition_dropped",
    "extrinsic",
}
INJECTION_KINDS = {"planted_instruction", "fake_citation", "fake_system", "conflicting_figures", "reader_addressed"}

W_NS = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def norm(text: str) -> str:
    """NFC-normalise and collapse all whitespace (including no-break spaces) to single spaces."""
    text = unicodedata.normalize("NFC", text).replace("\u00a0", " ")
    return re.sub(r"\s+", " ", text).strip()


def _jsonl_text(path: Path) -> str:
    parts: list[str] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            rec = json.loads(line)
            if isinstance(rec.get("text"), str):
                parts.append(rec["text"])
            for par in rec.get("paragraphs") or []:
                if isinstance(par, dict) and isinstance(par.get("text"), str):
                    parts.append(par["text"])
    return "\n".join(parts)


def _html_text(path: Path) -> str:
    raw = path.read_text(encoding="utf-8")
    raw = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", raw)
    raw = re.sub(r"<[^>]+>", " ", raw)
    return html.unescape(raw)


def _docx_text(path: Path) -> str:
    with zipfile.ZipFile(path) as zf:
        root = ElementTree.fromstring(zf.read("word/document.xml"))
    paras: list[str] = []
    for p in root.iter(f"{W_NS}p"):
        paras.append("".join(t.text or "" for t in p.iter(f"{W_NS}t")))
    return "\n".join(paras)


def _pdf_text(path: Path) -> str:
    try:
        import pdfplumber
    except ImportError as exc:  # pragma: no cover - depends on environment
        raise RuntimeError(f"pdfplumber is needed to read {path}; run with the project's .venv") from exc
    with pdfplumber.open(str(path)) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


def extract_text(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        return _jsonl_text(path)
    if suffix in {".html", ".htm"}:
        return _html_text(path)
    if suffix == ".docx":
        return _docx_text(path)
    if suffix == ".pdf":
        return _pdf_text(path)
    return path.read_text(encoding="utf-8")


class Corpus:
    """Lazily loaded, normalised source texts keyed by (source, doc)."""

    def __init__(self, data_dir: Path, samples_dir: Path) -> None:
        self.data_dir = data_dir
        self.samples_dir = samples_dir
        self._cache: dict[tuple[str, str], str] = {}

    def path(self, source: str, doc: str) -> Path:
        base = self.samples_dir if source == "samples" else self.data_dir / source
        return base / doc

    def all_docs(self) -> list[tuple[str, str]]:
        docs = [
            ("gdpr_en", "gdpr_en_units.jsonl"),
            ("eu_ai_act", "eu_ai_act_en_units.jsonl"),
            ("vn_insurance_law_phapdien", "kinh-doanh-bao-hiem.md"),
        ]
        suffixes = {".md", ".html", ".htm", ".docx", ".pdf", ".txt"}
        docs += [("samples", p.name) for p in sorted(self.samples_dir.iterdir()) if p.suffix.lower() in suffixes]
        return docs

    def text(self, source: str, doc: str) -> str:
        key = (source, doc)
        if key not in self._cache:
            self._cache[key] = norm(extract_text(self.path(source, doc)))
        return self._cache[key]


def read_jsonl(path: Path, errors: list[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            errors.append(f"{path.name}:{n}: empty line")
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            errors.append(f"{path.name}:{n}: invalid JSON ({exc})")
            continue
        if not isinstance(obj, dict):
            errors.append(f"{path.name}:{n}: not a JSON object")
            continue
        obj["_line"] = n
        rows.append(obj)
    return rows


def require(row: dict[str, Any], fields: Iterable[str], where: str, errors: list[str]) -> bool:
    ok = True
    for f in fields:
        value = row.get(f)
        if value is None or (isinstance(value, str) and not value.strip()):
            errors.append(f"{where}: missing or empty field {f!r}")
            ok = False
    return ok


def check_ids(rows: list[dict[str, Any]], name: str, errors: list[str]) -> None:
    counts = Counter(str(r.get("id")) for r in rows)
    for rid, c in counts.items():
        if c > 1:
            errors.append(f"{name}: duplicate id {rid!r} ({c}x)")


def check_nearmiss(path: Path, corpus: Corpus, errors: list[str]) -> dict[str, Counter[str]]:
    rows = read_jsonl(path, errors)
    check_ids(rows, path.name, errors)
    fields = ("id", "lang", "source", "doc", "provision", "passage", "question", "kind")
    stats: dict[str, Counter[str]] = {"lang": Counter(), "kind": Counter(), "answerable": Counter()}
    for row in rows:
        where = f"{path.name}:{row['_line']} ({row.get('id')})"
        if not require(row, fields, where, errors):
            continue
        lang, source, kind = row["lang"], row["source"], row["kind"]
        answerable = row.get("answerable")
        if lang not in LANGS:
            errors.append(f"{where}: bad lang {lang!r}")
        if source not in SOURCES:
            errors.append(f"{where}: bad source {source!r}")
            continue
        if not isinstance(answerable, bool):
            errors.append(f"{where}: 'answerable' must be true or false")
            continue
        allowed = NEARMISS_ANSWERABLE_KINDS if answerable else NEARMISS_UNANSWERABLE_KINDS
        if kind not in allowed:
            errors.append(f"{where}: kind {kind!r} not allowed when answerable={answerable}")
        answer = row.get("answer")
        if answerable:
            if not isinstance(answer, str) or not answer.strip():
                errors.append(f"{where}: answerable item needs a non-empty 'answer'")
            elif norm(answer) not in norm(row["passage"]):
                errors.append(f"{where}: answer is not a verbatim span of the passage: {answer!r}")
        elif answer not in (None, ""):
            errors.append(f"{where}: unanswerable item must not carry an 'answer'")
        try:
            haystack = corpus.text(source, row["doc"])
        except (OSError, RuntimeError, KeyError) as exc:
            errors.append(f"{where}: cannot read {source}/{row['doc']}: {exc}")
            continue
        if norm(row["passage"]) not in haystack:
            errors.append(f"{where}: passage not found verbatim in {source}/{row['doc']}")
        stats["lang"][lang] += 1
        stats["kind"][f"{lang}:{kind}"] += 1
        stats["answerable"][f"{lang}:{'answerable' if answerable else 'unanswerable'}"] += 1
    total = len(rows)
    if total < 120:
        errors.append(f"{path.name}: {total} lines, need >= 120")
    for lang in LANGS:
        if stats["lang"][lang] < 60:
            errors.append(f"{path.name}: {stats['lang'][lang]} {lang} lines, need >= 60")
    n_ans = sum(v for k, v in stats["answerable"].items() if k.endswith(":answerable"))
    if total and not 0.4 <= n_ans / total <= 0.6:
        errors.append(f"{path.name}: answerable share {n_ans}/{total} is not about half")
    return stats


def label_and_kind(label: str, kind: str, where: str, errors: list[str]) -> bool:
    """A support pair's label and kind are allowed together; ``False`` (error recorded) when the label is not."""
    if label not in ("supported", "unsupported"):
        errors.append(f"{where}: bad label {label!r}")
        return False
    allowed = SUPPORTED_KINDS if label == "supported" else UNSUPPORTED_KINDS
    if kind not in allowed:
        errors.append(f"{where}: kind {kind!r} not allowed for label {label!r}")
    return True


def check_support(path: Path, corpus: Corpus, errors: list[str]) -> dict[str, Counter[str]]:
    rows = read_jsonl(path, errors)
    check_ids(rows, path.name, errors)
    fields = ("id", "lang", "premise", "claim", "label", "kind")
    stats: dict[str, Counter[str]] = {"lang": Counter(), "kind": Counter(), "label": Counter()}
    for row in rows:
        where = f"{path.name}:{row['_line']} ({row.get('id')})"
        if not require(row, fields, where, errors):
            continue
        lang, label, kind = row["lang"], row["label"], row["kind"]
        if lang not in LANGS:
            errors.append(f"{where}: bad lang {lang!r}")
        if not label_and_kind(label, kind, where, errors):
            continue
        if norm(row["claim"]) == norm(row["premise"]):
            errors.append(f"{where}: claim is identical to premise")
        source, doc = row.get("source"), row.get("doc")
        premise = norm(row["premise"])
        try:
            if source and doc:
                found = premise in corpus.text(source, doc)
            else:  # optional fields absent: accept an occurrence in any known source file
                found = any(premise in corpus.text(s, d) for s, d in corpus.all_docs())
        except (OSError, RuntimeError) as exc:
            errors.append(f"{where}: cannot read {source}/{doc}: {exc}")
            continue
        if not found:
            errors.append(f"{where}: premise not found verbatim in {source or 'any source'}/{doc or ''}")
        stats["lang"][lang] += 1
        stats["kind"][f"{lang}:{kind}"] += 1
        stats["label"][f"{lang}:{label}"] += 1
    total = len(rows)
    if total < 220:
        errors.append(f"{path.name}: {total} lines, need >= 220")
    for lang in LANGS:
        share = stats["lang"][lang] / total if total else 0.0
        if not 0.4 <= share <= 0.6:
            errors.append(f"{path.name}: {lang} share {share:.2f} is not about half")
    for kind, minimum in (("figure_swap", 40), ("negation", 40)):
        n = sum(v for k, v in stats["kind"].items() if k.endswith(f":{kind}"))
        if n < minimum:
            errors.append(f"{path.name}: {n} {kind} lines, need >= {minimum}")
    return stats


def check_injection(path: Path, errors: list[str]) -> dict[str, Counter[str]]:
    rows = read_jsonl(path, errors)
    check_ids(rows, path.name, errors)
    fields = ("id", "lang", "kind", "document", "question", "must_not_contain", "expected")
    stats: dict[str, Counter[str]] = {"lang": Counter(), "kind": Counter()}
    for row in rows:
        where = f"{path.name}:{row['_line']} ({row.get('id')})"
        if not require(row, fields, where, errors):
            continue
        lang, kind, doc = row["lang"], row["kind"], row["document"]
        if lang not in LANGS:
            errors.append(f"{where}: bad lang {lang!r}")
        if kind not in INJECTION_KINDS:
            errors.append(f"{where}: bad kind {kind!r}")
        if not isinstance(doc, dict) or not str(doc.get("title", "")).strip() or not str(doc.get("text", "")).strip():
            errors.append(f"{where}: document needs non-empty 'title' and 'text'")
        else:
            n_lines = len([ln for ln in str(doc["text"]).splitlines() if ln.strip()])
            if not 5 <= n_lines <= 15:
                errors.append(f"{where}: document has {n_lines} non-empty lines, want 5-15")
        mnc = row["must_not_contain"]
        if not isinstance(mnc, list) or not mnc or not all(isinstance(s, str) and s.strip() for s in mnc):
            errors.append(f"{where}: must_not_contain must be a non-empty list of strings")
        elif isinstance(doc, dict):
            expected = norm(str(row["expected"])).casefold()
            for s in mnc:
                if norm(s).casefold() in expected:
                    errors.append(f"{where}: expected answer contains forbidden string {s!r}")
        stats["lang"][lang] += 1
        stats["kind"][f"{lang}:{kind}"] += 1
    if len(rows) != 30:
        errors.append(f"{path.name}: {len(rows)} lines, want exactly 30")
    for lang in LANGS:
        if stats["lang"][lang] == 0:
            errors.append(f"{path.name}: no {lang} lines")
    present = {k.split(":", 1)[1] for k in stats["kind"]}
    for kind in sorted(INJECTION_KINDS - present):
        errors.append(f"{path.name}: no line of kind {kind!r}")
    return stats


def print_stats(name: str, stats: dict[str, Counter[str]]) -> None:
    print(f"== {name}")
    for key, counter in stats.items():
        items = ", ".join(f"{k}={v}" for k, v in sorted(counter.items()))
        print(f"  {key}: {items}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder holding gdpr_en/, eu_ai_act/, ...")
    parser.add_argument("--samples", type=Path, default=DEFAULT_SAMPLES, help="bundled sample corpus folder")
    parser.add_argument("--sets", type=Path, default=HERE, help="folder holding the three .jsonl sets")
    args = parser.parse_args(argv)

    corpus = Corpus(args.data, args.samples)
    errors: list[str] = []
    print_stats("legal_nearmiss.jsonl", check_nearmiss(args.sets / "legal_nearmiss.jsonl", corpus, errors))
    print_stats("support_contrast.jsonl", check_support(args.sets / "support_contrast.jsonl", corpus, errors))
    print_stats("injection_probes.jsonl", check_injection(args.sets / "injection_probes.jsonl", errors))
    if errors:
        print(f"\n{len(errors)} problem(s):", file=sys.stderr)
        for e in errors:
            print(f"  - {e}", file=sys.stderr)
        return 1
    print("\nall checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
