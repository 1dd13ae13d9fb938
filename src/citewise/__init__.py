"""citewise: question answering over authoritative documents where every sentence is cited.

    import citewise

    with citewise.open(index="my-index") as cw:
        cw.ingest(["regulations/"])
        for hit in cw.search("khoản 2 Điều 17 Luật KDBH", k=3).evidence:
            print(hit.chunk.label, hit.doc_title)
        answer = cw.ask("How many days do I have to notify the insurer of a loss?")
        print(answer.text)

``open`` returns an ``Engine`` (``ingest``, ``search``, ``ask``, ``supports``, ``documents``, ``close``; a
context manager). The records it hands back are exported here as well."""

from citewise.assistant.records import Answer, AnswerSentence
from citewise.engine import Engine
from citewise.engine import open_engine as open
from citewise.errors import CitewiseError
from citewise.index.base import DocSummary
from citewise.index.corpus import IngestReport
from citewise.retrieve.records import Evidence, SearchResult, Strength
from citewise.settings import Settings
from citewise.verify.pairs import PairVerdict
from citewise.verify.records import Citation, Verdict

__version__ = "0.1.0"

__all__ = [
    "Answer",
    "AnswerSentence",
    "Citation",
    "CitewiseError",
    "DocSummary",
    "Engine",
    "Evidence",
    "IngestReport",
    "PairVerdict",
    "SearchResult",
    "Settings",
    "Strength",
    "Verdict",
    "__version__",
    "open",
]
