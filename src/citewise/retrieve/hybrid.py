"""Hybrid retrieval: lexical (bm25s) and dense (e5) rankings fused (min-max scores or RRF); documents the question
names boosted (or searched alone); provisions it names pinned first; an optional citation-aware
rerank; overlapping windows of a provision merged; cross-referenced provisions added as
supporting evidence; a ``weak`` flag when the best evidence is below the calibrated threshold."""

from __future__ import annotations

import copy
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from citewise.index.base import Hit, Store
from citewise.index.embedder import Embedder
from citewise.refs.keys import resolve_label
from citewise.refs.mentions import find_references
from citewise.refs.resolve import ReferenceResolver, Resolution
from citewise.retrieve.citation_rerank import citation_scores
from citewise.retrieve.definitions import asked_term, defines
from citewise.retrieve.fusion import fuse
from citewise.retrieve.query import analyze
from citewise.retrieve.ranker import FEATURES, LearnedRanker, RankInputs, TermsCache, candidate_features, reorder
from citewise.retrieve.records import LOOKUP_WORDS, Evidence, QueryAnalysis, RankerScore, SearchResult, Strength
from citewise.retrieve.repeats import drop_repeats
from citewise.retrieve.strength import limits, measure
from citewise.retrieve.strength import read as strength_items
from citewise.retrieve.unrelated import Unrelated
from citewise.retrieve.wording import match_key, reworded, rewrite, statement_of
from citewise.settings import RetrieveSettings
from citewise.textmatch import content_words, question_type
from citewise.types import Chunk, Node


@dataclass
class _Gathered:
    analysis: QueryAnalysis
    inputs: RankInputs
    qvec: np.ndarray | None
    reasons: dict[tuple[str, int], list[str]]


_DIVISIONS = ("part", "chapter", "annex")
"""Named divisions are a scope ("Chương II: mức khấu trừ"), not a rule a passage applies: no passage goes before
their pinned chunks for citing something inside them."""


def _nested(a: Node, b: Node) -> bool:
    """Whether two provisions of one document are the same, or one holds the other."""
    return (a.char_start <= b.char_start and b.char_end <= a.char_end) or (
        b.char_start <= a.char_start and a.char_end <= b.char_end
    )


