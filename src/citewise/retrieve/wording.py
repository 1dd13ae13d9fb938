"""Everyday wording for the lexical ranker: a question as people write it ("Chào luật sư, vợ chồng
em cưới năm 2015 … Cho em hỏi em có được … không ạ?") is cut to what the ranker should match —
greetings, thanks and politeness particles dropped, the question sentence kept, the story before it
kept whole, reduced to its legal terms, or dropped (``story``) — and the spoken forms in it expanded
with their legal wording (``retrieve.synonyms``). The dense ranker sees the question unchanged."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Literal

from citewise.lang import detect_language, fold, nfc
from citewise.retrieve.synonyms import LEGAL_TERMS, SYNONYMS
from citewise.textmatch import without_cover

Story = Literal["off", "keep", "terms", "drop"]
"""What the lexical query keeps of the sentences around the question: all of them, their legal
terms (``synonyms.LEGAL_TERMS``, spoken forms, figures with units), or nothing; ``off``: the
question is searched as typed."""

_WORD = re.compile(r"[^\W_]+")
_SENTENCE = re.compile(r"(?<=[.!?…;])\s+|\n+")
_W = r"(?<![^\W_])"  # no word character before
_E = r"(?![^\W_])"  # no word character after

# Greetings, addresses and request preambles at the start of a sentence (matched on folded text).
_VI_LEAD = re.compile(
    rf"^\s*(?:(?:(?:em|toi|minh|chau|con|tui)\s+(?=(?:kinh\s+|xin\s+)?(?:chao|thua)\s))?"
    rf"(?:kinh\s+)?(?:xin\s+)?(?:chao|thua|gui)\s+(?:cac\s+)?(?:quy\s+)?"
    rf"(?:luat\s+su|ls|anh\s+chi|anh|chi|ad(?:min)?|moi\s+nguoi|van\s+phong|cong\s+ty)\b[\s,.!:;-]*)?"
    rf"(?:luat\s+su\s+oi[\s,.!:;-]*)?"
    rf"(?:(?:luat\s+su\s+)?(?:(?:xin\s+)?cho\s+|mong\s+|nho\s+)?(?:em|toi|minh|chau|con|tui)?\s*"
    rf"(?:xin\s+|muon\s+|can\s+)?(?:duoc\s+)?(?:hoi|tu\s+van)(?:\s+(?:chut|voi|giup|la))*{_E}[\s,:]*)?",
    re.I,
)
_VI_TRAIL = re.compile(
    rf"(?:[\s,]*{_W}(?:a|ah|nhe|nha|nhi|voi\s+a|giup\s+(?:em|toi|minh|chau)(?:\s+voi)?(?:\s+a)?|"
    rf"(?:em|toi|minh)?\s*(?:xin\s+)?(?:chan\s+thanh\s+)?cam\s+on(?:\s+(?:luat\s+su|nhieu|a))*){_E})+[\s.?!]*$",
    re.I,
)
_VI_THANKS = re.compile(
    r"^\s*(?:(?:em|toi|minh|chau)\s+)?(?:xin\s+)?(?:chan\s+thanh\s+)?(?:cam\s+on|mong\s+(?:nhan\s+duoc|luat\s+su)|"
    r"xin\s+loi)\b",
    re.I,
)
_VI_ASK = re.compile(
    rf"{_W}(?:khong|chua|bao\s+nhieu|bao\s+lau|bao\s+gio|the\s+nao|nhu\s+nao|ra\s+sao|gi|nao|dau|may|sao|"
    rf"hay\s+khong|phai\s+khong|duoc\s+khong|co\s+dung\s+khong){_E}[\s.?!]*$",
    re.I,
)
_VI_REQUEST = re.compile(
    rf"{_W}(?:(?:xin\s+)?cho\s+(?:em|toi|minh|chau|con|tui)\s+hoi|(?:em|toi|minh|chau|tui)\s+(?:xin\s+|muon\s+|can\s+)hoi|"
    rf"xin\s+hoi|(?:muon|can)\s+biet|tu\s+van\s+giup){_E}",
    re.I,
)
_EN_LEAD = re.compile(
    r"^\s*(?:(?:hi|hello|hey|dear|good\s+(?:morning|afternoon|evening))\b[^,.!:]*[,.!:]?\s*)?"
    r"(?:(?:i\s+(?:would|'d)\s+like\s+to\s+(?:ask|know)|i\s+(?:have|had)\s+a\s+(?:quick\s+)?question|"
    r"quick\s+question|i\s+was\s+wondering|can\s+you\s+(?:please\s+)?(?:tell\s+me|advise)|"
    r"could\s+you\s+(?:please\s+)?(?:tell\s+me|advise)|please\s+(?:advise|help|tell\s+me))"
    r"(?:\s+(?:about|on|if|whether|is))?\b[\s,:-]*)?",
    re.I,
)
_EN_TRAIL = re.compile(
    r"(?:[\s,]*(?:thanks?(?:\s+you)?(?:\s+(?:so\s+much|very\s+much|in\s+advance))?|cheers|regards|"
    r"any\s+help\s+(?:is\s+)?appreciated|please\s+(?:advise|help)))+[\s.?!]*$",
    re.I,
)
_EN_REQUEST = re.compile(
    r"\b(?:i\s+(?:would|'d)\s+like\s+to\s+(?:ask|know)|i\s+was\s+wondering|(?:can|could)\s+you\s+(?:please\s+)?"
    r"(?:tell\s+me|advise)|please\s+(?:advise|tell\s+me))\b",
    re.I,
)
_EN_THANKS = re.compile(r"^\s*(?:thanks?|thank\s+you|cheers|regards|many\s+thanks|best)\b", re.I)
_EN_ASK = re.compile(
    r"^\s*(?:what|when|where|which|who|whom|whose|why|how|can|could|do|does|did|is|are|was|were|"
    r"should|shall|must|may|might|will|would|am|have|has)\b",
    re.I,
)
_VI_FILLER = re.compile(
    r"(?<![^\W_])(?:(?:anh|chị|cô|ông|bà|bạn)\s+ấy|em(?!\s+(?:gái|trai|ruột|họ|út|rể|dâu|kế|nuôi|vợ|chồng))|tôi|mình|tui|"
    r"tụi\s+em|chúng\s+tôi|chúng\s+em|ạ|à|ơi|nhé|nha|luật\s+sư)(?![^\W_])",
    re.I,
)
"""Pronouns of the asker and particles, dropped from the Vietnamese lexical query: "em" and "anh ấy"
are the people asking, not siblings ("anh, chị, em" of Điều 112 HNGĐ); "em gái", "em ruột" stay.
Connectives ("thì", "mà") stay: law text pairs them with its words ("nghiêm trọng thì bị phạt")."""
_FIGURE = re.compile(
    r"\d+(?:[.,]\d+)?\s*(?:%|tuổi|tháng|năm|ngày|giờ|triệu|người|lần|years?|months?|days?|hours?|%)", re.I
)


_CHECK_TAIL = re.compile(
    r"[\s,;:-]*(?:đúng\s+hay\s+sai|đúng\s+không|phải\s+không|có\s+đúng\s+không|true\s+or\s+false|"
    r"is\s+(?:this|that|it)\s+(?:true|correct|right))\s*[?.!]*\s*$",
    re.I,
)
"""A statement's request to be checked, at its end: "…, đúng hay sai?", "… phải không?", "…, true or false?"."""


