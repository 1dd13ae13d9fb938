"""Cross-references written inside provisions ("theo quy định tại Điều 5", "khoản 2 Điều này",
"referred to in Article 6(1)") and the origin note of a codified (Pháp điển) article."""

from __future__ import annotations

import re

from citewise.lang import fold

_VI_DOC = r"(?:bo\s+luat|luat|nghi\s+dinh|thong\s+tu|quyet\s+dinh|quy\s+tac|quy\s+che)"
_VI_REF = re.compile(
    r"\b(?:diem\s+[a-z](?:\s*(?:,|va)\s*[a-z])*\s+)?"
    r"(?:khoan\s+\d+(?:\s*(?:,|va)\s*\d+)*\s+)?"
    r"dieu\s+\d+[a-z]?(?![.\d]*\d)"
    rf"(?:\s+(?:nay|(?:cua\s+)?{_VI_DOC}(?:\s+nay|\s+(?:so\s+)?\d[\w/\-]*[\w])?))?"
    r"|\b(?:diem\s+[a-z]\s+)?khoan\s+\d+\s+dieu\s+nay",
    re.I,
)
_EN_REF = re.compile(
    r"\b(?:Articles?|Art\.)\s+\d+[a-z]?(?:\(\d+[a-z]?\))*(?:\([a-z]{1,2}\))*(?:\([ivx]+\))*"
    r"(?:\s+(?:of|to)\s+(?:this|Regulation|Directive)[^.;,\n]{0,40})?"
    r"|\bparagraph\s+\d+(?:\([a-z]\))?\s+of\s+this\s+Article"
    r"|\b(?:Section|Rule|Clause)\s+\d+(?:\.\d+)*(?:\(\d+\))?"
    r"|\b(?:Annex|Schedule|Appendix)\s+[IVXLC\d]+\b"
    r"|\bRecital\s+\(?\d+\)?",
)
_ORIGIN = re.compile(
    r"^\s*\((?P<ref>dieu\s+\d+[a-z]?\s+(?P<type>luat|nghi dinh|thong tu|quyet dinh|bo luat|phap lenh)"
    r"\s+so\s+(?P<num>[\w/.\-]+))",
    re.I,
)


def find_references(text: str, lang: str, skip: str = "", heading_line: bool = False) -> list[str]:
    """References as written in ``text``, in order, without repeats (and not the node itself)."""
    out: list[str] = []
    if heading_line:
        text = text[text.index("\n") + 1 :] if "\n" in text else ""  # the heading is not a reference
    if lang == "vi":
        f = fold(text)
        hits = [text[m.start() : m.end()].strip() for m in _VI_REF.finditer(f)]
    else:
        hits = [m.group(0).strip() for m in _EN_REF.finditer(text)]
    head = fold(skip).lower()
    for i, h in enumerate(hits):
        if i == 0 and head and fold(h).lower() == head:
            continue
        if h not in out:
            out.append(h)
    return out


def origin_alias(text: str) -> str | None:
    """ "Điều 17 Luật số 08/2022/QH15" from a Pháp điển article's origin note, if present."""
    nl = text.find("\n")
    body = text[nl + 1 :] if nl >= 0 else ""
    f = fold(body)
    m = _ORIGIN.search(f[:400].lstrip("\n "))
    if not m:
        return None
    off = len(f) - len(f.lstrip("\n "))
    return body[off + m.start("ref") : off + m.end("ref")].rstrip(".,")
