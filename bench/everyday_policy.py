"""Everyday English questions about the bundled sample policies (bench/sets/everyday_policy_en.jsonl, written for the
project): where retrieval ranks the gold section, with the spoken-wording synonyms (``retrieve.synonyms``) on and
off, side by side on one index of the sample corpus (lexical + dense, shipped defaults otherwise).

Per question: the rank of the first chunk of a gold section of the named document (0: not in the first 10).
Summary: Hit@1, Hit@3, R@10 and MRR@10 per setting. The set was written before the insurance entries of
retrieve/synonyms.py and those entries were then written with it in view: it is their dev set. The check they were
not written for: the English sample-corpus questions of bench/sets/legal_nearmiss.jsonl (answerable and near-miss
alike; gold = the provision each was written about).

    .venv/bin/python bench/everyday_policy.py
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import citewise
from citewise.settings import Settings
from common import RESULTS, command_line, machine, write_results

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "bench" / "sets" / "everyday_policy_en.jsonl"
SAMPLES = ROOT / "src" / "citewise" / "samples" / "corpus"
NEARMISS = ROOT / "bench" / "sets" / "legal_nearmiss.jsonl"
DOCS = {
    "travel-insurance-terms-en.docx": "Bluewave",
    "home-insurance-policy-en.pdf": "Harbourview",
    "data-protection-regulation-en.html": "Regulation",
}


def _section(provision: str) -> str:
    """The chunk label of a provision as the set names it: "clause 2.3" -> "Section 2.3", "Section 4.2(a)-(b)" ->
    "Section 4.2", "Article 5(1), table" -> "Article 5"."""
    head = re.match(r"(?:clause|section|article)\s+[\d.]+", provision, re.I)
    word, number = head.group(0).split() if head else ("", provision)
    return f"{'Article' if word.lower() == 'article' else 'Section'} {number.rstrip('.')}"


def nearmiss_rows() -> list[dict[str, Any]]:
    rows = [json.loads(x) for x in NEARMISS.read_text(encoding="utf-8").splitlines() if x.strip()]
    return [
        {"id": r["id"], "question": r["question"], "doc": DOCS[r["doc"]], "gold": [_section(r["provision"])]}
        for r in rows
        if r["source"] == "samples" and r["doc"] in DOCS
    ]


def rank(engine: Any, row: dict[str, Any]) -> int:
    for i, e in enumerate(engine.search(row["question"], k=10).evidence, 1):
        if row["doc"] in e.doc_title and e.chunk.label in row["gold"]:
            return i
    return 0


def summary(ranks: list[int]) -> dict[str, float]:
    n = len(ranks)
    return {
        "questions": n,
        "hit@1": round(sum(r == 1 for r in ranks) / n, 3),
        "hit@3": round(sum(0 < r <= 3 for r in ranks) / n, 3),
        "r@10": round(sum(r > 0 for r in ranks) / n, 3),
        "mrr@10": round(sum(1 / r for r in ranks if r) / n, 3),
    }


def main() -> None:
    sets = {
        "everyday_policy_en (dev)": [json.loads(x) for x in SET.read_text(encoding="utf-8").splitlines() if x.strip()],
        "legal_nearmiss, English sample-corpus questions": nearmiss_rows(),
    }
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index"
        seed = citewise.open(settings=Settings(index=index))
        seed.ingest([SAMPLES])
        seed.close()
        engines = {
            "synonyms on": citewise.open(settings=Settings(index=index)),
            "synonyms off": citewise.open(settings=Settings(index=index, retrieve={"synonyms": False})),
        }
        result: dict[str, Any] = {"machine": machine(command_line("everyday_policy.py", None), False), "sets": {}}
        for title, rows in sets.items():
            ranks: dict[str, list[int]] = {k: [] for k in engines}
            for row in rows:
                for name, engine in engines.items():
                    ranks[name].append(rank(engine, row))
                print(" ".join(f"{ranks[k][-1]:>2}" for k in engines), row["question"], flush=True)
            result["sets"][title] = {
                "summary": {k: summary(v) for k, v in ranks.items()},
                "rows": [
                    {"id": r["id"], "question": r["question"], **{k: ranks[k][i] for k in ranks}}
                    for i, r in enumerate(rows)
                ],
            }
        for engine in engines.values():
            engine.close()
    write_results(RESULTS / "everyday_policy.json", result)
    print(json.dumps({t: x["summary"] for t, x in result["sets"].items()}, indent=1))


if __name__ == "__main__":
    main()
