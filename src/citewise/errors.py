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
├── UnknownName             no generator/embedder/analyzer/parser/scorer/store/data set by that name (also a KeyError)
├── InvalidValue            a value given by the caller is not one of those allowed (also a ValueError)
├── MissingDependency       an optional extra is not installed (also an ImportError)
├── GeneratorError          a generator could not write a draft (model missing, server down, bad output)
├── InputFileError          a JSON Lines, question-set or pairs file cannot be read (also a ValueError)
│   ├── JsonLineError       a line that is not JSON (its number and the parser's message)
│   ├── QuestionSetError    an evaluation question set cannot be read
│   └── PairsFileError      a claim/source pairs file cannot be read
└── ApiError                an HTTP request is refused (serve/guards.py: status, code, message; also an HTTPException)

Errors are raised where the failure happens and turned into exit codes (CLI) or HTTP statuses (API)
only at those two edges.
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


class UnknownName(CitewiseError, KeyError):
    """No part of ``kind`` registered as ``name``; the message lists the known names."""

    def __init__(self, kind: str, name: str, known: list[str]) -> None:
        super().__init__(f"unknown {kind} {name!r} (known: {', '.join(known) or 'none'})")
        self.kind = kind
        self.name = name
        self.known = known

    def __str__(self) -> str:
        return str(self.args[0])


class InvalidValue(CitewiseError, ValueError):
    """A value given by the caller (a review status, a fusion method, a damaged model file) is not allowed."""


class GeneratorError(CitewiseError):
    """A generator could not produce a draft (model missing, server down, bad output)."""


class InputFileError(CitewiseError, ValueError):
    """A file of records given by the user (question set, claim/source pairs) cannot be read."""


class JsonLineError(InputFileError):
    """A line that is not JSON; callers turn it into their own error with ``line`` and ``msg``."""

    def __init__(self, line: int, msg: str) -> None:
        super().__init__(f"line {line}: invalid JSON ({msg})")
        self.line = line
        self.msg = msg


class QuestionSetError(InputFileError):
    """An evaluation question set cannot be read (file named, line given when known)."""


class PairsFileError(InputFileError):
    """A claim/source pairs file cannot be read (file named, line given when known)."""


class MissingDependency(CitewiseError, ImportError):
    def __init__(self, package: str, extra: str | None = None, purpose: str = "", hint: str = "") -> None:
        hint = hint or (f"pip install 'citewise[{extra}]'" if extra else f"pip install {package}")
        what = f" for {purpose}" if purpose else ""
        super().__init__(f"{package} is needed{what}: {hint}")
