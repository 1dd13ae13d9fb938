"""The threshold sweep of the answers benchmark: the run replayed at every grid point with the one
replay rule of ``evaluate.calibrate``, the best answer rate at a refusal target, the two-fold check."""

from __future__ import annotations

from citewise.evaluate.calibrate import best_answer_rate, sweep, two_fold
from citewise.evaluate.records import QuestionResult

from .conftest import result


def _runs() -> list[QuestionResult]:
    return [
        # answered in the run, strong evidence
        result("a1", best_dense=0.90, best_coverage=0.2),
        # refused in the run for weak evidence (0.80 < 0.82): answered at a looser dense limit
        result("a2", best_dense=0.80, best_coverage=0.2, refused=True, weak=True, reason="no answer in the sources"),
        # refused because no sentence was supported: stays refused whatever the thresholds
        result("a3", best_dense=0.95, best_coverage=0.9, refused=True, reason="no sentence could be supported"),
        # probes: weak below 0.85, and one with strong evidence that the generator refused anyway
        result("p1", answerable=False, best_dense=0.84, best_coverage=0.1, refused=True, weak=True),
        result("p2", answerable=False, best_dense=0.92, best_coverage=0.1, refused=True, reason="no sentence"),
    ]


def test_sweep_replays_every_grid_point() -> None:
    out = sweep(_runs(), (0.78, 0.82, 0.86), (0.5,))
    assert [(o.candidate.weak_dense, o.answered, o.refused_probes) for o in out] == [
        (0.78, 2, 1),  # a1 and a2 answered (a2 no longer weak), a3 refused; p1 answered, p2 refused
        (0.82, 1, 1),  # a2 weak again; p1 (0.84) still not weak
        (0.86, 1, 2),  # p1 weak too
    ]
    assert [round(o.answer_rate, 3) for o in out] == [0.667, 0.333, 0.333]
    assert [o.refusal_correctness for o in out] == [0.5, 0.5, 1.0]


def test_best_answer_rate_at_a_refusal_target() -> None:
    out = sweep(_runs(), (0.78, 0.82, 0.86), (0.5,))
    assert best_answer_rate(out, 1.0) is out[2]
    assert best_answer_rate(out, 0.5) is out[0]
    assert best_answer_rate(out[:2], 1.0) is None


def test_two_fold_picks_on_one_half_and_measures_on_the_other() -> None:
    folds = two_fold(_runs(), (0.78, 0.82, 0.86), (0.5,), 1.0)
    assert [f["calibrated_on"] for f in folds] == [3, 2]  # a1 a3 p1 / a2 p2
    # fold 0: refusing p1 takes 0.86; on a2 p2, a2 is then weak and p2 refused
    assert folds[0]["picked"]["weak_dense"] == 0.86 and folds[0]["picked"]["answer_rate"] == 0.5
    assert (folds[0]["held_out"]["answer_rate"], folds[0]["held_out"]["refusal_correctness"]) == (0.0, 1.0)
    # fold 1: p2 is refused at every point, so the loosest answers a2; on a1 a3 p1 it lets p1 through
    assert folds[1]["picked"]["weak_dense"] == 0.78
    assert (folds[1]["held_out"]["answer_rate"], folds[1]["held_out"]["refusal_correctness"]) == (0.5, 0.0)
    assert two_fold(_runs()[:3], (0.8,), (0.5,), 1.0)[0]["picked"] is None  # no probes: nothing reaches it


def test_the_level_unrelated_questions_reached_is_not_replayed() -> None:
    """The limits a calibration writes are floors for any index: a probe the run refused only because its index's
    unrelated level (0.86) was above the floor counts as answered at a floor of 0.82, as any question refused for weak
    evidence that a candidate lets through does."""
    probe = result("p3", answerable=False, best_dense=0.84, best_coverage=0.1, refused=True, weak=True)
    probe.unrelated = 0.86
    out = sweep([*_runs(), probe], (0.82, 0.86), (0.5,))
    assert [o.refused_probes for o in out] == [1, 3]  # p3 refused at 0.86 only, like p1
