"""Verification with the optional LLM entailment check: does asking a local LLM "is the claim fully
supported by the source? Yes/No" help the trained support scorer, and what does it cost?

Dev pairs only for the figures: a fixed-seed sample of up to ``--per-set`` pairs per data set
(WiCE, ContractNLI, ALQAC 2022, ALQAC 2023), half supported, half not. The LLM reads the claim and
the scorer's best span of the source with some context (<= 800 characters, verify/entailment.py).
Compared on the same sample: the judge alone (P(Yes)), the scorer alone (at its shipped
thresholds) and the combination the validator runs (the judge asked only for borderline
sentences; P(Yes) >= t makes them supported), for two bands: the scorer's own (partial <= p <
supported) and a wide one (0.5 <= p < supported). The P(Yes) threshold t is picked on TRAIN pairs
of the wide band (a random sample), never on dev (``pick_thresholds``). Writes
bench/results/verify_llm.json (raw judgements and figures, one entry per model, merged) and a
section of docs/benchmarks.md; ``--rescore`` recomputes figures from the saved judgements.

    python bench/verify_llm.py [--models qwen2.5-coder-1.5b,qwen2.5-coder-0.5b] [--per-set 40] [--train 48]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: training/

from training.support_pairs import Pair, load_pairs

from citewise.answer.models import model_path
from citewise.evaluate.classification import auc
from citewise.evaluate.classification import binary_figures as figures
from citewise.figures import unsupported_numbers
from citewise.verify.entailment import SOURCE_CHARS, Judgement, LlamaCppJudge, excerpt
from citewise.verify.scorer import DEFAULT_WEIGHTS, get_scorer
from citewise.verify.validator import Validator
from common import write_section

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "verify_llm.json"
SETS = ["wice", "contractnli", "alqac2022", "alqac2023"]
TITLE = "Verification (LLM entailment check)"
WIDE_FROM = 0.5
"""Lower edge of the wide band: the scorer's calibrated decision point."""
PRECISION = 0.9
"""Least share supported among the train pairs a threshold promotes (rule ``precision``)."""
MIN_PROMOTED = 5


@dataclass
class Scored:
    pair: Pair
    value: float
    """The scorer's P(supported); 0 when a figure of the claim is missing from the source (as in the validator)."""
    span: tuple[int, int]
    lang: str

    @property
    def y(self) -> int:
        return int(self.pair.label == "supported")


def score_all(pairs: list[Pair]) -> list[Scored]:
    scorer = get_scorer("trained")
    out = []
    for p in pairs:
        s = scorer.score(p.claim, p.source)
        value = 0.0 if unsupported_numbers(p.claim, [p.source]) else s.score
        out.append(Scored(p, value, s.span, s.lang))
    return out


