"""Pick the weak-evidence thresholds (per language) and the support threshold that reach a target
refusal precision on a question set, from one run of it (no re-running per candidate).

A run records, per question, what the weak-evidence rule looks at (best cosine and coverage of the
top three found items, pins) and the support of every shown sentence, so each candidate is
replayed in code:

- weak at (dense, coverage) exactly as ``Retriever`` decides it: never when a provision is pinned;
  with a cosine, weak when cosine < dense and coverage < coverage; without one, when
  coverage < coverage. Weak means a zero-token refusal.
- a question refused during the run for weak evidence that is not weak at the candidate counts as
  answered (its citations unknown): the extractive generator answers most relevant evidence (what it
  cannot state ends in "no direct answer", which this replay cannot foresee);
- a question not answered during the run (refused, or no direct answer) stays unanswered;
- a support threshold above the run's drops the shown sentences under it, and the answer is
  refused when none is left (one below the run's cannot be replayed: the dropped drafts are gone).

Choice: among candidates whose refusal precision (refused probes / refusals) reaches the target,
the one refusing the most probes, then answering the most answerable questions, then nearest to
the thresholds in force."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from citewise.evaluate.records import EvalRun, QuestionResult
from citewise.retrieve.records import Strength

DENSE_GRID = tuple(round(0.70 + 0.01 * i, 2) for i in range(26))
COVERAGE_GRID = (*tuple(round(0.3 + 0.05 * i, 2) for i in range(15)), 1.01)
SUPPORT_GRID = tuple(round(0.5 + 0.01 * i, 2) for i in range(50))


@dataclass(frozen=True)
class Candidate:
    weak_dense: float
    weak_coverage: float
    support: float | None = None
    """None: the support thresholds of the run."""


@dataclass
class Outcome:
    candidate: Candidate
    answerable: int
    probes: int
    answered: int
    refused_probes: int
    refused_answerable: int

    @property
    def answer_rate(self) -> float:
        return self.answered / self.answerable if self.answerable else 0.0

    @property
    def refusal_correctness(self) -> float:
        return self.refused_probes / self.probes if self.probes else 0.0

    @property
    def refusal_precision(self) -> float:
        refused = self.refused_probes + self.refused_answerable
        return self.refused_probes / refused if refused else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "weak_dense": self.candidate.weak_dense,
            "weak_coverage": self.candidate.weak_coverage,
            "support_threshold": self.candidate.support,
            "answer_rate": round(self.answer_rate, 4),
            "refusal_correctness": round(self.refusal_correctness, 4),
            "refusal_precision": round(self.refusal_precision, 4),
        }


def weak(r: QuestionResult, dense: float, cov: float) -> bool:
    """The retriever's weak-evidence rule on the recorded evidence strength of a question, at the candidate limits as
    they are: the limits written are floors for any index, so the level unrelated questions reached in this one
    (``QuestionResult.unrelated``) is not applied (a question it refused that a candidate lets through counts as
    answered, ``refused``)."""
    return Strength(r.best_dense, r.best_coverage, r.pinned, r.searched).is_weak(dense, cov)


def refused(r: QuestionResult, c: Candidate) -> bool:
    if weak(r, c.weak_dense, c.weak_coverage):
        return True
    if r.weak:
        return False  # weak during the run, not at the candidate: answered
    if not r.answered:
        return True
    if c.support is not None:
        return not any(s.support >= c.support for s in r.sentences)
    return False


def replay(results: list[QuestionResult], c: Candidate) -> Outcome:
    answerable = [r for r in results if r.answerable]
    probes = [r for r in results if not r.answerable]
    refused_a = sum(refused(r, c) for r in answerable)
    return Outcome(
        c, len(answerable), len(probes), len(answerable) - refused_a, sum(refused(r, c) for r in probes), refused_a
    )


def _best(outcomes: list[Outcome], target: float, current: Candidate) -> Outcome | None:
    ok = [o for o in outcomes if o.refused_probes + o.refused_answerable > 0 and o.refusal_precision >= target]
    if not ok:
        return None

    def distance(o: Outcome) -> float:
        c = o.candidate
        extra = 0.0 if c.support is None or current.support is None else abs(c.support - current.support)
        return abs(c.weak_dense - current.weak_dense) + abs(c.weak_coverage - current.weak_coverage) + extra

    return max(ok, key=lambda o: (o.refused_probes, o.answered, -distance(o)))


@dataclass
class Calibration:
    target: float
    weak_dense: dict[str, float] = field(default_factory=dict)
    weak_coverage: dict[str, float] = field(default_factory=dict)
    support_threshold: float | None = None
    per_lang: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per language: the thresholds in force and their outcome, the picked ones and theirs."""
    support: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "target_refusal_precision": self.target,
            "weak_dense": self.weak_dense,
            "weak_coverage": self.weak_coverage,
            "support_threshold": self.support_threshold,
            "per_lang": self.per_lang,
            "support": self.support,
            "notes": self.notes,
        }

    def settings_update(self) -> dict[str, dict[str, Any]]:
        """The sections and keys to write to the settings file."""
        out: dict[str, dict[str, Any]] = {}
        if self.weak_dense:
            out["retrieve"] = {"weak_dense": self.weak_dense, "weak_coverage": self.weak_coverage}
        if self.support_threshold is not None:
            out["answer"] = {"support_threshold": self.support_threshold}
        return out