def statement_of(question: str) -> str:
    """``question`` without a closing "đúng hay sai?" / "true or false?": what the dense ranker embeds. The tail
    says how to answer, not what about, and pulls the question's vector away from the provision it states: on the 45
    ALQAC 2023 train statements that end so, Hit@1 0.889 -> 0.911 (session 39)."""
    text = nfc(question)  # "đúng" typed decomposed matches too
    m = _CHECK_TAIL.search(text)
    statement = text[: m.start()].rstrip() if m else ""
    return statement + "." if len(statement.split()) >= 3 else question


@dataclass
class Wording:
    """The lexical query made from a question, and what was done to it."""

    text: str
    """What the lexical ranker searches."""
    question: str
    """The question sentence(s), greetings and particles removed."""
    story: list[str] = field(default_factory=list)
    """What was kept of the sentences before the question (whole sentences or terms)."""
    dropped: list[str] = field(default_factory=list)
    """Sentences left out (greetings, thanks, the story when reduced or dropped)."""
    expansions: list[str] = field(default_factory=list)
    """Legal wording added for the spoken forms found."""


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def _cut(sentence: str, lead: re.Pattern[str], trail: re.Pattern[str]) -> str:
    """``sentence`` without its leading greeting / request preamble and trailing particles. The
    patterns match folded text, which keeps the offsets of the original (one character each)."""
    folded = fold(sentence)
    m = trail.search(folded)
    end = m.start() if m else len(sentence)
    m = lead.match(folded[:end])
    start = m.end() if m else 0
    return sentence[start:end].strip(" ,;:-")


