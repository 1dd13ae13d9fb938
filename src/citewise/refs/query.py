"""Legal references in a question, in the ways people type them, with or without diacritics:
"Article 6(1)(a) GDPR", "Art. 17", "Recital 47", "rule 3.2.1", "Section 4.2", "Annex III",
"Điều 12 Thông tư 67/2023/TT-BTC", "khoản 2 điều 17 luật kinh doanh bảo hiểm", "dieu 12 tt 67",
"NĐ 46/2023", "Luật KDBH 2022"."""

from __future__ import annotations

import re

from citewise.lang import fold, visible
from citewise.refs.markers import number_key
from citewise.refs.records import DocHint, QueryRef

_TYPES = [
    (r"bo\s+luat|bl", "Bộ luật"),
    (r"luat", "Luật"),
    (r"nghi\s+dinh|nd", "Nghị định"),
    (r"thong\s+tu\s+lien\s+tich|ttlt", "Thông tư liên tịch"),
    (r"thong\s+tu|tt", "Thông tư"),
    (r"quyet\s+dinh|qd", "Quyết định"),
    (r"nghi\s+quyet|nq", "Nghị quyết"),
    (r"van\s+ban\s+hop\s+nhat|vbhn", "Văn bản hợp nhất"),
    (r"quy\s+tac", "Quy tắc"),
    (r"regulation|reg\.?", "Regulation"),
    (r"directive|dir\.?", "Directive"),
]
_TYPE_RE = "|".join(f"(?:{p})" for p, _ in _TYPES)

# "Thông tư 67/2023/TT-BTC", "tt 67", "tt67/2023", "NĐ 46/2023", "Nghị định số 46", "Regulation (EU) 2016/679"
_DOC_NUM = re.compile(
    rf"\b(?P<type>{_TYPE_RE})\s*(?:\((?:eu|ec|eec)\)\s*)?(?:so\s*|no\.?\s*)?"
    r"(?P<num>\d{1,4})(?:\s*/\s*(?P<year>\d{4}))?(?:\s*/\s*(?P<suffix>[a-z]{1,6}\d{0,2}(?:\s*-\s*[a-z0-9]{1,8})*))?\b",
    re.I,
)
# "2016/679", "46/2023/ND-CP", "08/2022/QH15" without a type word
_BARE_NUM = re.compile(
    r"\b(?P<num>\d{1,4})/(?P<year>\d{4})(?:/(?P<suffix>[a-z]{1,6}\d{0,2}(?:-[a-z0-9]{1,8})*))?\b", re.I
)
_EU_NUM = re.compile(r"\b(?P<year>(?:19|20)\d{2})/(?P<num>\d{1,4})\b")
# "Luật KDBH 2022", "BLDS": an upper-case acronym in the original text
_ACRONYM = re.compile(
    r"\b(?:(?P<type>[Ll]uật|[Bb]ộ luật|[Nn]ghị định|[Tt]hông tư|[Ll]uat)\s+)?(?P<acr>[A-ZĐ]{2,8})(?:\s+(?P<year>\d{4}))?\b"
)
_ACRONYM_STOP = {
    "EU",
    "EC",
    "EEC",
    "QH",
    "CP",
    "TT",
    "ND",
    "NĐ",
    "QD",
    "QĐ",
    "USD",
    "VND",
    "ID",
    "OK",
    "VAT",
    "BTC",
    "PDF",
}

_VI_PROV = re.compile(
    r"\b(?:diem\s+(?P<p1>dd|[a-z])\s*,?\s*(?:cua\s+)?)?(?:khoan\s+(?P<k1>\d{1,3})\s*,?\s*(?:cua\s+)?)?"
    r"dieu\s+(?P<art>\d{1,4}(?:\.\d+)*(?:\.[a-z]{1,3}(?:\.\d+)+)?[a-z]?)"
    r"(?:\s*,?\s*khoan\s+(?P<k2>\d{1,3}))?(?:\s*,?\s*diem\s+(?P<p2>dd|[a-z])\b)?",
    re.I,
)
_EN_ART = re.compile(
    r"\b(?:(?:point|subparagraph)\s*\((?P<pt>[a-z])\)\s+of\s+)?(?:paragraph\s+(?P<par>\d{1,3})\s+of\s+)?"
    r"(?:articles?|art\.?|arts?\.?)\s*(?P<art>\d{1,3}[a-z]?)(?P<subs>(?:\s*\(\s*[0-9a-z]{1,4}\s*\))*)",
    re.I,
)
_EN_OTHER = re.compile(
    r"\b(?P<word>recital|rule|section|clause|annex|appendix|chapter)(?:\s+\(?|\()(?P<num>\d{1,3}(?:\.\d{1,3})*(?:\(\d+\))?|[ivxlc]{1,6}|[a-z])"
    r"(?P<subs>(?:\(\s*[0-9a-z]{1,4}\s*\)){0,3})\)?(?!\w|\.\d)",
    re.I,
)


