"""PDF backend on pypdfium2 (PDFium): fast text extraction; no table detection."""

from __future__ import annotations

from pathlib import Path

from citewise.ingest.base import PageCallback, Parser
from citewise.ingest.pdf_common import PageItems, assemble, pdf_errors
from citewise.types import Layout


class Pypdfium2Parser(Parser):
    name = "pypdfium2"
    fmt = "pdf"
    extensions = (".pdf",)

    def parse(self, path: Path, on_page: PageCallback | None = None) -> Layout:
        import pypdfium2 as pdfium

        pages: list[PageItems] = []
        with pdf_errors(self.name):
            pdf = pdfium.PdfDocument(str(path))
            try:
                total = len(pdf)
                for i in range(total):
                    page = pdf[i]
                    textpage = page.get_textpage()
                    text = textpage.get_text_bounded()
                    textpage.close()
                    page.close()
                    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
                    pages.append(PageItems(i + 1, [("line", x) for x in lines if x.strip()]))
                    if on_page:
                        on_page(i + 1, total)
            finally:
                pdf.close()
        return assemble(pages)
