"""Evidence strength reads the question in its own words and in the provisions'."""

from citewise.retrieve.records import Evidence, Strength
from citewise.retrieve.strength import measure
from citewise.retrieve.wording import wordings
from citewise.textmatch import case_coverage, without_cover
from citewise.types import Chunk

HEADER = "[QUY TẮC BẢO HIỂM NHÀ Ở TƯ NHÂN › Điều 8. Loại trừ bảo hiểm]"
THEFT = "6. Tổn thất do trộm cắp không có dấu hiệu đột nhập hoặc do người giúp việc, người thuê nhà gây ra."


def _evidence(text: str) -> Evidence:
    chunk = Chunk("d1", 0, None, "Điều 8", ["Điều 8"], HEADER, text, 0, len(text), "vi", "file:///p", None, None)
    return Evidence(chunk, "Policy", 1.0, char_start=0, char_end=len(text), text=text, dense=0.85)


def test_coverage_of_a_question_in_the_provisions_wording():
    # "kẻ trộm" is "trộm cắp", "phá cửa" is "đột nhập" in a policy: typed, the question shares little with the clause
    asked = "Mất đồ mà kẻ trộm không phá cửa thì có được bồi thường không?"
    typed, legal = wordings(asked)
    assert "trộm cắp" in legal and "đột nhập" in legal
    as_typed = case_coverage(without_cover(typed), f"{HEADER} {THEFT}")
    strength = measure(asked, [_evidence(THEFT)])
    assert strength.coverage == case_coverage(without_cover(legal), f"{HEADER} {THEFT}") > as_typed + 0.2
    assert strength.dense == 0.85
    # a question with no everyday wording reads as typed
    plain = "Tổn thất do người giúp việc gây ra có được bồi thường không?"
    assert wordings(plain) == (plain,)
    assert measure(plain, [_evidence(THEFT)]).coverage == case_coverage(without_cover(plain), f"{HEADER} {THEFT}")


def test_the_weak_reason_never_reads_as_a_figure_at_its_limit():
    # a cosine of 0.8598 under 0.86 rounded to three places read "cosine 0.860 < 0.86"
    reason = Strength(0.8598, 0.6999, False, True).why_weak(0.86, 0.7)
    assert reason == "best evidence: cosine 0.859 < 0.86, coverage 0.69 < 0.7"
    assert (
        Strength(None, 0.57, False, True).why_weak(0.86, 0.7)
        == "best evidence covers 0.57 of the question's words (< 0.7)"
    )
