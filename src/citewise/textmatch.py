"""Word-level matching shared by retrieval (weak evidence, learned ranking), the extractive generator,
the judge and the support check: diacritic-folded words, stop words of both languages, a light English
stemmer, coverage of one text's content words and word pairs by another, and the kind of answer a
question asks for (``question_type``: read by the learned ranker, the judge and the answer stage)."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence

from citewise.lang import detect_language, fold, folded_words, nfc

_WORD = re.compile(r"[^\W_]+")
WORDS_CACHE = 1024
"""Texts whose ``words`` are remembered (a question reads under a hundred: its sentences and their provisions)."""
STOPWORDS = frozenset(
    (
        "the a an of to in on for and or is are was were be been by with what which who whom whose when where why how "
        "does do did that this these those as at from it its shall may must will can could would should there their "
        "not if than any all many much have has had my me i you your we our us they them he she his her about "
        "under into per each such other"
        " la cua va cac nhung duoc cho trong khi thi co khong nao gi ai bao nhieu lau nhu the theo ve voi mot tai ra "
        "nay do toi minh ban hay phai sao nhe a"
    ).split()
)


def stem(word: str) -> str:
    """A light English stemmer (plural, -ed, -ing, then a final -e, so "become", "becoming" and
    "becomes" meet); Vietnamese syllables pass unchanged."""
    if len(word) > 4 and word.isascii():
        for suffix, repl in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                if suffix == "s" and word.endswith(("ss", "us", "is")):
                    break  # process, status, analysis
                word = word[: -len(suffix)] + repl
                break
        if word.endswith("e") and len(word) > 4:
            word = word[:-1]
    return word


def words(text: str) -> list[str]:
    """Folded, lower-cased, stemmed words of ``text`` (single letters dropped, digits kept)."""
    return list(_words(text))


@functools.lru_cache(maxsize=WORDS_CACHE)
def _words(text: str) -> tuple[str, ...]:
    # remembered: the judge reads a provision once per sentence of it, the answer stage reads them again
    return tuple(stem(w) for w in _WORD.findall(fold(text).lower()) if len(w) > 1 or w.isdigit())


MARKED_CONTENT = frozenset(
    "báo bão trống trọng đồ đổ độ tài tai vé thẻ chó chợ chờ cơ cổ cố khí não dược bản bán minh an căn cán tờ tổ mẹ hè "
    "máy".split()
)
"""Words that folding turns into a stop word (``STOPWORDS``) and that name a thing with their marks: "báo" (report:
"bao"), "trống" (empty: "trong"), "đồ" (belongings: "do"), "tai"/"tài" (accident, property: "tại"), "vé" (ticket:
"về"), "cơ quan" ("có"), "công an", "căn cứ", "tờ khai", "máy bay" (the English "an", "can", "to", "may")."""


def _marked_stop(word: str) -> bool:
    """A stop word of ``marked_words``: one whose folded form is a stop word, unless it names a thing with its marks
    (``MARKED_CONTENT``). "bảo" stays one: "bảo hiểm" is in every sentence of a policy (folded, "bao" is a stop word
    and "hiểm" alone the word "bảo hiểm" adds)."""
    return word not in MARKED_CONTENT and fold(word) in STOPWORDS


@functools.lru_cache(maxsize=WORDS_CACHE)
def marked_words(text: str) -> tuple[str, ...]:
    """``words`` keeping Vietnamese marks: lower-cased NFC words, English ones stemmed (single letters dropped, digits
    kept). For a question typed with its marks, read against provisions that have them."""
    return tuple(stem(w) for w in _WORD.findall(nfc(text).lower()) if len(w) > 1 or w.isdigit())


def _stop(word: str, marks: bool) -> bool:
    return _marked_stop(word) if marks else word in STOPWORDS


def content_words(text: str) -> set[str]:
    return {w for w in words(text) if w not in STOPWORDS}


def short_keys(text: str) -> set[str]:
    """Content words cut to four letters when Latin-only ("admitted" / "admission", "closed" / "closure"), but for
    words shaped like a Vietnamese syllable (``_SYLLABLE``), kept whole: cut, "thường" (folded "thuong") would be the
    key of "thuộc" too, and "trống" that of "trọng". Read word by word, the same whether a text is typed with its marks
    or folded."""
    return {w[:4] if w.isascii() and not _SYLLABLE.match(w) else w for w in content_words(text) if not w.isdigit()}


_SYLLABLE = re.compile(r"(?:ngh|ng|nh|ch|tr|th|ph|kh|gh|gi|qu|[bcdghklmnpqrstvx])?[aeiouy]{1,3}(?:ng|nh|ch|[cmnpt])?$")
"""A folded Vietnamese syllable: onset, one to three vowels, coda. Few English words (stemmed) of five letters or more
have that shape ("train", "thing", "chang" of "change": 12 of 2,458 in the ObliQA subset); they are kept whole too."""


UNIT = re.compile(r"\b(hours?|days?|weeks?|months?|years?|minutes?|giờ|ngày|tuần|tháng|năm|phút)\b", re.I)
"""Units of time, as words."""


def word_jaccard(a: str, b: str) -> float:
    """The share of the words of ``a`` and ``b`` (lower-cased) that both hold."""
    wa, wb = set(_WORD.findall(a.lower())), set(_WORD.findall(b.lower()))
    return len(wa & wb) / len(wa | wb) if wa and wb else 0.0


def topic_keys(question: str) -> set[str]:
    """What the question asks about: its content words (``short_keys``) without units ("days") and question
    words ("long")."""
    units = {fold(w) for w in marked_words(question) if UNIT.fullmatch(w)}  # "ngày", not the "ngay" of "ngay lập tức"
    return {k for k in short_keys(question) if not UNIT.fullmatch(k) and k not in units and k not in _ASKING}


_ASKING = frozenset({"long", "lau", "bao", "take"})
"""Keys of the words that ask rather than name a topic: "how long", "bao lâu", "how long does the ombudsman take"."""


_IN_WHICH_CASES = r"(?:in|under) (?:which|what) (?:cases|circumstances|conditions|situations)"
"""Asks for the conditions of a rule (question type ``list``, and the frame of such a question)."""

COVER = re.compile(
    r"\b(?:covered|covers|(?:you|we|it|they|policy|insurance|insurer|plan|this) cover|insured|"
    r"(?:paid|pay(?:s)?(?: out)?) for|reimbursed)\b"
)
"""The frame of a yes/no question asking whether something is covered ("Is mould covered?", "Do you cover my work
laptop?", "Will you pay for a hotel if …?"; "cover" as a verb only: "Is cover extended …?" is about the cover), on
folded lower-case text. A policy says "cover" and "pay for" in every section, and names what is asked (mould, an
earthquake) once, in a list item under a lead-in such as "We will not pay for:". English only: cutting "có được bảo
hiểm / bồi thường" from Vietnamese questions was measured on the Vietnamese policy dev questions and did not help
(everyday Vietnamese questions keep many syllables of their story as topic words; docs/benchmarks.md)."""

_FRAME = {
    "duration": re.compile(
        r"\b(?:(?:khoang )?thoi (?:han|gian)|(?:time )?(?:limit|period|frame)|deadline|timeframe|how much time)\b"
    ),
    "list": re.compile(rf"\b(?:(?:(?:trong|o) )?(?:cac |nhung )?truong hop nao|{_IN_WHICH_CASES})\b"),
    "yes_no": COVER,
}
"""Words that name the kind of answer a question asks for, not what it is about: the "thời hạn" of "Thời hạn thông
báo tổn thất là bao lâu?" is in every time limit of a policy, the question is about giving notice of a loss."""


FRAME_WORDS = 4
"""A frame naming the kind of value is the head of the question ("Thời hạn ...", "What is the time limit ..."): words
in its first four. Further on they are what the question is about ("... khi hợp đồng không quy định thời hạn không?").
"In which cases" / "trong trường hợp nào" asks wherever it stands."""
_ANYWHERE = frozenset({"list", "yes_no"})
_ONE_LEFT = frozenset({"yes_no"})
"""Frames that may leave a single topic word: "Is mould covered?" is about mould."""


@functools.lru_cache(maxsize=1024)
def without_frame(question: str) -> str:
    """``question`` without the words naming the kind of answer it asks for (``_FRAME``: "thời hạn", "time limit",
    "period" of a question asking how long), when at least two topic words remain; else ``question`` itself."""
    qtype = question_type(question)
    frame = _FRAME.get(qtype)
    if frame is None:
        return question
    return _cut_frame(question, frame, qtype in _ANYWHERE, 1 if qtype in _ONE_LEFT else 2)


def without_cover(question: str) -> str:
    """``question`` without the coverage frame (``COVER``) when it is a yes/no question and a topic word remains
    ("Is mould covered?" -> "Is mould ?"); else ``question`` itself. What the lexical ranker and the evidence
    strength read: "covered" matches every section of a policy. Not when the question tells a case before asking ("My
    grandmother is 82, can she be covered?"): there "covered" finds who is covered, which the case is put to."""
    if question_type(question) != "yes_no" or not _YES_NO.search(folded_words(nfc(question))):
        return question
    return _cut_frame(question, COVER, True, 1, keep_case=True)


def _cut_frame(question: str, frame: re.Pattern[str], anywhere: bool, left: int, keep_case: bool = False) -> str:
    """``question`` with the matches of ``frame`` cut out (within its first ``FRAME_WORDS`` words unless
    ``anywhere``), lower-cased unless ``keep_case`` (names stay names: "Will Bluewave pay for Dogecoin …?"), when at
    least ``left`` topic words remain; else ``question`` itself."""
    written = nfc(question)
    lower = written.lower()
    plain = written if keep_case and len(written) == len(lower) else lower
    folded = fold(lower)  # one character per character: spans found here cut the question itself
    head = sum(len(w) + 1 for w in folded.split()[:FRAME_WORDS])
    cuts = [m.span() for m in frame.finditer(folded) if m.start() < head or anywhere]
    if not cuts:
        return question
    kept, at = [], 0
    for a, b in cuts:
        kept.append(plain[at:a])
        at = b
    rest = " ".join(" ".join([*kept, plain[at:]]).split())
    return rest if len(topic_keys(rest)) >= left else question


def asked_keys(question: str) -> set[str]:
    """What the question asks about (``topic_keys``) once the words naming the kind of answer are set aside
    (``without_frame``)."""
    return topic_keys(without_frame(question))


def topic_left_out(question: str, text: str) -> int:
    """How many of the question's topic words (``asked_keys``) ``text`` never says."""
    return len(asked_keys(question) - short_keys(text))


def coverage(query: str, text: str) -> float:
    """How much of ``query`` the ``text`` holds: the mean of the shares of its content words and
    of its word pairs found in ``text``. Pairs matter for Vietnamese, where single syllables
    ("người", "minh") occur everywhere."""
    return covered(query_terms(query), text)


PERCENT = r"%|per ?cent|phan tram"
"""How a percentage is written, on folded lower-case text ("80%", "80 per cent", "80 phần trăm")."""
_ASKS_PERCENT = re.compile(rf"(?<![a-z])(?:{PERCENT}|percentages?|ty le)(?![a-z])")
"""How a question asks for a percentage: "what percentage …", "tỷ lệ … là bao nhiêu", "bao nhiêu phần trăm" (folded
lower-case)."""


def asked_percent(question: str) -> str | None:
    """The words ``question`` asks for a percentage with ("phan tram", "percentage", "%"), folded; ``None`` when it asks
    for none."""
    m = _ASKS_PERCENT.search(fold(question).lower())
    return None if m is None else m.group(0)


def case_coverage(query: str, text: str) -> float:
    """``coverage`` with each figure of ``query`` that ``text`` does not state, but states another figure of with the
    same word after it, read as that figure: "Is a storm with 60 km/h winds covered?" is asked of the clause on
    storms "meaning winds of at least 90 km/h". The figure measures the asker's case; whether it meets the clause is
    the judge's question, not whether the clause is relevant. A percentage the question asks for in words ("bao
    nhiêu phần trăm", "what percentage", "tỷ lệ") is said by a text's "%" sign ("50% quyền lợi")."""
    asked = asked_percent(query)
    if asked and "%" in text:
        text = text.replace("%", f" {asked} ")
    q, t = words(query), words(text)
    said = set(t)
    other = {t[i + 1]: w for i, w in enumerate(t[:-1]) if w.isdigit() and not t[i + 1].isdigit()}
    read = [other.get(q[i + 1], w) if w.isdigit() and w not in said and i + 1 < len(q) else w for i, w in enumerate(q)]
    return overlap(_terms(read, False), text_terms(text))


def query_terms(query: str, marks: bool = False) -> Terms:
    """The content words and content word pairs of ``query`` that ``covered`` looks for (computed once
    for a question measured against many texts); with their Vietnamese marks when ``marks``."""
    return _terms(marked_words(query) if marks else words(query), marks)


def _terms(q: Sequence[str], marks: bool) -> Terms:
    pairs = frozenset(p for p in itertools.pairwise(q) if not (_stop(p[0], marks) or _stop(p[1], marks)))
    return frozenset(w for w in q if not _stop(w, marks)), pairs


Terms = tuple[frozenset[str], frozenset[tuple[str, str]]]


def covered(terms: Terms, text: str) -> float:
    """``coverage`` of a query given by its ``query_terms``."""
    return overlap(terms, text_terms(text))


def text_terms(text: str, marks: bool = False) -> Terms:
    """The words and word pairs of ``text`` (what ``overlap`` looks the query's terms up in), with their Vietnamese
    marks when ``marks``."""
    t = marked_words(text) if marks else words(text)
    return frozenset(t), frozenset(itertools.pairwise(t))


def overlap(terms: Terms, found: Terms) -> float:
    """``coverage`` of a query given by its ``query_terms`` in a text given by its ``text_terms``."""
    uni, pairs = terms
    if not uni:
        return 0.0
    u = len(uni & found[0]) / len(uni)
    if not pairs:
        return u
    return 0.5 * u + 0.5 * len(pairs & found[1]) / len(pairs)


TYPES = ("duration", "amount", "number", "date", "party", "place", "yes_no", "definition", "reason", "list", "other")

_YES_NO = re.compile(
    r"^(?:is|are|does|do|can|may|must|shall|should|will|has|have|was|were|am)\b|"
    r"\b(co (?:duoc|phai|bi|can)?\b.*\bkhong\b|duoc khong|phai khong|hay khong|khong a|"
    r"chua\s*\??$)"
)
"""A yes/no question: one that opens with a verb ("Is ...", "Can ...") or asks "có ... không" / "... chưa?"."""
_YES_NO_AFTER = re.compile(
    r"[,;:] (?:(?:so|then|and|but|now) )?(?:is|are|does|do|can|may|must|will|would|could|should|has|have|am)"
    r" (?:i|we|you|he|she|it|they|my|our|his|her|their|the|this|that|these|those|a|an)\b[^,;:]*$"
)
"""The same asked after the clauses that tell the asker's case ("My grandmother is 82, can she be covered?", "I bought
the policy last week and changed my mind, can I get my money back?"): in the last clause, with no question word
before it (English, folded)."""

HOW_QUICKLY = ("duration", re.compile(r"\b(how (?:quickly|fast|soon))\b"))
""""How quickly must the controller rectify ...", "how fast must they tell the regulator?": a time limit asked for."""

_PAID = r"(?:boi thuong|chi tra|tra|thanh toan|den bu|den|hoan lai|hoan tra|ho tro|phat|dong|nop|chi phi|tien)"
"""Words of money before "bao nhiêu": "được bồi thường bao nhiêu?", "phải trả bao nhiêu?", "bị phạt bao nhiêu?" ask for
an amount, as "bao nhiêu tiền" does (a bare "bao nhiêu" asks for a number: "được bồi thường bao nhiêu" was answered
"Thời hạn là 24 giờ"); "phạt tiền từ bao nhiêu?" too (it was answered "Thời hạn là từ 06 tháng đến 03 năm.")."""
_COUNTED = r"(?:lan|nguoi|cai|chiec|mon|khoan|dot|ky|muc|loai|truong hop|ngay|gio|thang|nam|tuan|phut)"
"""What "bao nhiêu" counts when it names it: "bồi thường bao nhiêu lần" asks how many times."""

_INVERTED = r"(?:is|are|was|were|do|does|did|must|should|can|could|will|would|shall|may|might|has|have|had)(?:n['’]t)?"
_WH = r"(?:who|whom|whose|what|which|how|where|why)"


def _asking(word: str, not_before: str = "") -> str:
    """``word`` ("when", "where") asking for a time or a place: followed by a verb of the question's inverted order
    ("When must the firm notify", "Where can one find …", "When didn't …"), ending it, or opening a one-clause
    question that asks nothing else ("When the recovery slow?"). Elsewhere it opens a condition: "What must an
    employee ensure when providing a notice", "In cases where an MTF uses …, what …", "When a claim is made, who
    pays?" (a bare "when" made 349 of the 2,788 ObliQA dev questions date questions, 20 of which ask for a time; a
    bare "where" 65 place questions, 9 of which ask for a place). Not before ``not_before``: "when" before a verb of
    what may happen ("When can the Regulator demand …", "When might a Fund Manager be justified …", "When may a
    controller still take …") asks in which circumstances, not at what time: all seven such ObliQA dev questions do,
    and "When can the authority impose a fine for a data breach?" was answered "The period is 72 hours." (the breach
    notice)."""
    unless = rf"(?!\s+(?:{not_before})\b)" if not_before else ""
    return rf"{word}{unless}(?=\s+{_INVERTED}\b|\s*\?)|^{word}\b{unless}(?![^,;]*[,;])(?!.*\b{_WH}\b)"


_PARTY_ASKS = (
    r"(?:(?:^|(?<=[,;] )|(?<=\d )|"
    + "|".join(rf"(?<=\b{p} )" for p in ("to", "by", "from", "for", "with", "of", "and", "but"))
    + r")(?:who|whom|whose)|(?:who|whom|whose)(?=\s*\?))"
)
""""who" asking for a party: opening the question or a clause of it (", who must demonstrate …", "To whom should
they disclose …", "In 2000 who found …"), after a preposition ("by example of who?"), or ending it. After a noun it
is relative and asks nothing: "… staff of any Authorised Person who has access to …", "… a customer who has engaged
in an investment activity …" (47 party questions of ObliQA dev by a bare "who", 25 now; SQuAD dev keeps 1,109 of
its 1,151 "who" questions as party questions)."""

# question patterns, tried in order on the folded, lower-cased question
_Q: list[tuple[str, re.Pattern[str]]] = [
    # "in which cases" asks for conditions whatever it names: "Phí bảo hiểm được hoàn lại trong trường hợp nào?"
    # is no amount, "Thời hạn được kéo dài trong trường hợp nào?" no duration
    ("list", re.compile(rf"\b(trong (?:cac |nhung )?truong hop nao|{_IN_WHICH_CASES})\b")),
    # steps to take, whatever the question says of when: "phải làm gì khi ...", "what must I do when ..."
    ("list", re.compile(r"\b((?:phai |can )?lam gi|what (?:must|should|do|does|shall) [\w\s]{1,40} do|what steps)\b")),
    ("duration", re.compile(r"\b(how long|how many (?:business |working |calendar )?(?:days|hours|weeks|months|years)"
                            r"|within what (?:period|time)|time limit|deadline|bao lau|may ngay|bao nhieu (?:ngay|gio|thang|nam|tuan)"
                            r"|thoi han|thoi gian bao|trong vong bao)\b")),
    HOW_QUICKLY,
    ("amount", re.compile(r"\b(how much|what (?:is |are |was )?(?:the )?(?:maximum |minimum |total |highest |lowest )?"
                          r"(?:amount|fee|fine|premium|deductible|limit|percentage|rate|sum|cost|price|excess)"
                          r"|(?:maximum|minimum) (?:amount|sum|benefit|payment|limit|fine)|bao nhieu tien|muc phi|so tien|muc phat|ty le|phi bao hiem|muc boi thuong"
                          r"|muc toi da|muc toi thieu|bao nhieu phan tram|tien tu bao nhieu"
                          rf"|{_PAID} (?:(?:toi da|toi thieu|tat ca|tong cong|la|duoc|het) )?bao nhieu(?! {_COUNTED}))\b")),
    ("number", re.compile(r"\b(how many|bao nhieu|may)\b")),
    ("date", re.compile(rf"\b({_asking('when', 'can|could|may|might')}|what date|by when|from when|since when|until when|khi nao|bao gio|luc nao"
                        r"|ngay nao|tu khi nao|tu ngay nao|thoi diem nao|ke tu khi nao)\b")),
    ("party", re.compile(rf"\b({_PARTY_ASKS}|which (?:body|authority|party|person|entity|organisation|organization)|"
                         r"ai|co quan nao|to chuc nao|ben nao|nguoi nao|doanh nghiep nao)\b")),
    ("place", re.compile(rf"\b({_asking('where')}|o dau|tai dau|noi nao)\b")),
    ("reason", re.compile(r"\b(why|tai sao|vi sao|ly do)\b")),
    ("list", re.compile(r"\b(what are the|which (?:are|documents|conditions|cases|rights|obligations)|list|"
                        r"gom nhung|bao gom nhung|nhung (?:gi|truong hop nao|dieu kien nao|giay to nao)|cac truong hop)\b")),
    # "what is covered / excluded / paid if …" asks what a rule gives, not what a word means
    ("definition", re.compile(r"^(?:what (?:is|are|does) (?:meant by |an? |the )?(?!(?:\w+ed|paid)\b)"
                              r"[\w\s-]{1,40}(?:\?|mean)|"
                              r"define\b)|\b(la gi|nghia la gi|duoc hieu nhu the nao|hieu the nao)\b")),
    ("yes_no", _YES_NO),
]  # fmt: skip


_NOUNS = re.compile(
    r"^(?:time limit|deadline|thoi han|phi bao hiem|so tien|muc phi|muc phat|ty le|muc boi thuong"
    r"|muc toi da|muc toi thieu|(?:maximum|minimum) (?:amount|sum|benefit|payment|limit|fine))$"
)
"""Figure types' cues that are nouns naming the topic, not question words: in a yes/no question ("Thời hạn 15
ngày có tính cả ngày nghỉ lễ không?", "Can the controller extend the response deadline?") they do not make it a
question for a duration or an amount; "is there a deadline ...?" asks for it all the same."""
_EXISTS = re.compile(r"^(?:is|are) there\b")
_MANNER = re.compile(r"\b(?:nhu the nao|(?<!hieu )the nao|ra sao|bang cach nao)\b")
"""A Vietnamese question asking how (folded): "Phí bảo hiểm nhà ở được tính như thế nào?" asks for the way it is
computed, not an amount (it was answered "Mức tiền là 30%.", a short-term rate)."""

_VI_ONLY = {"ai", "may"}
"""Vietnamese question words that are English words once folded ("ai" = who / "AI"; "mấy" = how many / "may")."""
_MARKED = {"bao gio": "bao giờ"}
"""Vietnamese question words that other words fold to ("bão gió"): read with their marks in a question typed with
marks."""


@functools.lru_cache(maxsize=1024)
def question_type(question: str) -> str:
    """One of ``TYPES``: the kind of answer ``question`` asks for (``other`` when no pattern tells)."""
    plain = " ".join(nfc(question).lower().split())
    q = fold(plain)  # one character per character: a match's span reads the same words with their diacritics
    english = detect_language(question) == "en"
    yes_no = _YES_NO.search(q) is not None and not _EXISTS.match(q)
    if english and not yes_no and _YES_NO_AFTER.search(q) and not re.search(rf"\b{_WH}\b", q):
        return "yes_no"
    # a question whether, or how, names a time limit or a premium as its topic, not as what it asks for
    topic_only = yes_no or _MANNER.search(q) is not None
    for name, pattern in _Q:
        found = [m for m in pattern.finditer(q) if _asks(name, m, plain, english)]
        if found and not (topic_only and all(_NOUNS.match(m.group(0).strip()) for m in found)):
            return name
    return "other"


def _asks(name: str, m: re.Match[str], plain: str, english: bool) -> bool:
    """Whether a pattern's match is the question word it stands for: not the English "AI" or "may", nor the
    "máy" of "xe máy" read as "mấy"."""
    word = m.group(0).strip()
    if word in _MARKED:  # "bão gió" (a storm's wind) is no "bao giờ" (when)
        return plain == fold(plain) or _MARKED[word] in plain[m.start() : m.end()]
    if name == "yes_no" or word not in _VI_ONLY:
        return True
    if english:
        return False
    return word != "may" or "mấy" in plain[m.start() : m.end()]
