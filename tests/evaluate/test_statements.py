"""The answers benchmarks' reading of a templated direct statement against a gold answer."""

from __future__ import annotations

from citewise.evaluate.statements import opens_with_statement, stated_gold


def test_a_templated_statement_is_recognised_by_its_opening() -> None:
    for statement in (
        "The period is 72 hours.",
        "Thời hạn là 14 ngày.",
        "The documents give different figures: one states 24 hours.",
        "Phương án đúng là B: 06 tháng.",
    ):
        assert opens_with_statement(statement), statement
    assert not opens_with_statement("You must notify us within 72 hours.")


def test_a_statement_states_the_gold_by_its_words_its_value_or_its_day() -> None:
    assert stated_gold("The period is 72 hours.", "72 hours")
    assert stated_gold("The date is 1066.", "in 1066")  # what it states is in the gold
    assert stated_gold("The date is May 7, 2009.", "7-may-09")  # the same day written otherwise
    assert not stated_gold("The period is 30 days.", "14 days")
    assert not stated_gold("The period is 30 days.", "")
