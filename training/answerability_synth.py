"""Constructed Vietnamese answerability pairs (dataset ``synth-ans``) from the Pháp điển insurance topic.

The shipped pair classifier may only learn from data whose licence allows it, and no such set holds Vietnamese
questions: ViQuAD and the Vietnamese answerability set state none. Vietnamese asks *in situ*: the question word stands
where the answer stands ("Doanh nghiệp bảo hiểm phải thông báo trong thời hạn **bao nhiêu ngày**?" of "… trong
thời hạn 15 ngày"), so a provision's sentence with a value or its duty-bearer replaced by the question word is a
question that sentence answers. Legal normative text is not protected by copyright (Law on Intellectual Property,
Article 15), so the pairs may train shipped weights.

Per sentence holding a value (a duration, a share, an amount of money, a count) or opening with its duty-bearer
("Doanh nghiệp bảo hiểm phải …"), one question, read against:
- the sentence itself (label 1, ``answer``);
- the same sentence with its value replaced by a vague "theo quy định" (label 0, ``vague``): every word of the
  question is there, the figure is not — what a near-miss in SQuAD 2.0 style looks like in a provision;
- the question with the sentence's party swapped for another one ("Đại lý bảo hiểm phải thông báo trong thời hạn
  bao nhiêu ngày?"), against the unchanged sentence (label 0, ``other_party``);
- the two other sentences of the article sharing the most words with the question that do not state the value
  (label 0, ``neighbour``).

Split by article (sha256 of its Pháp điển id): 85 % train, 15 % dev. Articles any held-out set or the hand-written
answerability dev pairs are written on (bench/sets/legal_nearmiss.jsonl, training/sets/answerability_written_vi.jsonl
dev) are left out, so no sentence they read is trained on.

    python training/answerability_synth.py        # counts per split, kind and label, and a few examples
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
if str(SRC) not in sys.path:  # the training venv has torch but not citewise installed
    sys.path.insert(0, str(SRC))

from citewise.evaluate.data import shared_data  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
ARTICLES = shared_data() / "vn_insurance_law_phapdien" / "phapdien_kinh_doanh_bao_hiem_articles.jsonl"
HELD_OUT = (REPO / "bench" / "sets" / "legal_nearmiss.jsonl",)
WRITTEN = REPO / "training" / "sets" / "answerability_written_vi.jsonl"
DATASET = "synth-ans"
DEV_SHARE = 0.15

_NUM = r"\d+(?:[.,]\d+)*"
_SPELLED = r"(?:\s*\([^()\d]{1,40}\))?"
"""A figure's words in brackets after it: "15 (mười lăm) ngày"."""
_NOT_A_FIGURE = re.compile(
    r"(?:\b(?:ngày|tháng|năm|điều|khoản|điểm|số|chương|mục|phụ lục|mẫu|lần thứ)|[/.-])\s*$", re.I
)
"""Words before a number that make it a date, a provision's number or a document's: not a value to ask for."""


@dataclass(frozen=True)
class Kind:
    name: str
    pattern: re.Pattern[str]
    ask: str
    """The question words, ``{u}`` the unit as written."""
    vague: str
    """What the value becomes in the ``vague`` sentence."""


_LEAD = r"(?i:(?:trong thời hạn|trong vòng|tối đa|tối thiểu|ít nhất|không quá|không thấp hơn|chậm nhất là|chậm nhất|bằng|là)\s+)?"
KINDS = (
    Kind(
        "duration",
        re.compile(rf"{_LEAD}(?P<n>{_NUM}){_SPELLED}\s+(?P<u>ngày làm việc|ngày|tháng|năm|giờ|tuần|quý)\b(?!\s+\d)"),
        "bao nhiêu {u}",
        "trong thời hạn theo quy định",
    ),
    Kind("share", re.compile(rf"{_LEAD}(?P<n>{_NUM})\s*%"), "bao nhiêu phần trăm", "theo tỷ lệ quy định"),
    Kind(
        "money",
        re.compile(rf"{_LEAD}(?P<n>{_NUM}){_SPELLED}\s+(?P<u>(?:nghìn |triệu |tỷ )?đồng)(?: Việt Nam)?(?!\w)"),
        "bao nhiêu tiền",
        "theo mức quy định",
    ),
    Kind(
        "count",
        re.compile(
            rf"{_LEAD}(?P<n>\d{{1,3}}){_SPELLED}\s+(?P<u>thành viên|người|lần|bản|doanh nghiệp|hợp đồng|cá nhân)\b"
        ),
        "bao nhiêu {u}",
        "một số {u} theo quy định",
    ),
)
PARTIES = (
    "doanh nghiệp bảo hiểm",
    "doanh nghiệp tái bảo hiểm",
    "doanh nghiệp môi giới bảo hiểm",
    "chi nhánh doanh nghiệp bảo hiểm phi nhân thọ nước ngoài",
    "tổ chức tương hỗ cung cấp bảo hiểm vi mô",
    "bên mua bảo hiểm",
    "người được bảo hiểm",
    "người thụ hưởng",
    "đại lý bảo hiểm",
    "tổ chức đại lý bảo hiểm",
    "cá nhân đại lý bảo hiểm",
    "Bộ Tài chính",
    "Bộ trưởng Bộ Tài chính",
    "Ngân hàng Nhà nước Việt Nam",
    "Ủy ban nhân dân cấp tỉnh",
    "Hội đồng quản trị",
    "Tổng giám đốc",
    "chuyên gia tính toán",
    "kiểm toán viên",
)
_DUTY = r"(?:phải|có trách nhiệm|có nghĩa vụ|có quyền|được quyền|không được|chịu trách nhiệm)"
_ENUM = re.compile(r"^\s*(?:\d{1,3}[.)]|[a-zđ][)]|[-–•])\s*")
_PREFIXES = ("", "", "", "Theo quy định, ", "Cho hỏi ", "Luật quy định ")


