"""Pins, document boosts and fusion losses read from real search results on a two-article law."""

from __future__ import annotations

import json
from pathlib import Path

import citewise
from citewise.evaluate.benchsets import GoldQuestion
from citewise.evaluate.retrieval_effects import fusion_losses, pipeline_effects
from citewise.evaluate.units import chunk_units, evidence_ranking, make_row, score_units
from citewise.settings import Settings

LAW = "Luật Kinh doanh bảo hiểm"
ARTICLES = [
    ("1", "Phạm vi điều chỉnh", "Luật này quy định về kinh doanh bảo hiểm."),
    ("2", "Đối tượng áp dụng", "Luật này áp dụng đối với doanh nghiệp bảo hiểm."),
]


def test_pins_boosts_and_losses(tmp_path: Path) -> None:
    corpus = tmp_path / "law.jsonl"
    rows = [
        {"doc": "L1", "doc_title": LAW, "id": i, "title": t, "text": x, "kind": "article", "label": f"Điều {i}"}
        for i, t, x in ARTICLES
    ]
    corpus.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    questions = [
        GoldQuestion("right", f"Điều 2 {LAW} quy định gì?", frozenset({("L1", "2")})),  # pinned and boosted, right
        GoldQuestion("wrong", "Điều 1 quy định gì?", frozenset({("L1", "2")})),  # pins the article it names
        GoldQuestion("plain", "doanh nghiệp bảo hiểm", frozenset({("L1", "2")})),  # names nothing
    ]
    with citewise.open(settings=Settings(index=tmp_path / "index"), embedder=None) as engine:
        engine.ingest([corpus])
        units = chunk_units(engine.store)
        results = [engine.search(q.text, k=5) for q in questions]
    effects = pipeline_effects(results, questions, units)
    assert {k: effects[k] for k in ("questions", "with_references", "pinned", "pinned_gold", "pinned_first_gold")} == {
        "questions": 3,
        "with_references": 2,
        "pinned": 2,
        "pinned_gold": 1,
        "pinned_first_gold": 1,
    }
    assert (effects["boosted"], effects["boosted_gold_doc"]) == (1, 1)
    assert effects["pin_examples"][1] == {
        "question": "Điều 1 quy định gì?",
        "refs": ["Điều 1"],
        "pinned": ["L1/1"],
        "gold": ["L1/2"],
    }

    fused = make_row(
        "fused",
        "lexical",
        [score_units(evidence_ranking(r, units), q.gold) for r, q in zip(results, questions, strict=True)],
        [],
    )
    perfect = make_row("single", "oracle", [dict.fromkeys(fused.per_question[0], 1.0)] * 3, [])
    losses = fusion_losses(results, fused, perfect, questions, units)
    # only "wrong" misses the top: its gold is in the lexical list but no dense ranker ran
    assert losses["lost_top1"] == 1
    assert losses["gold_not_in_dense_candidates"] == 1 and losses["gold_dense_rank_median"] is None
