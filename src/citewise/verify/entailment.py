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
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from citewise.errors import MissingDependency
from citewise.lang import detect_language
from citewise.settings import LlmSettings

SOURCE_CHARS = 800
"""Most characters of source the LLM reads."""

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
_YES = ("Yes", "yes", "YES", "Có", "có")
_NO = ("No", "no", "NO", "Không", "không")


def messages(claim: str, source: str, lang: str | None = None) -> list[dict[str, str]]:
    """The chat messages of the question, in the claim's language (EN or VI)."""
    lang = lang or detect_language(claim)
    system, user = _PROMPTS["vi" if lang == "vi" else "en"]
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": user.format(source=source.strip(), claim=claim.strip())},
    ]


def excerpt(source: str, span: tuple[int, int] | None = None, limit: int = SOURCE_CHARS) -> str:
    """The source as the LLM reads it: whole when within ``limit`` characters, otherwise ``span``
    (the scorer's best-matching run of sentences; the start when ``None``) widened evenly on both
    sides up to ``limit``, cut at whitespace, with "…" where text was left out."""
    if len(source) <= limit:
        return source
    a, b = span or (0, 0)
    a, b = max(0, min(a, len(source))), max(0, min(b, len(source)))
    if b - a >= limit:
        b = a + limit
    else:
        room = limit - (b - a)
        a = max(0, a - room // 2)
        b = min(len(source), a + limit)
        a = max(0, b - limit)
    if a > 0:
        cut = source.find(" ", a, a + 40)
        a = cut + 1 if cut >= 0 else a
    if b < len(source):
        cut = source.rfind(" ", b - 40, b)
        b = cut if cut > a else b
    return ("… " if a > 0 else "") + source[a:b].strip() + (" …" if b < len(source) else "")


@dataclass(frozen=True)
class Judgement:
    p_yes: float
    """P(Yes) / (P(Yes) + P(No)) of the first answer token; 0.5 when the model puts no mass on either."""
    mass: float
    """P(Yes) + P(No): how much the model kept to the answer format."""
    prompt_tokens: int
    seconds: float


class EntailmentJudge(abc.ABC):
    name: str

    @abc.abstractmethod
    def p_yes(self, claim: str, source: str, lang: str | None = None) -> float:
        """Probability in [0, 1] that ``source`` fully supports ``claim``; ``lang`` the claim's
        language when known (detected otherwise)."""


class LlamaCppJudge(EntailmentJudge):
    """The entailment question to a local GGUF through llama.cpp. Give a loaded ``llm``
    (``llama_cpp.Llama``, e.g. the local generator's, so one model serves both) or a ``gguf`` path;
    with neither, the model of ``settings``. A model given by path is loaded on first use."""

    name = "llama.cpp"

    def __init__(
        self,
        llm: Any = None,
        gguf: Path | str | None = None,
        settings: LlmSettings | None = None,
        n_ctx: int = 2048,
        source_chars: int = SOURCE_CHARS,
    ) -> None:
        self.settings = settings or LlmSettings()
        self._llm = llm
        self.gguf = gguf
        self.n_ctx = n_ctx
        self.source_chars = source_chars
        self._ids: tuple[list[int], list[int]] | None = None
        self.last: Judgement | None = None
        """The most recent judgement, with its cost."""

    @property
    def llm(self) -> Any:
        if self._llm is None:
            from citewise.answer.models import model_path

            try:
                from llama_cpp import Llama
            except ImportError as e:
                raise MissingDependency("llama-cpp-python", extra="llm", purpose="the LLM entailment check") from e
            path = self.gguf or self.settings.gguf or model_path(self.settings.model)
            self._llm = Llama(
                model_path=str(path),
                n_ctx=self.n_ctx,
                n_threads=self.settings.threads,
                seed=self.settings.seed,
                verbose=False,
            )
        return self._llm

    def _answer_ids(self) -> tuple[list[int], list[int]]:
        """Token ids of the answer words that are one token (with and without a leading space)."""
        if self._ids is None:

            def ids(words: tuple[str, ...]) -> list[int]:
                out: set[int] = set()
                for w in words:
                    for v in (w, " " + w):
                        toks = self.llm.tokenize(v.encode("utf-8"), add_bos=False, special=False)
                        if len(toks) == 1:
                            out.add(int(toks[0]))
                return sorted(out)

            self._ids = ids(_YES), ids(_NO)
        return self._ids

    def judge(self, claim: str, source: str, lang: str | None = None) -> Judgement:
        """P(Yes) with its cost. ``source`` should already be short (see ``excerpt``); it is cut to
        ``source_chars`` from its start otherwise."""
        from llama_cpp import LogitsProcessorList

        yes_ids, no_ids = self._answer_ids()
        captured: list[Any] = []

        def capture(_ids: Any, logits: Any) -> Any:
            captured.append(logits.copy())
            return logits

        t = time.perf_counter()
        out = self.llm.create_chat_completion(
            messages=messages(claim, excerpt(source, None, self.source_chars), lang),
            max_tokens=1,
            temperature=0.0,
            logits_processor=LogitsProcessorList([capture]),
        )
        seconds = time.perf_counter() - t
        probs = np.exp(np.asarray(captured[0], dtype=np.float64) - float(np.max(captured[0])))
        probs /= probs.sum()
        p_yes, p_no = float(probs[yes_ids].sum()), float(probs[no_ids].sum())
        mass = p_yes + p_no
        usage = out.get("usage") or {}
        self.last = Judgement(p_yes / mass if mass > 1e-12 else 0.5, mass, int(usage.get("prompt_tokens", 0)), seconds)
        return self.last

    def p_yes(self, claim: str, source: str, lang: str | None = None) -> float:
        return self.judge(claim, source, lang).p_yes