@dataclass(frozen=True)
class SynthPair:
    question: str
    sentence: str
    label: int
    kind: str
    article: str
    split: str


def nfc(s: str) -> str:
    return unicodedata.normalize("NFC", s)


def _words(s: str) -> set[str]:
    return {w for w in re.findall(r"\w+", s.lower()) if len(w) > 1}


def _split_of(article: str) -> str:
    h = int(hashlib.sha256(article.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return "dev" if h < DEV_SHARE else "train"


_ARTICLE_ID = re.compile(r"Điều\s+(2\.3\.[A-ZĐ]+(?:\.\d+)+)")


def excluded_articles() -> set[str]:
    """The Pháp điển ids of articles a held-out set, or a hand-written answerability dev or test pair, is written on."""
    out: set[str] = set()
    rows = [json.loads(x) for path in HELD_OUT for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    rows += [
        r
        for r in (json.loads(x) for x in WRITTEN.read_text(encoding="utf-8").splitlines() if x.strip())
        if r["split"] != "train"
    ]
    for r in rows:
        if r.get("source") == "vn_insurance_law_phapdien":
            out.update(_ARTICLE_ID.findall(str(r.get("provision", ""))))
    return out


def sentences(text: str) -> list[str]:
    """The article's sentences and list points, enumerators stripped, 8-70 words."""
    out = []
    for line in nfc(text).split("\n"):
        for s in re.split(r"(?<=[.;:])\s+(?=[A-ZĐÀ-Ỹ])", line.strip()):
            s = _ENUM.sub("", s).strip().rstrip(";:")
            # not a worked example ("… x 1,236 = 30.453 triệu đồng"), a table's markup or words run together
            if 8 <= len(s.split()) <= 70 and not re.search(r"[=×*]|\s[x]\s|\w{26,}", s):
                out.append(s)
    return out


_OPENER = re.compile(r"(?i:trong thời hạn|trong vòng|sau|trước|chậm nhất|kể từ|trường hợp|khi|nếu|đối với)\b")
"""How a sentence opening with a time or a case begins: its main clause, after the break, says what the question is
about ("Trong thời hạn 20 ngày kể từ …, Bộ Tài chính ra quyết định …")."""


def _first_break(sentence: str, at: int) -> int:
    nxt = [i for i in (sentence.find(", ", at), sentence.find("; ", at), sentence.find(". ", at)) if i > 0]
    return min(nxt) if nxt else len(sentence)


def _window(sentence: str, start: int, end: int) -> tuple[int, int]:
    """Where a question built on the value at [start, end) begins and ends: the sentence from its last clause break
    before the value when the sentence runs long, up to the next break after it."""
    left = 0
    if len(sentence[:start].split()) > 22:
        cut = max(sentence.rfind(", ", 0, start), sentence.rfind("; ", 0, start))
        left = cut + 2 if cut > 0 and len(sentence[cut + 2 : start].split()) >= 4 else 0
    right = end
    while right < len(sentence):  # to the end of the value's clause, and on while the question says too little
        nxt = [i for i in (sentence.find(", ", right), sentence.find("; ", right), sentence.find(". ", right)) if i > 0]
        right = min(nxt) if nxt else len(sentence)
        opener = _OPENER.match(sentence[left:]) is not None and right == _first_break(sentence, end)
        if len(sentence[left:right].split()) >= 12 and len(sentence[end:right].split()) >= 2 and not opener:
            break
        right += 1
    return left, min(right, len(sentence))


_KEEP_CASE = re.compile(r"(?:Bộ|Ngân hàng|Ủy ban|Hội đồng|Tổng giám đốc|Chính phủ|Luật|Nghị định|Thông tư)\b")


def _question(text: str, prefix: str) -> str:
    text = " ".join(text.split()).rstrip(" ,;:.")
    if prefix and not text[:2].isupper() and not _KEEP_CASE.match(text):
        text = text[:1].lower() + text[1:]
    elif not prefix and text[:1].islower():
        text = text[:1].upper() + text[1:]
    return f"{prefix}{text}?"


def value_questions(sentence: str, rng: random.Random) -> Iterator[tuple[str, str, str]]:
    """(question, the sentence with its value made vague, kind) per value the sentence states (the first of each
    kind)."""
    for kind in KINDS:
        for m in kind.pattern.finditer(sentence):
            if _NOT_A_FIGURE.search(sentence[: m.start("n")]):
                continue
            unit = m.groupdict().get("u") or ""
            ask = kind.ask.format(u=unit.strip())
            lead = m.group(0)[: m.start("n") - m.start()]
            left, right = _window(sentence, m.start(), m.end())
            q = sentence[left : m.start()] + lead + ask + sentence[m.end() : right]
            filler = kind.vague.format(u=unit.strip())
            before = sentence[: m.start()].lower().rstrip()
            if before.endswith("thời hạn"):
                filler = filler.removeprefix("trong thời hạn ")
            elif not lead and before and not before.endswith((",", ";", ":")):
                filler = "mức quy định"  # "có thời hạn từ 10 năm trở xuống" -> "… từ mức quy định trở xuống"
            vague = " ".join((sentence[: m.start()] + filler + sentence[m.end() :]).split())
            yield _question(q, rng.choice(_PREFIXES)), vague[:1].upper() + vague[1:], kind.name
            break


def party_question(sentence: str) -> tuple[str, str] | None:
    """("Ai phải …?", the party) when the sentence opens with a party under a duty or given a right."""
    for party in sorted(PARTIES, key=len, reverse=True):
        m = re.match(rf"(?P<p>{re.escape(party)})(?:\s+[^\s,]+){{0,3}}?\s+(?={_DUTY}\b)", sentence, re.I)
        if m:
            rest = sentence[m.end("p") :]
            _, right = _window(rest, 0, 0)
            return _question("Ai" + rest[:right], ""), m.group("p")
    return None


def swapped(question: str, sentence: str, rng: random.Random) -> str | None:
    """``question`` with a party it names (and ``sentence`` names) replaced by one ``sentence`` never names."""
    low_q, low_s = question.lower(), sentence.lower()
    named = [p for p in sorted(PARTIES, key=len, reverse=True) if p.lower() in low_q and p.lower() in low_s]
    if not named:
        return None
    others = [p for p in PARTIES if p.lower() not in low_s and p.lower() not in named[0].lower()]
    other = rng.choice(others)
    i = low_q.index(named[0].lower())
    new = question[:i] + other + question[i + len(named[0]) :]
    return new[:1].upper() + new[1:]


def article_pairs(article: str, text: str, split: str, rng: random.Random) -> Iterator[SynthPair]:
    sents = sentences(text)
    for i, s in enumerate(sents):
        asked: list[tuple[str, str | None, str]] = list(value_questions(s, rng))
        who = party_question(s)
        if who is not None:
            asked.append((who[0], None, "party"))
        for q, vague, kind in asked:
            yield SynthPair(q, s, 1, f"answer_{kind}", article, split)
            if vague is not None:
                yield SynthPair(q, vague, 0, "vague", article, split)
                other = swapped(q, s, rng)
                if other is not None:
                    yield SynthPair(other, s, 0, "other_party", article, split)
            qw = _words(q)
            value = re.findall(r"\d+(?:[.,]\d+)*", s)
            near = sorted(
                (
                    t
                    for j, t in enumerate(sents)
                    if j != i and not (set(value) & set(re.findall(r"\d+(?:[.,]\d+)*", t)))
                ),
                key=lambda t: -len(qw & _words(t)),
            )
            if kind == "party":  # another duty of the same party answers "Ai …?" as well: only other parties' duties
                near = [t for t in near if party_question(t) is None]
            for t in near[:2]:
                if len(qw & _words(t)) >= 3:
                    yield SynthPair(q, t, 0, "neighbour", article, split)


def articles() -> list[tuple[str, str]]:
    """(Pháp điển id, text) of every article of the insurance topic, in file order; none without the shared data (a
    machine without it trains without them)."""
    if not ARTICLES.exists():
        return []
    rows = [json.loads(line) for line in ARTICLES.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(str(r["phapdien_id"]), str(r["text"])) for r in rows]


def synth_pairs(seed: int = 11) -> list[SynthPair]:
    """Every constructed pair, in article order (deterministic for a seed); none without the shared data."""
    found = articles()
    if not found:
        return []
    rng = random.Random(seed)
    skip = excluded_articles()
    out: list[SynthPair] = []
    for article, text in found:
        if article not in skip:
            out += article_pairs(article, text, _split_of(article), rng)
    return out


def main() -> None:
    pairs = synth_pairs()
    c = Counter((p.split, p.kind, p.label) for p in pairs)
    for k, n in sorted(c.items()):
        print(*k, n)
    print("articles left out:", len(excluded_articles()))
    rng = random.Random(1)
    for p in rng.sample(pairs, 12):
        print(f"[{p.label} {p.kind}] {p.question}\n    {p.sentence[:200]}")


if __name__ == "__main__":
    main()