_VI_OTHER = re.compile(r"\b(?P<word>phu\s+luc|chuong)\s+(?P<num>[ivxlc]{1,6}|\d{1,3}[a-z]?)\b", re.I)


def _type_name(raw: str) -> str | None:
    f = fold(raw).lower().strip().rstrip(".")
    for pat, name in _TYPES:
        if re.fullmatch(pat, f):
            return name
    return None


def _suffix(raw: str | None) -> str | None:
    return re.sub(r"\s+", "", fold(raw).lower()) if raw else None


def doc_hints(question: str) -> list[tuple[int, int, DocHint]]:
    """Documents named in the question, with their spans."""
    f = fold(question).lower()
    out: list[tuple[int, int, DocHint]] = []
    taken: list[tuple[int, int]] = []

    def free(s: int, e: int) -> bool:
        return all(e <= a or s >= b for a, b in taken)

    for m in _DOC_NUM.finditer(f):
        t = _type_name(m.group("type"))
        if t in ("Regulation", "Directive") and m.group("year") is None:
            continue  # "regulation 5" is not a citation
        num, year = m.group("num"), m.group("year")
        if t in ("Regulation", "Directive") and len(num) == 4 and year and len(year) <= 4:
            # EU style: year first ("2016/679")
            num, year = year, num
        out.append(
            (
                m.start(),
                m.end(),
                DocHint(question[m.start() : m.end()], t, str(int(num)), year, _suffix(m.group("suffix"))),
            )
        )
        taken.append((m.start(), m.end()))
    for m in _BARE_NUM.finditer(f):
        if not free(m.start(), m.end()):
            continue
        num, year = m.group("num"), m.group("year")
        hint = DocHint(question[m.start() : m.end()], None, str(int(num)), year, _suffix(m.group("suffix")))
        out.append((m.start(), m.end(), hint))
        taken.append((m.start(), m.end()))
    for m in _EU_NUM.finditer(f):
        if free(m.start(), m.end()):
            out.append(
                (
                    m.start(),
                    m.end(),
                    DocHint(question[m.start() : m.end()], None, str(int(m.group("num"))), m.group("year")),
                )
            )
            taken.append((m.start(), m.end()))
    for m in _ACRONYM.finditer(question):
        acr = m.group("acr")
        if acr in _ACRONYM_STOP or not free(m.start("acr"), m.end("acr")) or re.fullmatch(r"[IVXLC]+", acr):
            continue
        t = _type_name(m.group("type")) if m.group("type") else None
        out.append((m.start(), m.end(), DocHint(m.group(0), t, None, m.group("year"), None, fold(acr).lower())))
        taken.append((m.start(), m.end()))
    out.sort(key=lambda x: x[0])
    return out


def sub_keys(written: str) -> str:
    """The key path of the sub-labels after a dotted rule number: "(2)(a)(i)" -> "/par:2/pt:a/sub:1" (paragraph
    numbers, point letters, then roman sub-points, as the structure tree keys them)."""
    out = ""
    for part in re.findall(r"\(\s*([0-9a-z]{1,4})\s*\)", written):
        if part.isdigit() and "/par:" not in out and "/pt:" not in out:
            out += f"/par:{int(part)}"
        elif "/pt:" not in out:
            out += f"/pt:{number_key(part)}"
        else:
            out += f"/sub:{number_key(part)}"
    return out


def provision_refs(question: str) -> list[QueryRef]:
    """Provisions named in the question (without their document); invisible marks inside a
    reference ("Rule \u200e9.1.1") do not hide it."""
    f = fold(visible(question)).lower()
    low = visible(question).lower()
    refs: list[QueryRef] = []

    def letter(group: str, m: re.Match[str]) -> str | None:
        if m.group(group) is None:
            return None
        raw = low[m.start(group) : m.end(group)] if len(low) == len(f) else m.group(group)
        return number_key(raw)

    for m in _VI_PROV.finditer(f):
        art = m.group("art")
        key = f"art:{art}"
        k = m.group("k1") or m.group("k2")
        p = letter("p1", m) or letter("p2", m)
        if k:
            key += f"/par:{int(k)}"
        if p:
            key += f"/pt:{p}"
        refs.append(QueryRef(question[m.start() : m.end()], key, m.start(), m.end()))
    for m in _VI_OTHER.finditer(f):
        prefix = "annex" if m.group("word").startswith("phu") else "chap"
        refs.append(
            QueryRef(question[m.start() : m.end()], f"{prefix}:{number_key(m.group('num'))}", m.start(), m.end())
        )
    for m in _EN_ART.finditer(f):
        if any(r.start <= m.start() < r.end for r in refs):
            continue
        key = f"art:{m.group('art')}"
        subs = re.findall(r"\(\s*([0-9a-z]{1,4})\s*\)", m.group("subs") or "")
        par = m.group("par") or (subs.pop(0) if subs and subs[0].isdigit() else None)
        if par:
            key += f"/par:{int(par)}"
        pt = m.group("pt") or (subs.pop(0) if subs and re.fullmatch(r"[a-z]{1,2}", subs[0]) else None)
        if pt:
            key += f"/pt:{pt}"
        if subs and re.fullmatch(r"[ivx]+", subs[0]):
            key += f"/sub:{subs[0]}"
        refs.append(QueryRef(question[m.start() : m.end()], key, m.start(), m.end()))
    for m in _EN_OTHER.finditer(f):
        if any(r.start <= m.start() < r.end for r in refs):
            continue
        word, num = m.group("word").lower(), m.group("num")
        if question[m.start() : m.end()] == "rule a":
            continue  # "as a rule a person ...": the idiom, not "Rule A" or "rule (a)"
        base = num.split("(")[0]
        if word in ("rule", "section", "clause") and "." in num:
            key = f"num:{base}" + sub_keys(num[len(base) :] + (m.group("subs") or ""))
        elif word in ("annex", "appendix"):
            key = f"annex:{number_key(num)}"
        elif word == "recital":
            key = f"recital:{num}"
        elif word == "chapter":
            key = f"chap:{number_key(num)}"
        else:
            key = f"sec:{number_key(num)}"
        refs.append(QueryRef(question[m.start() : m.end()], key, m.start(), m.end()))
    refs.sort(key=lambda r: r.start)
    return refs


