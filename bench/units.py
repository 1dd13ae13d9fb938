"""Figures that keep the number and change the unit: does the validator let them through?

Probes are built from every supported claim of the written support pairs (training/sets/support_written_*.jsonl,
bench/sets/support_contrast.jsonl, bench/sets/support_persons.jsonl) that writes a figure with a unit: the claim's
first unit is swapped for another ("14 days" -> "14 hours", "30 ngày" -> "30 tháng", "2.000.000 đồng" -> "2.000.000
USD", "80%" -> "80 ngày"). The claims are restatements, not copies, so the support scorer reads a paraphrase with the
wrong unit. Each probe and its original are judged as the validator judges a sentence resting on one quote: the
trained support scorer at its shipped threshold, the figure check, and with or without the unit check
(judge/units.py). Nothing here was used to write or tune the unit check.

    .venv/bin/python bench/units.py
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from citewise.figures import NUMBER, unsupported_numbers
from citewise.judge.units import unit_mismatches
from citewise.verify.validator import Validator
from common import command_line, machine, md_table, write_results, write_section

ROOT = Path(__file__).resolve().parents[1]
SETS = [
    ROOT / "training" / "sets" / "support_written_en.jsonl",
    ROOT / "training" / "sets" / "support_written_vi.jsonl",
    ROOT / "bench" / "sets" / "support_contrast.jsonl",
    ROOT / "bench" / "sets" / "support_persons.jsonl",
]
RESULTS = ROOT / "bench" / "results" / "units.json"
SWAP = {
    "hours": "days",
    "hour": "day",
    "days": "months",
    "day": "month",
    "weeks": "months",
    "week": "month",
    "months": "years",
    "month": "year",
    "years": "months",
    "year": "month",
    "%": " days",
    "per cent": "days",
    "usd": "EUR",
    "giờ": "ngày",
    "ngày": "tháng",
    "tuần": "tháng",
    "tháng": "năm",
    "năm": "tháng",
    "tuổi": "năm",
    "đồng": "USD",
}
_UNIT = re.compile(r"(\s*)(" + "|".join(sorted(map(re.escape, SWAP), key=len, reverse=True)) + r")(?!\w)", re.I)
_BEFORE = re.compile(r"(USD)(\s*)$")


def swapped(claim: str) -> str | None:
    """The claim with its first figure's unit swapped, or ``None`` when no figure has a unit."""
    for m in NUMBER.finditer(claim):
        after = _UNIT.match(claim, m.end(1))
        if after:
            word = after.group(2)
            new = SWAP[word.lower()]
            return claim[: after.start(2)] + new + claim[after.end(2) :]
        before = _BEFORE.search(claim[: m.start()])
        if before:
            return claim[: before.start(1)] + "EUR" + claim[before.end(1) :]
    return None


def pairs() -> list[dict[str, str]]:
    out = []
    for path in SETS:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            r = json.loads(line)
            if r.get("supported") not in (1, True, "supported") and r.get("label") not in (1, "supported"):
                continue
            claim, premise = r["claim"], r.get("premise") or r.get("source") or ""
            probe = swapped(claim)
            if probe and probe != claim and not unsupported_numbers(claim, [premise]):
                out.append({"set": path.name, "lang": r["lang"], "claim": claim, "probe": probe, "premise": premise})
    return out


def verdicts(validator: Validator, claim: str, premise: str, lang: str) -> tuple[bool, bool]:
    """(passes without the unit check, passes with it)."""
    supported, _ = validator.thresholds(lang)
    ok = validator.scorer.score(claim, premise).score >= supported and not unsupported_numbers(claim, [premise])
    return ok, ok and not unit_mismatches(claim, [(premise, None)])


def main(argv: list[str] | None = None) -> None:
    validator = Validator()
    rows = pairs()
    counts: Counter[tuple[str, str]] = Counter()
    examples = []
    for r in rows:
        lang = r["lang"]
        counts[(lang, "pairs")] += 1
        for kind, text in (("original", r["claim"]), ("probe", r["probe"])):
            without, with_units = verdicts(validator, text, r["premise"], lang)
            counts[(lang, f"{kind} passed without")] += without
            counts[(lang, f"{kind} passed with")] += with_units
            if kind == "probe" and without and len(examples) < 6:
                examples.append({"probe": text, "premise": r["premise"][:200], "caught": not with_units})
    summary = {
        lang: {
            "pairs": counts[(lang, "pairs")],
            "originals_passed": [counts[(lang, "original passed without")], counts[(lang, "original passed with")]],
            "unit_swaps_passed": [counts[(lang, "probe passed without")], counts[(lang, "probe passed with")]],
        }
        for lang in sorted({r["lang"] for r in rows})
    }
    command = command_line("units.py", argv)
    # the probes are rebuilt from the sets by ``pairs()``: only counts and a few examples are kept
    write_results(RESULTS, {"machine": machine(command), "summary": summary, "examples": examples})
    table = md_table(
        ["language", "pairs", "originals passed: without / with the unit check", "unit swaps passed (wrongly)"],
        [
            [
                lang,
                str(s["pairs"]),
                f"{s['originals_passed'][0]} / {s['originals_passed'][1]}",
                f"{s['unit_swaps_passed'][0]} / {s['unit_swaps_passed'][1]}",
            ]
            for lang, s in summary.items()
        ],
    )
    text = (
        f"## Figures that change their unit\n\n`{command}` · {machine(command)['date']}. Probes: each supported "
        'claim of the written support pairs that writes a figure with a unit, its first unit swapped ("14 days" -> '
        '"14 hours", "30 ngày" -> "30 tháng", "đồng" -> "USD", "%" -> "days"); the claims are restatements, '
        "so the scorer reads a paraphrase with the wrong unit. Judged as a sentence resting on one quote: support at "
        "the shipped threshold and the figure check, without and with the unit check (judge/units.py). Nothing here "
        "was used to write the check.\n\n" + table + "\n"
    )
    write_section("Figures that change their unit", text)
    print(text)


if __name__ == "__main__":
    main()
