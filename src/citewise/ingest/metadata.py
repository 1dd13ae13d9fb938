"""Document-level facts found in the header: type and number ("Luật 08/2022/QH15",
"Regulation (EU) 2016/679"), issue and effective dates, and a title."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from citewise.lang import fold

_VI_TYPES = [
    ("bo luat", "Bộ luật"),
    ("luat", "Luật"),
    ("nghi dinh", "Nghị định"),
    ("thong tu lien tich", "Thông tư liên tịch"),
    ("thong tu", "Thông tư"),
    ("quyet dinh", "Quyết định"),
    ("nghi quyet", "Nghị quyết"),
    ("phap lenh", "Pháp lệnh"),
    ("van ban hop nhat", "Văn bản hợp nhất"),
    ("chi thi", "Chỉ thị"),
    ("quy tac", "Quy tắc"),
    ("quy che", "Quy chế"),
]
_VI_SUFFIX_TYPE = {
    "qh": "Luật",
    "nd-cp": "Nghị định",
    "tt": "Thông tư",
    "qd": "Quyết định",
    "nq": "Nghị quyết",
    "vbhn": "Văn bản hợp nhất",
    "ubtvqh": "Pháp lệnh",
}
# 08/2022/QH15, 46/2023/NĐ-CP, 67/2023/TT-BTC, 01/VBHN-VPQH, 125/2024/QĐ-SH
_VI_NUMBER = re.compile(r"\b(\d{1,4}/(?:\d{4}/)?(?:QH\d{1,2}|[A-Z]{1,6}(?:-[A-Z]{1,8})+|VBHN-[A-Z]+))(?![\w-])")
_EU_NUMBER = re.compile(
    r"\b(Regulation|Directive|Decision|Implementing Regulation|Delegated Regulation)\s+\((EU|EC|EEC|Euratom|[A-Z]{2,4})\)"
    r"\s+(?:No\s+)?(\d{2,4}/\d{1,4})"
)
_VI_DATE = re.compile(r"ngay\s+(\d{1,2})\s+thang\s+(\d{1,2})\s+nam\s+(\d{4})", re.I)
_NUM_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_EN_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        "january february march april may june july august september october november december".split()
    )
}
_EN_DATE = re.compile(
    r"\b(\d{1,2})\s+(January|February|March|April|May|June|July|August|September|October|November|December)\s+(\d{4})",
    re.I,
)
_EFFECTIVE_VI = re.compile(r"(hieu luc|ngay hieu luc|ap dung)", re.I)
_EFFECTIVE_EN = re.compile(
    r"(shall apply from|shall enter into force|effective(?: date| from| as of)?|in force from|applies from)", re.I
)
_ISSUED_VI = re.compile(r"(ngay ban hanh|ban hanh|ky ngay|thong qua)", re.I)


@dataclass
class DocMeta:
    doc_type: str | None = None
    number: str | None = None
    issued: str | None = None
    effective: str | None = None
    aliases: list[str] = field(default_factory=list)


def _iso(y: str, m: str, d: str) -> str | None:
    try:
        yi, mi, di = int(y), int(m), int(d)
    except ValueError:
        return None
    if not (1 <= mi <= 12 and 1 <= di <= 31 and 1800 < yi < 2200):
        return None
    return f"{yi:04d}-{mi:02d}-{di:02d}"


def _dates(text: str, lang: str) -> list[tuple[int, str]]:
    f = fold(text)
    out: list[tuple[int, str]] = []
    for m in _VI_DATE.finditer(f):
        iso = _iso(m.group(3), m.group(2), m.group(1))
        if iso:
            out.append((m.start(), iso))
    for m in _NUM_DATE.finditer(f):
        iso = _iso(m.group(3), m.group(2), m.group(1))
        if iso:
            out.append((m.start(), iso))
    for m in _EN_DATE.finditer(f):
        iso = _iso(m.group(3), str(_EN_MONTHS[m.group(2).lower()]), m.group(1))
        if iso:
            out.append((m.start(), iso))
    return sorted(out)


_PLACE_DATE = re.compile(r"[A-Z][A-Za-z .]{1,30},\s*ngay\s*$")
_EN_ISSUED = re.compile(r"(adopted|done at .{0,30}|dated|issued|made on|signed|of)\s*$", re.I)


_POLICY_NUMBER = re.compile(
    r"\b(policy wording|policy number|wording|form|rulebook|circular|guideline)\s+(?:no\.?\s*)?([A-Z]{1,5}(?:-[A-Z0-9]{1,6})*-\d{2,4}(?:/\d{1,4})?)",
    re.I,
)


def _type_from(text: str) -> str | None:
    f = fold(text).lower().strip()
    for folded, name in _VI_TYPES:
        if f.startswith(folded + " ") or f == folded:
            return name
    return None


def extract_metadata(text: str, lang: str, title: str = "", header_chars: int = 4000) -> DocMeta:
    """Type, number and dates from the title and the first ``header_chars`` of the document."""
    head = f"{title}\n{text[:header_chars]}" if title else text[:header_chars]
    f = fold(head)
    meta = DocMeta()
    eu = _EU_NUMBER.search(head)
    vm = _VI_NUMBER.search(f)
    number_end = 0
    if eu:
        meta.doc_type = eu.group(1)
        meta.number = eu.group(3)
        meta.aliases.append(f"{eu.group(1)} ({eu.group(2)}) {eu.group(3)}")
        number_end = eu.end()
    elif vm:
        meta.number = head[vm.start(1) : vm.end(1)]
        number_end = vm.end()
        before = f[max(0, vm.start() - 80) : vm.start()].lower()
        issuing_type = next((name for folded, name in _VI_TYPES if folded in before), None)
        meta.doc_type = _type_from(title) or _first_type_line(head) or issuing_type
        if meta.doc_type is None:
            suffix = fold(meta.number.split("/")[-1]).lower()
            meta.doc_type = next((n for k, n in _VI_SUFFIX_TYPE.items() if suffix.startswith(k)), None)
        if issuing_type:
            meta.aliases.append(f"{issuing_type} {meta.number}")
        if meta.doc_type and meta.doc_type != issuing_type:
            meta.aliases.append(f"{meta.doc_type} {meta.number}")
    if meta.number is None:
        pw = _POLICY_NUMBER.search(head)
        if pw:
            meta.doc_type, meta.number = pw.group(1).strip().capitalize(), pw.group(2)
    for pos, iso in _dates(head, lang):
        line_start = f.rfind("\n", 0, pos) + 1
        line = f[line_start:pos].lower()
        if line.lstrip().startswith(("can cu", "having regard", "whereas")):
            continue  # dates of other instruments
        ctx = f[max(0, pos - 60) : pos]
        if meta.effective is None and (_EFFECTIVE_VI.search(ctx) or _EFFECTIVE_EN.search(ctx)):
            meta.effective = iso
            continue
        if meta.issued is not None:
            continue
        if lang == "vi":
            near_number = number_end and 0 <= pos - number_end < 160
            if _PLACE_DATE.search(f[line_start:pos]) or near_number or _ISSUED_VI.search(ctx):
                meta.issued = iso
        elif _EN_ISSUED.search(ctx) or (number_end and 0 <= pos - number_end < 160):
            meta.issued = iso
    if (meta.effective is None or meta.issued is None) and len(text) > header_chars:
        tail = text[max(header_chars, len(text) - 6000) :]
        ft = fold(tail)
        for pos, iso in _dates(tail, lang):
            ctx = ft[max(0, pos - 80) : pos]
            if meta.effective is None and (_EFFECTIVE_VI.search(ctx) or _EFFECTIVE_EN.search(ctx)):
                meta.effective = iso
            elif meta.issued is None and lang == "en" and re.search(r"(done at|adopted)", ctx, re.I):
                meta.issued = iso
    return meta


def _first_type_line(head: str) -> str | None:
    for line in head.split("\n")[:12]:
        if line.strip().isupper():
            t = _type_from(line)
            if t:
                return t
    return None


def guess_title(text: str, hint: str | None, limit: int = 300) -> str:
    """The parser's title hint, or the first substantial line(s) of the text."""
    if hint and hint.strip():
        return hint.strip()[:limit]
    lines = [x.strip() for x in text[:3000].split("\n") if x.strip()]
    for line in lines[:12]:
        if line.isupper() and _type_from(line) and len(line.split()) > 1:
            return line[:limit]
    for i, line in enumerate(lines):
        if len(line) < 4 or line.startswith(("CỘNG HÒA", "Độc lập", "---")):
            continue
        # Vietnamese headers put the type on one line and the name on the next: "LUẬT" / "KINH DOANH BẢO HIỂM".
        if line.isupper() and len(line.split()) <= 3 and i + 1 < len(lines) and lines[i + 1].isupper():
            return f"{line} {lines[i + 1]}"[:limit]
        return line[:limit]
    return "(untitled)"
