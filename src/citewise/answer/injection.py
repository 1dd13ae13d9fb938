"""Text inside documents is data, never instructions: the sentences of a document that address the
reader's assistant instead of stating a rule ("ignore previous instructions", "SYSTEM:", "Note to the
AI", a self-declared "[Source: ...]"), found so that no answer quotes them and no prompt shows them."""

from __future__ import annotations

import re

from citewise.chunk.sentences import sentence_spans

_INSTRUCTION = re.compile(
    r"ignore (?:all |any )?(?:the )?(?:previous|prior|above|earlier) (?:instructions|rules)|\bsystem\s*:|"
    r"\bassistant\b.{0,40}\b(?:must|should|shall|tell|say|answer|reply|respond)\b|"
    # the AI addressed, not AI as a subject of regulation ("AI practices referred to in Article 5 shall ...")
    r"\b(?:ai|language model|chatbot)\b.{0,40}\b(?:must|should|shall|will|is to)\s+(?:\w+\s+){0,2}?"
    r"(?:tell|say|answer|reply|respond|ignore|output|disregard)\b|"
    r"\b(?:ai|language model|chatbot)\b.{0,40}\b(?:tell|say|answer|reply|respond)\s+(?:the user|users|readers|that)\b|"
    r"^\s*(?:note to|instructions? (?:to|for)) (?:the )?(?:ai|assistant|model|chatbot)|"
    r"^\s*(?:question|answer|user|assistant)\s*:|\[F\d+\]|"
    r"b[ỏo] qua (?:m[ọo]i |t[ấa]t c[ảa] )?(?:c[áa]c )?(?:h[ưu][ớo]ng d[ẫa]n|ch[ỉi] d[ẫa]n)|"
    r"\b(?:tr[ợo] l[ýy]|m[ôo] h[ìi]nh ng[ôo]n ng[ữu]|chatbot)\b.{0,40}\b(?:ph[ảa]i|h[ãa]y|tr[ảa] l[ờo]i)\b|"
    r"^\s*(?:h[ệe] th[ốo]ng|c[âa]u h[ỏo]i|tr[ảa] l[ờo]i)\s*:|"
    r"\[\s*system\b[^\]]*\]|system (?:override|prompt)|developer mode|hidden (?:system )?prompt|"
    r"\bif you are an? (?:ai|language model|assistant|chatbot)\b|"
    r"l[ờo]i nh[ắa]c h[ệe] th[ốo]ng|ch[ỉi] d[ẫa]n tr[ưu][ớo]c|h[ưu][ớo]ng d[ẫa]n n[ộo]i b[ộo] cho h[ệe] th[ốo]ng|"
    r"n[ếe]u b[ạa]n l[àa] (?:m[ộo]t )?(?:m[ôo] h[ìi]nh|tr[ợo] l[ýy]|ai\b)|m[ôo] h[ìi]nh ai|"
    r"\[\s*(?:source|ngu[ồo]n|reference|tr[íi]ch d[ẫa]n)\s*:|\[[A-ZĐ]{3,}-\d+\]",
    re.I | re.M,
)
"""Sentences that address the reader's assistant rather than state a rule: data, never an answer."""


def addresses_the_assistant(sentence: str) -> bool:
    return bool(_INSTRUCTION.search(sentence))


def tainted_lines(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` that address the reader's assistant (planted instructions, fake system lines,
    self-declared sources): from the start of the sentence holding such words to the end of its line. No
    quote may touch them."""
    starts = [s for s, _ in sentence_spans(text)]
    out = []
    for m in _INSTRUCTION.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        sentence_start = max((s for s in starts if s <= m.start()), default=0)
        end = text.find("\n", m.end())
        out.append((max(line_start, sentence_start), len(text) if end < 0 else end))
    return out


def overlaps(span: tuple[int, int], tainted: list[tuple[int, int]]) -> bool:
    """Whether ``span`` touches any of the ``tainted`` spans."""
    return any(span[0] < b and a < span[1] for a, b in tainted)
