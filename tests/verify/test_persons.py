"""A policy speaks of its parties as "we" and "you"; an answer restating it in the third person says the same
thing, and a party swap behind the pronouns still fails."""

from __future__ import annotations

import pytest

from citewise.verify.persons import in_source_persons
from citewise.verify.scorer import SUPPORTED_AT, TrainedScorer

PAY = "We will pay valid claims within 10 business days of receiving all the documents we need."
NOTIFY = "You must notify us of any loss or damage within 30 days of discovering it."


def test_party_nouns_become_the_pronouns_the_source_uses() -> None:
    assert in_source_persons("The insurer will pay valid claims.", PAY) == "we will pay valid claims."
    assert in_source_persons("The insurer's adjuster inspects.", "Our adjuster inspects.") == "our adjuster inspects."
    assert in_source_persons("Công ty bảo hiểm trả tiền.", "Chúng tôi trả tiền.") == "chúng tôi trả tiền."


def test_no_rewrite_where_a_swap_could_hide() -> None:
    # the source never speaks of "you": the insured stays a word the source lacks
    assert in_source_persons("The insured will pay valid claims.", PAY) == "The insured will pay valid claims."
    # two persons in the source, one party named: its role is not checked by the rewrite
    assert in_source_persons("The insured will pay valid claims.", "We will pay your valid claims.").startswith("The")
    # both named, in the other order than the source's pronouns
    swapped = "The insured will pay the insurer within 10 days."
    assert in_source_persons(swapped, "We will pay you within 10 days.") == swapped
    # the source names the party itself: nothing to rewrite
    named = "The insurer will pay valid claims."
    assert in_source_persons(named, "We, the insurer, will pay valid claims.") == named


@pytest.fixture(scope="module")
def scorer() -> TrainedScorer:
    return TrainedScorer()


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The insurer will pay valid claims within 10 business days of receiving all the documents it needs.", PAY),
        ("The insured must notify the insurer of any loss or damage within 30 days of discovering it.", NOTIFY),
        ("The policyholder has 30 days to notify the insurer of loss or damage.", NOTIFY),
    ],
)
def test_a_third_person_restatement_is_supported(scorer: TrainedScorer, claim: str, source: str) -> None:
    assert scorer.score(claim, source).score >= SUPPORTED_AT


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The insured will pay valid claims within 10 business days.", PAY),  # the other party pays
        ("The insurer will pay valid claims within 30 business days.", PAY),  # another figure
        ("The insurer must notify the insured of any loss or damage within 30 days of discovering it.", NOTIFY),
        ("The insured will pay the insurer within 10 days.", "We will pay you within 10 days."),
    ],
)
def test_a_party_or_figure_swap_behind_the_pronouns_fails(scorer: TrainedScorer, claim: str, source: str) -> None:
    assert scorer.score(claim, source).score < SUPPORTED_AT
