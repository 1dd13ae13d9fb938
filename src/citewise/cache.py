"""Where assembled models are kept: inside the virtual environment, or ``$CITEWISE_MODEL_CACHE``."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def model_cache() -> Path:
    env = os.environ.get("CITEWISE_MODEL_CACHE")
    return Path(env) if env else Path(sys.prefix) / "share" / "citewise" / "models"