def is_question(sentence: str, lang: str) -> bool:
    s = sentence.strip()
    if s.endswith("?"):
        return True
    if lang == "vi":
        folded = fold(s)
        return bool(_VI_ASK.search(fold(_cut(s, _VI_LEAD, _VI_TRAIL))) or _VI_REQUEST.search(folded))
    return bool(_EN_ASK.match(_cut(s, _EN_LEAD, _EN_TRAIL)) or _EN_REQUEST.search(s))


def match_key(text: str) -> str:
    """How forms are matched: as written (lower case), or without diacritics when the text has none
    (a question typed without them), so that "lãi" does not match "lại". What ``reworded`` returns for a text with
    no spoken form in it."""
    return text.lower() if text.isascii() else nfc(text).lower()


@cache
def _patterns(lang: str, folded: bool, terms: bool, broader: bool = True) -> tuple[tuple[re.Pattern[str], str], ...]:
    """(pattern, what it stands for) per form, longest forms first: spoken forms with their legal
    wording (without the ``Synonym.broader`` ones unless ``broader``), or (``terms``) the legal terms and spoken
    forms as themselves."""
    if terms:
        pairs = [(t, t) for t in LEGAL_TERMS.get(lang, ())]
        pairs += [(f, f) for syn in SYNONYMS if syn.lang == lang for f in syn.spoken]
    else:
        pairs = [
            (f, syn.legal) for syn in SYNONYMS if syn.lang == lang and (broader or not syn.broader) for f in syn.spoken
        ]
    pairs.sort(key=lambda p: -len(p[0]))
    return tuple(
        (re.compile(rf"{_W}{_form_pattern(fold(form).lower() if folded else form.lower(), lang)}{_E}"), value)
        for form, value in pairs
    )


_UNINFLECTED = frozenset({"into", "onto", "them", "they", "this", "that", "what", "with", "from", "myself"})
_INFLECTED = re.compile(r"(?:ing|ied|ed|[^s]s)$")


def _endings(base: str) -> set[str]:
    """``base`` and its regular English endings: "complain" -> complains, complained, complaining; "live" ->
    lives, lived, living; "carry" -> carries, carried; "drop" -> dropped, dropping; "cancel" -> canceled, cancelled."""
    if base.endswith("e"):
        return {base, base + "s", base + "d", base[:-1] + "ing"}
    if base.endswith("y") and base[-2:-1] not in ("a", "e", "o", "u"):
        return {base, base[:-1] + "ies", base[:-1] + "ied", base + "ing"}
    out = {base, base + ("es" if re.search(r"(?:[sxzo]|[cs]h)$", base) else "s"), base + "ed", base + "ing"}
    if (len(base) <= 5 and re.fullmatch(r".*[^aeiou][aeiou][bdgmnprt]", base)) or re.fullmatch(r".*[aeiou]l", base):
        out |= {base + base[-1] + "ed", base + base[-1] + "ing"}  # "drop" -> "dropped", "cancel" -> "cancelled"
    return out


