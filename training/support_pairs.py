"""Claim/source pairs for training and measuring the support scorer, read from the shared data
sets by path (nothing is copied):

- **WiCE** (``wice/claim/dev.jsonl``, the only split available here): a Wikipedia claim against
  the web page it cites; supported / partially_supported / not_supported.
- **ContractNLI** (``contractnli/dev.json``): a hypothesis against the run of contract spans that
  holds its evidence (Entailment = supported, Contradiction = unsupported), or against the run
  most similar to it when the contract does not mention it (NotMentioned = unsupported); plus
  negated and modality-swapped entailed hypotheses (unsupported).
- **ALQAC 2022** (``alqac2022``, derived): the question with its short answer filled in, against
  the gold article (supported), against the most similar other article of the same law
  (unsupported), and with a changed number, an inserted "không", or "phải"/"có thể" swapped
  (unsupported).
- **Written** (``training/sets/support_written_{en,vi}.jsonl``, in this repository): premise/claim
  pairs written for this project on EU and Vietnamese legal text and the sample corpus, supported
  claims phrased the way an answer restates a provision; ``train`` / ``dev`` per article, as the
  file says (training/sets/README.md).
- **ALQAC 2023** (``alqac2023/train.json``, natural, never trained on): true/false statements
  (Đúng = supported, Sai = unsupported) and multiple-choice stems with the right option
  (supported) or a wrong one (unsupported), against the gold article.

Every pair belongs to a group (a claim, a contract, a question) and each group to ``train`` or
``dev`` by a stable hash of its id, so no claim is in both splits."""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from citewise.figures import extract_numbers
from citewise.textmatch import content_words, coverage

DEV_SHARE = 0.3
LABELS = ("supported", "partial", "unsupported")


