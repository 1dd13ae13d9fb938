"""Pair builders for the neural judge (answerability and support), read by path from the shared data sets.

Every pair is ``JudgePair(task, a, b, label, ...)``: ``task`` is ``ans`` (a = question, b = sentence) or ``sup``
(a = claim, b = premise); ``label`` 1 = the text states the answer / the premise supports the claim.

Splits (deterministic):
- SQuAD 2.0 dev: by article title, titles sorted then shuffled with ``random.Random(13)``, 70/15/15 train/dev/test.
- ViQuAD 1.0: its own train (train), dev (dev) and test (test) files; all questions answerable, negatives built
  (see :func:`qa_pairs`).
- vi_answerability (no licence): dev file = dev, train file = test; never trained on.
- answerability/ (URASys 500-row samples, EN + VI): final evaluation only (:func:`urasys_questions`).
- support: WiCE / ContractNLI / ALQAC 2022 / constructed law pairs through the repo's ``support_pairs`` /
  ``support_synth`` (their hashed 70/30 train/dev split); ALQAC 2023 is final evaluation only; PAWS-X EN dev
  hashed 70/30 by row.

Answerability pairs per question (train and pair-level eval):
- answerable: positive = the sentence(s) covering the answer span; negatives = the two other sentences of the
  paragraph with the most word overlap with the question ("near-miss"), and the answer sentence with the answer
  span replaced by the answer of another question of the same paragraph ("swap": a span of the same paragraph,
  different text, so the sentence no longer states the answer).
- unanswerable (SQuAD 2.0 only): negatives = the sentence holding the plausible answer and the best-overlap
  other sentence.

``python training/judge_pairs.py`` prints the counts per task, dataset, split, kind and label.
"""

from __future__ import annotations

import ast
import csv
import hashlib
import json
import os
import random
import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[1] / "src"
if str(SRC) not in sys.path:  # the training venv has torch but not citewise installed
    sys.path.insert(0, str(SRC))

from citewise.evaluate.data import shared_data  # noqa: E402

DATA = shared_data()
SEP = "</s></s> "


@dataclass(frozen=True)
class JudgePair:
    task: str  # "ans" | "sup"
    a: str  # question / claim
    b: str  # sentence / premise
    label: int
    dataset: str
    split: str
    kind: str
    group: str
    lang: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def engine_text(task: str, a: str, b: str) -> tuple[str, bool]:
    """The single string (and query/passage prefix) the engine embeds for a pair: XLM-R style
    ``<s> query: A </s></s> B </s>`` for answerability, ``<s> passage: A </s></s> B </s>`` for support."""
    a = a.replace("</s>", " ").strip()
    b = b.replace("</s>", " ").strip()
    return a + SEP + b, task == "ans"


# -- sentences --------------------------------------------------------------------------------------
_SENT = re.compile(r"(?<=[.!?…])[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-ZÀ-ỸĐ0-9])")


def sentence_spans(text: str, min_words: int = 4) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENT.finditer(text):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text)))
    spans = [(s, e) for s, e in spans if text[s:e].strip()]
    merged: list[tuple[int, int]] = []
    for s, e in spans:  # glue fragments too short to stand alone onto the previous sentence
        if merged and len(text[s:e].split()) < min_words:
            merged[-1] = (merged[-1][0], e)
        else:
            merged.append((s, e))
    return merged


def _words(s: str) -> set[str]:
    return {w for w in re.findall(r"\w+", s.lower()) if len(w) > 2}


def _shape(s: str) -> tuple[bool, bool]:
    return (any(c.isdigit() for c in s), s[:1].isupper())


