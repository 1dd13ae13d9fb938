"""Paths, sizes and stage names of the ingest benchmark (``--quick`` cuts the sizes)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from citewise.evaluate.data import shared_data

JSON = dict[str, Any]
T = TypeVar("T")

REPO = Path(__file__).resolve().parents[1]
DATA = shared_data()
PHAPDIEN_MD = DATA / "vn_insurance_law_phapdien" / "kinh-doanh-bao-hiem.md"
PHAPDIEN_ARTICLES = DATA / "vn_insurance_law_phapdien" / "phapdien_kinh_doanh_bao_hiem_articles.jsonl"
GDPR_UNITS = DATA / "gdpr_en" / "gdpr_en_units.jsonl"
OBLIQA_DIR = DATA / "obliqa" / "StructuredRegulatoryDocuments"
ALQAC_LAW = DATA / "alqac2022" / "law.json"
SAMPLES = REPO / "src" / "citewise" / "samples" / "corpus"
GDPR_HELPER = REPO / "tests" / "helpers" / "gdpr.py"
SAMPLE_SCRIPT = REPO / "scripts" / "make_sample_corpus.py"
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
FONT_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
RESULTS = REPO / "bench" / "results" / "ingest.json"
RESULTS_QUICK = REPO / "bench" / "results" / "ingest-quick.json"
DOCS = REPO / "docs" / "benchmarks.md"

CORPORA = ["phapdien", "gdpr_html", "obliqa", "alqac2022", "samples"]
STAGES = [*(f"corpus:{c}" for c in CORPORA), "pdf", "embed", "e2e_embedder", "e2e_no_embedder"]
BACKENDS: tuple[Literal["pdfplumber", "pypdfium2"], ...] = ("pdfplumber", "pypdfium2")
SAMPLE_PDFS = {"home-insurance-policy-en.pdf": "home_policy_en", "quy-tac-bao-hiem-nha-o-vi.pdf": "home_rules_vi"}


@dataclass(frozen=True)
class Plan:
    """Sizes of one run; ``--quick`` cuts them."""

    quick: bool
    repeats: int
    """Timed runs of each parse/chunk measurement on the real corpora (the median is reported)."""
    small_repeats: int
    """Timed runs for the small sample files and the PDFs."""
    model_token_sample: int
    """Chunks per corpus whose real e5 token count is measured (estimator check)."""
    gdpr_pdf_recitals: int | None
    gdpr_pdf_articles: int | None
    embed_sample: int
    e2e_embed_files: list[str] | None
    """Sample-corpus file names for the end-to-end run with the embedder (None: the whole folder)."""
    e2e_obliqa_files: int

    @staticmethod
    def make(quick: bool) -> Plan:
        if quick:
            return Plan(True, 1, 1, 300, 12, 6, 8, ["quy-dinh-bao-ve-du-lieu-vi.html"], 3)
        return Plan(False, 3, 3, 2000, None, None, 200, None, 40)