def calibrate(run: EvalRun, target: float = 0.9) -> Calibration:
    """Weak-evidence thresholds per language, then one support threshold on the whole set."""
    th = run.meta["thresholds"]
    cal = Calibration(target)
    picked: dict[str, Candidate] = {}
    for lang in sorted({r.lang for r in run.results}):
        rows = [r for r in run.results if r.lang == lang]
        current = Candidate(th["weak_dense"].get(lang, 0.8), th["weak_coverage"].get(lang, 0.5))
        now = replay(rows, current)
        if not now.probes:
            cal.notes.append(f"{lang}: no probes; thresholds left as they are")
            continue
        best = _best([replay(rows, Candidate(d, c)) for d in DENSE_GRID for c in COVERAGE_GRID], target, current)
        cal.per_lang[lang] = {"current": now.to_dict(), "picked": best.to_dict() if best else None}
        if best is None:
            cal.notes.append(f"{lang}: no weak thresholds reach refusal precision {target}")
            continue
        picked[lang] = best.candidate
    if picked:  # whole dicts: a settings file replaces the default dict, other languages kept
        cal.weak_dense = {**th["weak_dense"], **{k: c.weak_dense for k, c in picked.items()}}
        cal.weak_coverage = {**th["weak_coverage"], **{k: c.weak_coverage for k, c in picked.items()}}
    run_support = min(th["support"].values()) if th.get("support") else 0.0
    grid = [s for s in SUPPORT_GRID if s > run_support]
    if picked or grid:

        def replay_all(s: float | None) -> Outcome:
            total = Outcome(Candidate(0, 0, s), 0, 0, 0, 0, 0)
            for lang in sorted({r.lang for r in run.results}):
                rows = [r for r in run.results if r.lang == lang]
                base = picked.get(lang) or Candidate(
                    th["weak_dense"].get(lang, 0.8), th["weak_coverage"].get(lang, 0.5)
                )
                o = replay(rows, Candidate(base.weak_dense, base.weak_coverage, s))
                total.answerable += o.answerable
                total.probes += o.probes
                total.answered += o.answered
                total.refused_probes += o.refused_probes
                total.refused_answerable += o.refused_answerable
            return total

        outcomes = [replay_all(None)] + [replay_all(s) for s in grid]
        best_s = _best(outcomes, target, Candidate(0, 0, None))
        if best_s is not None and best_s.refused_probes > outcomes[0].refused_probes:
            cal.support_threshold = best_s.candidate.support
        cal.support = {
            "run_threshold": run_support,
            "current": _support_view(outcomes[0]),
            "picked": _support_view(best_s) if best_s else None,
        }
    return cal


def _support_view(o: Outcome) -> dict[str, Any]:
    return {k: v for k, v in o.to_dict().items() if not k.startswith("weak_")}


def sweep(results: list[QuestionResult], dense_grid: Sequence[float], coverage_grid: Sequence[float]) -> list[Outcome]:
    """Every (dense, coverage) pair of the grids replayed on the run, in grid order."""
    return [replay(results, Candidate(d, c)) for d in dense_grid for c in coverage_grid]


def best_answer_rate(outcomes: Sequence[Outcome], min_refusal_correctness: float) -> Outcome | None:
    """The candidate answering the most answerable questions among those refusing at least
    ``min_refusal_correctness`` of the probes (the first in grid order on a tie); None when none does."""
    ok = [o for o in outcomes if o.refusal_correctness >= min_refusal_correctness]
    return max(ok, key=lambda o: o.answer_rate) if ok else None


def two_fold(
    results: list[QuestionResult],
    dense_grid: Sequence[float],
    coverage_grid: Sequence[float],
    min_refusal_correctness: float,
) -> list[dict[str, Any]]:
    """A held-out check of ``best_answer_rate``: thresholds picked on one half of the questions (every
    other answerable question and probe), replayed on the other half, both ways."""
    answerable = [r for r in results if r.answerable]
    probes = [r for r in results if not r.answerable]
    halves = [answerable[0::2] + probes[0::2], answerable[1::2] + probes[1::2]]
    out: list[dict[str, Any]] = []
    for i in (0, 1):
        picked = best_answer_rate(sweep(halves[i], dense_grid, coverage_grid), min_refusal_correctness)
        entry: dict[str, Any] = {"fold": i, "calibrated_on": len(halves[i]), "picked": None}
        if picked is not None:
            entry["picked"] = picked.to_dict()
            entry["held_out"] = replay(halves[1 - i], picked.candidate).to_dict()
        out.append(entry)
    return out
