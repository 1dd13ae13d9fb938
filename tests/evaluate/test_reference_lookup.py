"""The reference-lookup set: ≥ 100 questions (EN + VI) naming a provision in the ways people
write it; every one must resolve to exactly the named provision, and retrieval must put it first."""

from __future__ import annotations

import pytest

from citewise.evaluate.reference_lookup import build_cases, run
from citewise.index.corpus import Corpus
from citewise.index.embedded import EmbeddedStore
from citewise.retrieve.hybrid import Retriever
from citewise.settings import Settings
from tests.conftest import SAMPLES, shared
from tests.helpers.gdpr import gdpr_html


@pytest.fixture(scope="module")
def lookup_store(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedStore:
    folder = tmp_path_factory.mktemp("lookup")
    html = folder / "gdpr.html"
    html.write_text(gdpr_html(shared("gdpr_en/gdpr_en_units.jsonl")), encoding="utf-8")
    paths = [
        SAMPLES,
        shared("vn_insurance_law_phapdien/kinh-doanh-bao-hiem.md"),
        html,
        shared("eu_ai_act/eu_ai_act_en_units.jsonl"),
    ]
    store = EmbeddedStore(folder / "index", model="none")
    report = Corpus(store, None, Settings(index=folder / "index")).ingest(paths)
    assert not report.errors
    return store


def test_every_reference_resolves_to_the_named_provision(lookup_store: EmbeddedStore) -> None:
    cases = build_cases(lookup_store)
    assert len(cases) >= 100
    assert sum(c.lang == "vi" for c in cases) >= 40 and sum(c.lang == "en" for c in cases) >= 20
    failures = [(o.case.question, o.case.label, o.resolved) for o in run(lookup_store, cases) if not o.exact]
    assert failures == []


def test_retrieval_puts_the_named_provision_first(lookup_store: EmbeddedStore) -> None:
    retriever = Retriever(lookup_store, None)
    for case in build_cases(lookup_store)[::5]:
        result = retriever.search(case.question, k=3)
        top = result.evidence[0]
        node = next(n for n in lookup_store.nodes(case.doc_id) if n.key == case.key)
        assert top.pinned and top.chunk.doc_id == case.doc_id, case.question
        assert (top.char_start <= node.char_start and node.char_end <= top.char_end) or (
            top.char_start < node.char_end and node.char_start < top.char_end
        ), case.question
        assert any("pinned" in r for r in top.reasons)
