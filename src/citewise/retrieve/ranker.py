"""Learned ranking of the fused candidates (``retrieve.ranker = "learned"``).

The first ``ranker_depth`` chunks of the fusion are described by ``FEATURES`` — each ranker's score
and rank, the fused score and rank, how much of the question the chunk's document title, heading path
and body hold, whether the question names its document or provision, cross-reference links with the
other leading candidates, the question's type and wording, the chunk's place and length — and scored
by gradient-boosted trees trained with a ranking objective (LambdaMART, LightGBM, ``bench/ranker.py``)
and evaluated here with numpy (``citewise.trees``). A question without a dense ranking (no embedder,
a Vietnamese question typed without diacritics) has ``has_dense`` 0, cosine 0 and no dense rank: the
trees were trained on such questions too.

The model is a JSON file: ``weights/ranker-lambdamart-v1.json`` in the package by default."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from citewise.index.base import Hit
from citewise.refs.resolve import Resolution
from citewise.textmatch import Terms, overlap, query_terms, question_type, text_terms
from citewise.trees import Forest, Tree, load_model
from citewise.types import Chunk, Node

DEFAULT_WEIGHTS = "ranker-lambdamart-v1.json"
Key = tuple[str, int]

FEATURES: tuple[str, ...] = (
    "lexical_rel",  # BM25 score / the best BM25 score among the candidates (0: not returned by BM25)
    "lexical_rank",  # 1-based rank in the BM25 list; depth + 1 when not returned
    "dense_cos",  # question/chunk cosine (0 without a dense ranking)
    "dense_gap",  # cosine - the best cosine among the candidates (-1 without a dense ranking)
    "dense_rank",  # 1-based rank in the dense list; depth + 1 when not returned or no dense ranking
    "has_dense",
    "fused_rel",  # fused score (after the document boost) / the best fused score
    "fused_rank",
    "cov_title",  # question words and word pairs found in the document title
    "cov_heading",  # ... in the chunk's context header (title › divisions › provision heading)
    "cov_body",  # ... in the chunk's body
    "cov_body_lexical",  # ... of the lexical query (the everyday wording rewritten) in the body
    "doc_named",  # the question names the chunk's document
    "provision_pinned",  # the chunk lies in a provision the question asks about
    "provision_candidate",  # ... in a provision named without its document, found in several
    "provision_mentioned",  # ... in a provision named only as a condition
    "xref_in",  # leading candidates (first 10) whose provision refers to this chunk's
    "xref_out",  # leading candidates this chunk's provision refers to
    "question_words",  # content words of the question
    "rewritten",  # the lexical ranker searched a rewording of the question (everyday wording)
    "lang_vi",
    "qtype_yes_no",
    "qtype_figure",  # duration, amount, number or date
    "qtype_definition",
    "qtype_other",
    "chunk_chars_log",
    "first_window",  # the chunk opens its provision
    "node_position",  # the provision's place in its document (0 first, 1 last)
    "table",
)
_FIGURE = {"duration", "amount", "number", "date"}


@dataclass
class RankInputs:
    """What the learned stage reads of one search."""

    question: str
    lexical_query: str
    lang: str
    rankings: Mapping[str, Sequence[Hit]]
    fused: Mapping[Key, float]
    resolution: Resolution
    dense: Mapping[Key, float] | None
    """Cosine of the question with each candidate (``None``: no dense ranking for this question)."""


def candidate_features(
    inputs: RankInputs,
    keys: Sequence[Key],
    chunks: Mapping[Key, Chunk],
    titles: Mapping[str, str],
    nodes_of: Callable[[str], list[Node]],
    depth: int,
    terms_of: Callable[[str], Terms] = text_terms,
) -> np.ndarray:
    """One row of ``FEATURES`` per key (the fused candidates in fused order, chunks fetched);
    ``terms_of``: a text's words and word pairs (``TermsCache`` keeps them between questions)."""
    x = np.zeros((len(keys), len(FEATURES)), dtype=np.float64)
    if not keys:
        return x
    col = {name: i for i, name in enumerate(FEATURES)}
    lex = {(h.doc_id, h.chunk_id): h for h in inputs.rankings.get("lexical", ())}
    den = {(h.doc_id, h.chunk_id): h for h in inputs.rankings.get("dense", ())}
    best_lex = max((h.score for h in lex.values()), default=0.0) or 1.0
    best_fused = max(inputs.fused[k] for k in keys) or 1.0
    cos = inputs.dense
    best_cos = max(cos.values(), default=0.0) if cos else 0.0
    terms = query_terms(inputs.question)
    lexical_terms = query_terms(inputs.lexical_query) if inputs.lexical_query != inputs.question else terms
    qtype = question_type(inputs.question)
    res = inputs.resolution

    def spans(entries: Sequence[tuple[str, Node, object]]) -> dict[str, list[tuple[int, int]]]:
        out: dict[str, list[tuple[int, int]]] = {}
        for doc_id, node, _ in entries:
            out.setdefault(doc_id, []).append((node.char_start, node.char_end))
        return out

    pinned, candidate, mentioned = spans(res.pins), spans(res.candidates), spans(res.mentions)

    def inside(c: Chunk, table: dict[str, list[tuple[int, int]]]) -> float:
        return float(any(c.char_start < e and s < c.char_end for s, e in table.get(c.doc_id, ())))

    lead = [chunks[k] for k in keys[:10] if k in chunks]
    lead_refs: dict[str, set[int]] = {}
    for lc in lead:
        if lc.node_id is not None:
            lnodes = nodes_of(lc.doc_id)
            if lc.node_id < len(lnodes):
                lead_refs.setdefault(lc.doc_id, set()).update(lnodes[lc.node_id].xrefs)
    lead_nodes = {(lc.doc_id, lc.node_id) for lc in lead if lc.node_id is not None}
    query_row = {
        "has_dense": float(cos is not None),
        "question_words": float(len(terms[0])),
        "rewritten": float(inputs.lexical_query != inputs.question),
        "lang_vi": float(inputs.lang == "vi"),
        "qtype_yes_no": float(qtype == "yes_no"),
        "qtype_figure": float(qtype in _FIGURE),
        "qtype_definition": float(qtype == "definition"),
        "qtype_other": float(qtype == "other"),
    }
    for name, value in query_row.items():
        x[:, col[name]] = value
    for i, key in enumerate(keys):
        row = x[i]
        h = lex.get(key)
        row[col["lexical_rel"]] = h.score / best_lex if h is not None else 0.0
        row[col["lexical_rank"]] = h.rank if h is not None else depth + 1
        d = den.get(key)
        row[col["dense_rank"]] = d.rank if d is not None else depth + 1
        if cos is not None:
            c_ = cos.get(key, 0.0)
            row[col["dense_cos"]] = c_
            row[col["dense_gap"]] = c_ - best_cos
        else:
            row[col["dense_gap"]] = -1.0
        row[col["fused_rel"]] = inputs.fused[key] / best_fused
        row[col["fused_rank"]] = i + 1
        c = chunks.get(key)
        if c is None:
            continue
        body = terms_of(c.body)
        row[col["cov_title"]] = overlap(terms, terms_of(titles.get(c.doc_id, "")))
        row[col["cov_heading"]] = overlap(terms, terms_of(c.header))
        row[col["cov_body"]] = overlap(terms, body)
        row[col["cov_body_lexical"]] = (
            overlap(lexical_terms, body) if lexical_terms is not terms else row[col["cov_body"]]
        )
        row[col["doc_named"]] = float(c.doc_id in res.docs)
        row[col["provision_pinned"]] = inside(c, pinned)
        row[col["provision_candidate"]] = inside(c, candidate)
        row[col["provision_mentioned"]] = inside(c, mentioned)
        nodes = nodes_of(c.doc_id)
        node = nodes[c.node_id] if c.node_id is not None and c.node_id < len(nodes) else None
        if node is not None and c.node_id is not None:
            row[col["xref_in"]] = float(c.node_id in lead_refs.get(c.doc_id, set()))
            row[col["xref_out"]] = float(sum((c.doc_id, t) in lead_nodes for t in node.xrefs))
            row[col["first_window"]] = float(c.char_start <= node.char_start)
            row[col["node_position"]] = c.node_id / max(1, len(nodes) - 1)
        row[col["chunk_chars_log"]] = math.log1p(len(c.body))
        row[col["table"]] = float(c.kind == "table")
    return x


