"""Zip packages (DOCX and any zip-based format) checked before a parser opens them: the declared and the
actual inflated size of every member, and its compression ratio, are bounded, so a small file that
inflates to hundreds of megabytes (a zip bomb) is refused with memory flat."""

from __future__ import annotations

import zipfile
from pathlib import Path

from citewise.errors import CorruptFile, TooLarge

MAX_RATIO = 200.0
"""Largest inflated/compressed ratio of a member over 1 MB (text XML compresses about 5–20 times)."""
MAX_MEMBERS = 10_000
_CHUNK = 1 << 16


def check_zip(path: Path, max_unpacked: int, max_ratio: float = MAX_RATIO) -> None:
    """Raise ``TooLarge`` or ``CorruptFile`` unless every member of the package inflates to a sane size.
    Sizes are checked as declared, then by inflating each member in 64 KB steps (nothing is kept)."""
    try:
        with zipfile.ZipFile(path) as z:
            members = z.infolist()
            if len(members) > MAX_MEMBERS:
                raise CorruptFile(f"zip package with {len(members)} members (limit {MAX_MEMBERS})")
            declared = sum(m.file_size for m in members)
            if declared > max_unpacked:
                raise TooLarge(f"unpacks to {declared / 1048576:.0f} MB (limit {max_unpacked / 1048576:g} MB)")
            total = 0
            for m in members:
                _check_ratio(m.filename, m.file_size, m.compress_size, max_ratio)
                inflated = 0
                with z.open(m) as fh:
                    while block := fh.read(_CHUNK):
                        inflated += len(block)
                        total += len(block)
                        if inflated > m.file_size or total > max_unpacked:
                            raise TooLarge(
                                f"member {m.filename} inflates beyond its declared size or the limit of "
                                f"{max_unpacked / 1048576:g} MB"
                            )
                _check_ratio(m.filename, inflated, m.compress_size, max_ratio)
    except zipfile.BadZipFile as e:
        raise CorruptFile(f"damaged zip package ({e})") from e
    except (RuntimeError, NotImplementedError) as e:  # encrypted members, unknown compression
        raise CorruptFile(f"unreadable zip package ({e})") from e


def _check_ratio(name: str, inflated: int, compressed: int, max_ratio: float) -> None:
    if inflated > 1 << 20 and inflated / max(1, compressed) > max_ratio:
        raise CorruptFile(
            f"member {name} inflates {inflated / max(1, compressed):.0f} times (limit {max_ratio:g}): "
            "refused as a zip bomb"
        )
