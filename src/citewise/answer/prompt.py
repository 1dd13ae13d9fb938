"""Citation-mandatory prompts and the parsing of what a model writes back.

The model gets numbered fragments ([F1], [F2], ...) with their provision labels and must reply
with JSON: {"answer": [{"sentence": "...", "fragments": ["F1"]}]} or {"answer": [], "refused": true}.
Short ids map back to stable ``doc:ID#chunk:N`` markers in code."""

from __future__ import annotations

import json
import re
from typing import Any

from citewise.answer.markers import split_markers
from citewise.answer.records import REFUSAL, Draft, DraftSentence, Fragment
from citewise.chunk.sentences import sentence_spans
from citewise.textmatch import coverage

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answer": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "sentence": {"type": "string"},
                    "fragments": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["sentence", "fragments"],
            },
        },
        "refused": {"type": "boolean"},
    },
    "required": ["answer", "refused"],
}

_RULES = {
    "en": (
        "You answer questions about legal and insurance documents using ONLY the numbered fragments given.\n"
        "Rules:\n"
        "1. Every sentence must be supported by the fragments; list the ids of the fragments that support it.\n"
        "2. Add no facts. Copy numbers, amounts, percentages, dates and article numbers exactly as written.\n"
        '3. If the fragments do not contain the answer, reply with an empty answer and "refused": true.\n'
        "4. Answer in English, in at most {n} short sentences.\n"
        'Reply with JSON only: {{"answer": [{{"sentence": "...", "fragments": ["F1"]}}], "refused": false}}'
    ),
    "vi": (
        "Bạn trả lời câu hỏi về văn bản pháp luật và bảo hiểm CHỈ dựa trên các đoạn trích được đánh số.\n"
        "Quy tắc:\n"
        "1. Mỗi câu phải có căn cứ trong các đoạn trích; ghi mã các đoạn trích làm căn cứ.\n"
        "2. Không thêm thông tin. Chép chính xác số liệu, số tiền, tỷ lệ, ngày tháng và số điều khoản.\n"
        '3. Nếu các đoạn trích không có câu trả lời, trả về answer rỗng và "refused": true.\n'
        "4. Trả lời bằng tiếng Việt, tối đa {n} câu ngắn.\n"
        'Chỉ trả lời bằng JSON: {{"answer": [{{"sentence": "...", "fragments": ["F1"]}}], "refused": false}}'
    ),
}
_STRICT = {
    "en": "Your previous answer had sentences the fragments do not support. Use only the wording of these "
    "fragments, one fact per sentence, each with its fragment id.",
    "vi": "Câu trả lời trước có câu không có căn cứ trong đoạn trích. Chỉ dùng đúng câu chữ của các đoạn trích "
    "này, mỗi câu một ý, kèm mã đoạn trích.",
}


def focus(text: str, question: str, limit_chars: int) -> str:
    """``text`` cut to ``limit_chars``: its first sentence (the provision's heading or lead-in) and the
    sentences that cover most of the question, in document order, gaps marked "…". Every kept
    sentence is verbatim, so what the model quotes is still in the cited fragment."""
    if len(text) <= limit_chars:
        return text
    spans = sentence_spans(text) or [(0, len(text))]
    ranked = sorted(range(1, len(spans)), key=lambda i: -coverage(question, text[spans[i][0] : spans[i][1]]))
    keep, used = {0}, spans[0][1] - spans[0][0]
    for i in ranked:
        size = spans[i][1] - spans[i][0]
        if used + size > limit_chars:
            continue
        keep.add(i)
        used += size
    if keep == {0} and ranked:
        keep.add(ranked[0])  # the best sentence even when it alone is over the limit (cut below)
    parts: list[str] = []
    for i in sorted(keep):
        if parts and i - 1 not in keep:
            parts.append("…")
        parts.append(text[spans[i][0] : spans[i][1]].strip())
    if len(spans) - 1 not in keep:
        parts.append("…")
    return "\n".join(parts)[: limit_chars + 200]


def render_fragments(fragments: list[Fragment], limit_chars: int = 1800, question: str = "") -> str:
    blocks = []
    for f in fragments:
        c = f.evidence.chunk
        pages = f" (p. {c.page_start})" if c.page_start else ""
        if question:
            text = focus(f.text, question, limit_chars)
        else:
            text = f.text if len(f.text) <= limit_chars else f.text[:limit_chars] + " …"
        blocks.append(f"[{f.short}] {f.evidence.doc_title} — {c.label}{pages}\n{text}")
    return "\n\n".join(blocks)


def messages(
    question: str,
    fragments: list[Fragment],
    lang: str,
    strict: bool,
    max_sentences: int,
    limit_chars: int = 1800,
    focused: bool = False,
) -> list[dict[str, str]]:
    """``focused``: each fragment cut to the sentences that answer the question (small local models,
    whose time grows with the prompt); otherwise fragments are cut at ``limit_chars``."""
    system = _RULES[lang].format(n=max_sentences)
    if strict:
        system += "\n" + _STRICT[lang]
    user = f"{render_fragments(fragments, limit_chars, question if focused else '')}\n\nQuestion: {question}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def parse_reply(content: str, generator: str, fragments: list[Fragment], lang: str) -> Draft:
    """A model's reply (JSON, or plain text with inline markers) as a draft."""
    content = content.strip()
    data: Any = None
    m = re.search(r"\{.*\}", content, re.S)
    if m:
        try:
            data = json.loads(m.group(0))
        except json.JSONDecodeError:
            data = None
    sentences: list[DraftSentence] = []
    if isinstance(data, dict):
        items = data.get("answer") or []
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict):
                continue
            text, inline = split_markers(str(item.get("sentence", "")))
            ids = [str(x).strip().strip("[]") for x in (item.get("fragments") or []) if str(x).strip()]
            markers = list(dict.fromkeys(ids + inline))
            if text and not _is_refusal(text, lang):
                sentences.append(DraftSentence(text, markers))
        refused = bool(data.get("refused")) and not sentences
        return Draft(sentences, generator, raw=content, refused=refused or not sentences)
    if _is_refusal(content, lang):
        return Draft([], generator, raw=content, refused=True)
    for s, e in sentence_spans(content):
        text, markers = split_markers(content[s:e])
        if text:
            sentences.append(DraftSentence(text, markers))
    return Draft(sentences, generator, raw=content, refused=not sentences)


def _is_refusal(text: str, lang: str) -> bool:
    t = " ".join(text.lower().split())
    return any(r.lower().rstrip(".") in t for r in REFUSAL.values())