@dataclass(frozen=True)
class Pair:
    claim: str
    source: str
    label: str
    """``supported`` | ``partial`` | ``unsupported``."""
    dataset: str
    split: str
    """``train`` | ``dev``."""
    kind: str = "natural"
    """How the pair was made: natural, wrong-article, number, negation, modality, option."""
    group: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def split_of(group: str, dev_share: float = DEV_SHARE) -> str:
    h = int(hashlib.sha256(group.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return "dev" if h < dev_share else "train"


# -- WiCE -----------------------------------------------------------------------------------
_WICE_LABEL = {"supported": "supported", "partially_supported": "partial", "not_supported": "unsupported"}


def wice_pairs(root: Path) -> Iterator[Pair]:
    for line in (root / "wice" / "claim" / "dev.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        group = f"wice:{r['meta']['id']}"
        source = "\n".join(s if s.rstrip().endswith((".", "!", "?", ":", ";")) else s + "." for s in r["evidence"])
        yield Pair(r["claim"], source, _WICE_LABEL[r["label"]], "wice", split_of(group), group=group)


# -- ContractNLI ----------------------------------------------------------------------------
_EN_NEGATE = [
    (r"\bshall not\b", "shall"),
    (r"\bmay not\b", "may"),
    (r"\bshall\b", "shall not"),
    (r"\bmay\b", "may not"),
]
_EN_MODAL = [(r"\bshall\b", "may"), (r"\bmay\b", "shall")]


def _first_sub(rules: list[tuple[str, str]], text: str, flags: int = 0) -> str | None:
    for pat, repl in rules:
        if re.search(pat, text, flags):
            return re.sub(pat, repl, text, count=1, flags=flags)
    return None


def _span_window(doc: dict[str, Any], ids: list[int], hypothesis: str, width: int = 6) -> str:
    spans = doc["spans"]
    text = doc["text"]
    if ids:
        lo, hi = max(0, min(ids) - 2), min(len(spans) - 1, max(ids) + 2)
        if hi - lo + 1 > 3 * width:  # evidence far apart: the evidence spans with one neighbour each
            keep = sorted({j for i in ids for j in (i - 1, i, i + 1) if 0 <= j < len(spans)})
            return "\n".join(text[spans[i][0] : spans[i][1]].strip() for i in keep)
    else:
        scores = [coverage(hypothesis, text[s:e]) for s, e in spans]
        best = max(range(len(spans)), key=lambda i: sum(scores[i : i + width]))
        lo, hi = best, min(len(spans) - 1, best + width - 1)
    return "\n".join(text[spans[i][0] : spans[i][1]].strip() for i in range(lo, hi + 1))


def contractnli_pairs(root: Path) -> Iterator[Pair]:
    data = json.loads((root / "contractnli" / "dev.json").read_text(encoding="utf-8"))
    hyps = {k: v["hypothesis"] for k, v in data["labels"].items()}
    for doc in data["documents"]:
        group = f"contractnli:{doc['id']}"
        split = split_of(group)
        for key, ann in doc["annotation_sets"][0]["annotations"].items():
            hyp = hyps[key]
            source = _span_window(doc, ann["spans"], hyp)
            if ann["choice"] == "Entailment":
                yield Pair(hyp, source, "supported", "contractnli", split, group=group)
                neg = _first_sub(_EN_NEGATE, hyp)
                if neg:
                    yield Pair(neg, source, "unsupported", "contractnli", split, "negation", group)
                mod = _first_sub(_EN_MODAL, hyp)
                if mod and mod != neg:
                    yield Pair(mod, source, "unsupported", "contractnli", split, "modality", group)
            else:
                yield Pair(hyp, source, "unsupported", "contractnli", split, group=group)


# -- ALQAC ----------------------------------------------------------------------------------
def _articles(path: Path) -> dict[tuple[str, str], str]:
    return {
        (law["id"], a["id"]): a["text"] for law in json.loads(path.read_text(encoding="utf-8")) for a in law["articles"]
    }


_RANGE_Q = re.compile(
    r"từ bao (?:nhiêu|lâu)(?: \w+)? (?:đến|tới) bao (?:nhiêu|lâu)(?: (?:năm|tháng|ngày|tuổi|tiền|giờ))?"
)
_AMOUNT_Q = re.compile(r"bao (?:nhiêu|lâu)(?: (?:năm|tháng|ngày|tuổi|tiền|giờ|lần|người))?")
_WHAT_Q = re.compile(r"\s(gì|nào|đâu|ai)(?=[\s?,]|$)")


def fill_answer(question: str, answer: str) -> str | None:
    """The question turned into the statement its answer makes ("... phạt tù đến bao nhiêu năm?"
    + "07 năm" -> "... phạt tù đến 07 năm."); ``None`` for yes/no questions."""
    q = question.strip().rstrip("?").strip()
    a = answer.strip().rstrip(".")
    if a.lower() in ("có", "không", "đúng", "sai"):
        return None
    if _RANGE_Q.search(q):
        out = _RANGE_Q.sub(a if a.lower().startswith("từ") else f"từ {a}", q, count=1)
    elif _AMOUNT_Q.search(q):
        out = _AMOUNT_Q.sub(a, q, count=1)
    elif _WHAT_Q.search(q):
        m = list(_WHAT_Q.finditer(q))[-1]
        out = q[: m.start()] + " " + a + q[m.end() :]
    else:
        out = f"{q}: {a}"
    return out + "."


_VI_NEGATE = [
    (r"\bcó thể\b", "không thể"),
    (r"\bphải\b", "không phải"),
    (r"\bđược\b", "không được"),
    (r"\bbị\b", "không bị"),
    (r"\blà\b", "không là"),
]
_VI_MODAL = [(r"\bphải\b", "có thể"), (r"\bcó thể\b", "phải")]


def _change_number(claim: str, article: str, rng: random.Random) -> str | None:
    have = extract_numbers(article)
    for m in re.finditer(r"\d+(?:\.\d{3})*", claim):
        raw = m.group(0)
        digits = raw.replace(".", "")
        if str(int(digits)) not in have:  # change only figures the article states
            continue
        for _ in range(6):
            new = int(digits) + rng.choice([-2, -1, 1, 2, 3, 5]) * (10 ** max(0, len(digits.lstrip("0")) - 2))
            if new <= 0:
                continue
            cand = str(new).zfill(len(digits)) if "." not in raw else f"{new:,}".replace(",", ".")
            changed = claim[: m.start()] + cand + claim[m.end() :]
            if not (extract_numbers(changed) - extract_numbers(claim)) <= have:
                return changed
    return None


def _similar_article(
    claim: str, gold: tuple[str, str], articles: dict[tuple[str, str], str], words: dict[tuple[str, str], set[str]]
) -> str:
    cw = content_words(claim)
    same_law = [k for k in articles if k[0] == gold[0] and k != gold]
    best = max(same_law, key=lambda k: len(cw & words[k]))
    return articles[best]


def alqac2022_pairs(root: Path, seed: int = 13) -> Iterator[Pair]:
    base = root / "alqac2022"
    articles = _articles(base / "law.json")
    words = {k: content_words(v) for k, v in articles.items()}
    rng = random.Random(seed)
    for q in json.loads((base / "question.json").read_text(encoding="utf-8")):
        claim = fill_answer(q["text"], q["answer"])
        gold = [(a["law_id"], a["article_id"]) for a in q["relevant_articles"]]
        if claim is None or len(gold) != 1 or gold[0] not in articles:
            continue
        group = f"alqac2022:{q['id']}"
        split = split_of(group)
        article = articles[gold[0]]
        yield Pair(claim, article, "supported", "alqac2022", split, "natural", group)
        yield Pair(
            claim,
            _similar_article(claim, gold[0], articles, words),
            "unsupported",
            "alqac2022",
            split,
            "wrong-article",
            group,
        )
        for kind, changed in (
            ("number", _change_number(claim, article, rng)),
            ("negation", _first_sub(_VI_NEGATE, claim)),
            ("modality", _first_sub(_VI_MODAL, claim)),
        ):
            if changed and changed != claim:
                yield Pair(changed, article, "unsupported", "alqac2022", split, kind, group)


_TF_TAIL = re.compile(r"[,.]?\s*(đúng hay sai|đúng hoặc sai)\s*\??\s*$", re.I)


def alqac2023_pairs(root: Path, seed: int = 13) -> Iterator[Pair]:
    """Natural Vietnamese pairs, all in ``dev``: measured on, never trained on."""
    base = root / "alqac2023"
    articles = _articles(base / "law.json")
    rng = random.Random(seed)
    for q in json.loads((base / "train.json").read_text(encoding="utf-8")):
        gold = [(a["law_id"], a["article_id"]) for a in q["relevant_articles"]]
        if not gold or any(g not in articles for g in gold):
            continue
        source = "\n\n".join(articles[g] for g in gold)
        group = f"alqac2023:{q['question_id']}"
        if q["question_type"] == "Đúng/Sai":
            claim = _TF_TAIL.sub("", q["text"]).strip().rstrip(",") + "."
            label = "supported" if q["answer"].strip().lower().startswith("đúng") else "unsupported"
            yield Pair(claim, source, label, "alqac2023", "dev", "natural", group)
        elif q["question_type"] == "Trắc nghiệm" and q.get("choices"):
            stem = q["text"].strip().rstrip("?").strip()
            right = q["answer"].strip()[:1]
            wrong = [k for k in q["choices"] if k != right]
            if right in q["choices"]:
                yield Pair(f"{stem}: {q['choices'][right]}.", source, "supported", "alqac2023", "dev", "option", group)
            if wrong:
                k = rng.choice(wrong)
                yield Pair(f"{stem}: {q['choices'][k]}.", source, "unsupported", "alqac2023", "dev", "option", group)


WRITTEN = Path(__file__).resolve().parent / "sets"


WRITTEN_CONSTRUCTED = ("verbatim", "other-premise")
"""Kinds ``written_pairs`` constructs from the written file: easy, left out where thresholds are chosen
and figures reported."""


def written_pairs(lang: str, folder: Path = WRITTEN, seed: int = 13) -> Iterator[Pair]:
    """The written pairs, plus two kinds constructed from them so the written set spans easy cases
    too (its own unsupported claims are all minimal edits, its supported ones all reworded): each
    premise supports itself (``verbatim``), and two supported claims written for other premises of
    the same split and document are unsupported by it (``other-premise``)."""
    path = folder / f"support_written_{lang}.jsonl"
    if not path.exists():
        return
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rng = random.Random(seed)
    dataset = f"written-{lang}"
    by_premise: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_premise.setdefault(r["premise"], []).append(r)
    for premise, items in by_premise.items():
        group, split = f"written:{premise[:80]}", items[0]["split"]
        for r in items:
            label = "supported" if r["label"] == "supported" else "unsupported"
            yield Pair(r["claim"], premise, label, dataset, split, r["kind"], group)
        yield Pair(premise, premise, "supported", dataset, split, "verbatim", group)
        others = [
            r["claim"]
            for r in rows
            if r["premise"] != premise
            and r["split"] == split
            and r["label"] == "supported"
            and r["doc"] == items[0]["doc"]
        ]
        for claim in rng.sample(others, min(2, len(others))):
            yield Pair(claim, premise, "unsupported", dataset, split, "other-premise", group)


DATASETS = {
    "wice": wice_pairs,
    "contractnli": contractnli_pairs,
    "alqac2022": alqac2022_pairs,
    "alqac2023": alqac2023_pairs,
    "written-en": lambda root: written_pairs("en"),
    "written-vi": lambda root: written_pairs("vi"),
}


def load_pairs(root: Path, datasets: list[str] | None = None) -> list[Pair]:
    out: list[Pair] = []
    for name in datasets or list(DATASETS):
        out.extend(DATASETS[name](root))
    return out
