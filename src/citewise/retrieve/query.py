"""Query analysis: language, intent (a legal question, or chit-chat that needs no retrieval),
and the legal references named."""

from __future__ import annotations

import re

from citewise.lang import detect_language, fold
from citewise.refs.query import extract_references
from citewise.retrieve.records import QueryAnalysis

_CHITCHAT = re.compile(
    r"^\s*(hi|hello|hey|good (morning|afternoon|evening)|thanks?( you)?|thank you( very much)?|bye|goodbye|"
    r"how are you|who are you|what can you do|ok(ay)?|xin chao|chao( ban| anh| chi| em)?|cam on( ban)?|"
    r"tam biet|ban la ai|ban co the lam gi|ban khoe khong)\b[\s!.?,]*(\w+[\s!.?,]*){0,3}$",
    re.I,
)


def analyze(question: str) -> QueryAnalysis:
    text = question.strip()
    lang = detect_language(text)
    refs, docs = extract_references(text)
    intent = "chitchat" if (not refs and not docs and _CHITCHAT.match(fold(text))) else "legal"
    return QueryAnalysis(question=text, lang=lang, intent=intent, refs=refs, docs=docs)
