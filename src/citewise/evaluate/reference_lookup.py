"""A reference-lookup set: questions that name a provision in the many ways people write it
("Điều 12 Thông tư 67/2023/TT-BTC", "dieu 12 tt 67", "Luật KDBH 2022 điều 17", "Art. 17 GDPR",
"point (a) of Article 6(1) GDPR", "Annex III of the EU AI Act", "Section 4.2 of the Harbourview
policy"), each with the node it must resolve to. Built from whatever documents a store holds,
so the expected node is read from the same structure the resolver searches."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from citewise.index.base import Store
from citewise.lang import fold
from citewise.refs.resolve import ReferenceResolver
from citewise.retrieve.query import analyze
from citewise.types import Node


@dataclass(frozen=True)
class LookupCase:
    question: str
    doc_id: str
    key: str
    label: str
    lang: str


@dataclass
class LookupOutcome:
    case: LookupCase
    resolved: list[tuple[str, str]]
    """(doc_id, node key) of every provision the resolver pinned."""

    @property
    def exact(self) -> bool:
        return self.resolved == [(self.case.doc_id, self.case.key)]


_VI_TYPE_WORDS = {
    "Luật": ("Luật", "luat", "Luật"),
    "Nghị định": ("Nghị định", "nd", "NĐ"),
    "Thông tư": ("Thông tư", "tt", "TT"),
}


def _children(nodes: list[Node], parent: Node, kind: str) -> list[Node]:
    return [n for n in nodes if n.parent_id == parent.node_id and n.kind == kind]


def _codified(store: Store, rng: random.Random) -> list[LookupCase]:
    """Vietnamese cases on codified articles (Pháp điển), named by their origin document."""
    cases: list[LookupCase] = []
    for d in store.documents():
        nodes = store.nodes(d.doc_id)
        by_origin: dict[str, list[tuple[str, Node]]] = {}
        for n in nodes:
            for a in n.aliases:
                m = re.match(r"^Điều (\d+) (Luật|Nghị định|Thông tư) số ([\w/\-Đ]+)$", a)
                if m:
                    by_origin.setdefault(f"{m.group(2)}|{m.group(3)}", []).append((m.group(1), n))
        for origin, arts in sorted(by_origin.items()):
            doc_type, number = origin.split("|")
            if number not in ("08/2022/QH15", "46/2023/NĐ-CP", "67/2023/TT-BTC"):
                continue
            full, abbr, upper = _VI_TYPE_WORDS[doc_type]
            num, year = number.split("/")[0], number.split("/")[1]
            short = str(int(num))
            for art, node in rng.sample(arts, min(5, len(arts))):
                clauses = _children(nodes, node, "paragraph")
                forms = [
                    (f"{full} {number} Điều {art} quy định gì?", node),
                    (f"dieu {art} {abbr} {short}", node),
                    (f"{upper} {short}/{year} điều {art} nói về vấn đề gì?", node),
                    (f"Theo {full.lower()} số {number}, Điều {art} quy định như thế nào?", node),
                ]
                if doc_type == "Luật":
                    forms += [
                        (f"Luật KDBH 2022 điều {art}", node),
                        (f"dieu {art} luat kinh doanh bao hiem", node),
                    ]
                if clauses:
                    k = rng.choice(clauses)
                    forms.append((f"khoản {k.number} điều {art} {full.lower()} {short}/{year}", k))
                    forms.append((f"Điều {art} khoản {k.number} {full} số {number} quy định gì?", k))
                    points = _children(nodes, k, "point")
                    if points:
                        p = rng.choice(points)
                        forms.append((f"điểm {p.number} khoản {k.number} Điều {art} {full} {number}", p))
                for q, target in forms:
                    cases.append(LookupCase(q, d.doc_id, target.key, target.label, "vi"))
            if doc_type == "Luật":
                node = arts[0][1]
                cases.append(LookupCase(f"{node.label} quy định gì?", d.doc_id, node.key, node.label, "vi"))
    return cases


def _english(store: Store, rng: random.Random) -> list[LookupCase]:
    cases: list[LookupCase] = []
    for d in store.documents():
        nodes = store.nodes(d.doc_id)
        by_key = {n.key: n for n in nodes}
        title = fold(d.title).lower()
        if "2016/679" in (d.number or "") or d.title == "GDPR":
            name = "GDPR"
            forms = [
                ("What does Article 6(1)(a) GDPR require?", "art:6/par:1/pt:a"),
                ("Art. 17 GDPR right to erasure", "art:17"),
                ("What does Recital 47 of the GDPR say about legitimate interests?", "recital:47"),
                ("fines under article 83(5) of Regulation (EU) 2016/679", "art:83/par:5"),
                ("point (a) of Article 6(1) GDPR", "art:6/par:1/pt:a"),
                ("Art 9(2)(j) GDPR archiving", "art:9/par:2/pt:j"),
                ("GDPR Article 5(1)(f) integrity and confidentiality", "art:5/par:1/pt:f"),
                ("paragraph 2 of Article 28 GDPR", "art:28/par:2"),
                ("Article 33 GDPR breach notification deadline", "art:33"),
                ("Which rights does Art. 15 GDPR give?", "art:15"),
            ]
        elif "ai act" in title.replace("_", " "):
            name = "EU AI Act"
            forms = [
                ("Annex III of the EU AI Act", "annex:3"),
                ("EU AI Act Article 5(1)(h) real-time biometric identification", "art:5/par:1/pt:h"),
                ("What does Recital 12 of the EU AI Act say?", "recital:12"),
                ("Art. 6 EU AI Act classification rules", "art:6"),
                ("Article 50(1) EU AI Act transparency", "art:50/par:1"),
                ("EU AI Act Annex IV technical documentation", "annex:4"),
                ("Article 99 EU AI Act penalties", "art:99"),
            ]
        elif "harbourview" in title:
            name = "Harbourview"
            forms = [
                ("What does Section 4.2 of the Harbourview policy say about time limits?", "num:4.2"),
                ("Harbourview policy section 3.2 unoccupied homes", "num:3.2"),
                ("Annex A of the Harbourview policy", "annex:a"),
                ("Section 5 Harbourview cancellation", "sec:5"),
            ]
        elif "bluewave" in title:
            name = "Bluewave"
            forms = [
                ("clause 1.4 of the Bluewave terms", "num:1.4"),
                ("Bluewave travel insurance clause 2.3", "num:2.3"),
                ("Bluewave Annex 1 emergency contacts", "annex:1"),
            ]
        elif (d.number or "") == "2024/17":
            name = "Regulation 2024/17"
            forms = [
                ("What does Article 6(1)(e) of Regulation 2024/17 allow?", "art:6/par:1/pt:e"),
                ("Regulation (FR) 2024/17 Art. 9(2)", "art:9/par:2"),
                ("recital 3 of regulation 2024/17", "recital:3"),
                ("Annex I Regulation 2024/17", "annex:1"),
            ]
        else:
            continue
        del name
        for q, key in forms:
            if key in by_key:
                cases.append(LookupCase(q, d.doc_id, key, by_key[key].label, "en"))
    del rng
    return cases


def _vietnamese_samples(store: Store) -> list[LookupCase]:
    cases: list[LookupCase] = []
    for d in store.documents():
        by_key = {n.key: n for n in store.nodes(d.doc_id)}
        if d.number == "125/2024/QĐ-SH":
            forms = [
                ("Điều 12 Quy tắc 125/2024/QĐ-SH quy định gì?", "art:12"),
                ("khoản 2 Điều 9 quy tắc bảo hiểm nhà ở tư nhân", "art:9/par:2"),
                ("diem dd khoan 3 dieu 2 quy tac bao hiem nha o", "art:2/par:3/pt:dd"),
                ("Phụ lục I quy tắc bảo hiểm nhà ở", "annex:1"),
            ]
        elif d.number == "21/2024/TT-HHBH":
            forms = [
                ("Điều 7 Thông tư 21/2024/TT-HHBH", "art:7"),
                ("khoản 3 điều 7 thông tư 21/2024", "art:7/par:3"),
                ("điểm đ khoản 1 Điều 3 Thông tư 21/2024/TT-HHBH", "art:3/par:1/pt:dd"),
            ]
        else:
            continue
        for q, key in forms:
            if key in by_key:
                cases.append(LookupCase(q, d.doc_id, key, by_key[key].label, "vi"))
    return cases


def build_cases(store: Store, seed: int = 7) -> list[LookupCase]:
    rng = random.Random(seed)
    return _codified(store, rng) + _english(store, rng) + _vietnamese_samples(store)


def run(store: Store, cases: list[LookupCase]) -> list[LookupOutcome]:
    resolver = ReferenceResolver(store)
    out: list[LookupOutcome] = []
    for case in cases:
        analysis = analyze(case.question)
        res = resolver.resolve(analysis.question, analysis.refs, analysis.docs)
        pins = [(d, n.key) for d, n, _ in res.pins]
        out.append(LookupOutcome(case, list(dict.fromkeys(pins))))
    return out
