"""Decoding a JSON reply with llama.cpp where the fixed parts of the JSON are read, not written.

llama-cpp-python's chat completion samples every token of the reply, the schema's keys and brackets included.
This decoder formats the chat with the model's own template (as the chat completion does), keeps the longest
cached prefix of the previous prompt, and after each sampled token asks the ``ReplyScaffold`` what text must come
next: that text is tokenized, accepted by the sampler chain (so the grammar's state follows it) and evaluated in
the same batch as the sampled token. It stops when the answer array closes, at an end-of-generation token, or at
``max_tokens`` sampled tokens.

llama.cpp aborts the process when a grammar is made to accept a token it does not allow, so each fixed token is
first tested on a second copy of the grammar (``_Checker``), and fixed text stops at the first token it refuses:
the model then writes the rest itself."""

from __future__ import annotations

import codecs
import ctypes
import importlib
import json
import math
from collections.abc import Iterator
from typing import Any

from citewise.answer.scaffold import ReplyScaffold

_TOP = {"top_k": 40, "top_p": 0.95, "min_p": 0.05, "typical_p": 1.0}
"""llama-cpp-python's chat-completion defaults, kept so that both paths sample alike."""


class _Checker:
    """A grammar that follows the reply (every token sampled or read is accepted) and tests tokens on the side."""

    def __init__(self, lc: Any, vocab: Any, grammar: Any) -> None:
        self.lc = lc
        self.grammar = lc.llama_sampler_init_grammar(
            vocab, grammar._grammar.encode("utf-8"), grammar._root.encode("utf-8")
        )
        if not self.grammar:
            raise ValueError("llama.cpp could not parse the grammar")
        self.one = (lc.llama_token_data * 1)()
        self.array = lc.llama_token_data_array(self.one, 1, -1, False)

    def allowed(self, tokens: list[int]) -> list[int]:
        """The longest run of ``tokens`` the grammar allows from here, accepted."""
        out: list[int] = []
        for t in tokens:
            self.one[0].id, self.one[0].logit, self.one[0].p = t, 0.0, 0.0
            self.array.size, self.array.selected, self.array.sorted = 1, -1, False
            self.lc.llama_sampler_apply(self.grammar, ctypes.byref(self.array))
            if not math.isfinite(self.one[0].logit):
                break
            self.accept(t)
            out.append(t)
        return out

    def accept(self, token: int) -> None:
        self.lc.llama_sampler_accept(self.grammar, token)

    def close(self) -> None:
        if self.grammar:
            self.lc.llama_sampler_free(self.grammar)
            self.grammar = None


class ScaffoldedDecoder:
    def __init__(self, llm: Any, formatter: Any) -> None:
        self.llm = llm
        self.formatter = formatter
        self.lc: Any = importlib.import_module("llama_cpp")
        self.sampled = 0
        """Tokens the model sampled in the last reply."""
        self.read_in = 0
        """Tokens of fixed reply text read in batches in the last reply."""
        self.cached = 0
        """Prompt tokens of the last read found already evaluated (the system prompt, once warm)."""

    @classmethod
    def for_model(cls, llm: Any) -> ScaffoldedDecoder | None:
        """A decoder using the GGUF's chat template; ``None`` when it has none (the chat completion then
        falls back on a generic format, and so does the generator)."""
        template = llm.metadata.get("tokenizer.chat_template")
        if not template:
            return None
        chat_format = importlib.import_module("llama_cpp.llama_chat_format")
        model = llm._model
        eos, bos = model.token_eos(), model.token_bos()
        try:
            formatter = chat_format.Jinja2ChatFormatter(
                template=template,
                eos_token=model.token_get_text(eos) if eos != -1 else "",
                bos_token=model.token_get_text(bos) if bos != -1 else "",
                stop_token_ids=[eos],
            )
            formatter(messages=[{"role": "system", "content": "-"}, {"role": "user", "content": "-"}])
        except Exception:  # a template jinja2 cannot compile or render: the chat completion's own fallback
            return None
        return cls(llm, formatter)

    def tokens(self, messages: list[dict[str, str]]) -> list[int]:
        result = self.formatter(messages=messages)
        return list(self.llm.tokenize(result.prompt.encode("utf-8"), add_bos=not result.added_special, special=True))

    def read(self, messages: list[dict[str, str]], extra: list[int] | None = None) -> None:
        """Evaluate the chat prompt (and ``extra`` tokens after it), reusing the cached prefix of the last one."""
        tokens = self.tokens(messages)
        llm = self.llm
        cached = 0
        for a, b in zip(llm.input_ids[: llm.n_tokens], tokens, strict=False):
            if a != b:
                break
            cached += 1
        todo = tokens[cached:] + list(extra or [])
        if not todo:  # everything cached: evaluate the last token again for its logits
            cached -= 1
            todo = tokens[cached:]
        llm.n_tokens = self.cached = cached
        llm.eval(todo)

    def _grammar(self, schema: dict[str, Any]) -> Any:
        grammar = importlib.import_module("llama_cpp.llama_grammar")
        return grammar.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)

    def _encode(self, text: str) -> list[int]:
        return list(self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)) if text else []

    def reply(
        self,
        messages: list[dict[str, str]],
        schema: dict[str, Any],
        scaffold: ReplyScaffold,
        temperature: float,
        seed: int,
        max_tokens: int,
    ) -> Iterator[str]:
        """The reply's text, piece by piece: each fixed run as one piece, each sampled token as one."""
        llm = self.llm
        llm.set_seed(seed)
        grammar = self._grammar(schema)
        sampler = llm._init_sampler(temp=temperature, grammar=grammar, **_TOP)
        checker = _Checker(self.lc, llm._model.vocab, grammar)
        decode = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.sampled = self.read_in = 0
        text = ""

        def fixed_after(text: str) -> tuple[str, list[int]]:
            ids = checker.allowed(self._encode(scaffold.forced(text)))
            for t in ids:
                sampler.accept(t)
            self.read_in += len(ids)
            return llm.detokenize(ids).decode("utf-8", errors="replace"), ids

        try:
            fixed, ids = fixed_after(text)
            self.read(messages, ids)
            text += fixed
            if fixed:
                yield fixed
            while self.sampled < max_tokens:
                token = sampler.sample(llm._ctx, -1)  # accepted by the chain, grammar included
                checker.accept(token)
                self.sampled += 1
                if self.lc.llama_vocab_is_eog(llm._model.vocab, token):
                    return
                piece = decode.decode(llm.detokenize([token]))
                text += piece
                if piece:
                    yield piece
                if scaffold.closed(text):
                    return
                fixed, ids = fixed_after(text)
                if llm.n_tokens + 1 + len(ids) > llm.n_ctx():
                    raise ValueError("the reply does not fit the context window")
                llm.eval([token, *ids])
                if fixed:
                    text += fixed
                    yield fixed
                    if scaffold.closed(text):
                        return
        finally:
            checker.close()
            sampler.close()