def extract_references(question: str) -> tuple[list[QueryRef], list[DocHint]]:
    """Provisions (each with the document named right after it, if any) and the other documents."""
    provisions = provision_refs(question)
    hints = [h for h in doc_hints(question) if not any(r.start <= h[0] < r.end for r in provisions)]
    used: set[int] = set()
    out: list[QueryRef] = []
    for r in provisions:
        # the document named right after the provision ("Điều 12 Thông tư 67/2023", "Article 6 GDPR")
        doc = None
        for i, (s, _e, h) in enumerate(hints):
            gap = question[r.end : s]
            if i not in used and s >= r.end and len(gap) <= 40 and not re.search(r"[?.;]", gap):
                doc = h
                used.add(i)
                break
        out.append(QueryRef(r.raw, r.key, r.start, r.end, doc, is_mention(question[: r.start])))
    others = [h for i, (_, _, h) in enumerate(hints) if i not in used]
    if others and out and all(r.doc is None for r in out) and len(others) == 1:
        # "theo Luật KDBH, điều 17 quy định gì": one document, named before the provision
        out = [QueryRef(r.raw, r.key, r.start, r.end, others[0], r.mention) for r in out]
        others = []
    return out, others


# "<something> quy định tại [các] Điều 5", "nêu tại khoản 2", "the data referred to in Article 9(1)",
# "In the context of Rule 2.6.4, ...", "considering Rule 11.7.1 prohibits ..." (ObliQA questions
# phrased so cite a rule as background and ask about another passage), "... đánh giá theo quy định
# tại Điều 12 của Luật An ninh mạng?"; but not "Theo quy định tại Điều 5, ..." at the start of the
# question (the provision asked about).
_MENTION_VI = re.compile(
    r"(?:quy dinh|neu|ghi|liet ke|huong dan|xac dinh|danh muc)\s+(?:tai|o)"
    r"(?:\s+(?:cac|mot trong cac))?(?:\s+(?:diem|khoan)\s+\S+)*\s*$"
)
_MENTION_EN = re.compile(
    r"(?:\b(?:referred to|mentioned|set out|laid down|specified|provided for|defined|listed|described)"
    r"\s+(?:in|under)|\bin the context of|\bconsidering(?: that)?|\bin light of|\bwith reference to"
    r"|\bas per|\bgiven that|\bin reference to|\bas (?:stipulated|required|prescribed|outlined|set forth)"
    r"(?:\s+(?:by|in|under))?)(?:\s+(?:the\s+)?(?:requirements?|provisions?|obligations?)\s+(?:of|in|under))?"
    r"(?:\s+(?:paragraph|point|points)\s+\S+\s+of)?(?:\s+(?:the\s+)?[a-z]{2,5})?\s*$"
)


def is_mention(before: str) -> bool:
    """Whether a reference preceded by ``before`` is a condition inside the question rather than
    the provision the question asks about."""
    tail = re.sub(r"\s+", " ", fold(before[-60:]).lower().rstrip())
    if _QUESTION_START.fullmatch(re.sub(r"\s+", " ", fold(before).lower().strip())):
        return False  # "Theo quy định tại Điều 5, ...", "Under Article 6, ...": the provision asked about
    return bool(_MENTION_VI.search(tail) or _MENTION_EN.search(tail))


_QUESTION_START = re.compile(r"(?:(?:theo|trong|tai|under|according to|in|per)\s+)?(?:quy dinh tai\s*)?")