def _inflections(word: str) -> set[str]:
    """A word of an English phrase in the endings people also write it with: written plain, it takes its endings
    ("kick me off" -> "kicked me off"); written with an ending, it is read from its stem too ("nobody living" ->
    "lives", "lived"; "robbed" -> "rob"). Irregular forms ("broke" / "break") are written out in the table."""
    m = _INFLECTED.search(word)
    if not m:
        return _endings(word)
    suffix = m.group(0) if m.group(0) in ("ing", "ied", "ed") else "s"
    if len(word) - len(suffix) < 3:
        return {word}
    base = word[: -len(suffix)] + ("y" if suffix == "ied" else "")
    bases = {base}
    if suffix in ("ing", "ed"):
        bases.add(base + "e")  # "living" -> "live", "burgled" -> "burgle"
        if len(base) >= 4 and base[-1] == base[-2] and base[-1] not in "sfz":
            bases.add(base[:-1])  # "robbed" -> "rob", "cancelled" -> "cancel"
    return {word}.union(*(_endings(b) for b in bases))


def _form_pattern(form: str, lang: str) -> str:
    """The regular expression matching ``form``, its words separated by any run of spaces: an English phrase also
    in its words' other endings (``_inflections``), so that "nobody lives in" matches the form "nobody living"; a
    single word only as written, since its endings make other words of it ("bank" / "banking", "permit" /
    "permits", "fined" / "fine")."""
    words = form.split()
    if lang != "en" or len(words) == 1:
        return r"\s+".join(map(re.escape, words))
    parts = []
    for w in words:
        if w.isalpha() and w.isascii() and len(w) >= 3 and w not in _UNINFLECTED:
            alts = sorted(_inflections(w), key=lambda a: (-len(a), a))
            parts.append("(?:" + "|".join(map(re.escape, alts)) + ")")
        else:
            parts.append(re.escape(w))
    return r"\s+".join(parts)


def expand(text: str, lang: str) -> list[str]:
    """The legal wording of the spoken forms in ``text``, each once; none the text says already."""
    key = match_key(text)
    said = f" {_plain(key)} "
    out: list[str] = []
    for pattern, legal in _patterns(lang, key.isascii(), False):
        if legal not in out and pattern.search(key) and f" {_plain(legal.lower())} " not in said:
            out.append(legal)
    return out


def reworded(text: str, lang: str, broader: bool = True) -> str:
    """``text`` (lower case) with each spoken form replaced by its legal wording: "leave my house empty" ->
    "leave my house unoccupied", for matching the question's words against the provisions' own; a place is left as
    it is, not read as its premium zone, unless ``broader``. A form inside its own legal wording is left as it is
    ("tạm ứng trước" is not "tạm tạm ứng", "lãi suất" not "lãi suất suất")."""
    key = match_key(text)
    for start, end, legal in sorted(_placed(key, lang, False, broader), reverse=True):
        if not _inside_its_wording(key, start, end, legal):
            key = key[:start] + legal.lower() + key[end:]
    return key


def _inside_its_wording(key: str, start: int, end: int, legal: str) -> bool:
    """Whether the form at ``start:end`` of ``key`` overlaps a place where ``key`` says its legal wording."""
    wording = fold(legal).lower() if key.isascii() else nfc(legal).lower()
    at = key.find(wording)
    while at >= 0:
        if at < end and start < at + len(wording):
            return True
        at = key.find(wording, at + 1)
    return False


@lru_cache(maxsize=256)
def wordings(question: str) -> tuple[str, ...]:
    """The question as written and, when its everyday words have a legal wording, in that wording ("food in my
    freezer if there is a power cut" -> "… if there is a change in temperature", as a policy says it)."""
    legal = reworded(question, detect_language(question))
    return (question,) if legal == " ".join(question.lower().split()) else (question, legal)


