#!/usr/bin/env python3
"""Validate the hand-written answerability pairs in training/sets/: answerability_written_{en,vi}.jsonl (sentences
of public legal texts) and answerability_policies_{en,vi}.jsonl (clauses of fictional policies written for the
project, ``source`` ``written_policy``).

Checks, per row: the fields, an id ``aw-<lang>-NNNN`` (unique), the label (1: the sentence states the answer;
0: neither the sentence nor its passage does) and a kind allowed for it, the split; the sentence occurs in the
passage and, for label 1, the answer in the sentence; the passage occurs verbatim (NFC, whitespace-normalised) in
the source file it names (a written policy's clause is its own source: none of its sentences may occur in the
bundled sample corpus, a test fixture); no passage is shared with the evaluation sets
bench/sets/support_contrast.jsonl and bench/sets/legal_nearmiss.jsonl (equal, or one contained in the other); and
one split per article (per policy for written policies). Warnings: a sentence without both labels among its
questions.

Usage:  .venv/bin/python training/sets/check_answerability.py [--data /work/shared/data] [FILE ...]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

from training.sets.check_written import HERE, _bench_premises, cs, norm, outcome

FIELDS = ("id", "lang", "source", "doc", "provision", "passage", "sentence", "question", "label", "kind", "split")
KINDS = {
    1: {"answer", "answer_everyday", "answer_yes_no"},
    0: {"detail_missing", "other_party", "other_figure", "neighbour_topic", "unstated_case", "false_premise"},
}
SOURCES = {
    "gdpr_en": "gdpr_en_units.jsonl",
    "eu_ai_act": "eu_ai_act_en_units.jsonl",
    "vn_insurance_law_phapdien": "phapdien_kinh_doanh_bao_hiem_articles.jsonl",
}
WRITTEN = "written_policy"
"""Clauses written for the project (``doc`` names the fictional policy)."""
COPY_WORDS = 10
"""A written clause that shares a run of this many words with the sample corpus copies it."""
ID_PREFIX = {"answerability_written": "aw", "answerability_policies": "ap"}
_ARTICLE = re.compile(r"Article\s+(\d+[a-z]?)", re.I)
_CLAUSE = re.compile(r"^(?:điểm\s+\w+,?\s+)?(?:khoản\s+\d+\w*,?\s+)?", re.I)


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def source_texts(data: Path, source: str) -> list[str]:
    """Every record of the source file, its strings joined and normalised (a passage must lie in one record)."""
    out = []
    with (data / source / SOURCES[source]).open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                strings = _strings(json.loads(line))
                out.append(norm(" ".join(strings)))
                out += [norm(s) for s in strings if len(s) > 40]
    return out


def article_of(row: dict[str, object]) -> str:
    """The article a row's provision names (the split unit), with the source: "Article 12(3)" -> Article 12;
    "điểm a khoản 2 Điều 21 Luật ..." -> "Điều 21 Luật ..."."""
    provision = " ".join(str(row["provision"]).split())
    if row["source"] == WRITTEN:
        return f"{WRITTEN}:{row['doc']}"
    if row["lang"] == "vi":
        return f"{row['source']}:{_CLAUSE.sub('', provision).lower()}"
    m = _ARTICLE.search(provision)
    return f"{row['source']}:{m.group(1) if m else provision}"


def sample_sentences(samples: Path) -> list[str]:
    """The normalised text of every bundled sample document (written clauses must not come from them)."""
    corpus = cs.Corpus(cs.DEFAULT_DATA, samples)
    return [corpus.text(src, doc).lower() for src, doc in corpus.all_docs() if src == "samples"]


def check(
    paths: list[Path], data: Path, samples: Path = cs.DEFAULT_SAMPLES
) -> tuple[list[str], list[str], dict[str, Counter[str]]]:
    errors: list[str] = []
    warnings: list[str] = []
    stats: dict[str, Counter[str]] = {}
    bench = [p for p, _, _ in _bench_premises()]
    texts: dict[str, list[str]] = {}
    seen: set[str] = set()
    for path in paths:
        rows = cs.read_jsonl(path, errors)
        lang_expected = "vi" if path.name.endswith("_vi.jsonl") else "en"
        prefix = ID_PREFIX.get(path.name.rsplit("_", 1)[0], "aw")
        st = stats[path.name] = Counter()
        splits: dict[str, set[str]] = defaultdict(set)
        labels_of: dict[str, set[int]] = defaultdict(set)
        for row in rows:
            where = f"{path.name}:{row['_line']} ({row.get('id')})"
            if not cs.require(row, FIELDS, where, errors):
                continue
            rid, lang, label, kind = str(row["id"]), row["lang"], row["label"], row["kind"]
            if rid in seen:
                errors.append(f"{where}: duplicate id")
            seen.add(rid)
            if lang != lang_expected or not re.fullmatch(rf"{prefix}-{lang_expected}-\d{{4}}", rid):
                errors.append(f"{where}: lang/id should be {lang_expected} / {prefix}-{lang_expected}-NNNN")
            if label not in KINDS or kind not in KINDS[label]:  # type: ignore[index]
                errors.append(f"{where}: kind {kind!r} not allowed for label {label!r}")
                continue
            if row["split"] not in ("train", "dev"):
                errors.append(f"{where}: split {row['split']!r}")
            written = row["source"] == WRITTEN
            if not written and (row["source"] not in SOURCES or row["doc"] != SOURCES[str(row["source"])]):
                errors.append(f"{where}: unknown source/doc {row['source']}/{row['doc']}")
                continue
            passage, sentence = norm(str(row["passage"])), norm(str(row["sentence"]))
            if sentence not in passage:
                errors.append(f"{where}: sentence not in passage")
            if label == 1 and norm(str(row.get("answer") or "")) not in sentence:
                errors.append(f"{where}: answer missing or not in sentence")
            if norm(str(row["question"])) == sentence:
                errors.append(f"{where}: question is the sentence")
            src = str(row["source"])
            if written:
                if "samples" not in texts:
                    texts["samples"] = sample_sentences(samples)
                words = passage.lower().split()
                runs = [" ".join(words[k : k + COPY_WORDS]) for k in range(max(0, len(words) - COPY_WORDS + 1))]
                copied = [r for r in runs if any(r in t for t in texts["samples"])]
                if copied:
                    errors.append(f"{where}: passage copies the sample corpus: {copied[0][:60]!r}")
            else:
                if src not in texts:
                    texts[src] = source_texts(data, src)
                if not any(passage in t for t in texts[src]):
                    errors.append(f"{where}: passage not found verbatim in {src}")
            if any(passage in b or b in passage for b in bench):
                errors.append(f"{where}: passage shared with an evaluation set in bench/sets")
            splits[article_of(row)].add(str(row["split"]))
            labels_of[f"{src}:{sentence}"].add(int(label))  # type: ignore[call-overload]
            st[f"label {label}"] += 1
            st[f"split {row['split']}"] += 1
            st[f"kind {kind}"] += 1
        for art, s in splits.items():
            if len(s) > 1:
                errors.append(f"{path.name}: {art} is in both splits")
        for key, ls in labels_of.items():
            if ls != {0, 1}:
                warnings.append(f"{path.name}: sentence with labels {sorted(ls)} only: {key[:80]}")
        st["articles"] = len(splits)
        st["sentences"] = len(labels_of)
    return errors, warnings, stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--data", type=Path, default=cs.DEFAULT_DATA)
    args = ap.parse_args(argv)
    files = args.files or sorted(
        [*HERE.glob("answerability_written_*.jsonl"), *HERE.glob("answerability_policies_*.jsonl")]
    )
    if not files:
        print("no answerability_written_*.jsonl files found", file=sys.stderr)
        return 1
    errors, warnings, stats = check(files, args.data)
    for name, st in stats.items():
        print(name, dict(sorted(st.items())))
    return outcome(errors, warnings)


if __name__ == "__main__":
    sys.exit(main())
