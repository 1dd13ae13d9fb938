"""Bad input: each file gets one clear line "file: reason"; a batch goes on; nothing half-indexed."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from citewise.errors import CorruptFile, EmptyDocument, EncodingError, IngestError, TooLarge, UnsupportedFormat
from citewise.index.corpus import Corpus
from citewise.index.embedded import EmbeddedStore
from citewise.ingest.decode import decode_text
from citewise.ingest.loader import load_document
from citewise.settings import IngestSettings, Settings
from tests.helpers.badfiles import blank_pdf, encode, encrypted_pdf

VI = "Điều 1. Phạm vi điều chỉnh\n1. Quy tắc này quy định về bảo hiểm nhà ở tư nhân.\n2. Người được bảo hiểm phải thông báo trong 14 ngày."


@pytest.fixture()
def bad_folder(tmp_path: Path, samples: Path) -> Path:
    folder = tmp_path / "batch"
    folder.mkdir()
    shutil.copy(samples / "quy-tac-bao-hiem-du-lich-vi.md", folder / "good.md")
    (folder / "corrupt.pdf").write_bytes(b"%PDF-1.7\n this is not really a pdf \x00\x01\x02")
    blank_pdf(folder / "scanned.pdf")
    encrypted_pdf(folder / "locked.pdf")
    (folder / "fake.docx").write_text("I am not a zip", encoding="utf-8")
    (folder / "binary.txt").write_bytes(bytes(range(256)) * 50)
    (folder / "empty.txt").write_bytes(b"")
    (folder / "table.xlsx").write_bytes(b"PK\x03\x04")
    (folder / "broken.jsonl").write_text('{"doc": "x", "id": "1", "text": "ok"}\n{not json\n', encoding="utf-8")
    (folder / "cp1258.txt").write_bytes(encode(VI, "cp1258"))
    (folder / "utf16.txt").write_bytes(VI.encode("utf-16"))
    return folder


def test_each_bad_file_is_one_line_and_the_batch_goes_on(bad_folder: Path, tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "index", model="none")
    report = Corpus(store, None, Settings(index=tmp_path / "index")).ingest([bad_folder])
    errors = {Path(line.split(": ", 1)[0]).name: line.split(": ", 1)[1] for line in report.errors}
    assert set(errors) == {
        "corrupt.pdf",
        "scanned.pdf",
        "locked.pdf",
        "fake.docx",
        "binary.txt",
        "empty.txt",
        "table.xlsx",
        "broken.jsonl",
    }
    assert all("\n" not in line for line in report.errors)
    assert "not a readable PDF" in errors["corrupt.pdf"]
    assert "no text layer" in errors["scanned.pdf"] and "2 page" in errors["scanned.pdf"]
    assert "encrypted" in errors["locked.pdf"]
    assert "not a DOCX" in errors["fake.docx"]
    assert "binary" in errors["binary.txt"]
    assert "empty file" in errors["empty.txt"]
    assert "unsupported file type .xlsx" in errors["table.xlsx"]
    assert "line 2" in errors["broken.jsonl"]
    ingested = sorted(Path(x).name for x in report.added)
    assert ingested == ["cp1258.txt", "good.md", "utf16.txt"]
    titles = {d.source_uri.rsplit("/", 1)[1]: d for d in store.documents()}
    assert set(titles) == {"cp1258.txt", "good.md", "utf16.txt"}
    assert store.check() == []
    store.close()


@pytest.mark.parametrize("encoding", ["cp1258", "utf-16", "utf-16-le", "utf-8-sig", "utf-8"])
def test_vietnamese_text_in_legacy_and_unicode_encodings(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / f"rules-{encoding}.txt"
    path.write_bytes(encode(VI, encoding))
    doc = load_document(path)
    assert doc.text.startswith("Điều 1. Phạm vi điều chỉnh") and doc.lang == "vi"
    assert [n.label for n in doc.nodes] == ["Điều 1", "khoản 1 Điều 1", "khoản 2 Điều 1"]


def test_windows_1252_english_text() -> None:
    text, enc = decode_text("The insurer’s liability – “the limit” – is €5,000.".encode("cp1252"))
    assert enc == "cp1252" and "€5,000" in text and "“the limit”" in text


def test_binary_named_txt_is_refused() -> None:
    with pytest.raises(EncodingError, match="binary"):
        decode_text(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 20)


def test_oversized_file_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "huge.txt"
    with big.open("wb") as f:  # a sparse 200 MB file: nothing is read
        f.truncate(200 * 1024 * 1024)
    with pytest.raises(TooLarge, match="200 MB > limit 64 MB") as info:
        load_document(big, IngestSettings())
    assert info.value.line().startswith(str(big))


@pytest.mark.parametrize(
    ("name", "data", "error"),
    [
        ("x.pdf", b"garbage", CorruptFile),
        ("x.docx", b"garbage", CorruptFile),
        ("x.odt", b"garbage", UnsupportedFormat),
        ("x.md", b"   \n\n  ", EmptyDocument),
        ("x.html", b"<html><body><nav>menu</nav></body></html>", EmptyDocument),
        (
            "deep.html",
            b"<html><body>" + b"<div>" * 100_000 + b"Rule." + b"</div>" * 100_000 + b"</body></html>",
            CorruptFile,
        ),
    ],
)
def test_error_types(tmp_path: Path, name: str, data: bytes, error: type[IngestError]) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(error):
        load_document(path)


def test_deep_html_is_refused_before_parsing_and_ordinary_pages_are_not(tmp_path: Path) -> None:
    from citewise.ingest.html_parser import nesting_depth

    deep = tmp_path / "deep.html"
    deep.write_bytes(b"<html><body>" + b"<div>" * 100_000 + b"Rule." + b"</div>" * 100_000 + b"</body></html>")
    t0 = time.perf_counter()
    with pytest.raises(CorruptFile, match="nested too deeply"):
        load_document(deep)
    assert time.perf_counter() - t0 < 5  # the parser alone takes about 36 s on it
    sloppy = "<html><body>" + "<p>Rule <br> text <li>item <img src=x>" * 3000 + "<div/>" * 3000 + "</body></html>"
    assert nesting_depth(sloppy) <= 1
    nested = "<div>" * 30 + "<section><h2>Article 1</h2><p>Rule.</p></section>" + "</div>" * 30
    assert nesting_depth(nested) == 32  # 30 divs, the section, its heading


def test_cli_exit_code_is_nonzero_only_when_nothing_was_ingested(bad_folder: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from citewise.cli import app

    runner = CliRunner()
    env = {"CITEWISE_STORE__EMBEDDER": "none"}
    mixed = runner.invoke(app, ["ingest", "--index", str(tmp_path / "a"), "--json", str(bad_folder)], env=env)
    assert mixed.exit_code == 0, mixed.output
    data = json.loads(mixed.stdout)
    assert len(data["added"]) == 3 and len(data["errors"]) == 8
    only_bad = runner.invoke(
        app,
        ["ingest", "--index", str(tmp_path / "b"), str(bad_folder / "corrupt.pdf"), str(bad_folder / "fake.docx")],
        env=env,
    )
    assert only_bad.exit_code == 1
    assert "corrupt.pdf: not a readable PDF" in only_bad.stderr
