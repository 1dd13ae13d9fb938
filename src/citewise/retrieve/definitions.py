"""A question asking what a term means, and the provisions that define it.

"Theo Bộ luật Dân sự 2015, hoa lợi được hiểu như thế nào?" asks for the sentence "Hoa lợi là sản vật tự nhiên mà tài
sản mang lại."; "What is a Relevant Person?" for '"Relevant Person" means …'. Word overlap and the question's vector
rank the provisions that *use* the term as high as the one that defines it (ALQAC 2022: "hoa lợi" 13th, "vật chính"
6th), while the definition itself is easy to recognise: the term opening a sentence, a list point or a line, followed
by "là" / "means" / "is defined as". The retriever puts such candidates first (``Retriever._search``).

Only questions: a statement to check ("Cơ sở dữ liệu về cư trú là tài sản quốc gia do Bộ Công an thống nhất quản lý,
đúng hay sai?") reads the same way but is often checked against another provision than the definition (there, the
article on managing the database): on the ten ALQAC 2023 train statements of that form, putting the definition first
gained one and lost one, so statements are left alone."""

from __future__ import annotations

import functools
import re

from citewise.lang import nfc

_VI_ASK = re.compile(
    r"^(?:thế nào là|the nao la|(?:định nghĩa|khái niệm|dinh nghia|khai niem)(?:\s+(?:của|về|cua|ve))?)\s+(?P<a>.+?)"
    r"\s*\??$"
    r"|^(?P<b>.+?)\s+(?:được định nghĩa là gì|được hiểu (?:là gì|như thế nào|thế nào)|có nghĩa là gì|nghĩa là gì|"
    r"được tính là(?: gì)?|(?:bao )?gồm (?:những )?(?:ai|gì)|là gì|là ai|duoc dinh nghia la gi|duoc hieu (?:la gi|nhu the nao|the nao)"
    r"|duoc tinh la(?: gi)?|(?:bao )?gom (?:nhung )?(?:ai|gi)|co nghia la gi|nghia la gi|la gi|la ai)"
    r"(?:\s+(?:vậy|ạ|nhỉ|thế|vay|a))?(?:\s+và\s+[^?]{1,60})?\s*\??$",
    re.I,
)
_EN_ASK = re.compile(
    r"^(?:what (?:is|are) (?:meant by|the (?:meaning|definition) of) |define |how (?:is|are) |what (?:does|do) )?"
    r"(?:what (?:is|are) )?(?:an? |the )?(?P<a>.+?)"
    r"(?:\s+(?:mean|means|defined|refer to))?\s*\??$",
    re.I,
)
_EN_FORMS = re.compile(
    r"^(?:what (?:is|are) (?:meant by|the (?:meaning|definition) of)\s|define\s|how (?:is|are) .+ defined\s*\??$"
    r"|what does .+ mean\s*\??$|what (?:is|are) (?:an? |the )?[^,;]{1,60}\?$)",
    re.I,
)
_LEAD_IN = re.compile(
    r"^(?:(?:theo|trong|căn cứ|tại)\s[^,]{1,80},\s*|(?:according to|under|in)\s[^,]{1,80},\s*)"
    r"|^.{0,80}?\bquy định\s+(?=\S)",
    re.I,
)
"""Words before the term that name where it is defined: "Theo Bộ luật Dân sự 2015, …", "Bộ luật Dân sự 2015 quy
định …", "Under the GDPR, …"."""
_QUOTES = "\"'“”‘’«»"
_NOT_A_NAME = re.compile(
    r"^(?:one|some|not|other|most|how|why|which)\b|\b(?:to|of|with|by|for|as|in|from|on|at|called|do|does|did|gọi)$",
    re.I,
)
"""What a question about a term's meaning does not ask: "What is one reason …", "What is flexible construction similar
to?", "What are internet pharmacies also called?", "… được gọi là gì?" (the term for a description)."""
_SCENE = re.compile(
    r"^\s*(?:khi|nếu|trường hợp|trong trường hợp|đối với|theo|căn cứ|when|if|where|under)\b"
    r"|\b(?:bộ luật|nghị định|thông tư)\b",
    re.I,
)
"""A clause that sets the scene for a question rather than naming what it asks about: a case ("khi …", "nếu …") or
the law it is asked under ("Bộ luật dân sự 2015")."""
MAX_TERM_WORDS = 10
"""A longer "term" is a description, not a name ("Trách nhiệm của lực lượng chuyên trách bảo vệ an ninh mạng là gì")."""


def asked_term(question: str, lang: str) -> str | None:
    """The term ``question`` asks the meaning of ("hoa lợi", "Relevant Person"), or ``None`` when it asks none."""
    q = nfc(" ".join(question.split()))
    body = q
    for _ in range(3):  # "Theo Điều 5: Áp dụng tập quán, trong Bộ luật dân sự 2015, tập quán là gì?"
        body = _LEAD_IN.sub("", body, count=1)
    if lang == "vi":
        m = _VI_ASK.match(body)
        term = (m.group("a") or m.group("b")) if m else None
    else:
        if not _EN_FORMS.search(body):
            return None
        m = _EN_ASK.match(body)
        term = m.group("a") if m else None
    if not term:
        return None
    term = term.strip().strip(_QUOTES).strip()
    if (len(term.split()) > MAX_TERM_WORDS or any(ch.isdigit() for ch in term)) and ", " in term:
        # the term is what the last clause names after a clause setting the scene: "…, khi khoảng thời gian diễn ra
        # không liền nhau, một năm được tính là?", "Theo Điều 16, Bộ luật dân sự 2015, năng lực pháp luật dân sự của cá
        # nhân là gì?"; not the end of a description ("Đại diện … có khó khăn trong nhận thức, làm chủ hành vi là ai?")
        before, last = term.rsplit(", ", 1)
        if _SCENE.search(before.rsplit(", ", 1)[-1]):
            term = last.strip().strip(_QUOTES).strip()
    if not term or len(term.split()) > MAX_TERM_WORDS or any(ch.isdigit() for ch in term) or _NOT_A_NAME.search(term):
        return None
    return term


def defines(text: str, term: str, opening: bool = False) -> bool:
    """Whether ``text`` defines ``term``: the term (any case, in quotes or not) opening a line, a sentence or a list
    point ("3.", "a)"), followed by "là" / "được hiểu là" / "means" / "is defined as" / "refers to"; with ``opening``,
    only where ``text`` itself opens (a sentence that is the definition, not a list holding it)."""
    return definition_verb(text, term, opening) is not None


def definition_verb(text: str, term: str, opening: bool = False) -> str | None:
    """The verb by which ``text`` defines ``term`` ("là", "bao gồm", "means", as written; ``defines``), or ``None``."""
    m = _definition(nfc(term), opening).search(nfc(text))
    return m.group("verb") if m else None


@functools.lru_cache(maxsize=256)
def _definition(term: str, opening: bool) -> re.Pattern[str]:
    """The pattern of ``term``'s definition (``defines``), compiled once per term: a search reads up to 30 chunks."""
    return re.compile(
        (r"^" if opening else r"(?:^|\n|[.;:]\s+)") + r"\s*(?:\(?\w{1,3}[.)]\s+)?[" + _QUOTES + r"]?"
        + re.escape(term)
        + r"[" + _QUOTES + r"]?\s*(?:\([^)]{1,40}\)\s*)?"
        r"(?P<verb>là|được hiểu là|có nghĩa là|bao gồm|gồm|means|shall mean|is defined as|refers to)\b",
        re.I,
    )  # fmt: skip
