"""The allocator tuning the numpy encoder relies on: freed blocks are reused, not handed back and faulted in again."""

from __future__ import annotations

import subprocess
import sys

import pytest

from citewise.index.allocator import keep_freed_memory

# A forward-pass-sized loop (3 × 160 tokens × 1,536 floats per step), counted in minor page faults after warm-up.
# "someone" stands for any library that sets a glibc threshold, which stops glibc from adapting its own.
LOOP = """
import ctypes, resource, sys
import numpy as np
from citewise.index.allocator import keep_freed_memory
ctypes.CDLL("libc.so.6").mallopt(-1, 128 * 1024)  # someone sets the trim threshold
if sys.argv[1] == "tuned":
    assert keep_freed_memory()
x, w = np.ones((480, 384), np.float32), np.ones((384, 1536), np.float32)
for _ in range(3):
    y = np.tanh(x @ w); del y
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    y = np.tanh(x @ w); del y
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def faults(mode: str) -> int:
    out = subprocess.run([sys.executable, "-c", LOOP, mode], capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


@pytest.mark.skipif(not keep_freed_memory(), reason="not glibc: the allocator is left as it is")
def test_freed_arrays_are_reused_instead_of_faulted_in_again() -> None:
    untuned, tuned = faults("untuned"), faults("tuned")
    assert untuned > 5_000, untuned  # each step's arrays come back as fresh zero-filled pages
    assert tuned < 500, tuned
