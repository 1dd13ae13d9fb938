"""Rules named in questions. A lookup ("Rule 7.2.1") pins the rule first, and a sub-label ("Rule 7.3.1(2)(b)") pins its
point. A question that names a rule as the basis of what it asks ("Under Rule 7.2.1, what steps ...") is ranked by the
search, the named rule found but not pinned (``retrieve.pin_beyond`` off, the default). With ``pin_beyond``, the rule is
pinned, and the passage applying it goes first when the search ranks it above the rule, the named rule right after it;
a reference that the citing document resolves to a rule of its own is no citation of another's. Written fixtures (two
rulebooks and a guidance note), lexical only."""

from __future__ import annotations

import json

import pytest

import citewise
from citewise.engine import Engine
from citewise.settings import Settings

RECORDS = [
    {
        "doc": "Market Rules",
        "id": "7.2.1",
        "text": "A Reporting Entity must disclose Inside Information to the Regulator as soon as possible.",
    },
    {
        "doc": "Market Rules",
        "id": "7.2.2",
        "text": "A Reporting Entity may delay disclosure where the conditions in Rule 7.2.3 are met.",
    },
    {
        "doc": "Market Rules",
        "id": "7.2.3",
        "text": "Delay is permitted only where confidentiality is preserved.",
    },
    {
        "doc": "Guidance on Inside Information",
        "id": "12",
        "text": (
            "When an Officer identifies potential Inside Information, the steps to comply with Rule 7.2.1 are: "
            "escalate it to the disclosure committee, assess whether the information is precise and price "
            "sensitive, and record the assessment."
        ),
    },
    {"doc": "Guidance on Inside Information", "id": "13", "text": "This guidance is not a rule."},
    {
        "doc": "Market Rules",
        "id": "7.3.1.(2)",
        "text": "A Reporting Entity must keep:\n(a)\ta list of insiders; and\n(b)\ta record of each delayed disclosure.",
    },
    {"doc": "Listing Rules", "id": "7.2.1", "text": "An issuer must publish its annual report."},
    {
        "doc": "Listing Rules",
        "id": "9.1",
        "text": "Under Rule 7.2.1, an issuer must publish and escalate its annual report to the board each year.",
    },
]


@pytest.fixture(scope="module")
def defaults(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    folder = tmp_path_factory.mktemp("cited-first")
    corpus = folder / "rules.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    cw = citewise.open(settings=Settings(index=folder / "index"), embedder=None)
    assert not cw.ingest([corpus]).errors
    return cw


@pytest.fixture(scope="module")
def engine(defaults: Engine) -> Engine:
    """The same index with the rules a question names pinned also when it asks more than a lookup."""
    return citewise.open(settings=defaults.settings, store=defaults.store, embedder=None, retrieve={"pin_beyond": True})


QUESTION = "When an Officer identifies potential Inside Information, what steps must they take according to Rule 7.2.1?"


def test_the_passage_citing_the_named_rule_goes_first_and_the_rule_second(engine: Engine) -> None:
    found = [e for e in engine.search(QUESTION, k=5).evidence if not e.supporting]
    assert found[0].chunk.doc_id != found[1].chunk.doc_id
    assert "steps to comply with Rule 7.2.1" in found[0].text and not found[0].pinned
    assert any(r.startswith("cites Rule 7.2.1") for r in found[0].reasons)
    assert found[1].pinned and found[1].chunk.label.startswith("7.2.1")


def test_by_default_a_rule_named_in_a_question_asking_more_is_found_not_pinned(defaults: Engine) -> None:
    result = defaults.search(QUESTION, k=5)
    found = [e for e in result.evidence if not e.supporting]
    assert "steps to comply with Rule 7.2.1" in found[0].text  # ranked first by the search itself
    assert not any(e.pinned for e in found) and result.strength.pinned  # found: never weak evidence
    rule = next(e for e in found if e.named)
    assert rule.doc_title == "Market Rules" and rule.chunk.label.startswith("7.2.1")
    assert "found: 7.2.1 named in the question (Rule 7.2.1), ranked by the search" in rule.reasons
    # a lookup is pinned as ever
    first = defaults.search("Rule 7.2.1 inside information", k=5).evidence[0]
    assert first.pinned and first.named and first.chunk.label.startswith("7.2.1")


def test_without_cited_first_the_named_rule_stays_first(engine: Engine) -> None:
    plain = citewise.open(
        settings=engine.settings, store=engine.store, embedder=None, retrieve={"cited_first": False, "pin_beyond": True}
    )
    first = plain.search(QUESTION, k=5).evidence[0]
    assert first.pinned and first.chunk.label.startswith("7.2.1")


def test_a_lookup_keeps_the_named_rule_first(engine: Engine) -> None:
    first = engine.search("Rule 7.2.1 inside information", k=5).evidence[0]
    assert first.pinned and first.chunk.label.startswith("7.2.1")


def test_a_reference_to_the_citing_documents_own_rule_is_no_citation(engine: Engine) -> None:
    # the Listing Rules have a Rule 7.2.1 of their own: their 9.1 cites that one, not the Market Rules' 7.2.1
    question = (
        "Under Rule 7.2.1 of the Market Rules, must an issuer publish and escalate its annual report to the board?"
    )
    found = [e for e in engine.search(question, k=5).evidence if not e.supporting]
    assert found[0].pinned and found[0].doc_title == "Market Rules" and found[0].chunk.label.startswith("7.2.1")
    assert not any(r.startswith("cites ") for e in found for r in e.reasons)
    assert any(e.doc_title == "Listing Rules" and "9.1" in e.chunk.label for e in found)  # found, not first


def test_a_sub_label_pins_its_point_not_the_whole_rule(engine: Engine) -> None:
    # "Rule 7.3.1(2)(b)": paragraph (2) is part of the passage number, point (b) a line inside it
    first = engine.search("Rule 7.3.1(2)(b)", k=3).evidence[0]
    assert first.pinned and "pinned: Section 7.3.1.(2)(b)" in first.reasons[-1]
    assert first.text.strip().startswith("(b)") or "a record of each delayed disclosure" in first.text
    # a point that does not exist falls back to the deepest part that does
    fallback = engine.search("Rule 7.3.1(2)(f)", k=3).evidence[0]
    assert fallback.pinned and fallback.reasons[-1].startswith("pinned: 7.3.1.(2) named in the question")
