#!/usr/bin/env python3
"""Validate the hand-written support (entailment) training/dev sets in training/sets/.

Checks support_written_en.jsonl and support_written_vi.jsonl (whichever exist):

* one JSON object per line, required fields, allowed values (labels and kinds as in
  bench/sets/check_sets.py), ids unique and of the form ``sw-<lang>-NNNN``;
* every premise is stored whitespace-normalised and occurs verbatim (after NFC and whitespace
  normalisation) in the source file it names; premises from the EU units files must come from
  an article, not a recital;
* no premise is shared with the evaluation sets bench/sets/support_contrast.jsonl and
  bench/sets/legal_nearmiss.jsonl (equal, or one contained in the other);
* the split (``train``/``dev``) is the same for all pairs from one source article/section.

Warnings (not errors): a premise article that the bench sets also use, a premise whose pairs are
not adjacent, a premise with a supported/unsupported count outside 2-3 / 3-4.

Usage:  .venv/bin/python training/sets/check_written.py [--data /work/shared/data]
            [--samples src/citewise/samples/corpus] [FILE ...]
PDF sources need pdfplumber (a project dependency); run with the project's virtualenv.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BENCH = REPO / "bench" / "sets"


def _load_check_sets() -> Any:
    spec = importlib.util.spec_from_file_location("_bench_check_sets", BENCH / "check_sets.py")
    if spec is None or spec.loader is None:  # pragma: no cover
        raise RuntimeError("cannot load bench/sets/check_sets.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


cs = _load_check_sets()
norm = cs.norm
FIELDS = ("id", "lang", "source", "doc", "premise", "claim", "label", "kind", "split")
SPLITS = ("train", "dev")
UNITS = {"gdpr_en": "gdpr_en_units.jsonl", "eu_ai_act": "eu_ai_act_en_units.jsonl"}
# ALQAC 2022 statutes (law.json: [{id, articles: [{id, text}]}]); premises are searched per article text.
ALQAC = {"alqac2022": "law.json"}

# Section headings in the normalised text of the sample documents and the Phap dien markdown.
_HEADINGS = [
    re.compile(r"\bArticle \d+(?= [A-Z])"),  # data-protection-regulation-en.html
    re.compile(r"\bANNEX [IVX]+\b"),
    re.compile(r"\bSection \d+(?= [A-Z][a-z])"),  # home-insurance-policy-en.pdf
    re.compile(r"\bPart \d+(?= [A-Z][a-z])"),  # travel-insurance-terms-en.docx
    re.compile(r"\bAnnex [A-Z0-9]+(?= [A-Z][a-z])"),
    re.compile(r"(?<![\w.,])\d+\.\d+(?= [A-Z][a-z])"),  # "2.3 Notifying ..."
]
_VI_HEADING = re.compile(r"Điều (\d[\w.]*?)\. (\w)")


def _units_articles(path: Path) -> list[tuple[str, str, str]]:
    """(kind, number, normalised text) for every record of a *_units.jsonl file."""
    out = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            rec = json.loads(line)
            pars = rec.get("paragraphs") or []
            parts = [p["text"] for p in pars if isinstance(p, dict) and isinstance(p.get("text"), str)]
            text = "\n".join(parts) if parts else (rec.get("text") or "")
            out.append((rec.get("kind", ""), str(rec.get("number") or rec.get("id")), norm(text)))
    return out


class Locator:
    """Finds the article / section a premise comes from."""

    def __init__(self, corpus: Any) -> None:
        self.corpus = corpus
        self._units: dict[str, list[tuple[str, str, str]]] = {}
        self._heads: dict[tuple[str, str], list[tuple[int, str]]] = {}
        self._alqac: dict[str, list[tuple[str, str]]] = {}

    def _alqac_articles(self, source: str) -> list[tuple[str, str]]:
        if source not in self._alqac:
            laws = json.loads(self.corpus.path(source, ALQAC[source]).read_text(encoding="utf-8"))
            self._alqac[source] = [
                (f"{law['id']} Điều {a['id']}", norm(a["text"])) for law in laws for a in law["articles"]
            ]
        return self._alqac[source]

    def text(self, source: str, doc: str) -> str:
        """Normalised source text; for ALQAC the article texts joined with a blank line."""
        if source in ALQAC:
            return "\n\n".join(t for _, t in self._alqac_articles(source))
        return self.corpus.text(source, doc)

    def _headings(self, source: str, doc: str) -> list[tuple[int, str]]:
        key = (source, doc)
        if key not in self._heads:
            text = self.corpus.text(source, doc)
            heads: list[tuple[int, str]] = []
            for rx in _HEADINGS:
                heads += [(m.start(), m.group(0)) for m in rx.finditer(text)]
            heads += [(m.start(), f"Điều {m.group(1)}") for m in _VI_HEADING.finditer(text) if m.group(2).isupper()]
            self._heads[key] = sorted(heads)
        return self._heads[key]

    def article(self, source: str, doc: str, premise: str) -> tuple[str | None, str | None]:
        """Return (article label, problem). Label is None when the premise cannot be placed."""
        if source in ALQAC:
            arts = [label for label, t in self._alqac_articles(source) if premise in t]
            return (arts[0], None) if arts else (None, "premise not found in any ALQAC article")
        if source in UNITS:
            if source not in self._units:
                self._units[source] = _units_articles(self.corpus.path(source, UNITS[source]))
            hits = [(k, n) for k, n, t in self._units[source] if premise in t]
            arts = [n for k, n in hits if k == "article"]
            if arts:
                return f"Article {arts[0]}", None
            if hits:
                return f"{hits[0][0]} {hits[0][1]}", f"premise comes from a {hits[0][0]}, not an article"
            return None, "premise not found in any unit"
        text = self.corpus.text(source, doc)
        pos = text.find(premise)
        if pos < 0:
            return None, "premise not found"
        before = [label for start, label in self._headings(source, doc) if start <= pos]
        return (before[-1] if before else "(front matter)"), None


def _bench_premises() -> list[tuple[str, str, str]]:
    """(normalised premise/passage, source, doc) of the evaluation sets."""
    out = []
    for name, field in (("support_contrast.jsonl", "premise"), ("legal_nearmiss.jsonl", "passage")):
        path = BENCH / name
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                if isinstance(row.get(field), str):
                    out.append((norm(row[field]), row.get("source", ""), row.get("doc", "")))
    return out


STOP_EN = set(
    """a an the of to in on for by and or is are be been being shall must may can will would should has have had
    its it their them they this that these those which who whom with as at from any all if where when not no there
    than also only into out about under over after before within without up per each every other such his her him
    your you we our us he she do does did then so because but while both either neither nor same own more most
    whether what how until via though once t s ve re ll d m don won aren isn e g i""".split()
)
NUM_WORDS = set(
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty sixty ninety hundred "
    "thousand first second third half once twice".split()
)


def content_overlap(claim: str, premise: str) -> float:
    """Share of the claim's content words (English; numerals excluded) that also occur in the premise."""

    def words(text: str) -> list[str]:
        toks = re.findall(r"[a-z0-9]+", text.lower())
        toks = [
            w for w in toks if w not in STOP_EN and w not in NUM_WORDS and not re.fullmatch(r"[0-9]+[a-z]*|[ivx]+", w)
        ]
        return [re.sub(r"(ing|ed|es|s)$", "", w) if len(w) > 4 else w for w in toks]

    pw = set(words(premise))
    cw = words(claim)
    return sum(w in pw for w in cw) / max(1, len(cw))