def _placed(key: str, lang: str, terms: bool, broader: bool = True) -> list[tuple[int, int, str]]:
    """(start, end, what it stands for) of the forms ``_patterns`` finds in ``key``, longest forms first, each
    place of the text taken once."""
    taken = [False] * len(key)
    found: list[tuple[int, int, str]] = []
    for pattern, value in _patterns(lang, key.isascii(), terms, broader):
        for m in pattern.finditer(key):
            if not any(taken[m.start() : m.end()]):
                taken[m.start() : m.end()] = [True] * (m.end() - m.start())
                found.append((m.start(), m.end(), value))
    return found


def _plain(text: str) -> str:
    """``text`` without diacritics or punctuation, its words separated by one space."""
    return " ".join(_WORD.findall(fold(text)))


def legal_terms(text: str, lang: str) -> list[str]:
    """The legal terms, spoken forms and figures with units in ``text``, as written there, in order."""
    key = match_key(text)
    found = [(start, key[start:end]) for start, end, _ in _placed(key, lang, True)]
    found += [(m.start(), m.group(0)) for m in _FIGURE.finditer(key)]
    return [t for _, t in sorted(found)]


def _questions(parts: list[str], lang: str) -> list[int]:
    """The question sentences: those ending with "?" or asking ("cho em hỏi …") when some sentence
    ends with "?"; otherwise the last sentence that reads as a question."""
    if any(p.rstrip().endswith("?") for p in parts):
        request = _VI_REQUEST if lang == "vi" else _EN_REQUEST
        return [i for i, p in enumerate(parts) if p.rstrip().endswith("?") or _starts_request(p, request)]
    asks = [i for i, p in enumerate(parts) if is_question(p, lang)]
    return asks[-1:]


def _starts_request(sentence: str, request: re.Pattern[str]) -> bool:
    m = request.search(fold(sentence))
    return bool(m and m.group(0) and m.start() < 40)


def rewrite(question: str, lang: str, story: Story = "keep", synonyms: bool = True) -> Wording:
    """The lexical query for ``question`` (``lang`` "vi" or "en"; other languages: unchanged)."""
    if story == "off" or lang not in ("vi", "en"):
        return Wording(question, question)
    lead, trail, thanks = (_VI_LEAD, _VI_TRAIL, _VI_THANKS) if lang == "vi" else (_EN_LEAD, _EN_TRAIL, _EN_THANKS)
    parts = sentences(question)
    asks = _questions(parts, lang)
    first = asks[0] if asks else len(parts) - 1
    kept_q: list[str] = []
    before: list[str] = []
    dropped: list[str] = []
    for i, s in enumerate(parts):
        cut = _cut(s, lead, trail)
        if not cut or (i not in asks and thanks.match(fold(s))):
            dropped.append(s)
        elif i in asks or (not asks and i == first):
            kept_q.append(cut)
        elif i < first or story != "drop":
            before.append(cut)
        else:
            dropped.append(s)
    if not kept_q:  # nothing but greetings: search what there is
        return Wording(question, question, dropped=dropped)
    kept_story: list[str]
    if story == "keep":
        kept_story = before
    elif story == "terms":
        kept_story = [t for s in before for t in legal_terms(s, lang)]
        dropped += before
    else:
        kept_story = []
        dropped += before
    q = without_cover(" ".join(kept_q))  # "Is mould covered?": mould, not the "cover" of every section
    expansions = expand(" ".join([*before, q]) if story != "drop" else q, lang) if synonyms else []
    if lang == "vi" and not question.isascii():
        q = " ".join(_VI_FILLER.sub(" ", q).split())
        kept_story = [t for t in (" ".join(_VI_FILLER.sub(" ", k).split()) for k in kept_story) if t]
    text = " ".join([*kept_story, q, *expansions])
    return Wording(text, q, kept_story, dropped, expansions)
