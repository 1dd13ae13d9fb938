"""`make demo`'s judge step (Makefile, `demo-judge`): it trains the answerability judge only when its files are
missing and the training data is there, and otherwise says in one line why not and lets the demo go on.

The real `make` runs the real target; the build branch itself (`make judge-weights`, about an hour) is not run here:
every case points `PAIR_WEIGHTS` at a temporary file and, where the build would start, the data at an empty folder."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def demo_judge(tmp_path: Path, *args: str, data: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    env["CITEWISE_SHARED_DATA"] = str(data or tmp_path / "no-data")
    weights = tmp_path / "weights" / "pair-judge.json"
    cmd = ["make", "-s", "--no-print-directory", "demo-judge", f"PAIR_WEIGHTS={weights}", *args]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_installed_weights_are_kept(tmp_path: Path) -> None:
    (tmp_path / "weights").mkdir()
    (tmp_path / "weights" / "pair-judge.json").write_text("{}")
    got = demo_judge(tmp_path)
    assert got.returncode == 0, got.stderr
    assert "answerability judge: installed" in got.stdout
    assert "building" not in got.stdout


def test_judge_none_skips_the_build(tmp_path: Path) -> None:
    got = demo_judge(tmp_path, "JUDGE=none")
    assert got.returncode == 0, got.stderr
    assert "answerability judge: skipped (JUDGE=none)" in got.stdout


def test_missing_training_data_is_one_line_and_not_an_error(tmp_path: Path) -> None:
    data = tmp_path / "partial-data"
    for name in ("squad2", "wice"):
        (data / name).mkdir(parents=True)
    got = demo_judge(tmp_path, data=data)
    assert got.returncode == 0, got.stderr
    lines = [line for line in got.stdout.splitlines() if line.startswith("answerability judge:")]
    assert len(lines) == 1
    assert "not built, training data missing" in lines[0]
    assert str(data) in lines[0]
    assert " vi_answerability" in lines[0] and " obliqa" in lines[0]
    assert " squad2" not in lines[0] and " wice" not in lines[0]
