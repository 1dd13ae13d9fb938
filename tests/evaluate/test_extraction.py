"""Text-extraction fidelity against a reference: word recall and precision as multisets, sequence and
character similarity on normalised text."""

from __future__ import annotations

import unicodedata

import pytest

from citewise.evaluate.extraction import char_ratio, norm_ws, word_scores


def test_norm_ws_composes_and_drops_table_bars() -> None:
    decomposed = unicodedata.normalize("NFD", "Điều 1")
    assert norm_ws(f"  {decomposed} |  khoản\n 2 | ") == "Điều 1 khoản 2"


def test_word_scores_count_repeated_words_once_each() -> None:
    s = word_scores("the rule the rule applies", "the rule applies applies")
    # common multiset: the x1, rule x1, applies x1 = 3 of 5 reference words, 3 of 4 extracted
    assert s["ref_words"] == 5 and s["extracted_words"] == 4
    assert s["word_recall"] == 0.6 and s["word_precision"] == 0.75
    assert 0 < float(s["word_sequence_ratio"] or 0) < 1
    assert word_scores("", "x")["word_recall"] is None and word_scores("x", "")["word_precision"] is None


def test_char_ratio_ignores_layout_whitespace() -> None:
    assert char_ratio("Article 5\n\nLawful   processing", "Article 5 Lawful processing") == 1.0
    assert char_ratio("abcd", "abxy") == pytest.approx(0.5)
