"""The CLI end to end: ingest, ls, show, rm with --json and human output, index from env."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citewise.cli import app

runner = CliRunner()
NO_EMBED = {"CITEWISE_STORE__EMBEDDER": "none"}


def run(*args: str, env: dict[str, str] | None = None) -> str:
    result = runner.invoke(app, list(args), env={**NO_EMBED, **(env or {})})
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout


def test_ingest_ls_show_rm(tmp_path: Path, samples: Path) -> None:
    index = str(tmp_path / "ix")
    out = json.loads(run("ingest", "--index", index, "--json", str(samples)))
    assert len(out["added"]) == 7 and out["errors"] == [] and out["chunks"] > 50
    docs = json.loads(run("ls", "--index", index, "--json"))
    by_number = {d["number"]: d for d in docs}
    home = by_number["125/2024/QĐ-SH"]
    assert (
        home["doc_type"] == "Quy tắc" and home["lang"] == "vi" and home["provisions"] == 16 and home["status"] == "ok"
    )
    node = json.loads(run("show", "--index", index, "--json", "125/2024/QĐ-SH", "khoản 2 điều 9"))
    assert node["label"] == "khoản 2 Điều 9" and node["path"] == ["Chương III", "Điều 9", "khoản 2 Điều 9"]
    assert node["text"].startswith("2.") and "14 ngày" in node["text"]
    assert node["page_start"] >= 1
    human = run("show", "--index", index, "Harbourview", "Section 4.2")
    assert "Section 4 › Section 4.2" in human and "30 days" in human
    tree = run("show", "--index", index, "Regulation (FR) 2024/17")
    assert "Chapter II" in tree and "Article 7" in tree and "Recital 3" in tree
    missing = runner.invoke(app, ["show", "--index", index, "Harbourview", "Section 9.9"], env=NO_EMBED)
    assert missing.exit_code == 1 and "no provision 'Section 9.9'" in missing.stderr
    removed = json.loads(run("rm", "--index", index, "--json", home["doc_id"]))
    assert removed["removed"] == home["doc_id"]
    assert home["doc_id"] not in {d["doc_id"] for d in json.loads(run("ls", "--index", index, "--json"))}


def test_index_directory_from_environment(tmp_path: Path, samples: Path) -> None:
    index = tmp_path / "from-env"
    run("ingest", str(samples / "quy-tac-bao-hiem-du-lich-vi.md"), env={"CITEWISE_INDEX": str(index)})
    assert (index / "citewise.sqlite").exists()
    docs = json.loads(run("ls", "--json", env={"CITEWISE_INDEX": str(index)}))
    assert [d["number"] for d in docs] == ["88/2024/QĐ-SH"]


def test_settings_from_toml_env_and_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from citewise.settings import load_settings

    monkeypatch.chdir(tmp_path)
    (tmp_path / "citewise.toml").write_text('index = "toml-index"\n[chunk]\nmax_tokens = 300\n', encoding="utf-8")
    s = load_settings()
    assert s.index == Path("toml-index") and s.chunk.max_tokens == 300
    monkeypatch.setenv("CITEWISE_CHUNK__MAX_TOKENS", "350")
    assert load_settings().chunk.max_tokens == 350
    assert load_settings(index=Path("flag")).index == Path("flag")
    with pytest.raises(ValueError, match="extra"):
        load_settings(chunk={"max_tokenz": 1})


def test_every_command_has_help() -> None:
    for command in ("ingest", "ls", "show", "rm"):
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0 and "--json" in result.stdout and "--index" in result.stdout