def check_file(
    path: Path,
    corpus: Any,
    loc: Locator,
    bench: list[tuple[str, str, str]],
    seen_ids: set[str],
    errors: list[str],
    warnings: list[str],
) -> dict[str, Any]:
    rows = cs.read_jsonl(path, errors)
    name = path.name
    lang_expected = "vi" if name.endswith("_vi.jsonl") else "en" if name.endswith("_en.jsonl") else None
    bench_arts: set[tuple[str, str, str]] = set()
    for bprem, bsrc, bdoc in bench:
        if bsrc and bdoc:
            try:
                art, _ = loc.article(bsrc, bdoc, bprem)
            except Exception:  # pragma: no cover - a bench source may be missing locally
                art = None
            if art:
                bench_arts.add((bsrc, bdoc, art))
    bench_set = {b[0] for b in bench}

    stats: dict[str, Any] = {"rows": len(rows), "table": Counter(), "premises": {}, "articles": {}, "overlap": []}
    art_split: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    premise_rows: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        rid = row.get("id")
        where = f"{name}:{row['_line']} ({rid})"
        if not cs.require(row, FIELDS, where, errors):
            continue
        if rid in seen_ids:
            errors.append(f"{where}: duplicate id")
        seen_ids.add(rid)
        lang = row["lang"]
        if lang not in cs.LANGS or (lang_expected and lang != lang_expected):
            errors.append(f"{where}: lang {lang!r} does not fit the file")
        if not re.fullmatch(rf"sw-{re.escape(str(lang))}-\d{{4}}", str(rid)):
            errors.append(f"{where}: id should look like sw-{lang}-NNNN")
        label, kind, split = row["label"], row["kind"], row["split"]
        if not cs.label_and_kind(label, kind, where, errors):
            continue
        if split not in SPLITS:
            errors.append(f"{where}: split {split!r} not in {SPLITS}")
        if row["source"] not in cs.SOURCES and row["source"] not in ALQAC:
            errors.append(f"{where}: unknown source {row['source']!r}")
            continue
        premise = norm(row["premise"])
        if premise != row["premise"]:
            errors.append(f"{where}: premise is not stored NFC/whitespace-normalised")
        if norm(row["claim"]) == premise:
            errors.append(f"{where}: claim is identical to premise")
        try:
            source_text = loc.text(row["source"], row["doc"])
        except Exception as exc:  # report any reading problem
            errors.append(f"{where}: cannot read source {row['source']}/{row['doc']}: {exc}")
            continue
        if premise not in source_text:
            errors.append(f"{where}: premise not found verbatim in {row['source']}/{row['doc']}")
            continue
        for bprem in bench_set:
            if premise == bprem or premise in bprem or bprem in premise:
                errors.append(f"{where}: premise overlaps a bench/sets premise or passage")
                break
        art, problem = loc.article(row["source"], row["doc"], premise)
        if problem:
            errors.append(f"{where}: {problem}")
        akey = (row["source"], row["doc"], art or "?")
        art_split[akey].add(split)
        stats["articles"][akey] = split
        stats["premises"][premise] = akey
        premise_rows[premise].append(i)
        stats["table"][(split, label, kind)] += 1
        if label == "supported" and lang == "en":
            stats["overlap"].append(content_overlap(row["claim"], premise))

    for akey, splits in art_split.items():
        if len(splits) > 1:
            errors.append(f"{name}: article {akey[1]} {akey[2]} has pairs in several splits {sorted(splits)}")
        if akey in bench_arts:
            warnings.append(f"{name}: article {akey[1]} {akey[2]} is also used by bench/sets")
    for premise, idx in premise_rows.items():
        if idx != list(range(idx[0], idx[0] + len(idx))):
            warnings.append(f"{name}: pairs of premise {premise[:60]!r}... are not adjacent")
        labels = Counter(rows[i]["label"] for i in idx)
        if not (2 <= labels["supported"] <= 3 and 3 <= labels["unsupported"] <= 4):
            warnings.append(
                f"{name}: premise {premise[:60]!r}... has {labels['supported']} supported / "
                f"{labels['unsupported']} unsupported claims"
            )
    return stats


