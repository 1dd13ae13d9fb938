"""No module binds a module-level name twice: a second regex or constant of the same name silently replaces the
first for every function of the module (a `_CLAUSE_END` added to answer/extractive.py for one rule once changed how
direct answers read their clause; ruff flags a redefined function or import, not a re-bound name)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import citewise

SRC = Path(citewise.__file__).parent


def _bound_twice(source: str) -> list[str]:
    names: Counter[str] = Counter()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] += 1
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] += 1
    return sorted(n for n, k in names.items() if k > 1)


def test_the_check_finds_a_name_bound_twice() -> None:
    assert _bound_twice("A = 1\ndef f():\n    return A\nA = 2\n") == ["A"]
    assert _bound_twice("A = 1\nB: int = 2\n") == []


def test_no_module_binds_a_module_level_name_twice() -> None:
    found = {
        str(p.relative_to(SRC)): twice
        for p in sorted(SRC.rglob("*.py"))
        if (twice := _bound_twice(p.read_text(encoding="utf-8")))
    }
    assert found == {}