def _h(s: str) -> float:
    return int(hashlib.sha256(s.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


# -- question answering sets ------------------------------------------------------------------------
@dataclass
class Question:
    qid: str
    question: str
    context: str
    answers: list[tuple[int, str]]  # (start, text); empty = unanswerable
    plausible: list[tuple[int, str]]
    dataset: str
    split: str
    lang: str
    title: str

    @property
    def answerable(self) -> bool:
        return bool(self.answers)


def squad_split_titles(seed: int = 13) -> dict[str, str]:
    d = json.loads((DATA / "squad2" / "dev-v2.0.json").read_text(encoding="utf-8"))
    titles = sorted(a["title"] for a in d["data"])
    random.Random(seed).shuffle(titles)
    n = len(titles)
    ntr, ndev = round(0.70 * n), round(0.15 * n)
    return {t: ("train" if i < ntr else "dev" if i < ntr + ndev else "test") for i, t in enumerate(titles)}


def _squad_questions(path: Path, dataset: str, lang: str, split_of: dict[str, str] | str) -> Iterator[Question]:
    d = json.loads(path.read_text(encoding="utf-8"))
    for art in d["data"]:
        title = art.get("title", "")
        split = split_of if isinstance(split_of, str) else split_of[title]
        for para in art["paragraphs"]:
            ctx = para["context"]
            for qa in para["qas"]:
                ans = [] if qa.get("is_impossible") else [(a["answer_start"], a["text"]) for a in qa["answers"]]
                pl = [(a["answer_start"], a["text"]) for a in qa.get("plausible_answers") or []]
                yield Question(qa["id"], qa["question"], ctx, ans, pl, dataset, split, lang, title)


def squad2_questions() -> list[Question]:
    return list(_squad_questions(DATA / "squad2" / "dev-v2.0.json", "squad2", "en", squad_split_titles()))


def viquad_questions() -> list[Question]:
    out: list[Question] = []
    for split in ("train", "dev", "test"):
        out += _squad_questions(DATA / "viquad1" / f"{split}_ViQuAD.json", "viquad1", "vi", split)
    return out


def vi_answerability_questions() -> list[Question]:
    base = DATA / "vi_answerability"
    return list(_squad_questions(base / "dev-v2.0.json", "vi_ans", "vi", "dev")) + list(
        _squad_questions(base / "train-v2.0.json", "vi_ans", "vi", "test")
    )


def urasys_questions() -> list[Question]:
    """answerability/ 500-row samples (EN SQuAD 2.0, VI UIT-ViQuAD 2.0): final evaluation only."""
    out: list[Question] = []
    for fname, lang, col in (("Squad2_half.csv", "en", "paragraph"), ("Viquad2_half.csv", "vi", "paragraphs")):
        with open(DATA / "answerability" / fname, encoding="utf-8") as fh:
            for i, r in enumerate(csv.DictReader(fh)):
                paras = ast.literal_eval(r[col])
                texts: list[str] = []
                for p in paras:
                    t = p.get("paragraph_text", "")
                    if isinstance(t, str) and t.startswith("["):
                        try:
                            t = " ".join(ast.literal_eval(t))
                        except (ValueError, SyntaxError):
                            pass
                    texts.append(str(t))
                ans = r["answer"].strip().strip("'\"")
                answerable = bool(ans) and ans.lower() != "no answer"
                ctx = "\n".join(texts)
                out.append(
                    Question(
                        f"urasys-{lang}-{i}",
                        r["question"],
                        ctx,
                        [(-1, ans)] if answerable else [],
                        [],
                        f"urasys_{lang}",
                        "final",
                        lang,
                        "",
                    )
                )
    return out


def _covering(spans: list[tuple[int, int]], start: int, end: int) -> list[int]:
    return [i for i, (s, e) in enumerate(spans) if s < end and e > start]


def qa_pairs(questions: list[Question], seed: int = 7, n_near: int = 2) -> Iterator[JudgePair]:
    rng = random.Random(seed)
    by_ctx: dict[str, list[Question]] = {}
    for q in questions:
        by_ctx.setdefault(q.context, []).append(q)
    for ctx, qs in by_ctx.items():
        spans = sentence_spans(ctx)
        sents = [ctx[s:e].strip() for s, e in spans]
        answers_here = {a[1] for q in qs for a in q.answers}
        for q in qs:
            qw = _words(q.question)
            base = dict(dataset=q.dataset, split=q.split, group=f"{q.dataset}:{q.qid}", lang=q.lang)
            if q.answers:
                start, text = q.answers[0]
                pos = _covering(spans, start, start + len(text)) if start >= 0 else []
                if not pos:
                    continue
                ptxt = ctx[spans[pos[0]][0] : spans[pos[-1]][1]].strip()
                yield JudgePair("ans", q.question, ptxt, 1, kind="answer", **base)
                others = [i for i in range(len(sents)) if i not in pos and text not in sents[i]]
                others.sort(key=lambda i: -len(qw & _words(sents[i])))
                for i in others[:n_near]:
                    yield JudgePair("ans", q.question, sents[i], 0, kind="near-miss", **base)
                alts = [a for a in answers_here if a and text not in a and a not in text and len(a) < 80]
                if alts and text in ptxt:
                    same = [a for a in alts if _shape(a) == _shape(text)]  # a date for a date, a name for a name
                    alt = rng.choice(sorted(same or alts))
                    k = ptxt.find(text)
                    swapped = ptxt[:k] + alt + ptxt[k + len(text) :]
                    yield JudgePair("ans", q.question, swapped, 0, kind="swap", **base)
            else:
                hard: list[int] = []
                for start, text in q.plausible[:1]:
                    hard = _covering(spans, start, start + len(text))[:1]
                rest = [i for i in range(len(sents)) if i not in hard]
                rest.sort(key=lambda i: -len(qw & _words(sents[i])))
                for i in (hard + rest)[: 1 + (0 if hard else 1) + (1 if hard else 0)]:
                    yield JudgePair("ans", q.question, sents[i], 0, kind="unanswerable", **base)


def passage_items(q: Question) -> list[str]:
    """The evidence units of a question's context for the passage-level decision (max over sentences)."""
    return [q.context[s:e].strip() for s, e in sentence_spans(q.context)]


# -- support ----------------------------------------------------------------------------------------
def _repo_support() -> tuple[Any, Any, Any]:
    for p in (str(SRC), str(SRC.parent)):
        if p not in sys.path:
            sys.path.insert(0, p)
    from training.support_pairs import load_pairs, split_of
    from training.support_synth import synthetic_pairs

    return load_pairs, synthetic_pairs, split_of


def premise_windows(source: str, max_chars: int = 450) -> list[str]:
    """Consecutive sentences packed into windows of at most ``max_chars`` (a longer sentence is cut)."""
    sents = [source[s:e].strip() for s, e in sentence_spans(source.replace("\n", " \n "))]
    out: list[str] = []
    cur = ""
    for s in sents:
        s = re.sub(r"\s+", " ", s)
        if cur and len(cur) + 1 + len(s) > max_chars:
            out.append(cur)
            cur = ""
        cur = (cur + " " + s).strip() if cur else s[:max_chars]
    if cur:
        out.append(cur)
    return out or [source[:max_chars]]


def best_window(claim: str, source: str, max_chars: int = 450) -> str:
    cw = _words(claim)
    wins = premise_windows(source, max_chars)
    return max(wins, key=lambda w: len(cw & _words(w)))


@dataclass
class SupportItem:
    claim: str
    source: str
    label: int
    dataset: str
    split: str
    kind: str
    group: str
    lang: str


def support_items(include_alqac2023: bool = False) -> list[SupportItem]:
    load_pairs, synthetic_pairs, split_of = _repo_support()
    sets = ["wice", "contractnli", "alqac2022"] + (["alqac2023"] if include_alqac2023 else [])
    out: list[SupportItem] = []
    for p in load_pairs(DATA, sets):
        lang = "vi" if p.dataset.startswith("alqac") else "en"
        split = "final" if p.dataset == "alqac2023" else p.split
        kind = p.kind
        if p.dataset == "alqac2023" and p.kind == "natural":
            kind = "true/false"
        out.append(SupportItem(p.claim, p.source, int(p.label == "supported"), p.dataset, split, kind, p.group, lang))
    for lang in ("en", "vi"):
        for p in synthetic_pairs(DATA, lang):
            out.append(
                SupportItem(p.claim, p.source, int(p.label == "supported"), p.dataset, p.split, p.kind, p.group, lang)
            )
    with open(DATA / "nli" / "pawsx" / "dev-en.tsv", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3:
                continue
            g = f"pawsx:{i}"
            out.append(
                SupportItem(parts[1], parts[0], int(parts[2] == "1"), "pawsx", split_of(g), "paraphrase", g, "en")
            )
    return out


def support_pairs(items: list[SupportItem]) -> Iterator[JudgePair]:
    """One pair per item: the claim against the source window (≤ 450 chars) with the most word overlap."""
    for it in items:
        yield JudgePair(
            "sup",
            it.claim,
            best_window(it.claim, it.source),
            it.label,
            it.dataset,
            it.split,
            it.kind,
            it.group,
            it.lang,
        )


# -- easy negatives (curriculum) ----------------------------------------------------------------------
def easy_pairs(pairs: list[JudgePair], split: str, seed: int = 17) -> list[JudgePair]:
    """Easy negatives for the first part of training, from the pairs of one split: a question against a
    sentence of another question's pair from another group (``other-question``; the group of a SQuAD pair is its
    question, so this mixes other paragraphs and other articles), and a claim against another claim's premise
    window (``wrong-window``). Labels are 0 by construction."""
    rng = random.Random(seed)
    out: list[JudgePair] = []
    for task, kind in (("ans", "other-question"), ("sup", "wrong-window")):
        mine = [p for p in pairs if p.split == split and p.task == task]
        by_lang: dict[str, list[JudgePair]] = {}
        for p in mine:
            by_lang.setdefault(p.lang, []).append(p)
        for p in mine:
            if p.label != 1:
                continue
            pool = by_lang[p.lang]
            other = pool[rng.randrange(len(pool))]
            if other.group == p.group or other.b == p.b:
                continue
            out.append(JudgePair(task, p.a, other.b, 0, p.dataset, split, kind, p.group, p.lang))
    return out


# -- written answerability pairs ----------------------------------------------------------------------
WRITTEN_ANS = Path(__file__).resolve().parent / "sets"
"""``answerability_written_{en,vi}.jsonl``: question ⟂ sentence pairs written for the project (training/sets/README.md)."""


def written_answerability_rows(
    folder: Path = WRITTEN_ANS, sets: tuple[str, ...] = ("written", "policies")
) -> list[dict[str, Any]]:
    """The rows of the hand-written answerability files of ``sets`` (``answerability_{set}_{lang}.jsonl``), as
    written: question, sentence, passage, label, kind, split, … (training/sets/README.md)."""
    out: list[dict[str, Any]] = []
    for path in sorted(p for name in sets for p in folder.glob(f"answerability_{name}_*.jsonl")):
        out += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return out


def written_answerability_pairs(
    folder: Path = WRITTEN_ANS, sets: tuple[str, ...] = ("written", "policies")
) -> list[JudgePair]:
    """The hand-written answerability pairs (dataset ``written-ans``): each sentence of a provision (of a public legal
    text, or of a fictional policy written for the project) with questions it answers and near-miss questions about
    the same provision it does not answer; split by article (by policy)."""
    return [
        JudgePair(
            "ans",
            r["question"],
            r["sentence"],
            int(r["label"]),
            "written-ans",
            r["split"],
            r["kind"],
            f"{r['source']}:{r['doc']}:{r['provision']}",
            r["lang"],
        )
        for r in written_answerability_rows(folder, sets)
    ]


def synth_answerability_pairs() -> list[JudgePair]:
    """The constructed Vietnamese answerability pairs (dataset ``synth-ans``, ``training/answerability_synth.py``):
    provisions of the Pháp điển insurance topic against questions built from them in situ; split by article."""
    if str(SRC.parent) not in sys.path:
        sys.path.insert(0, str(SRC.parent))
    from training.answerability_synth import DATASET, synth_pairs

    return [
        JudgePair("ans", p.question, p.sentence, p.label, DATASET, p.split, p.kind, f"phapdien:{p.article}", "vi")
        for p in synth_pairs()
    ]


def written_support_pairs() -> list[JudgePair]:
    """The hand-written support pairs (dataset ``written-sup``): a provision's sentence against claims that restate
    it (supported) and minimal-edit near-misses (a figure, a party, a date, a negation, a modality, a dropped
    condition, an added fact: unsupported), split by article, with the two easy kinds ``support_pairs.written_pairs``
    adds (the premise supports itself; claims written for other premises of the same document do not). Without
    those the classifier learns that a reworded claim is supported and a near-verbatim one is not (run r8b: "Cats
    are mammals." supported at 0.99; docs/judge-training.md, session 10). The premise is read as the run time reads it:
    the window most like the claim."""
    _repo_support()
    from training.support_pairs import written_pairs
    from training.support_perturb import perturbed_pairs

    out: list[JudgePair] = []
    for lang in ("en", "vi"):
        for dataset, made in (("written-sup", written_pairs(lang)), ("written-pert", perturbed_pairs(lang))):
            for p in made:
                label = int(p.label == "supported")
                window = best_window(p.claim, p.source)
                out.append(JudgePair("sup", p.claim, window, label, dataset, p.split, p.kind, p.group, lang))
    return out


# -- everything -------------------------------------------------------------------------------------
LICENCES = {
    "squad2": "CC BY-SA 4.0",
    "viquad1": "research use (borderline for shipped weights)",
    "vi_ans": "none stated (eval only)",
    "urasys_en": "SQuAD 2.0 sample, CC BY-SA 4.0 (eval only)",
    "urasys_vi": "UIT-ViQuAD 2.0 sample, research (eval only)",
    "wice": "ODC-BY 1.0 annotations, Wikipedia CC BY-SA / Common Crawl text",
    "contractnli": "CC BY 4.0",
    "alqac2022": "research use (ALQAC 2022; derived pairs)",
    "alqac2023": "research use (final eval only)",
    "synth-en": "constructed from GDPR / EU AI Act (EU reuse decision)",
    "synth-vi": "constructed from Vietnamese legal texts (not copyrightable) incl. ALQAC 2022 law corpus",
    "synth-ans": "constructed from the Pháp điển insurance topic (Vietnamese legal text, not copyrightable)",
    "pawsx": "free use (Google)",
    "written-ans": "written for the project; sentences from GDPR / EU AI Act (EU reuse decision) and the Pháp điển"
    " insurance topic (public legal text)",
    "written-pert": "constructed from the written support pairs (training/support_perturb.py), same sources",
    "written-sup": "written for the project; premises from GDPR / EU AI Act (EU reuse decision), the Pháp điển"
    " insurance topic and ALQAC 2022 statutes (public legal text; no ALQAC question or label) and the project's sample corpus",
}


def all_pairs() -> list[JudgePair]:
    pairs: list[JudgePair] = []
    pairs += qa_pairs(squad2_questions())
    pairs += qa_pairs(viquad_questions())
    pairs += qa_pairs(vi_answerability_questions())
    pairs += support_pairs(support_items())
    return pairs


def summary(pairs: list[JudgePair]) -> str:
    c = Counter((p.task, p.dataset, p.split, p.kind, p.label) for p in pairs)
    lines = [f"{t:4} {d:12} {s:6} {k:14} label={lab}: {n}" for (t, d, s, k, lab), n in sorted(c.items())]
    tot = Counter((p.task, p.split, p.label) for p in pairs)
    lines += [f"TOTAL {t} {s} label={lab}: {n}" for (t, s, lab), n in sorted(tot.items())]
    return "\n".join(lines)


if __name__ == "__main__":
    ps = all_pairs()
    print(summary(ps))
    out = Path(os.environ.get("JUDGE_RUNS", str(Path(__file__).resolve().parents[1] / ".judge-runs"))) / "pairs.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for p in ps:
            fh.write(json.dumps(p.to_dict(), ensure_ascii=False) + "\n")
    print("wrote", out, len(ps))