def dev_sample(dev: list[Scored], per_set: int, seed: int) -> list[Scored]:
    rng = random.Random(seed)
    out: list[Scored] = []
    for ds in SETS:
        for y in (1, 0):
            pool = [s for s in dev if s.pair.dataset == ds and s.y == y]
            out += rng.sample(pool, min(len(pool), per_set // 2))
    return out


def pick_thresholds(train: list[dict[str, Any]], pos: int, neg: int) -> dict[str, dict[str, Any]]:
    """P(Yes) thresholds picked on the judged TRAIN pairs of the wide band, by two rules:

    - ``precision`` (shipped): the lowest t whose promoted pairs are >= PRECISION supported (at least
      MIN_PROMOTED of them), so that the LLM does not undo the high precision the scorer's thresholds
      are chosen for; 1.01 (never) when no t reaches it;
    - ``gain``: the t that adds most balanced accuracy on train, promoting a supported pair gains
      1/pos and a wrong one costs 1/neg (pos, neg: all train pairs); 1.01 when nothing gains."""
    ps = sorted({r["p_yes"] for r in train})
    best_t, best_gain, prec_t = 1.01, 0.0, 1.01
    for t in ps:
        up = [r for r in train if r["p_yes"] >= t]
        gain = sum(r["y"] / pos - (1 - r["y"]) / neg for r in up)
        if gain > best_gain + 1e-12:
            best_t, best_gain = t, gain
        if prec_t > 1 and len(up) >= MIN_PROMOTED and sum(r["y"] for r in up) / len(up) >= PRECISION:
            prec_t = t
    out = {}
    for rule, t in (("precision", prec_t), ("gain", best_t)):
        up = [r for r in train if r["p_yes"] >= t]
        out[rule] = {
            "threshold": round(t, 4),
            "train_promoted": len(up),
            "train_promoted_precision": round(sum(r["y"] for r in up) / len(up), 4) if up else None,
        }
    return out


def prompt_key(s: Scored) -> str:
    """Identifies what the LLM reads (claim, excerpt, language), so a judgement can be reused."""
    text = "\x00".join((s.pair.claim, excerpt(s.pair.source, s.span, SOURCE_CHARS), s.lang))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def judge_all(
    judge: LlamaCppJudge,
    items: list[Scored],
    split: str,
    bands: dict[str, Validator],
    t0: float,
    cache: dict[str, dict[str, Any]],
) -> list[dict[str, Any]]:
    out = []
    for i, s in enumerate(items, 1):
        key = prompt_key(s)
        if key in cache:  # the same prompt judged by an earlier run (same model)
            c = cache[key]
            r = Judgement(c["p_yes"], c["mass"], c["prompt_tokens"], c["seconds"])
        else:
            r = judge.judge(s.pair.claim, excerpt(s.pair.source, s.span, SOURCE_CHARS), s.lang)
        out.append(
            {
                "split": split,
                "key": key,
                "reused": key in cache,
                "dataset": s.pair.dataset,
                "kind": s.pair.kind,
                "lang": s.lang,
                "y": s.y,
                "scorer": round(s.value, 4),
                "scorer_supported": s.value >= bands["scorer"].thresholds(s.lang)[0],
                **{f"band_{k}": b.borderline(s.value, s.lang) for k, b in bands.items()},
                "p_yes": round(r.p_yes, 5),
                "mass": round(r.mass, 4),
                "prompt_tokens": r.prompt_tokens,
                "seconds": round(r.seconds, 3),
            }
        )
        if i % 10 == 0 or i == len(items):
            mean = statistics.fmean(o["seconds"] for o in out)
            print(
                f"  {split} {i}/{len(items)}  {mean:.1f} s/judgement  eta {mean * (len(items) - i) / 60:.1f} min"
                f"  elapsed {(time.perf_counter() - t0) / 60:.1f} min",
                flush=True,
            )
    return out


def evaluate(rows: list[dict[str, Any]], rules: dict[str, dict[str, Any]]) -> dict[str, Any]:
    y = np.array([r["y"] for r in rows])
    v = np.array([r["scorer"] for r in rows])
    p = np.array([r["p_yes"] for r in rows])
    scorer_pred = np.array([r["scorer_supported"] for r in rows], dtype=bool)
    out: dict[str, Any] = {
        "n": len(rows),
        "supported": int(y.sum()),
        "judge": {"auc": round(auc(p, y), 4), "at_0.5": figures(p >= 0.5, y)},
        "scorer": {"auc": round(auc(v, y), 4), "at_threshold": figures(scorer_pred, y)},
    }
    for band in ("scorer", "wide"):
        asked = np.array([r[f"band_{band}"] for r in rows], dtype=bool)
        out[f"band_{band}"] = {
            "n": int(asked.sum()),
            "supported": int(y[asked].sum()),
            "judge_auc": round(auc(p[asked], y[asked]), 4),
            "scorer_auc": round(auc(v[asked], y[asked]), 4),
        }
        # the baseline without an LLM: the whole band counted supported (the threshold lowered to its edge)
        out[f"no_llm_{band}"] = figures(scorer_pred | asked, y)
        for rule, pick in rules.items():
            up = asked & (p >= pick["threshold"])
            out[f"combined_{band}_{rule}"] = {
                **figures(scorer_pred | up, y),
                "judged": int(asked.sum()),
                "share_judged": round(float(asked.mean()), 4),
                "promoted": int(up.sum()),
            }
    return out


def cost(rows: list[dict[str, Any]]) -> dict[str, float]:
    secs = [r["seconds"] for r in rows]
    toks = [r["prompt_tokens"] for r in rows]
    return {
        "judgements": len(rows),
        "s_mean": round(statistics.fmean(secs), 2),
        "s_p50": round(float(np.percentile(secs, 50)), 2),
        "s_p95": round(float(np.percentile(secs, 95)), 2),
        "prompt_tokens_mean": round(statistics.fmean(toks), 1),
        "prompt_tokens_p95": round(float(np.percentile(toks, 95)), 1),
        "tokens_per_s": round(sum(toks) / sum(secs), 1),
        "format_mass_mean": round(statistics.fmean(r["mass"] for r in rows), 4),
    }


def summarise(m: dict[str, Any], pos: int, neg: int) -> dict[str, Any]:
    """Thresholds and figures of one model from its raw judgements (train and dev)."""
    train = [r for r in m["judgements"] if r["split"] == "train"]
    dev = [r for r in m["judgements"] if r["split"] == "dev"]
    rules = pick_thresholds(train, pos, neg)
    ty = np.array([r["y"] for r in train])
    return {
        "rules": rules,
        "train": {
            "judged": len(train),
            "supported": int(ty.sum()),
            "judge_auc": round(auc(np.array([r["p_yes"] for r in train]), ty), 4),
        },
        "all": evaluate(dev, rules),
        "sets": {ds: evaluate([r for r in dev if r["dataset"] == ds], rules) for ds in SETS},
        "cost": cost(m["judgements"]),
        "cost_by_lang": {lang: cost([r for r in m["judgements"] if r["lang"] == lang]) for lang in ("en", "vi")},
    }


def run_model(
    name: str,
    train: list[Scored],
    sample: list[Scored],
    bands: dict[str, Validator],
    cache: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    t0 = time.perf_counter()
    judge = LlamaCppJudge(gguf=model_path(name))
    new = len({prompt_key(s) for s in train + sample} - set(cache))
    print(
        f"{name}: {len(train)} train pairs (threshold), then {len(sample)} dev pairs; {new} not judged before",
        flush=True,
    )
    rows = judge_all(judge, train, "train", bands, t0, cache)
    rows += judge_all(judge, sample, "dev", bands, t0, cache)
    return {"minutes": round((time.perf_counter() - t0) / 60, 1), "judgements": rows}


def docs(report: dict[str, Any]) -> list[str]:
    th = report["thresholds"]
    lines = [
        f"## {TITLE}",
        "",
        "`python bench/verify_llm.py` — optional, off by default (`CITEWISE_ANSWER__LLM_CHECK=true`). For sentences the",
        'trained scorer leaves borderline, a local LLM is asked "Is the claim fully supported by the source? Yes/No"',
        "(claim + the scorer's best span with context, ≤ 800 characters; EN or VI prompt); P(Yes) is read from the",
        "first answer token's logits (temperature 0, one token). A borderline sentence with P(Yes) ≥ t becomes supported.",
        f"Dev sample: up to {report['per_set']} pairs per data set, half supported, seed {report['seed']} "
        f"({report['n_dev_sample']} pairs); target supported vs the rest.",
        "Bands: *scorer* = the scorer's partial ≤ p < supported (the validator's default band); "
        f"*wide* = {WIDE_FROM} ≤ p < supported",
        f"(`CITEWISE_ANSWER__LLM_CHECK_FROM={WIDE_FROM}`). Scorer weights `{report['weights_sha256'][:16]}…`, thresholds "
        f"supported/partial EN {th['en'][0]:.3f}/{th['en'][1]:.3f}, VI {th['vi'][0]:.3f}/{th['vi'][1]:.3f}.",
        f"t is picked on {report['n_train']} random TRAIN pairs of the wide band, never on dev: *prec* (shipped) the lowest t",
        f"whose promoted train pairs are ≥ {PRECISION:.0%} supported (≥ {MIN_PROMOTED} of them; the scorer's thresholds are set for",
        "high precision on supported), *gain* the t adding most balanced accuracy on train.",
        f"Machine: 2 cores shared with another engineer's training (load average {report['load'][0]:.1f} at the start, "
        f"{report['load'][1]:.1f} at the end), llama.cpp n_threads=2.",
        "",
    ]
    for name, m in report["models"].items():
        s = m["summary"]
        r, c = s["rules"], s["cost"]
        lines += [
            f"### {name}",
            "",
            f"t: *prec* {r['precision']['threshold']:.3f} ({r['precision']['train_promoted']} train pairs promoted, precision "
            f"{r['precision']['train_promoted_precision']}), *gain* {r['gain']['threshold']:.3f} ({r['gain']['train_promoted']} promoted, "
            f"precision {r['gain']['train_promoted_precision']}); judge AUC on the {s['train']['judged']} train pairs "
            f"({s['train']['supported']} supported) {s['train']['judge_auc']:.3f}.",
            "",
            "| data set | n (supp.) | judge AUC | judge bal. acc @0.5 | scorer AUC | scorer bal. acc (P supp.) |",
            "|---|---|---|---|---|---|",
        ]
        for ds, x in [*s["sets"].items(), ("all", s["all"])]:
            j, sc = x["judge"], x["scorer"]["at_threshold"]
            lines.append(
                f"| {ds} | {x['n']} ({x['supported']}) | {j['auc']:.3f} | {j['at_0.5']['balanced_accuracy']:.3f} | "
                f"{x['scorer']['auc']:.3f} | {sc['balanced_accuracy']:.3f} ({sc['precision_supported']:.3f}) |"
            )
        lines += [
            "",
            "Scorer + judge on the borderline band only (bal. acc (P supported); *no LLM*: the whole band counted supported,",
            "i.e. the scorer's threshold lowered to the band's edge):",
            "",
            "| data set | band | judged | in band: n (supp.), judge AUC, scorer AUC | + judge, *prec* t | + judge, *gain* t | no LLM |",
            "|---|---|---|---|---|---|---|",
        ]
        for ds, x in [*s["sets"].items(), ("all", s["all"])]:
            for band in ("scorer", "wide"):
                b = x[f"band_{band}"]

                def fig(k: dict[str, Any]) -> str:
                    return f"{k['balanced_accuracy']:.3f} ({k['precision_supported']:.3f})"

                lines.append(
                    f"| {ds} | {band} | {x[f'combined_{band}_precision']['share_judged']:.0%} | {b['n']} ({b['supported']}), "
                    f"{b['judge_auc']:.3f}, {b['scorer_auc']:.3f} | {fig(x[f'combined_{band}_precision'])} | "
                    f"{fig(x[f'combined_{band}_gain'])} | {fig(x[f'no_llm_{band}'])} |"
                )
        lines += [
            "",
            f"Cost per judged sentence ({c['judgements']} judgements, {m['minutes']} min): {c['s_mean']:.1f} s mean, "
            f"{c['s_p50']:.1f} s p50, {c['s_p95']:.1f} s p95; {c['prompt_tokens_mean']:.0f} prompt tokens mean "
            f"(p95 {c['prompt_tokens_p95']:.0f}) and 1 completion token; {c['tokens_per_s']:.0f} prompt tokens/s; "
            f"P(Yes) + P(No) of the first token {c['format_mass_mean']:.3f}. "
            + "; ".join(
                f"{lang.upper()} {x['s_mean']:.1f} s, {x['prompt_tokens_mean']:.0f} tokens"
                for lang, x in s["cost_by_lang"].items()
            )
            + ".",
            "",
        ]
    share = report["share_judged_dev"]
    lines += [
        f"Share of sentences judged on the whole dev set (natural label mix, {share['n']} pairs), *scorer* / *wide* band: "
        f"{share['scorer']:.1%} / {share['wide']:.1%}; "
        + ", ".join(f"{ds} {x['scorer']:.1%} / {x['wide']:.1%}" for ds, x in share["sets"].items())
        + ".",
        "",
    ]
    lines += report.get("notes", [])
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--models", default="qwen2.5-coder-1.5b")
    ap.add_argument("--per-set", type=int, default=40)
    ap.add_argument("--train", type=int, default=48)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--rescore",
        action="store_true",
        help="Recompute thresholds, figures and the docs section from the saved judgements.",
    )
    args = ap.parse_args(argv)
    previous = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}
    if args.rescore:
        for m in previous["models"].values():
            m["summary"] = summarise(m, *previous["train_counts"])
        RESULTS.write_text(json.dumps(previous, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        write_section(TITLE, docs(previous))
        return 0
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    scored = score_all(list(load_pairs(args.data, SETS)))
    dev = [s for s in scored if s.pair.split == "dev"]
    train_all = [s for s in scored if s.pair.split == "train"]
    scorer = get_scorer("trained")
    bands = {"scorer": Validator(scorer=scorer), "wide": Validator(scorer=scorer, judge_from=WIDE_FROM)}
    print(f"scored {len(scored)} pairs in {time.perf_counter() - t0:.0f} s", flush=True)
    pos = sum(s.y for s in train_all)
    neg = len(train_all) - pos
    wide_train = [s for s in train_all if bands["wide"].borderline(s.value, s.lang)]
    train = random.Random(args.seed).sample(wide_train, min(args.train, len(wide_train)))
    sample = dev_sample(dev, args.per_set, args.seed)

    def shares(items: list[Scored]) -> dict[str, float]:
        return {k: round(float(np.mean([b.borderline(s.value, s.lang) for s in items])), 4) for k, b in bands.items()}

    weights = resources.files("citewise.verify").joinpath("weights", DEFAULT_WEIGHTS)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    report: dict[str, Any] = {
        "per_set": args.per_set,
        "seed": args.seed,
        "n_dev_sample": len(sample),
        "n_train": len(train),
        "train_wide_band": len(wide_train),
        "train_counts": [pos, neg],
        "weights_sha256": hashlib.sha256(weights.read_bytes()).hexdigest(),
        "git": head.strip(),
        "thresholds": {lang: list(scorer.thresholds(lang)) for lang in ("en", "vi")},
        "share_judged_dev": {
            "n": len(dev),
            **shares(dev),
            "sets": {ds: shares([s for s in dev if s.pair.dataset == ds]) for ds in SETS},
        },
        "models": {},
    }
    same = ("weights_sha256", "per_set", "seed", "n_train")
    if all(previous.get(k) == report[k] for k in same):  # figures of another scorer or sample are not comparable
        report["models"] = dict(previous.get("models", {}))
        report["notes"] = previous.get("notes", [])
    for name in args.models.split(","):
        cache = {r["key"]: r for r in previous.get("models", {}).get(name, {}).get("judgements", []) if "key" in r}
        m = report["models"][name] = run_model(name, train, sample, bands, cache)
        m["summary"] = summarise(m, pos, neg)
        report["load"] = [load0, os.getloadavg()[0]]
        RESULTS.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(
            name,
            json.dumps(m["summary"]["rules"]),
            json.dumps(m["summary"]["all"]),
            json.dumps(m["summary"]["cost"]),
            flush=True,
        )
    write_section(TITLE, docs(report))
    print(f"done in {(time.perf_counter() - t0) / 60:.1f} min", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
