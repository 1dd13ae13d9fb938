"""Bad input files made on the fly (never stored in the repo): legacy encodings, a blank "scanned" PDF,
an encrypted PDF, a zip bomb, deeply nested HTML. Used by the tests and by bench/reliability.py."""

from __future__ import annotations

import unicodedata
import zipfile
from pathlib import Path


def encode(text: str, encoding: str) -> bytes:
    """Encode as a real file in that encoding would be; cp1258 writes tone marks as combining characters."""
    if encoding != "cp1258":
        return text.encode(encoding)
    out = bytearray()
    for ch in text:
        if ch.encode("cp1258", errors="replace") != b"?" or ch == "?":
            out += ch.encode("cp1258")
            continue
        nfd = unicodedata.normalize("NFD", ch)
        for split in range(len(nfd), 0, -1):
            head = unicodedata.normalize("NFC", nfd[:split])
            try:
                out += head.encode("cp1258") + nfd[split:].encode("cp1258")
                break
            except UnicodeEncodeError:
                continue
        else:
            raise UnicodeEncodeError("cp1258", ch, 0, 1, "not encodable")
    return bytes(out)


def blank_pdf(path: Path, pages: int = 2) -> Path:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument.new()
    for _ in range(pages):
        pdf.new_page(595, 842)
    pdf.save(str(path))
    pdf.close()
    return path


def encrypted_pdf(path: Path) -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_encryption(owner_password="owner", user_password="secret")
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(text="Confidential policy wording")
    pdf.output(str(path))
    return path


def zip_bomb(path: Path, mib: int = 200) -> Path:
    """A DOCX whose one part inflates to ``mib`` MiB of zeros (a few hundred KB on disk)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        with z.open("word/document.xml", "w") as fh:
            block = b"\0" * (1 << 20)
            for _ in range(mib):
                fh.write(block)
    return path


def deep_html(path: Path, depth: int = 100_000) -> Path:
    """An HTML page nested ``depth`` elements deep around one sentence."""
    path.write_text(
        "<html><body>" + "<div>" * depth + "The insured must notify us." + "</div>" * depth + "</body></html>"
    )
    return path


def huge_text(path: Path, mib: float) -> Path:
    """A sparse text file of ``mib`` MiB (no disk used): over a size limit without writing it."""
    with path.open("wb") as f:
        f.truncate(int(mib * 1024 * 1024))
    return path