class Retriever:
    def __init__(
        self,
        store: Store,
        embedder: Embedder | None,
        settings: RetrieveSettings | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.settings = settings or RetrieveSettings()
        self.resolver = ReferenceResolver(store)
        self.clock = clock
        self._cache: OrderedDict[tuple[str, int], tuple[tuple[int, ...], SearchResult]] = OrderedDict()
        q = self.settings.weak_probe_quantile
        self._unrelated = None if q is None else Unrelated(self._probe, q, self.settings.weak_probe_margin)
        self._learned: LearnedRanker | None = None
        self._terms = TermsCache()

    def _title(self, doc_id: str) -> str:
        return self.resolver.titles().get(doc_id, doc_id)

    def mentions(self, term: str) -> bool:
        """Whether the index holds every word of ``term`` somewhere ("Home Regulator": both words; "Dogecoin": none)."""
        return all(self.store.lexical_search(w, k=1) for w in re.findall(r"[^\W_]+", term))

    def search(self, question: str, k: int | None = None) -> SearchResult:
        """The ranked evidence for ``question``; a question asked again (same ``k``, index unchanged) is
        answered from the cache of the last ``settings.cache`` searches."""
        k = k or self.settings.k
        if self.settings.cache <= 0:
            return self._search(question, k, None if self._unrelated is None else self.store.state())
        t0 = self.clock()
        key = (" ".join(question.split()), k)
        state = self.store.state()
        hit = self._cache.get(key)
        if hit is not None and hit[0] == state:
            self._cache.move_to_end(key)
            result = copy.deepcopy(hit[1])
            result.timings = {"cache": (self.clock() - t0) * 1000, "total": (self.clock() - t0) * 1000}
            return result
        result = self._search(question, k, state)
        self._cache[key] = (state, copy.deepcopy(result))
        while len(self._cache) > self.settings.cache:
            self._cache.popitem(last=False)
        return result

    def _gather(self, question: str, timings: dict[str, float]) -> _Gathered | None:
        """Analysis, lexical and dense rankings, fusion and the document boost (``None``: chit-chat)."""
        s = self.settings
        t0 = self.clock()
        analysis = analyze(question)
        if analysis.intent == "chitchat":
            return None
        resolution = self.resolver.resolve(analysis.question, analysis.refs, analysis.docs)
        t1 = self.clock()
        timings["analysis"] = (t1 - t0) * 1000
        only = sorted(resolution.docs) if (s.restrict_to_named and resolution.docs) else None
        lexical_query = analysis.question
        if s.wording != "off" and not analysis.refs and not analysis.docs:
            lexical_query = rewrite(analysis.question, analysis.lang, s.wording, s.synonyms).text
            if lexical_query != analysis.question:
                analysis.lexical = lexical_query
        # the rewritten question replaces the typed one, or (a "wording" weight) is a ranker of its own
        beside = bool(analysis.lexical) and s.weights.get("wording", 0.0) > 0
        typed = analysis.question if beside else lexical_query
        rankings: dict[str, list[Hit]] = {"lexical": self.store.lexical_search(typed, s.candidates, only)}
        if beside:
            rankings["wording"] = self.store.lexical_search(lexical_query, s.candidates, only)
        t2 = self.clock()
        timings["lexical"] = (t2 - t1) * 1000
        qvec = None
        # A Vietnamese question typed without diacritics embeds as noise (ALQAC 2022: dense Hit@1 0.036
        # on folded questions, lexical on the folded field 0.917): leave it to the lexical ranker.
        folded_vi = analysis.lang == "vi" and analysis.question.isascii()
        if self.embedder is not None and s.weights.get("dense", 1.0) > 0 and not folded_vi:
            qvec = self.embedder.query(statement_of(analysis.question))
            t3 = self.clock()
            timings["embed"] = (t3 - t2) * 1000
            rankings["dense"] = self.store.vector_search(qvec, s.candidates, only)
            timings["dense"] = (self.clock() - t3) * 1000
        t4 = self.clock()
        fused = fuse(rankings, s.fusion, s.weights, s.rrf_k)
        reasons: dict[tuple[str, int], list[str]] = {}
        for key in fused:
            if key[0] in resolution.docs and not only:
                fused[key] *= s.doc_boost
                reasons.setdefault(key, []).append(f"boosted ×{s.doc_boost:g}: {resolution.docs[key[0]]}")
        timings["fusion"] = (self.clock() - t4) * 1000
        inputs = RankInputs(analysis.question, lexical_query, analysis.lang, rankings, fused, resolution, None)
        return _Gathered(analysis, inputs, qvec, reasons)

    def _probe(self, question: str) -> SearchResult:
        return self._search(question, self.settings.k, None)

    def _search(self, question: str, k: int, state: tuple[int, ...] | None) -> SearchResult:
        """One search of the index at ``state`` (its ``Store.state()``, read once by ``search``); ``None`` when no
        unrelated level is read (a probe of ``retrieve.unrelated``, or the level turned off)."""
        s = self.settings
        timings: dict[str, float] = {}
        t0 = self.clock()
        got = self._gather(question, timings)
        if got is None:
            timings["total"] = (self.clock() - t0) * 1000
            return SearchResult(
                analyze(question), [], weak=True, weak_reason="chit-chat: no retrieval", timings=timings
            )
        analysis, resolution, rankings, qvec, reasons = (
            got.analysis,
            got.inputs.resolution,
            got.inputs.rankings,
            got.qvec,
            got.reasons,
        )
        fused = dict(got.inputs.fused)
        per_ranker = {
            name: {(h.doc_id, h.chunk_id): RankerScore(h.score, h.rank) for h in hits}
            for name, hits in rankings.items()
        }
        if s.ranker == "learned" and fused:
            t6 = self.clock()
            keys, x = self._features(got.inputs, qvec)
            fused = reorder(fused, keys, self.learned().score(x))
            timings["ranker"] = (self.clock() - t6) * 1000
        t4 = self.clock()
        # a provision the question names is put first when the question looks it up ("khoản 2 Điều 9 Quy tắc
        # 125/2024"); asking more ("How frequently … according to Rule 13.1.1?"), the search ranks it like any other
        names = bool(resolution.pins or resolution.candidates)
        asks_more = names and self._asks_more(analysis, resolution)
        pin = s.pin_beyond or not asks_more
        named = self._pins(resolution, fused, reasons, pin) if s.pin and names else []
        pinned = named if pin else []
        order = sorted(fused, key=lambda key: -fused[key])
        lead = self._citing(resolution, pinned, order, fused, reasons) if pinned and asks_more and s.cited_first else []
        first = lead + pinned
        chunks: dict[tuple[str, int], Chunk] = {}  # read once: the definitions and the evidence share them
        defining = [key for key in self._defining(analysis, order, reasons, chunks) if key not in first]
        keys = first + defining + [key for key in order if key not in first and key not in defining]
        missing = [key for key in keys[: k * 3] if key not in chunks]
        chunks.update({(c.doc_id, c.chunk_id): c for c in self.store.chunks(refs=missing)})
        evidence = [
            Evidence(
                chunk=chunks[key],
                doc_title=self._title(key[0]),
                score=fused.get(key, 0.0),
                fused=fused.get(key, 0.0),
                rankers={name: table[key] for name, table in per_ranker.items() if key in table},
                reasons=reasons.get(key, []),
                pinned=key in pinned,
                named=key in named,
            )
            for key in keys[: k * 3]
            if key in chunks
        ]
        top = max((e.score for e in evidence), default=0.0)
        for i, e in enumerate(evidence):
            if e.pinned:
                e.score = top + 1.0 - i * 1e-3
            elif (e.chunk.doc_id, e.chunk.chunk_id) in lead:
                e.score = top + 1.0 + 1e-3
            elif (e.chunk.doc_id, e.chunk.chunk_id) in defining:
                e.score = top + 0.5 - i * 1e-3
        timings["fusion"] = timings["fusion"] + (self.clock() - t4) * 1000
        if s.rerank and analysis.refs:
            t5 = self.clock()
            self._rerank(analysis.question, analysis.refs, evidence)
            timings["rerank"] = (self.clock() - t5) * 1000
        evidence.sort(key=lambda e: -e.score)
        evidence = drop_repeats(merge_windows(evidence))[:k]
        if qvec is not None:
            for ref, cos in self.store.vector_scores(
                qvec, [(e.chunk.doc_id, e.chunk.chunk_id) for e in evidence]
            ).items():
                for e in evidence:
                    if (e.chunk.doc_id, e.chunk.chunk_id) == ref:
                        e.dense = cos
        if s.xrefs:
            evidence.extend(self._supporting(evidence))
        if resolution.mentions:
            have = {(e.chunk.doc_id, m) for e in evidence for m in [e.chunk.chunk_id, *e.merged]}
            evidence.extend(self._mentioned(resolution, have))
        for i, e in enumerate(evidence):
            e.rank = i + 1
        strength = measure(analysis.question, evidence)
        dense_limit, cov_limit = limits(analysis.lang, s.weak_dense, s.weak_coverage)
        if self._unrelated is not None and state is not None:
            tb = self.clock()
            level = self._unrelated.known(analysis.lang, state)
            if level is None and strength.is_weak(1.0, cov_limit) and not strength.is_weak(dense_limit, cov_limit):
                level = self._unrelated.level(analysis.lang, state)  # weak at some limit: read the one it needs
            strength = replace(strength, unrelated=level)
            timings["unrelated"] = (self.clock() - tb) * 1000
        why = strength.why_weak(dense_limit, cov_limit)
        if why and qvec is not None and s.wording != "off" and s.synonyms:
            t6 = self.clock()
            strength = self._in_legal_words(analysis, evidence, strength)
            why = strength.why_weak(dense_limit, cov_limit)
            timings["wording_cosine"] = (self.clock() - t6) * 1000
        timings["total"] = (self.clock() - t0) * 1000
        return SearchResult(analysis, evidence, bool(why), why, timings, strength)

    def _in_legal_words(self, analysis: QueryAnalysis, evidence: list[Evidence], strength: Strength) -> Strength:
        """``strength`` with the best cosine of the question read in the provisions' wording too, when that reads it
        closer to the evidence found: "Mất vali ở sân bay nước ngoài thì được đền tối đa bao nhiêu?" is weak as typed
        (cosine 0.851 with the baggage clause) and not as "mất hành lý … bồi thường thiệt hại tối đa bao nhiêu?"
        (0.893). Only for a weak result whose question has everyday forms (one more query embedding)."""
        legal = reworded(analysis.question, analysis.lang, broader=False)  # "ở Singapore" is no trip to a zone here
        if self.embedder is None or legal == match_key(analysis.question):
            return strength
        read = [(e.chunk.doc_id, e.chunk.chunk_id) for e in strength_items(evidence)]
        scores = self.store.vector_scores(self.embedder.query(legal), read)
        best = max(scores.values(), default=None)
        if best is None or (strength.dense is not None and best <= strength.dense):
            return strength
        return replace(strength, dense=best)

    def features(self, question: str) -> tuple[list[tuple[str, int]], np.ndarray]:
        """The learned ranker's candidates for ``question`` (the first ``ranker_depth`` of the fusion, after
        the document boost, in fused order) and their ``ranker.FEATURES`` rows — what ``bench/ranker.py``
        trains on. Empty for chit-chat and when nothing is found."""
        got = self._gather(question, {})
        if got is None or not got.inputs.fused:
            return [], np.zeros((0, len(FEATURES)))
        return self._features(got.inputs, got.qvec)

    def learned(self) -> LearnedRanker:
        """The learned ranker (``settings.ranker_weights`` or the packaged model), loaded once."""
        if self._learned is None:
            self._learned = LearnedRanker.load(self.settings.ranker_weights)
        return self._learned

    def _features(self, inputs: RankInputs, qvec: np.ndarray | None) -> tuple[list[tuple[str, int]], np.ndarray]:
        depth = self.settings.ranker_depth
        keys = sorted(inputs.fused, key=lambda key: -inputs.fused[key])[:depth]
        if qvec is not None and "dense" in inputs.rankings:
            inputs.dense = self.store.vector_scores(qvec, keys)
        chunks = {(c.doc_id, c.chunk_id): c for c in self.store.chunks(refs=keys)}
        titles, nodes_of = self.resolver.titles(), self.resolver.nodes_of
        x = candidate_features(inputs, keys, chunks, titles, nodes_of, self.settings.candidates, self._terms)
        return keys, x

    # -- steps --------------------------------------------------------------------------
    def _asks_more(self, analysis: QueryAnalysis, res: Resolution) -> bool:
        """Whether the question asks more than a lookup of the provisions it names: more than ``LOOKUP_WORDS``
        content words once the references and the titles of the documents holding them are taken out ("dieu 83 luat
        kinh doanh bao hiem" looks Điều 83 up; "How frequently … according to Rule 13.1.1?" asks more), and asked as a
        question, not typed as keywords beside the reference."""
        rest = analysis.beyond_references()
        if len(rest) <= LOOKUP_WORDS:
            return False
        # keywords beside the reference look it up: "EU AI Act Article 5(1)(h) real-time biometric identification"
        if "?" not in analysis.question and question_type(analysis.question) == "other":
            return False
        titles = self.resolver.titles()
        docs = {d for d, _, _ in [*res.pins, *res.candidates]} | set(res.docs)
        for doc_id in docs:
            rest -= content_words(titles.get(doc_id, ""))
        return len(rest) > LOOKUP_WORDS

    def _pins(
        self,
        res: Resolution,
        fused: dict[tuple[str, int], float],
        reasons: dict[tuple[str, int], list[str]],
        pin: bool = True,
    ) -> list[tuple[str, int]]:
        """Chunks of the provisions the question asks about, the best-ranked provision first. A
        provision found in several documents (none named) is pinned only where the search itself
        ranks it in its first 20, and only the best of them. ``pin``: they go first (their reason says
        "pinned"); else they are only found, and ranked by the search."""
        top20 = set(sorted(fused, key=lambda key: -fused[key])[:20])

        def keys_of(doc_id: str, node: Node) -> list[tuple[str, int]]:
            return [
                (c.doc_id, c.chunk_id) for c in self.store.chunks_overlapping(doc_id, node.char_start, node.char_end)
            ]

        def best(keys: list[tuple[str, int]]) -> float:
            return max((fused.get(key, -1.0) for key in keys), default=-1.0)

        chosen = [(best(keys), keys, node, ref) for doc_id, node, ref in res.pins if (keys := keys_of(doc_id, node))]
        ranked = [
            (best(keys), keys, node, ref)
            for doc_id, node, ref in res.candidates
            if (keys := keys_of(doc_id, node)) and top20.intersection(keys)
        ]
        if ranked:
            chosen.append(max(ranked, key=lambda x: x[0]))
        chosen.sort(key=lambda x: -x[0])
        pins: list[tuple[str, int]] = []
        cap = max(1, self.settings.max_pinned_chunks)
        for _, keys, node, ref in chosen:
            # a provision longer than the cap: the chunks of it the search ranks best
            keep = keys if len(keys) <= cap else sorted(keys, key=lambda key: -fused.get(key, -1.0))[:cap]
            for key in keep:
                if key not in pins:
                    pins.append(key)
                    said = (
                        f"pinned: {node.label} named in the question ({ref.raw})"
                        if pin
                        else f"found: {node.label} named in the question ({ref.raw}), ranked by the search"
                    )
                    reasons.setdefault(key, []).append(said)
        return pins

    def _defining(
        self,
        analysis: QueryAnalysis,
        order: list[tuple[str, int]],
        reasons: dict[tuple[str, int], list[str]],
        chunks: dict[tuple[str, int], Chunk],
    ) -> list[tuple[str, int]]:
        """The first ``definition_depth`` candidates (in ``order``) that define the term the question asks the
        meaning of, in that order (none when it asks none); the chunks read are added to ``chunks``."""
        if not self.settings.definitions or not order:
            return []
        term = asked_term(analysis.question, analysis.lang)
        if term is None:
            return []
        keys = order[: self.settings.definition_depth]
        chunks.update({(c.doc_id, c.chunk_id): c for c in self.store.chunks(refs=keys)})
        out = [key for key in keys if key in chunks and defines(chunks[key].body, term)]
        for key in out:
            reasons.setdefault(key, []).append(f"defines “{term}”")
        return out

    def _citing(
        self,
        res: Resolution,
        pinned: list[tuple[str, int]],
        order: list[tuple[str, int]],
        fused: dict[tuple[str, int], float],
        reasons: dict[tuple[str, int], list[str]],
    ) -> list[tuple[str, int]]:
        """The passage ranked above the pinned provision, when it cites that provision and the question asks
        more than a lookup ("Under Rule 15.9.1, how often must ... reconciliations?"): the rule the question
        names is its basis, and the passage applying it is the better answer. It goes first, the pinned
        provision right after it. Only for a question asking more than a lookup (the caller's ``_asks_more``): a
        lookup ("Điều 12 Luật KDBH") keeps the named provision first."""
        top = next((key for key in order if key not in pinned), None)
        if top is None or fused[top] <= max(fused.get(key, -1.0) for key in pinned):
            return []
        chunk = next(iter(self.store.chunks(refs=[top])), None)
        if chunk is None:
            return []
        named = [(d, n, r) for d, n, r in [*res.pins, *res.candidates] if n.kind not in _DIVISIONS]
        own = self.resolver.nodes_of(chunk.doc_id)
        for written in find_references(chunk.body, chunk.lang):
            # a reference is to the citing document's own provision when it has one by that label, else elsewhere
            target = resolve_label(own, written)
            for doc_id, node, ref in named:
                if target is None and doc_id != chunk.doc_id:
                    found = resolve_label(self.resolver.nodes_of(doc_id), written)
                else:
                    found = target if doc_id == chunk.doc_id else None
                if found is not None and _nested(found, node):
                    reasons.setdefault(top, []).append(f"cites {written}, named in the question ({ref.raw})")
                    return [top]
        return []

    def _mentioned(self, res: Resolution, have: set[tuple[str, int]]) -> list[Evidence]:
        """Provisions named as a condition in the question ("hành vi quy định tại Điều 322"),
        added as supporting evidence: the answer may need their text, but they are not its subject."""
        out: list[Evidence] = []
        for doc_id, node, ref in res.mentions[: self.settings.max_supporting]:
            why = f"supporting: {node.label} named in the question ({ref.raw})"
            e = self._support(doc_id, node, self._title(doc_id), why, have)
            if e is not None:
                out.append(e)
        return out

    def _support(
        self, doc_id: str, target: Node, doc_title: str, reason: str, have: set[tuple[str, int]]
    ) -> Evidence | None:
        """Supporting evidence: the first chunk of ``target``, unless it is already among ``have``."""
        chunks = self.store.chunks_overlapping(doc_id, target.char_start, target.char_end)
        if not chunks or (chunks[0].doc_id, chunks[0].chunk_id) in have:
            return None
        c = chunks[0]
        have.add((c.doc_id, c.chunk_id))
        return Evidence(
            chunk=c,
            doc_title=doc_title,
            score=0.0,
            supporting=True,
            reasons=[reason],
            char_start=c.char_start,
            char_end=c.char_end,
            text=c.body,
        )

    def _rerank(self, question: str, refs: list, evidence: list[Evidence]) -> None:  # type: ignore[type-arg]
        w = self.settings.rerank_weight
        top = max((e.fused for e in evidence), default=0.0) or 1.0
        scores = citation_scores(question, refs, [e.chunk for e in evidence])
        for e, cs in zip(evidence, scores, strict=True):
            if e.pinned:
                continue
            e.score = (1 - w) * (e.fused / top) + w * cs
            if cs > 0:
                e.reasons.append(f"citation rerank {cs:.2f}")

    def _supporting(self, evidence: list[Evidence]) -> list[Evidence]:
        have = {(e.chunk.doc_id, e.chunk.chunk_id) for e in evidence}
        have |= {(e.chunk.doc_id, m) for e in evidence for m in e.merged}
        out: list[Evidence] = []
        for e in evidence[:3]:
            nodes = self.resolver.nodes_of(e.chunk.doc_id)
            inside = self.resolver.nodes_within(e.chunk.doc_id, e.chunk.char_start, e.chunk.char_end)
            if e.chunk.node_id is not None and e.chunk.node_id < len(nodes):
                inside.append(nodes[e.chunk.node_id])
            for n in inside:
                for target_id in n.xrefs:
                    target = nodes[target_id]
                    why = f"supporting: {n.label} refers to {target.label}"
                    found = self._support(e.chunk.doc_id, target, e.doc_title, why, have)
                    if found is None:
                        continue
                    out.append(found)
                    if len(out) >= self.settings.max_supporting:
                        return out
        return out


def _join(a: Evidence, b: Chunk) -> None:
    """Extend ``a`` (already holding text) with an overlapping or touching window ``b``."""
    if b.char_start < a.char_start:
        a.text = b.body[: a.char_start - b.char_start] + a.text
        a.char_start = b.char_start
    if b.char_end > a.char_end:
        a.text = a.text + b.body[len(b.body) - (b.char_end - a.char_end) :]
        a.char_end = b.char_end


def merge_windows(evidence: list[Evidence]) -> list[Evidence]:
    """Merge overlapping windows of one provision into the best-ranked of them."""
    out: list[Evidence] = []
    for e in evidence:
        if not e.text:
            e.char_start, e.char_end, e.text = e.chunk.char_start, e.chunk.char_end, e.chunk.body
        host = next(
            (
                o
                for o in out
                if o.chunk.doc_id == e.chunk.doc_id
                and o.chunk.node_id == e.chunk.node_id
                and e.chunk.node_id is not None
                and e.chunk.char_start < o.char_end
                and o.char_start < e.chunk.char_end
                and e.chunk.prefix == "" == o.chunk.prefix
            ),
            None,
        )
        if host is None:
            out.append(e)
            continue
        _join(host, e.chunk)
        host.merged.append(e.chunk.chunk_id)
        host.pinned = host.pinned or e.pinned
        host.named = host.named or e.named
        host.reasons.extend(r for r in e.reasons if r not in host.reasons)
        for name, rs in e.rankers.items():
            host.rankers.setdefault(name, rs)
    return out