class TermsCache:
    """The words and word pairs of the texts last seen (chunk bodies, headers, titles), so a chunk found
    again by another question is not read again: most of the stage's time is reading candidate texts."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self._terms: OrderedDict[str, Terms] = OrderedDict()

    def __call__(self, text: str) -> Terms:
        found = self._terms.get(text)
        if found is None:
            found = self._terms[text] = text_terms(text)
            if len(self._terms) > self.size:
                self._terms.popitem(last=False)
        else:
            self._terms.move_to_end(text)
        return found


class LearnedRanker:
    """Boosted regression trees over ``FEATURES`` (a LambdaMART model exported to JSON)."""

    def __init__(self, model: Mapping[str, object], source: str = "") -> None:
        self.trees = [Tree.from_dict(t) for t in model["trees"]]  # type: ignore[attr-defined]
        self.forest = Forest(self.trees)
        self.base = float(model.get("base", 0.0))  # type: ignore[arg-type]
        self.model = model
        self.source = source

    @classmethod
    def load(cls, weights: Path | str | None = None) -> LearnedRanker:
        model, source = load_model("citewise.retrieve", DEFAULT_WEIGHTS, weights, FEATURES, "learned ranker")
        return cls(model, source)

    def score(self, x: np.ndarray) -> np.ndarray:
        """One score per row (higher ranks first)."""
        return self.base + self.forest.predict_sum(np.asarray(x, dtype=np.float64))


def reorder(fused: Mapping[Key, float], keys: Sequence[Key], scores: np.ndarray) -> dict[Key, float]:
    """The fused scores with ``keys`` (the first candidates) rescored: each gets the logistic of its
    learned score, in (0, 1); the candidates after them keep their fused order, below all of them."""
    logistic = 1.0 / (1.0 + np.exp(-np.clip(scores, -30.0, 30.0)))
    out: dict[Key, float] = {key: float(p) for key, p in zip(keys, logistic, strict=True)}
    rest = [key for key in fused if key not in out]
    if rest:
        floor = 0.5 * min(out.values(), default=1.0)
        top = max(fused[key] for key in rest) or 1.0
        for key in rest:
            out[key] = floor * max(0.0, fused[key]) / top
    return out