def report(name: str, stats: dict[str, Any]) -> None:
    table: Counter[tuple[str, str, str]] = stats["table"]
    total = sum(table.values())
    print(f"\n== {name}: {total} pairs, {len(stats['premises'])} premises, {len(stats['articles'])} articles/sections")
    by_split_art = Counter(stats["articles"].values())
    by_split_prem = Counter(stats["articles"][a] for a in stats["premises"].values())
    for split in SPLITS:
        n = sum(v for (s, _, _), v in table.items() if s == split)
        print(f"   {split}: {n} pairs, {by_split_prem[split]} premises, {by_split_art[split]} articles")
    kinds = sorted({(lab, k) for (_, lab, k) in table}, key=lambda x: (x[0] != "supported", x[1]))
    print(f"   {'label':<12}{'kind':<19}{'train':>6}{'dev':>6}{'total':>7}")
    for lab, k in kinds:
        tr, dv = table[("train", lab, k)], table[("dev", lab, k)]
        print(f"   {lab:<12}{k:<19}{tr:>6}{dv:>6}{tr + dv:>7}")
    sup = sum(v for (_, lab, _), v in table.items() if lab == "supported")
    if total:
        print(f"   supported share: {sup}/{total} = {sup / total:.1%}")
    if stats["overlap"]:
        ov = stats["overlap"]
        low = sum(x < 0.6 for x in ov)
        print(
            f"   supported claims sharing < 60% of their content words with the premise: {low}/{len(ov)} = {low / len(ov):.1%}"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path, help="default: support_written_{en,vi}.jsonl next to this script")
    ap.add_argument("--data", type=Path, default=cs.DEFAULT_DATA)
    ap.add_argument("--samples", type=Path, default=cs.DEFAULT_SAMPLES)
    args = ap.parse_args(argv)
    files = args.files or [
        p for p in (HERE / "support_written_en.jsonl", HERE / "support_written_vi.jsonl") if p.exists()
    ]
    if not files:
        print("no support_written_*.jsonl files found", file=sys.stderr)
        return 1
    corpus = cs.Corpus(args.data, args.samples)
    loc = Locator(corpus)
    bench = _bench_premises()
    errors: list[str] = []
    warnings: list[str] = []
    seen: set[str] = set()
    for path in files:
        stats = check_file(path, corpus, loc, bench, seen, errors, warnings)
        report(path.name, stats)
    return outcome(errors, warnings)


def outcome(errors: list[str], warnings: list[str]) -> int:
    """Print the warnings and errors of a check; the exit status (1 when there is an error)."""
    for w in warnings:
        print(f"WARNING: {w}")
    for e in errors:
        print(f"ERROR: {e}")
    print(f"\n{len(errors)} error(s), {len(warnings)} warning(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
