"""The cell of a table that answers a question: the row the question names by its first cell and the
column it names by its header ("What is the excess for a buildings claim?" -> row "Buildings", column
"Excess (USD)" -> "250"), or, when no header is named, the one column whose cell in that row holds the
kind of value asked for ("How long are recorded telephone calls kept?" -> "2 years").

Tables reach the judge and the answer stage as the parser writes them: a header line and rows of cells
separated by " | ". Only a row sharing more words with the question than any other and a unique best column make an
answer; anything ambiguous makes none ("the excess for a buildings claim caused by subsidence" names
two rows alike)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from citewise.judge.qtype import answer_spans
from citewise.retrieve.wording import reworded
from citewise.textmatch import question_type, topic_keys

SEP = " | "
KINDS_ASKED = {"number": ["amount", "duration", "number"], "amount": ["amount"], "duration": ["duration"]}
"""Kinds of value looked for, in order, per question type ("bao nhiêu" asks for an amount as often as a count)."""
TABLE_TYPES = frozenset(("duration", "amount", "number", "date", "yes_no", "other"))
"""Question types a table's cell can answer: a value, or whether something is covered (with its figure); not the
steps to take ("what must I do when my baggage is lost?" is not answered by the baggage row's sum), a list, a
party, a place, a reason or a definition."""


ROW_SHARE = 1 / 3
"""With no column named by its header, the row's label must hold this share of the question's topic words: "Sau khi
tôi rút lại sự đồng ý, doanh nghiệp phải ngừng xử lý dữ liệu trong bao lâu?" shares only "dữ liệu" with the row
"Dữ liệu phục vụ tiếp thị" of a table of retention periods, which does not say when processing stops."""

_LINKS = frozenset({"bi", "duoc", "hoac", "va", "voi", "cua", "cho", "do", "cac", "nhung", "or", "and", "of", "for"})
"""Keys of a row label's linking words, which a question naming the row need not repeat ("Chuyến bay *bị* trì hoãn")."""

_ALTERNATIVES = re.compile(r",|;|/|\b(?:or|hoặc|hoac)\b", re.I)


def _names_row(label: str, asked: frozenset[str], min_words: int) -> bool:
    """Whether a yes/no question names a row wholly: every topic word of the label, or of one of the alternatives it
    lists ("Loss or theft of baggage", "Lũ lụt, ngập nước"), linking words aside. An alternative shorter than
    ``min_words`` shares the last one's object: "Hủy, rút ngắn chuyến đi" lists "hủy chuyến đi" and "rút ngắn chuyến
    đi". "Có chi trả khi bị hủy chuyến bay do bão không?" names neither that row nor "Chuyến bay bị trì hoãn" (delay),
    and "Cửa gỗ nhà tôi bị mối ăn …" does not name "Nhà khung gỗ, mái lá hoặc mái tôn"."""
    parts = [p.split() for p in [label, *_ALTERNATIVES.split(label)] if p.strip()]
    last = parts[-1]
    for words in parts:
        named = [words] if len(words) >= min_words else [words + last[-k:] for k in range(min_words, len(last))]
        if any((keys := topic_keys(" ".join(w)) - _LINKS) and keys <= asked for w in named):
            return True
    return False


_DEDUCTIBLE = re.compile(r"\b(?:excess(?:es)?|deductibles?|franchise|mức khấu trừ|khấu trừ|miễn thường)\b", re.I)
"""Words naming the part of a claim the insured bears: such a column answers only a question that names it."""


@dataclass(frozen=True)
class Cell:
    """A table's answer: the row's first cell, the column's header, the value, with spans in the text."""

    row_label: str
    column: str
    value: str
    value_span: tuple[int, int]
    row_span: tuple[int, int]
    header_span: tuple[int, int]


@dataclass(frozen=True)
class _Line:
    start: int
    end: int
    cells: list[tuple[int, int]]
    """Each cell's span in the text, stripped."""


def _lines(text: str) -> list[_Line]:
    out, pos = [], 0
    for raw in text.split("\n"):
        start, end = pos, pos + len(raw)
        pos = end + 1
        if SEP not in raw:
            out.append(_Line(start, end, []))
            continue
        cells, at = [], start
        for part in raw.split(SEP):
            lead = len(part) - len(part.lstrip())
            cells.append((at + lead, at + len(part.rstrip())))
            at += len(part) + len(SEP)
        out.append(_Line(start, end, cells))
    return out


def tables(text: str) -> list[list[_Line]]:
    """Runs of two or more consecutive lines with the same number (2+) of cells: header first."""
    out: list[list[_Line]] = []
    run: list[_Line] = []
    for line in [*_lines(text), _Line(0, 0, [])]:
        if line.cells and (not run or len(line.cells) == len(run[0].cells)):
            run.append(line)
            continue
        if len(run) >= 2:
            out.append(run)
        run = [line] if line.cells else []
    return out


def holds_value(cell: str, kinds: list[str]) -> bool:
    """Whether a cell holds a value of one of ``kinds`` (a figure alone counts as an amount or a number:
    tables put the unit in the header)."""
    return any(answer_spans(k, cell) for k in kinds) or (
        bool({"amount", "number"} & set(kinds)) and any(ch.isdigit() for ch in cell)
    )


def min_row_words(lang: str) -> int:
    """Words a row's label must share with the question: one English word, two Vietnamese syllables."""
    return 1 if lang == "en" else 2


@functools.lru_cache(maxsize=256)
def _asked(question: str, lang: str) -> tuple[frozenset[str], bool]:
    """The question's topic words, also in the provisions' wording when ``lang`` is given, and whether it names the
    part of a claim the insured bears. Read once per question: ``find_cell`` is asked of every fragment, by the judge
    and by the answer (the rewording costs about 0.3 ms)."""
    legal = reworded(question, lang) if lang else question
    deductible = bool(_DEDUCTIBLE.search(question) or _DEDUCTIBLE.search(legal))
    return frozenset(topic_keys(question) | topic_keys(legal)), deductible


def find_cell(question: str, text: str, kinds: list[str], min_row_words: int = 1, lang: str = "") -> Cell | None:
    """The cell of a table in ``text`` that answers ``question``: the row whose first cell shares most of the
    question's topic words (at least ``min_row_words``, fewer if the label has fewer; a tie makes no answer),
    and the column whose header shares most of the rest, or else the only column whose cell in that row holds
    a value of ``kinds``. With ``lang``, the question's spoken forms also count in the provisions' wording
    (``retrieve.wording.reworded``: "what I pay myself" names the excess column)."""
    if not topic_keys(question) or question_type(question) not in TABLE_TYPES:
        return None
    asked, deductible = _asked(question, lang)
    yes_no = question_type(question) == "yes_no"
    for table in tables(text):
        header, rows = table[0], table[1:]

        def cell(line: _Line, j: int) -> str:
            a, b = line.cells[j]
            return text[a:b]

        # the first header cell names what every row is ("Loại dữ liệu", "Category of records"): its words alone
        # single out no row ("dữ liệu" of a question about fingerprint data is not the marketing-data row)
        generic = topic_keys(cell(header, 0))
        named = []
        for row in rows:
            label = topic_keys(cell(row, 0))
            if not (label & asked) - generic:
                continue
            if yes_no and not _names_row(cell(row, 0), asked, min_row_words):
                continue  # whether something is covered: a row of a neighbouring thing has a figure, not the answer
            shared = len(label & asked)
            if shared and shared >= min(min_row_words, len(label)):
                named.append((shared, row))
        named.sort(key=lambda x: -x[0])
        if not named or (len(named) > 1 and named[1][0] == named[0][0]):
            continue  # no row named, or two named alike ("buildings ... caused by subsidence")
        row = named[0][1]
        rest = asked - topic_keys(cell(row, 0))
        columns = range(1, len(header.cells))
        by_header = {j: len(topic_keys(cell(header, j)) & rest) for j in columns}
        best = max(by_header.values(), default=0)
        if not best and named[0][0] < len(asked) * ROW_SHARE:
            continue  # no header named and the row holds little of the question: the table is beside it
        chosen = [j for j in columns if by_header[j] == best] if best else []
        if len(chosen) != 1:  # no header named (or two alike): the one column holding the kind asked for
            valued = [j for j in (chosen or columns) if holds_value(cell(row, j), kinds)]
            if len(valued) > 1 and not deductible:
                # "how much will the policy pay": the limit, never the excess the insured bears, unless named
                valued = [j for j in valued if not _DEDUCTIBLE.search(cell(header, j))]
            chosen = valued if len(valued) == 1 else []
        if len(chosen) != 1:
            continue
        j = chosen[0]
        value = cell(row, j)
        if not value or any(ch.isdigit() for ch in cell(header, j)):
            continue  # an empty cell; or a header with figures of its own, which the row does not hold
        return Cell(
            cell(row, 0), cell(header, j), value, row.cells[j], (row.start, row.end), (header.start, header.end)
        )
    return None


_SPACES = re.compile(r"\s+")


def one_line(text: str) -> str:
    return _SPACES.sub(" ", text).strip()
