"""What the retriever's question-reference machinery did on a question set, read from its search
results: how often pins and document boosts fired and whether they were right; and, for the
questions the default fusion lost against a single ranker, where the gold unit sat in each
ranker's candidates."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from citewise.evaluate.benchsets import GoldQuestion
from citewise.evaluate.units import Row, UnitMap
from citewise.retrieve.records import Evidence, SearchResult

EXAMPLES = 8


def _found(res: SearchResult) -> list[Evidence]:
    return [e for e in res.evidence if not e.supporting]


def _unit(e: Evidence, units: UnitMap) -> tuple[str, str] | None:
    return units.get((e.chunk.doc_id, e.chunk.chunk_id))


def pipeline_effects(
    results: Sequence[SearchResult], questions: Sequence[GoldQuestion], units: UnitMap
) -> dict[str, Any]:
    """Pins and document boosts: how often they fired, how often the pinned unit (the first one) or
    the boosted document was gold; a few examples of pins and of wrong boosts."""
    pinned_q = boosted_q = pinned_right = boosted_right = refs_q = pinned_first_right = mention_q = 0
    examples: list[dict[str, Any]] = []
    wrong_boosts: list[dict[str, Any]] = []
    for res, q in zip(results, questions, strict=True):
        ev = _found(res)
        mention_q += any(r.mention for r in res.analysis.refs)
        refs_q += bool(res.analysis.refs or res.analysis.docs)
        pins = [_unit(e, units) for e in ev if e.pinned]
        if pins:
            pinned_q += 1
            pinned_right += any(u in q.gold for u in pins)
            pinned_first_right += pins[0] in q.gold
            if len(examples) < EXAMPLES:
                examples.append(
                    {
                        "question": q.text,
                        "refs": [r.raw for r in res.analysis.refs],
                        "pinned": sorted({"/".join(u) for u in pins if u}),
                        "gold": sorted("/".join(g) for g in q.gold),
                    }
                )
        boosted = {(_unit(e, units) or ("", ""))[0] for e in ev if any(r.startswith("boosted") for r in e.reasons)}
        if boosted:
            boosted_q += 1
            right = any(g[0] in boosted for g in q.gold)
            boosted_right += right
            if not right and len(wrong_boosts) < EXAMPLES:
                reasons = {r for e in ev for r in e.reasons if r.startswith("boosted")}
                wrong_boosts.append(
                    {"question": q.text, "boost": sorted(reasons), "gold": sorted("/".join(g) for g in q.gold)}
                )
    return {
        "questions": len(questions),
        "with_references": refs_q,
        "with_condition_references": mention_q,
        "pinned": pinned_q,
        "pinned_gold": pinned_right,
        "pinned_first_gold": pinned_first_right,
        "boosted": boosted_q,
        "boosted_gold_doc": boosted_right,
        "pin_examples": examples,
        "wrong_boost_examples": wrong_boosts,
    }


def fusion_losses(
    results: Sequence[SearchResult], fused: Row, single: Row, questions: Sequence[GoldQuestion], units: UnitMap
) -> dict[str, Any]:
    """Questions whose gold the single ranker puts first but the fusion (``results``, ``fused``) does
    not: whether the gold unit was among each ranker's candidates (its dense rank when it was), and
    whether the unit fusion put first was in both rankers' lists."""
    lost = gold_no_dense = gold_no_lexical = top_in_both = 0
    gold_dense_ranks: list[int] = []
    for res, q, f, s in zip(results, questions, fused.per_question, single.per_question, strict=True):
        if not (s["hit1"] and not f["hit1"]):
            continue
        lost += 1
        ev = _found(res)
        gold_ev = next((e for e in ev if _unit(e, units) in q.gold), None)
        if gold_ev is None or "dense" not in gold_ev.rankers:
            gold_no_dense += 1
        else:
            gold_dense_ranks.append(gold_ev.rankers["dense"].rank)
        if gold_ev is not None and "lexical" not in gold_ev.rankers:
            gold_no_lexical += 1
        if ev and {"lexical", "dense"} <= set(ev[0].rankers):
            top_in_both += 1
    return {
        "single": single.name,
        "lost_top1": lost,
        "gold_not_in_dense_candidates": gold_no_dense,
        "gold_not_in_lexical_candidates": gold_no_lexical,
        "gold_dense_rank_median": statistics.median(gold_dense_ranks) if gold_dense_ranks else None,
        "fused_top1_in_both_lists": top_in_both,
    }
