"""Reading sentences without the words they take from their cited provision's heading (``answer.support_heading_words``,
verify/heading.py), measured on claim/premise pairs in their documents.

Each pair's premise is found in a chunk of its document, parsed and chunked as citewise ingests it, so the heading
is the context header a citation carries. The pair then goes through the validator as a quote-anchored sentence
(the premise is the quote), with and without the heading reading. Reported per set: supported claims judged
supported (recall), unsupported and partial claims judged supported (the errors that matter), pairs whose reading
changed.

Sets:
- ``contrast``: bench/sets/support_contrast.jsonl, never trained or tuned on. Its claims were written against the
  premise alone.
- ``contrast+heading``: the same pairs with the document's subject put into every claim, the way a model answering
  a question about that document writes it ("Under the Harbourview home policy, …", "… bảo hiểm du lịch …"). The
  subject is a phrase of the chunk's heading: the first two to four words after the document type ("Quy tắc",
  "Luật"), or of the document title. Supported claims should stay supported with it. Unsupported ones (a figure,
  party, negation or condition changed) must stay unsupported.

    .venv/bin/python bench/heading_words.py

Writes bench/results/heading_words.json.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from citewise.answer.records import Draft, DraftSentence, Fragment, Quote
from citewise.chunk.chunker import chunk_document
from citewise.ingest.jsonl_importer import import_jsonl
from citewise.ingest.loader import load_document
from citewise.lang import folded_words
from citewise.retrieve.records import Evidence
from citewise.types import Chunk
from citewise.verify.validator import Validator
from common import RESULTS, command_line, log, machine, md_table, write_results

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
CONTRAST = ROOT / "bench" / "sets" / "support_contrast.jsonl"
SOURCES = {
    "samples": ROOT / "src" / "citewise" / "samples" / "corpus",
    "gdpr_en": DATA / "gdpr_en",
    "eu_ai_act": DATA / "eu_ai_act",
    "vn_insurance_law_phapdien": DATA / "vn_insurance_law_phapdien",
}
SUBJECT = {
    "en": "Under the {subject}, {claim}",
    "vi": "Theo {subject}, {claim}",
}
"""How the document's subject is put into a claim (the claim's first letter lower-cased after it)."""


def chunks_of(source: str, doc: str) -> list[Chunk]:
    path = SOURCES[source] / doc
    docs = list(import_jsonl(path)) if path.suffix == ".jsonl" else [load_document(path)]
    return [c for d in docs for c in chunk_document(d)]


def home(premise: str, chunks: list[Chunk]) -> Chunk | None:
    """The chunk holding the premise (its folded words), else the one sharing most of its opening."""
    words = folded_words(premise)
    for c in chunks:
        if words in folded_words(c.body):
            return c
    opening = words[:60]
    return next((c for c in chunks if opening and opening in folded_words(c.body)), None)


def subject(header: str) -> str:
    """The document's subject as a model would name it: its title without number, date or code."""
    title = header.strip("[]").split(" › ")[0]
    title = re.sub(r"\s+\S*\d\S*", "", title).strip()
    return title.lower() if title.isupper() or not title[:1].isupper() else title[:1].lower() + title[1:]


def with_subject(claim: str, lang: str, header: str) -> str:
    return SUBJECT[lang].format(subject=subject(header), claim=claim[0].lower() + claim[1:])


def status(validator: Validator, claim: str, premise: str, chunk: Chunk) -> str:
    ev = Evidence(chunk, "Doc", 1.0, char_start=chunk.char_start, char_end=chunk.char_end, text=chunk.body)
    draft = Draft([DraftSentence(claim, ["F1"], quotes=[Quote("F1", premise)])], "local")
    return validator.check(draft, [Fragment("F1", ev)])[0].verdict.status


def main(argv: list[str] | None = None) -> int:
    rows = [json.loads(line) for line in CONTRAST.read_text(encoding="utf-8").splitlines() if line.strip()]
    validators = {False: Validator(heading_words=False), True: Validator(heading_words=True)}
    cache: dict[tuple[str, str], list[Chunk]] = {}
    report: dict[str, Any] = {"machine": machine(command_line("heading_words.py", argv)), "sets": {}}
    missing = 0
    results: dict[str, list[dict[str, Any]]] = {"contrast": [], "contrast+heading": []}
    for r in rows:
        key = (r["source"], r["doc"])
        if key not in cache:
            cache[key] = chunks_of(*key)
        chunk = home(r["premise"], cache[key])
        if chunk is None:
            missing += 1
            continue
        for name, claim in (
            ("contrast", r["claim"]),
            ("contrast+heading", with_subject(r["claim"], r["lang"], chunk.header)),
        ):
            got = {k: status(v, claim, r["premise"], chunk) for k, v in validators.items()}
            results[name].append(
                {
                    "id": r["id"],
                    "lang": r["lang"],
                    "label": r["label"],
                    "kind": r["kind"],
                    "claim": claim,
                    **{f"heading_words_{k}".lower(): s for k, s in got.items()},
                }
            )
    for name, rs in results.items():
        by: dict[str, Any] = {}
        for lang in ("en", "vi"):
            sub = [x for x in rs if x["lang"] == lang]
            sup = [x for x in sub if x["label"] == "supported"]
            uns = [x for x in sub if x["label"] != "supported"]
            by[lang] = {
                "pairs": len(sub),
                "supported_passed": {
                    k: sum(x[f"heading_words_{k}"] == "supported" for x in sup) for k in ("false", "true")
                },
                "supported": len(sup),
                "unsupported_passed": {
                    k: sum(x[f"heading_words_{k}"] == "supported" for x in uns) for k in ("false", "true")
                },
                "unsupported": len(uns),
                "changed": sum(x["heading_words_false"] != x["heading_words_true"] for x in sub),
                "newly_passed_unsupported": [
                    {"id": x["id"], "kind": x["kind"], "claim": x["claim"]}
                    for x in uns
                    if x["heading_words_true"] == "supported" and x["heading_words_false"] != "supported"
                ],
                "supported_passed_by_kind": {
                    k: dict(Counter(x["kind"] for x in sup if x[f"heading_words_{k}"] == "supported"))
                    for k in ("false", "true")
                },
            }
        report["sets"][name] = by
    report["premises_not_found"] = missing
    out = RESULTS / "heading_words.json"
    write_results(out, {**report, "pairs": results})
    table = [
        [
            name,
            lang,
            str(v["pairs"]),
            f"{v['supported_passed']['false']}/{v['supported']} → {v['supported_passed']['true']}/{v['supported']}",
            f"{v['unsupported_passed']['false']}/{v['unsupported']} → {v['unsupported_passed']['true']}/{v['unsupported']}",
            str(v["changed"]),
        ]
        for name, by in report["sets"].items()
        for lang, v in by.items()
    ]
    print(md_table(["set", "lang", "pairs", "supported passed", "unsupported passed", "changed"], table))
    log(f"premises not found in their documents: {missing}; results in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
