"""Bytes to text for plain-text formats: UTF-8/16 with or without BOM, Windows code pages
(cp1258 Vietnamese, cp1252), or a clear refusal for binary data."""

from __future__ import annotations

import codecs

from citewise.errors import EncodingError
from citewise.lang import nfc

_VI_LETTERS = set("ăâđêôơưĂÂĐÊÔƠƯ")


def _looks_binary(data: bytes) -> bool:
    sample = data[:8192]
    if not sample:
        return False
    if b"\x00" in sample:
        return True
    ctrl = sum(1 for b in sample if b < 9 or 13 < b < 32)
    return ctrl / len(sample) > 0.05


def decode_text(data: bytes) -> tuple[str, str]:
    """(text, encoding name). Raises ``EncodingError`` with the reason when it cannot."""
    for bom, enc in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if data.startswith(bom):
            try:
                return nfc(data.decode(enc)), enc
            except UnicodeDecodeError as e:
                raise EncodingError(f"declares {enc} by its byte-order mark but does not decode ({e.reason})") from e
    utf16 = _utf16_without_bom(data)
    if utf16 is not None:
        return nfc(utf16[0]), utf16[1]
    if _looks_binary(data):
        raise EncodingError("binary content, not text (NUL or control bytes)")
    try:
        return nfc(data.decode("utf-8")), "utf-8"
    except UnicodeDecodeError:
        pass
    return _legacy(data)


def _utf16_without_bom(data: bytes) -> tuple[str, str] | None:
    sample = data[:4096]
    if len(sample) < 4:
        return None
    even_nul = sample[0::2].count(0) / max(1, len(sample[0::2]))
    odd_nul = sample[1::2].count(0) / max(1, len(sample[1::2]))
    enc = "utf-16-le" if odd_nul > 0.3 > even_nul else "utf-16-be" if even_nul > 0.3 > odd_nul else None
    if enc is None:
        return None
    try:
        return data.decode(enc), enc
    except UnicodeDecodeError:
        return None


def _legacy(data: bytes) -> tuple[str, str]:
    """Choose between Vietnamese cp1258 and Western cp1252 by what the text becomes."""
    try:
        vi = data.decode("cp1258")
    except UnicodeDecodeError:
        vi = ""
    vi_n = nfc(vi)
    vi_score = sum(1 for c in vi_n if c in _VI_LETTERS) + sum(1 for c in vi_n if "\u1ea0" <= c <= "\u1ef9")
    if vi and vi_score >= max(3, len(vi_n) // 400):
        return vi_n, "cp1258"
    try:
        return nfc(data.decode("cp1252")), "cp1252"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data[:1_000_000]).best()
    if best is None or best.encoding is None:
        raise EncodingError("unknown text encoding (not UTF-8/16, cp1258 or cp1252)")
    return nfc(data.decode(best.encoding, errors="strict")), best.encoding
