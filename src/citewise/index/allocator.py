"""The C allocator, tuned once for the numpy encoder (``e5.Encoder``): freed memory is kept for the next call.

A forward pass allocates and frees arrays of a few MB at every step (a pair of 160 tokens: 3 × 160 × 1536 floats
for the feed-forward alone). glibc serves such blocks from the heap while its mmap threshold adapts upwards, but
once anything in the process sets a threshold the adaptation stops; then every such array is a fresh ``mmap``,
zero-filled by the kernel page by page, and the heap's top is handed back to the kernel after each call. Measured
(2026-11-26, session 15, 2 cores): the pair classifier read 3 ObliQA sentences in 163 ms on its own and in 250 ms
once the engine had answered one question, 108–153 ms with the thresholds below; extractive answers on the ObliQA
subset took p50 377–452 ms before, 289–320 ms after, and `bench/answers.py` p50 327 -> 218 ms (docs/benchmarks.md,
"Answers notes"). The price is resident memory: up to ``TRIM_THRESHOLD`` of freed heap stays with the process."""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import cache

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameters (malloc.h)."""
MMAP_THRESHOLD = 32 * 2**20
"""Blocks below this come from the heap (glibc's largest allowed value on 64-bit)."""
TRIM_THRESHOLD = 256 * 2**20
"""Free memory at the heap's top beyond this goes back to the kernel."""


@cache
def keep_freed_memory() -> bool:
    """Set both thresholds (setting one alone turns off glibc's adaptation of the other, which is slower still).
    True when glibc took them; False elsewhere (another C library or platform: nothing is changed)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
        libc.gnu_get_libc_version  # noqa: B018 - glibc only (musl's mallopt ignores these)
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
