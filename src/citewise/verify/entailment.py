"""Optional LLM entailment check: "Is the claim fully supported by the source? Yes/No", read as the
probability of Yes. One port, ``EntailmentJudge``; one backend, ``LlamaCppJudge`` (a local GGUF
through llama-cpp-python). The validator asks it only for sentences the support scorer leaves in a
borderline band (validator.py); what it gains and costs is measured by bench/verify_llm.py.

The LLM reads a short source: the cited fragment when it is short, otherwise the scorer's
best-matching span with a little context around it (``excerpt``), ~800 characters at most. P(Yes)
is read from the logits of the first answer token (no sampling, one decoded token): the
probabilities of the Yes variants ("Yes", " yes", "Có", ...) over those of Yes plus No."""

from __future__ import annotations

import abc
from pathlib import Path
from typing import Any

from citewise.answer.models import model_path
from citewise.judge.llm import SOURCE_CHARS, Judgement, YesNoReader, excerpt
from citewise.lang import detect_language
from citewise.settings import LlmSettings

__all__ = ["SOURCE_CHARS", "EntailmentJudge", "Judgement", "LlamaCppJudge", "excerpt", "messages"]

_PROMPTS: dict[str, tuple[str, str]] = {
    "en": (
        "You check whether a claim is supported by a source text. Answer with one word: Yes or No.",
        "Source:\n{source}\n\nClaim: {claim}\n\nIs the claim fully supported by the source? Answer Yes or No.",
    ),
    "vi": (
        "Bạn kiểm tra xem một nhận định có được văn bản nguồn hỗ trợ hay không. Chỉ trả lời một từ: Yes hoặc No.",
        "Văn bản nguồn:\n{source}\n\nNhận định: {claim}\n\n"
        "Nhận định có được văn bản nguồn hỗ trợ đầy đủ không? Trả lời Yes hoặc No.",
    ),
}


def messages(claim: str, source: str, lang: str | None = None) -> list[dict[str, str]]:
    """The chat messages of the question, in the claim's language (EN or VI)."""
    lang = lang or detect_language(claim)
    system, user = _PROMPTS["vi" if lang == "vi" else "en"]
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": user.format(source=source.strip(), claim=claim.strip())},
    ]


class EntailmentJudge(abc.ABC):
    name: str

    @abc.abstractmethod
    def p_yes(self, claim: str, source: str, lang: str | None = None) -> float:
        """Probability in [0, 1] that ``source`` fully supports ``claim``; ``lang`` the claim's
        language when known (detected otherwise)."""


class LlamaCppJudge(EntailmentJudge):
    """The entailment question to a local GGUF through llama.cpp (``judge.llm.YesNoReader``). Give a loaded
    ``llm`` (``llama_cpp.Llama``, e.g. the local generator's, so one model serves both) or a ``gguf`` path; with
    neither, the model of ``settings``. A model given by path is loaded on first use."""

    name = "llama.cpp"

    def __init__(
        self,
        llm: Any = None,
        gguf: Path | str | None = None,
        settings: LlmSettings | None = None,
        n_ctx: int = 2048,
        source_chars: int = SOURCE_CHARS,
    ) -> None:
        settings = settings or LlmSettings()
        self.reader = YesNoReader(
            llm, gguf, settings, n_ctx, "the LLM entailment check", locate=lambda: model_path(settings.model)
        )
        self.source_chars = source_chars
        self.last: Judgement | None = None
        """The most recent judgement, with its cost."""

    @property
    def llm(self) -> Any:
        return self.reader.llm

    @property
    def loaded(self) -> bool:
        return self.reader.loaded

    def judge(self, claim: str, source: str, lang: str | None = None) -> Judgement:
        """P(Yes) with its cost. ``source`` should already be short (see ``excerpt``); it is cut to
        ``source_chars`` from its start otherwise."""
        self.last = self.reader.ask(messages(claim, excerpt(source, None, self.source_chars), lang))
        return self.last

    def p_yes(self, claim: str, source: str, lang: str | None = None) -> float:
        return self.judge(claim, source, lang).p_yes
