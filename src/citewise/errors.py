"""The citewise error tree. Only the CLI and the HTTP API turn these into exit or status codes.

CitewiseError
├── IngestError             a source could not be turned into a Document (file named, one-line reason)
│   ├── UnsupportedFormat   no parser for the file's type
│   ├── EmptyDocument       the source holds no text (empty file, scanned PDF without a text layer)
│   ├── CorruptFile         the bytes are not what the extension says, or the file is damaged/encrypted
│   ├── EncodingError       text that cannot be decoded confidently
│   ├── TooLarge            over the configured size limit (rejected before reading)
│   └── UnsafeName          an uploaded file's name is not a plain file name (path parts, control characters)
├── StoreError              the index cannot be opened or written
│   ├── SchemaError         the index was written by a newer citewise
│   └── NotFound            no document/provision with that id or label (also a KeyError)
├── MissingDependency       an optional extra is not installed (also an ImportError)
├── QuestionSetError        an evaluation question set cannot be read (evaluate/questions.py; also a ValueError)
├── PairsFileError          a claim/source pairs file cannot be read (verify/pairs.py)
└── UnknownScorerError      no support scorer by that name (verify/scorer.py; also a KeyError)

The last three are defined next to the code that raises them.
"""

from __future__ import annotations


class CitewiseError(Exception):
    """Base of every error citewise raises on purpose."""


class IngestError(CitewiseError):
    """A source could not be ingested. ``str(err)`` is the one-line reason."""

    def __init__(self, reason: str, source: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.source = source

    def line(self) -> str:
        """The one-line report: ``file: reason``."""
        return f"{self.source}: {self.reason}" if self.source else self.reason


class UnsupportedFormat(IngestError):
    pass


class EmptyDocument(IngestError):
    pass


class CorruptFile(IngestError):
    pass


class EncodingError(IngestError):
    pass


class TooLarge(IngestError):
    pass


class UnsafeName(IngestError):
    pass


class StoreError(CitewiseError):
    pass


class SchemaError(StoreError):
    pass


class NotFound(StoreError, KeyError):
    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0]) if self.args else "not found"


class MissingDependency(CitewiseError, ImportError):
    def __init__(self, package: str, extra: str | None = None, purpose: str = "") -> None:
        hint = f"pip install 'citewise[{extra}]'" if extra else f"pip install {package}"
        what = f" for {purpose}" if purpose else ""
        super().__init__(f"{package} is needed{what}: {hint}")
