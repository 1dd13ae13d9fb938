"""Write calibrated values into the settings file (``citewise.toml``, read by ``Settings``): the
file is read, the given keys set, every section checked against its settings model, and the file
written back (comments are not kept)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from citewise.errors import UnknownName
from citewise.settings import Settings

SECTIONS: dict[str, type[BaseModel]] = {
    name: info.annotation
    for name, info in Settings.model_fields.items()
    if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel)
}


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str | Path):
        return json.dumps(str(v), ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() else json.dumps(k)


def dumps(data: dict[str, Any]) -> str:
    """TOML for a settings dict: top-level scalars, then one table per section (nested sections,
    like ``answer.llm``, as their own tables)."""
    lines: list[str] = []
    tables: list[tuple[str, dict[str, Any]]] = []
    for k, v in data.items():
        if isinstance(v, dict) and k in SECTIONS:
            tables.append((k, v))
        elif v is not None:
            lines.append(f"{_key(k)} = {_value(v)}")

    def table(name: str, body: dict[str, Any]) -> None:
        sub = [(k, v) for k, v in body.items() if isinstance(v, dict) and _is_section(name, k)]
        lines.append("")
        lines.append(f"[{name}]")
        for k, v in body.items():
            if v is not None and not (isinstance(v, dict) and _is_section(name, k)):
                lines.append(f"{_key(k)} = {_value(v)}")
        for k, v in sub:
            table(f"{name}.{k}", v)

    for name, body in tables:
        table(name, body)
    return "\n".join(lines).lstrip("\n") + "\n"


def _is_section(path: str, key: str) -> bool:
    model: Any = SECTIONS.get(path.split(".")[0])
    for part in path.split(".")[1:]:
        model = model.model_fields[part].annotation if model is not None and part in model.model_fields else None
    if model is None or key not in model.model_fields:
        return False
    ann = model.model_fields[key].annotation
    return isinstance(ann, type) and issubclass(ann, BaseModel)


def update_settings_file(path: Path, updates: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Set ``updates`` (section -> key -> value; dict values merged key by key) in the TOML file
    at ``path`` (created when absent); returns the new content as a dict."""
    data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for section, values in updates.items():
        if section not in SECTIONS:
            raise UnknownName("settings section", section, sorted(SECTIONS))
        body = data.setdefault(section, {})
        for k, v in values.items():
            if isinstance(v, dict) and isinstance(body.get(k), dict):
                body[k] = {**body[k], **v}
            else:
                body[k] = v
        SECTIONS[section].model_validate(body)  # fails before anything is written
    path.write_text(dumps(data), encoding="utf-8")
    return data
