"""Question in, checked answer out: the flow that runs retrieval, generation and verification."""

from citewise.assistant.flow import Assistant
from citewise.assistant.records import Answer, AnswerSentence

__all__ = ["Answer", "AnswerSentence", "Assistant"]
