"""The same rules ingested twice (the sample corpus holds the travel rules as .docx and as Markdown): a
provision found in both is given once, and the evidence kept says where else its text is."""

from __future__ import annotations

from pathlib import Path

import citewise
from citewise.index.embedder import Embedder


def test_a_provision_ingested_twice_is_evidence_once(module_index: Path, embedder: Embedder) -> None:
    with citewise.open(index=module_index, embedder=embedder) as cw:
        docs = [d for d in cw.documents() if "du lịch" in d.title.lower()]
        assert len(docs) == 2  # the premise: the .docx and the .md hold the same rules
        result = cw.search("Bảo hiểm du lịch có chi trả khi hủy chuyến đi không?", k=6)
        texts = [" ".join(e.text.split()).casefold() for e in result.evidence]
        assert len(texts) == len(set(texts))
        first = result.evidence[0]
        assert first.chunk.label == "Điều 6"
        assert any(r.startswith("same text also in:") and "Điều 6" in r for r in first.reasons)
        assert len(result.evidence) == 6  # the repeats leave room for other provisions
