#!/usr/bin/env python3
"""Generate the bundled citewise demo corpus.

Every document written by this script is an original, fictional text created for
testing citewise (a citation-checked question-answering engine over legal
documents). The insurers, regulators, laws, telephone numbers and addresses are
invented. Nothing here is legal advice or a copy of a real legal instrument.

The text of each document lives in this file as a list of small block objects
(title, heading, paragraph, point, table, ...). Renderers turn the same blocks
into PDF (fpdf2), DOCX (python-docx), HTML and Markdown.

Outputs (default directory ``src/citewise/samples/corpus``):

* ``home-insurance-policy-en.pdf``
* ``quy-tac-bao-hiem-nha-o-vi.pdf``
* ``data-protection-regulation-en.html``
* ``quy-dinh-bao-ve-du-lieu-vi.html``
* ``travel-insurance-terms-en.docx``
* ``quy-tac-bao-hiem-du-lich-vi.md`` and ``quy-tac-bao-hiem-du-lich-vi.docx``

The output is deterministic: PDFs get a fixed creation date, DOCX files get
fixed core properties and fixed ZIP entry timestamps, so re-running the script
with the same library versions reproduces the same bytes.

Usage::

    python scripts/make_sample_corpus.py [--out DIR]
"""

from __future__ import annotations

import argparse
import html
import io
import unicodedata
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeAlias

from docx import Document
from docx.document import Document as DocxDocument
from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_BREAK
from docx.shared import Mm
from fpdf import FPDF
from fpdf.fonts import FontFace

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT_DIR = REPO_ROOT / "src" / "citewise" / "samples" / "corpus"
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT_REGULAR = FONT_DIR / "DejaVuSans.ttf"
FONT_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
FONT_FAMILY = "DejaVu"

AUTHOR = "citewise sample corpus generator"
FIXED_PDF_DATE = datetime(2025, 1, 1, 0, 0, 0, tzinfo=UTC)
# python-docx writes core-property datetimes as UTC ("Z"); it expects naive values.
FIXED_DOCX_DATE = datetime(2025, 1, 1, 0, 0, 0)
FIXED_ZIP_DATE = (2025, 1, 1, 0, 0, 0)


# ---------------------------------------------------------------------------
# Document model
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Title:
    """Main document title (centred, bold)."""

    text: str


@dataclass(frozen=True)
class Meta:
    """A centred line of the title block (issuer, decision number, dates)."""

    text: str


@dataclass(frozen=True)
class Heading:
    """A structural heading.

    ``level`` 1 is the top structural unit (Section, Chương, CHAPTER, Part),
    2 the next one down, and so on. ``title`` is only used for the EU style
    where the number ("Article 6") and the title sit on separate lines.
    """

    level: int
    text: str
    title: str | None = None


@dataclass(frozen=True)
class Para:
    """A paragraph. ``style`` is one of body, point, center or bold."""

    text: str
    style: str = "body"


@dataclass(frozen=True)
class ListItems:
    """A list. ``labelled`` items already carry their own "(a)" / "1." label."""

    items: tuple[str, ...]
    numbered: bool = False
    labelled: bool = False


@dataclass(frozen=True)
class Table:
    """A table with one header row. ``widths`` are relative column widths."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str | None = None
    widths: tuple[int, ...] | None = None


@dataclass(frozen=True)
class PageBreak:
    """Force a new page (PDF and DOCX only)."""


Block: TypeAlias = Title | Meta | Heading | Para | ListItems | Table | PageBreak


@dataclass(frozen=True)
class HtmlDoc:
    """An HTML page: site chrome plus the document split into <section>s."""

    lang: str
    title: str
    nav_links: tuple[str, ...]
    footer_lines: tuple[str, ...]
    parts: tuple[tuple[str, tuple[Block, ...]], ...]


def h1(text: str, title: str | None = None) -> Heading:
    return Heading(1, text, title)


def h2(text: str, title: str | None = None) -> Heading:
    return Heading(2, text, title)


def h3(text: str, title: str | None = None) -> Heading:
    return Heading(3, text, title)


def p(text: str) -> Para:
    return Para(text)


def pt(text: str) -> Para:
    """An indented point such as "(a) ..." or "a) ..."."""
    return Para(text, "point")


def points(*items: str) -> list[Para]:
    return [pt(item) for item in items]


def center(text: str) -> Para:
    return Para(text, "center")


def bold(text: str) -> Para:
    return Para(text, "bold")


def table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    caption: str | None = None,
    widths: Sequence[int] | None = None,
) -> Table:
    return Table(
        header=tuple(header),
        rows=tuple(tuple(row) for row in rows),
        caption=caption,
        widths=tuple(widths) if widths is not None else None,
    )


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


# ---------------------------------------------------------------------------
# a) Harbourview Mutual Home Insurance Policy (English, PDF)
# ---------------------------------------------------------------------------


def home_policy_en() -> list[Block]:
    return [
        Title("Harbourview Mutual Home Insurance Policy"),
        Meta("Policy wording HM-2025/04"),
        Meta("Effective date: 1 January 2025"),
        Meta("Harbourview Mutual Insurance Society, 40 Quay Street, Port Calder"),
        p(
            "This document is the policy wording for Harbourview Mutual home "
            "insurance. It must be read together with your schedule, which shows "
            "the cover you have chosen, your sums insured and your period of "
            "insurance. This wording applies to policies starting or renewing on "
            "or after 1 January 2025 and replaces policy wording HM-2022/01."
        ),
        p(
            "In return for your premium, we will insure you against the loss or "
            "damage described in Section 2 that happens during the period of "
            "insurance, subject to the limits in the Schedule of limits in "
            "Section 2.3, the exclusions in Section 3 and the conditions in "
            "Section 4 and Section 5. Words with special meanings are defined in "
            "Section 1; other technical terms are explained in Annex A."
        ),
        h1("Section 1 Definitions"),
        p("The following words have the same meaning wherever they appear in this policy or in your schedule."),
        p(
            '"Buildings" means the main structure of the home, including its '
            "foundations, roof, walls, floors and ceilings, its permanent fixtures "
            "and fittings, fitted kitchens and bathrooms, and the following if "
            "they are within the boundaries of the premises: garages, sheds, "
            "greenhouses, boundary walls, fences, gates, driveways, paths, "
            "patios, swimming pools and fixed solar panels."
        ),
        p(
            '"Contents" means household goods, furniture, clothing and personal '
            "belongings that you own or are legally responsible for and that are "
            "kept inside the home. Contents do not include motor vehicles, "
            "caravans, boats, animals, cash above USD 500, or any part of the "
            "buildings."
        ),
        p(
            '"Excess" means the first part of each claim that you must pay '
            "yourself. The excess for each type of cover is shown in the "
            "Schedule of limits in Section 2.3. If one incident gives rise to a "
            "claim under both Buildings and Contents cover, only the higher "
            "excess applies."
        ),
        p(
            '"Home" means the private dwelling at the address shown in your '
            "schedule, used only for domestic purposes, except for office work "
            "carried out by you."
        ),
        p(
            '"Period of insurance" means the period of 12 months shown in your '
            "schedule, or any shorter period if the policy is cancelled under "
            "Section 5."
        ),
        p(
            '"Sum insured" means the maximum amount we will pay for each type of '
            "cover, as stated in your schedule. The sum insured can never exceed "
            "the limits in Section 2.3."
        ),
        p(
            '"Unoccupied" means that the home has not been lived in by you or a '
            "member of your family for more than 60 consecutive days. A person "
            "has lived in the home only if they have slept there overnight."
        ),
        p(
            '"Valuables" means jewellery, watches, articles of gold, silver or '
            "other precious metals, works of art, collections of stamps or coins, "
            "and cameras."
        ),
        p(
            '"We", "us" and "our" means Harbourview Mutual Insurance Society. '
            '"You" and "your" means the person named as policyholder in the '
            "schedule and members of their family who normally live in the home."
        ),
        h1("Section 2 What is covered"),
        p(
            "Your schedule shows whether you have chosen Buildings cover, "
            "Contents cover or both. We will only pay under the cover you have "
            "chosen and paid for."
        ),
        h2("2.1 Buildings"),
        p(
            "We will pay for loss of or damage to the buildings caused by any of "
            "the following events during the period of insurance:"
        ),
        *points(
            "(a) fire, smoke, lightning, explosion or earthquake;",
            "(b) storm, meaning winds of at least 90 km/h, together with hail or heavy snow;",
            "(c) flood, except where the home is within 50 metres of a river, "
            "stream or canal and you did not tell us this when the policy was "
            "taken out;",
            "(d) escape of water or oil from a fixed heating or water installation, a washing machine or a dishwasher;",
            "(e) theft or attempted theft involving forcible and violent entry to the home;",
            "(f) subsidence, heave or landslip of the site on which the buildings stand;",
            "(g) impact by a vehicle, an aircraft, a falling tree or an animal.",
        ),
        p(
            "We will pay the full cost of repairing the damaged part of the "
            "buildings with materials of similar quality, up to the buildings sum "
            "insured. If the buildings sum insured is less than 85% of the full "
            "cost of rebuilding the home, we will reduce the amount we pay in the "
            "same proportion as the shortfall."
        ),
        p(
            "If the home cannot be lived in because of damage covered under this "
            "section, we will also pay the reasonable cost of comparable "
            "alternative accommodation for you and your pets for up to 12 months, "
            "subject to the alternative accommodation limit in Section 2.3."
        ),
        h2("2.2 Contents"),
        p(
            "We will pay for loss of or damage to your contents caused by any of "
            "the events listed in Section 2.1 (a) to (g), and for accidental "
            "damage to televisions, computers and audio equipment kept in the "
            "home."
        ),
        p(
            "Contents are replaced on a new for old basis, except clothing and "
            "household linen, for which we will make a deduction for wear and "
            "tear. The most we will pay for any single article of valuables is "
            "USD 5,000, and the most we will pay for all valuables together is "
            "one third of the contents sum insured. Any single article worth more "
            "than USD 5,000 must be listed separately in your schedule."
        ),
        p(
            "Contents temporarily removed from the home, for example to a bank, "
            "a relative's home or a repair shop in the country, are covered up to "
            "10% of the contents sum insured. Food in a domestic freezer spoilt "
            "by a change in temperature is covered up to USD 400. Cash kept in "
            "the home is covered up to USD 500."
        ),
        h2("2.3 Schedule of limits"),
        p(
            "The table below shows the most we will pay and the excess that "
            "applies for each type of cover. Where your schedule shows a lower "
            "sum insured, the lower amount applies."
        ),
        table(
            ("Cover", "Limit (USD)", "Excess (USD)"),
            (
                ("Buildings", "500,000", "250"),
                ("Contents", "75,000", "150"),
                ("Valuables (any single article)", "5,000", "150"),
                ("Escape of water", "50,000", "500"),
                ("Subsidence, heave and landslip", "500,000", "1,000"),
                ("Alternative accommodation", "30,000", "0"),
            ),
            caption="Schedule of limits",
            widths=(90, 40, 40),
        ),
        p(
            "The escape of water limit of USD 50,000 applies to the combined cost "
            "of tracing the leak and repairing the damage. The subsidence limit "
            "forms part of, and does not increase, the buildings limit."
        ),
        h1("Section 3 Exclusions"),
        p(
            "The exclusions in this section apply to every part of this policy, "
            "in addition to any limits shown in Section 2.3."
        ),
        h2("3.1 General exclusions"),
        p("We will not pay for:"),
        *points(
            "(a) the excess shown in Section 2.3;",
            "(b) wear and tear, gradual deterioration, rot, mould, insects or "
            "vermin, or any other damage that happens gradually over time;",
            "(c) damage caused deliberately by you or by anyone lawfully in the home;",
            "(d) loss or damage that happened before the period of insurance started;",
            "(e) war, terrorism, nuclear radiation or contamination by radioactive material;",
            "(f) loss of data, or damage caused by a computer virus or a cyber attack;",
            "(g) any reduction in the market value of the home after a repair has been completed;",
            "(h) the cost of replacing undamaged items that form part of a set "
            "or suite, such as a matching carpet in an adjoining room.",
        ),
        h2("3.2 Unoccupied homes"),
        p(
            "If the home is unoccupied for more than 60 consecutive days, we will "
            "not pay for loss or damage caused by theft, escape of water, "
            "malicious damage or vandalism from the 61st day until the home is "
            "lived in again. If you expect the home to be unoccupied for longer "
            "than 60 days you must tell us beforehand; we may agree to continue "
            "cover if the water supply is turned off at the mains and the "
            "heating system is drained."
        ),
        h2("3.3 Business use"),
        p(
            "We will not pay for loss of or damage to goods or equipment used for "
            "business purposes, except office equipment used by you for work at "
            "home, which is covered up to USD 2,500."
        ),
        h1("Section 4 Claims"),
        h2("4.1 How to make a claim"),
        p(
            "To make a claim, contact our claims team on +1 555 0144 or use the "
            "online claim form at claims.harbourview.example. Please have your "
            "policy number, a description of what happened and an estimate of "
            "the cost ready. You must then:"
        ),
        *points(
            "(a) take all reasonable steps to prevent further loss or damage, "
            "for example by turning off the water supply or arranging temporary "
            "repairs;",
            "(b) report any theft, attempted theft, malicious damage or lost "
            "property to the police within 48 hours of discovering it and obtain "
            "a crime reference number;",
            "(c) send us the completed claim form with the receipts, invoices, "
            "photographs, valuations or other evidence of ownership and value "
            "that we reasonably ask for;",
            "(d) keep damaged items until we have had the chance to inspect them.",
        ),
        p(
            "We may appoint a loss adjuster to inspect the damage. We will pay "
            "for reasonable emergency repairs costing up to USD 1,500 without "
            "our prior approval; repairs costing more than this must be approved "
            "by us before work starts."
        ),
        h2("4.2 Time limits"),
        p("The following time limits apply to every claim:"),
        *points(
            "(a) you must notify us of any loss or damage within 30 days of discovering it;",
            "(b) you must return the completed claim form and supporting documents within 60 days of notifying us;",
            "(c) we will acknowledge your claim within 2 business days of your first notification;",
            "(d) we will accept or decline the claim, and settle any accepted "
            "claim, within 15 business days of receiving the completed claim form "
            "and all supporting documents;",
            "(e) if we cannot meet the 15 business day limit because further "
            "investigation is needed, we will write to you before it expires, "
            "explain why and give a new date, which will be no later than 45 "
            "business days after we received your documents.",
        ),
        p(
            "If you notify us later than the 30 days required by paragraph (a), "
            "we will still consider the claim, but we may reduce the amount we "
            "pay to the extent that the delay has increased the cost of the claim "
            "or prevented us from checking it. If we pay an accepted claim later "
            "than the time limit in paragraph (d), we will add interest at 5% a "
            "year for the period of the delay."
        ),
        h2("4.3 Fraudulent claims"),
        p(
            "If any claim is fraudulent or intentionally exaggerated, we will not "
            "pay the claim, we may recover any amounts already paid for it, and "
            "we may cancel this policy under Section 5.2 from the date of the "
            "fraudulent act."
        ),
        h1("Section 5 Cancellation"),
        h2("5.1 Your right to cancel"),
        p("You may cancel this policy at any time by telling us in writing, by email or by telephone."),
        *points(
            "(a) If you cancel within 14 days of receiving your policy documents "
            "(the cooling-off period), we will refund the full premium, provided "
            "you have not made a claim.",
            "(b) If you cancel after the cooling-off period, we will refund the "
            "premium for the unexpired part of the period of insurance, less an "
            "administration fee of USD 25. No refund is due if a claim has been "
            "paid during the current period of insurance.",
        ),
        h2("5.2 Our right to cancel"),
        p(
            "We may cancel this policy by sending at least 30 days' written "
            "notice to your last known address, giving the reason, where there "
            "is a valid reason such as:"
        ),
        *points(
            "(a) non-payment of premium, where an instalment is still unpaid 14 "
            "days after we have sent you a reminder;",
            "(b) a fraudulent claim as described in Section 4.3, in which case "
            "cancellation may take effect immediately and no premium will be "
            "refunded;",
            "(c) your failure to cooperate with us or to give us information we "
            "reasonably need to manage the policy or a claim;",
            "(d) threatening or abusive behaviour towards our staff or suppliers.",
        ),
        p(
            "Where we cancel for a reason other than fraud, we will refund the "
            "premium for the unexpired part of the period of insurance without "
            "any administration fee."
        ),
        h1("Section 6 Complaints"),
        p(
            "If you are unhappy with our service, please contact our Customer "
            "Relations Team at 40 Quay Street, Port Calder, or by email at "
            "complaints@harbourview.example. We will acknowledge your complaint "
            "within 5 business days and send you our final response within 8 "
            "weeks."
        ),
        p(
            "If you remain dissatisfied, or we have not sent our final response "
            "within 8 weeks, you may refer your complaint free of charge to the "
            "Port Calder Insurance Ombudsman within 6 months of the date of our "
            "final response. This does not affect your right to take legal "
            "action."
        ),
        PageBreak(),
        h1("Annex A Glossary of terms"),
        p(
            "The terms below are explained for information only. Where a term is "
            "also defined in Section 1, the definition in Section 1 prevails."
        ),
        p(
            "Accidental damage: sudden and unexpected physical damage caused by "
            "external means and not caused deliberately."
        ),
        p("Business day: Monday to Friday, excluding public holidays in Port Calder."),
        p(
            "Cooling-off period: the 14 days after you receive your policy "
            "documents, during which you may cancel for a full refund under "
            "Section 5.1(a)."
        ),
        p(
            "Escape of water: water leaking suddenly from a fixed water or "
            "heating installation or from a domestic appliance connected to it."
        ),
        p("Heave: upward movement of the ground beneath the buildings caused by the soil expanding."),
        p("Landslip: downward movement of sloping ground."),
        p("Loss adjuster: an independent claims specialist appointed by us to assess the cause and cost of a loss."),
        p(
            "New for old: replacement with a new item of similar quality, without "
            "any deduction for age, except as stated in Section 2.2."
        ),
        p(
            "Subsidence: downward movement of the ground beneath the buildings "
            "that is not caused by the weight of the buildings settling."
        ),
    ]


# ---------------------------------------------------------------------------
# b) Quy tắc bảo hiểm nhà ở tư nhân (Vietnamese, PDF)
# ---------------------------------------------------------------------------


def home_rules_vi() -> list[Block]:
    return [
        Meta("CÔNG TY BẢO HIỂM SÔNG HỒNG"),
        Title("QUY TẮC BẢO HIỂM NHÀ Ở TƯ NHÂN"),
        Meta(
            "(Ban hành kèm theo Quyết định số 125/2024/QĐ-SH ngày 15 tháng 3 năm "
            "2024 của Tổng Giám đốc Công ty Bảo hiểm Sông Hồng)"
        ),
        h1("Chương I QUY ĐỊNH CHUNG"),
        h2("Điều 1. Phạm vi áp dụng"),
        p(
            "1. Quy tắc này quy định điều kiện, điều khoản bảo hiểm đối với nhà ở "
            "thuộc quyền sở hữu hợp pháp của cá nhân, hộ gia đình (sau đây gọi là "
            "nhà ở tư nhân) và tài sản bên trong nhà ở được Công ty Bảo hiểm Sông "
            "Hồng (sau đây gọi là Công ty) nhận bảo hiểm trên lãnh thổ Việt Nam."
        ),
        p(
            "2. Quy tắc này không áp dụng đối với nhà ở được sử dụng toàn bộ vào "
            "mục đích kinh doanh, nhà xưởng, kho hàng và công trình đang trong "
            "thời gian xây dựng."
        ),
        p(
            "3. Những vấn đề không quy định trong Quy tắc này được thực hiện theo "
            "thỏa thuận tại hợp đồng bảo hiểm và quy định của pháp luật có liên "
            "quan."
        ),
        h2("Điều 2. Giải thích từ ngữ"),
        p("Trong Quy tắc này, các từ ngữ dưới đây được hiểu như sau:"),
        p("1. Bên mua bảo hiểm là cá nhân, tổ chức giao kết hợp đồng bảo hiểm với Công ty và đóng phí bảo hiểm."),
        p(
            "2. Người được bảo hiểm là chủ sở hữu hoặc người có quyền sử dụng hợp "
            "pháp nhà ở được bảo hiểm, có tên trong Giấy chứng nhận bảo hiểm."
        ),
        p("3. Nhà ở được bảo hiểm bao gồm các bộ phận sau đây:"),
        *points(
            "a) Phần kết cấu chính gồm móng, khung, cột, dầm, sàn, tường và mái;",
            "b) Hệ thống điện, hệ thống cấp thoát nước và hệ thống điều hòa không khí được lắp đặt cố định;",
            "c) Cửa ra vào, cửa sổ, cầu thang, lan can và trần nhà;",
            "d) Các công trình phụ gắn liền với nhà ở như nhà để xe, bể nước, "
            "tường rào, cổng nằm trong khuôn viên ghi tại Giấy chứng nhận bảo "
            "hiểm;",
            "đ) Thiết bị lắp đặt cố định như bình nước nóng, tủ bếp liền tường và "
            "hệ thống pin năng lượng mặt trời trên mái.",
        ),
        p(
            "4. Tài sản bên trong nhà ở là đồ đạc, trang thiết bị sinh hoạt thuộc "
            "sở hữu của Người được bảo hiểm hoặc thành viên gia đình cùng sinh "
            "sống, được để trong nhà ở được bảo hiểm. Tài sản bên trong nhà ở "
            "không bao gồm tiền mặt, vàng bạc, đá quý, giấy tờ có giá và tác phẩm "
            "nghệ thuật có giá trị trên 50.000.000 đồng mỗi món, trừ khi có thỏa "
            "thuận riêng bằng văn bản."
        ),
        p(
            "5. Số tiền bảo hiểm là số tiền tối đa Công ty phải trả cho mỗi vụ "
            "tổn thất, được ghi trong Giấy chứng nhận bảo hiểm."
        ),
        p(
            "6. Mức khấu trừ là số tiền Người được bảo hiểm phải tự chịu trong mỗi "
            "vụ tổn thất theo quy định tại Điều 11 Quy tắc này."
        ),
        p("7. Ngày làm việc là các ngày từ thứ Hai đến thứ Sáu, trừ ngày nghỉ lễ, Tết theo quy định của pháp luật."),
        h2("Điều 3. Hợp đồng bảo hiểm và thời hạn bảo hiểm"),
        p(
            "1. Hợp đồng bảo hiểm gồm Giấy yêu cầu bảo hiểm, Giấy chứng nhận bảo "
            "hiểm, Quy tắc này và các văn bản sửa đổi, bổ sung được hai bên thỏa "
            "thuận."
        ),
        p(
            "2. Thời hạn bảo hiểm là 12 tháng kể từ ngày ghi trong Giấy chứng nhận "
            "bảo hiểm, trừ trường hợp hai bên có thỏa thuận khác nhưng không ngắn "
            "hơn 03 tháng."
        ),
        p(
            "3. Trách nhiệm bảo hiểm phát sinh từ thời điểm Bên mua bảo hiểm đóng "
            "đủ phí bảo hiểm theo quy định tại Điều 6 Quy tắc này, trừ trường hợp "
            "có thỏa thuận nợ phí bằng văn bản. Thời hạn nợ phí không quá 30 ngày "
            "kể từ ngày bắt đầu thời hạn bảo hiểm."
        ),
        h1("Chương II PHẠM VI BẢO HIỂM"),
        h2("Điều 4. Đối tượng bảo hiểm và số tiền bảo hiểm"),
        p(
            "1. Đối tượng bảo hiểm theo Quy tắc này gồm nhà ở được bảo hiểm và tài "
            "sản bên trong nhà ở quy định tại khoản 3 và khoản 4 Điều 2 Quy tắc "
            "này."
        ),
        p(
            "2. Số tiền bảo hiểm đối với nhà ở được xác định theo giá trị xây dựng "
            "mới của nhà ở tại thời điểm giao kết hợp đồng, không bao gồm giá trị "
            "quyền sử dụng đất, và không vượt quá mức tối đa tương ứng với loại "
            "nhà tại Bảng tỷ lệ phí bảo hiểm quy định tại Điều 6 Quy tắc này."
        ),
        p(
            "3. Số tiền bảo hiểm đối với tài sản bên trong nhà ở do Bên mua bảo "
            "hiểm lựa chọn nhưng không vượt quá 30% số tiền bảo hiểm của nhà ở; "
            "mỗi món tài sản được bồi thường tối đa 100.000.000 đồng."
        ),
        h2("Điều 5. Rủi ro được bảo hiểm"),
        p(
            "Công ty bồi thường những tổn thất vật chất xảy ra bất ngờ, không lường "
            "trước được đối với nhà ở được bảo hiểm và tài sản bên trong nhà ở "
            "(nếu có tham gia) do các rủi ro sau đây gây ra:"
        ),
        p("1. Cháy, sét đánh, nổ."),
        p("2. Bão, lốc, giông có sức gió từ cấp 8 trở lên theo thông báo của cơ quan khí tượng thủy văn."),
        p("3. Lũ lụt, ngập nước do mưa lớn, với điều kiện mực nước ngập trong nhà từ 20 cm trở lên."),
        p("4. Vỡ, tràn nước từ bể chứa, đường ống cấp thoát nước hoặc thiết bị chứa nước được lắp đặt cố định."),
        p("5. Trộm cắp có dấu hiệu đột nhập bằng vũ lực và được cơ quan công an xác nhận."),
        p("6. Va chạm của phương tiện giao thông, máy bay hoặc vật rơi từ máy bay, cây đổ."),
        h2("Điều 6. Phí bảo hiểm"),
        p(
            "1. Phí bảo hiểm năm được tính bằng số tiền bảo hiểm nhân với tỷ lệ "
            "phí tương ứng với loại nhà theo Bảng tỷ lệ phí bảo hiểm dưới đây:"
        ),
        table(
            ("Loại nhà", "Tỷ lệ phí (%/năm)", "Số tiền bảo hiểm tối đa (đồng)"),
            (
                ("Nhà biệt thự", "0,12", "20.000.000.000"),
                ("Nhà liền kề, nhà phố", "0,10", "10.000.000.000"),
                ("Căn hộ chung cư", "0,08", "5.000.000.000"),
                ("Nhà cấp 4", "0,15", "2.000.000.000"),
                ("Nhà khung gỗ, mái lá hoặc mái tôn", "0,25", "1.000.000.000"),
            ),
            caption="Bảng tỷ lệ phí bảo hiểm",
            widths=(65, 40, 65),
        ),
        p(
            "2. Phí bảo hiểm tối thiểu cho mỗi hợp đồng là 300.000 đồng. Đối với "
            "nhà ở nằm trong khu vực thường xuyên bị ngập lụt theo danh sách do "
            "Công ty công bố, tỷ lệ phí quy định tại khoản 1 Điều này được cộng "
            "thêm 0,05%/năm."
        ),
        p(
            "3. Trường hợp thời hạn bảo hiểm dưới 12 tháng, phí bảo hiểm được tính "
            "theo tỷ lệ phí ngắn hạn: thời hạn đến 03 tháng bằng 30%, đến 06 tháng "
            "bằng 60%, đến 09 tháng bằng 85% phí bảo hiểm năm."
        ),
        p(
            "4. Bên mua bảo hiểm được giảm 10% phí bảo hiểm nếu nhà ở có hệ thống "
            "báo cháy tự động và bình chữa cháy còn hạn sử dụng. Phí bảo hiểm sau "
            "khi giảm không thấp hơn phí bảo hiểm tối thiểu quy định tại khoản 2 "
            "Điều này."
        ),
        p(
            "5. Trường hợp có thỏa thuận nợ phí theo quy định tại khoản 3 Điều 3 "
            "Quy tắc này mà Bên mua bảo hiểm không đóng đủ phí khi hết thời hạn nợ "
            "phí thì hợp đồng bảo hiểm tự chấm dứt."
        ),
        h2("Điều 7. Chi phí hợp lý được thanh toán thêm"),
        p(
            "Ngoài số tiền bồi thường tổn thất vật chất, Công ty thanh toán các "
            "chi phí sau đây phát sinh từ sự kiện bảo hiểm thuộc phạm vi quy định "
            "tại Điều 5 Quy tắc này:"
        ),
        p("1. Chi phí dọn dẹp hiện trường, tháo dỡ phần nhà bị hư hỏng, tối đa 10% số tiền bồi thường."),
        p(
            "2. Chi phí thuê nhà ở tạm thời khi nhà ở được bảo hiểm không thể sử "
            "dụng được, tối đa 10.000.000 đồng mỗi tháng và không quá 06 tháng."
        ),
        p("3. Chi phí cần thiết và hợp lý để ngăn ngừa, hạn chế tổn thất phát sinh thêm."),
        h2("Điều 8. Loại trừ bảo hiểm"),
        p("Công ty không chịu trách nhiệm bồi thường đối với:"),
        p("1. Tổn thất do các rủi ro nằm ngoài phạm vi quy định tại Điều 5 Quy tắc này."),
        p(
            "2. Tổn thất do hành vi cố ý của Bên mua bảo hiểm, Người được bảo hiểm "
            "hoặc thành viên gia đình cùng sinh sống."
        ),
        p("3. Tổn thất do chiến tranh, khủng bố, bạo loạn, phóng xạ hoặc nhiễm phóng xạ."),
        p("4. Hao mòn tự nhiên, mục nát, mối mọt, nấm mốc, rỉ sét, nứt do co ngót hoặc lún tự nhiên của công trình."),
        p(
            "5. Tổn thất xảy ra khi nhà ở bị bỏ trống liên tục trên 60 ngày mà "
            "không thông báo cho Công ty, trừ tổn thất do cháy, sét đánh, nổ."
        ),
        p("6. Tổn thất do trộm cắp không có dấu hiệu đột nhập hoặc do người giúp việc, người thuê nhà gây ra."),
        p("7. Tổn thất đối với nhà ở đã có quyết định giải tỏa, phá dỡ của cơ quan nhà nước có thẩm quyền."),
        h1("Chương III BỒI THƯỜNG"),
        h2("Điều 9. Thông báo tổn thất"),
        p(
            "1. Khi xảy ra tổn thất do các rủi ro theo quy định tại Điều 5 Quy tắc "
            "này, Người được bảo hiểm phải áp dụng mọi biện pháp cần thiết để cứu "
            "chữa, hạn chế tổn thất và thông báo ngay cho Công ty qua đường dây nóng "
            "1900 5588 hoặc ứng dụng của Công ty."
        ),
        p(
            "2. Trong thời hạn 14 ngày kể từ ngày xảy ra tổn thất, Người được bảo "
            "hiểm phải gửi thông báo tổn thất bằng văn bản cho Công ty theo mẫu "
            "tại Phụ lục I Quy tắc này. Trường hợp có sự kiện bất khả kháng hoặc "
            "trở ngại khách quan, thời hạn này được kéo dài tương ứng với thời "
            "gian xảy ra sự kiện đó."
        ),
        p(
            "3. Đối với tổn thất do trộm cắp, Người được bảo hiểm phải báo cho cơ "
            "quan công an nơi gần nhất trong vòng 24 giờ kể từ khi phát hiện."
        ),
        p(
            "4. Người được bảo hiểm phải giữ nguyên hiện trường cho đến khi Công "
            "ty giám định, trừ trường hợp cần thiết để cứu chữa tài sản hoặc theo "
            "yêu cầu của cơ quan có thẩm quyền. Công ty cử giám định viên đến "
            "hiện trường trong vòng 48 giờ kể từ khi nhận được thông báo."
        ),
        p(
            "5. Trường hợp Người được bảo hiểm vi phạm thời hạn quy định tại khoản "
            "2 Điều này mà không có lý do chính đáng, Công ty có quyền giảm số "
            "tiền bồi thường tương ứng với phần thiệt hại phát sinh thêm do việc "
            "thông báo chậm trễ."
        ),
        h2("Điều 10. Hồ sơ bồi thường"),
        p("1. Hồ sơ bồi thường gồm:"),
        *points(
            "a) Giấy yêu cầu bồi thường theo mẫu tại Phụ lục I Quy tắc này;",
            "b) Bản sao Giấy chứng nhận bảo hiểm;",
            "c) Bản sao giấy tờ chứng minh quyền sở hữu hoặc quyền sử dụng hợp pháp nhà ở;",
            "d) Biên bản giám định tổn thất của Công ty hoặc của tổ chức giám định độc lập do Công ty chỉ định;",
            "đ) Văn bản xác nhận của cơ quan công an, cơ quan phòng cháy chữa cháy "
            "hoặc chính quyền địa phương về nguyên nhân tổn thất (nếu có);",
            "e) Hóa đơn, chứng từ sửa chữa, thay thế tài sản bị tổn thất.",
        ),
        p(
            "2. Thời hạn nộp hồ sơ bồi thường là 60 ngày kể từ ngày kết thúc việc "
            "giám định tổn thất. Thời hạn yêu cầu bồi thường là 01 năm kể từ ngày "
            "xảy ra sự kiện bảo hiểm."
        ),
        p(
            "3. Trường hợp hồ sơ chưa đầy đủ, trong thời hạn 05 ngày làm việc kể "
            "từ ngày nhận hồ sơ, Công ty thông báo bằng văn bản một lần cho Người "
            "được bảo hiểm về các tài liệu cần bổ sung."
        ),
        h2("Điều 11. Mức khấu trừ"),
        p(
            "1. Mức khấu trừ áp dụng cho mỗi vụ tổn thất là 2.000.000 đồng, trừ "
            "trường hợp quy định tại khoản 2 Điều này."
        ),
        p(
            "2. Đối với tổn thất do lũ lụt, ngập nước quy định tại khoản 3 Điều 5 "
            "Quy tắc này, mức khấu trừ là 10% số tiền bồi thường nhưng không thấp "
            "hơn 5.000.000 đồng mỗi vụ tổn thất."
        ),
        p("3. Tổn thất có giá trị không vượt quá mức khấu trừ do Người được bảo hiểm tự chịu."),
        h2("Điều 12. Thời hạn giải quyết bồi thường"),
        p(
            "1. Công ty giải quyết và thanh toán bồi thường trong thời hạn 15 ngày "
            "làm việc kể từ ngày nhận được đầy đủ hồ sơ bồi thường hợp lệ quy định "
            "tại Điều 10 Quy tắc này."
        ),
        p(
            "2. Trường hợp từ chối bồi thường một phần hoặc toàn bộ, Công ty phải "
            "thông báo bằng văn bản và nêu rõ lý do trong thời hạn quy định tại "
            "khoản 1 Điều này."
        ),
        p(
            "3. Đối với tổn thất ước tính từ 100.000.000 đồng trở lên, theo đề "
            "nghị của Người được bảo hiểm, Công ty tạm ứng 50% số tiền bồi thường "
            "ước tính trong thời hạn 07 ngày làm việc kể từ ngày lập biên bản giám "
            "định."
        ),
        p(
            "4. Trường hợp chậm thanh toán tiền bồi thường, Công ty trả thêm tiền "
            "lãi trên số tiền chậm trả theo lãi suất 10%/năm cho thời gian chậm "
            "trả."
        ),
        h2("Điều 13. Phương thức và cách tính bồi thường"),
        p(
            "1. Công ty bồi thường bằng một trong các hình thức: sửa chữa tài sản "
            "bị tổn thất; thay thế bằng tài sản cùng loại có tính năng, chất lượng "
            "tương đương; hoặc trả tiền bồi thường."
        ),
        p(
            "2. Số tiền bồi thường bằng giá trị thiệt hại thực tế trừ đi mức khấu "
            "trừ theo quy định tại Điều 11 Quy tắc này, nhưng không vượt quá số "
            "tiền bảo hiểm."
        ),
        p(
            "3. Trường hợp số tiền bảo hiểm thấp hơn giá trị thực tế của nhà ở tại "
            "thời điểm xảy ra tổn thất, số tiền bồi thường được tính theo tỷ lệ "
            "giữa số tiền bảo hiểm và giá trị thực tế của nhà ở."
        ),
        p(
            "4. Sau khi bồi thường, số tiền bảo hiểm còn lại giảm tương ứng với số "
            "tiền đã bồi thường, trừ khi Bên mua bảo hiểm đóng thêm phí để khôi "
            "phục số tiền bảo hiểm."
        ),
        h1("Chương IV ĐIỀU KHOẢN THI HÀNH"),
        h2("Điều 14. Chấm dứt hợp đồng bảo hiểm"),
        p(
            "1. Bên mua bảo hiểm có quyền đơn phương chấm dứt hợp đồng bằng cách "
            "thông báo bằng văn bản cho Công ty trước ít nhất 15 ngày. Công ty "
            "hoàn lại 80% phí bảo hiểm tương ứng với thời gian còn lại của thời "
            "hạn bảo hiểm nếu chưa có yêu cầu bồi thường."
        ),
        p(
            "2. Công ty có quyền đơn phương chấm dứt hợp đồng khi Bên mua bảo hiểm "
            "cố ý cung cấp thông tin sai sự thật hoặc không đóng đủ phí bảo hiểm "
            "theo thỏa thuận. Công ty thông báo bằng văn bản trước 15 ngày và hoàn "
            "lại 100% phí bảo hiểm tương ứng với thời gian còn lại, trừ trường hợp "
            "cố ý cung cấp thông tin sai sự thật."
        ),
        h2("Điều 15. Giải quyết tranh chấp"),
        p(
            "Tranh chấp phát sinh từ hợp đồng bảo hiểm trước hết được giải quyết "
            "thông qua thương lượng. Trường hợp thương lượng không thành trong thời "
            "hạn 30 ngày, các bên có quyền đưa tranh chấp ra Tòa án có thẩm quyền "
            "tại Việt Nam. Thời hiệu khởi kiện là 03 năm kể từ thời điểm phát sinh "
            "tranh chấp."
        ),
        h2("Điều 16. Hiệu lực thi hành"),
        p("1. Quy tắc này có hiệu lực từ ngày 01 tháng 5 năm 2024."),
        p(
            "2. Hợp đồng bảo hiểm đã giao kết trước ngày Quy tắc này có hiệu lực "
            "tiếp tục được thực hiện theo quy tắc bảo hiểm áp dụng tại thời điểm "
            "giao kết cho đến khi hết thời hạn bảo hiểm."
        ),
        h1("Phụ lục I. MẪU GIẤY YÊU CẦU BỒI THƯỜNG"),
        center("(Kèm theo Quy tắc bảo hiểm nhà ở tư nhân)"),
        bold("GIẤY YÊU CẦU BỒI THƯỜNG"),
        p("Kính gửi: Công ty Bảo hiểm Sông Hồng"),
        p("1. Họ và tên Người được bảo hiểm: ........................................"),
        p("2. Số Giấy chứng nhận bảo hiểm: .........................................."),
        p("3. Địa chỉ nhà ở được bảo hiểm: .........................................."),
        p("4. Thời gian, địa điểm xảy ra tổn thất: ..................................."),
        p("5. Nguyên nhân tổn thất: ................................................"),
        p("6. Mô tả tài sản bị tổn thất và giá trị thiệt hại ước tính (đồng): ................"),
        p("7. Số tiền yêu cầu bồi thường (đồng): ...................................."),
        p("8. Hình thức nhận tiền bồi thường: chuyển khoản / tiền mặt"),
        p(
            "Tôi cam đoan những thông tin trên là đúng sự thật và chịu trách nhiệm "
            "trước pháp luật về nội dung đã kê khai."
        ),
        center("............, ngày ..... tháng ..... năm ......"),
        center("NGƯỜI YÊU CẦU BỒI THƯỜNG"),
        center("(Ký, ghi rõ họ tên)"),
    ]


# ---------------------------------------------------------------------------
# c) Regulation (FR) 2024/17 (English, HTML, EU drafting style)
# ---------------------------------------------------------------------------


def _regulation_preamble() -> tuple[Block, ...]:
    return (
        p("THE NATIONAL ASSEMBLY OF THE FICTIONAL REPUBLIC,"),
        p("Having regard to the Constitution of the Fictional Republic, and in particular Article 41 thereof,"),
        p("Having regard to the opinion of the Financial Conduct Council,"),
        p("Whereas:"),
        p(
            "(1) Banks, insurers and payment service providers process large "
            "volumes of personal data about their customers, including data on "
            "income, health and family circumstances. Customers should be able to "
            "trust that such data are handled fairly, securely and only for "
            "purposes they can reasonably expect."
        ),
        p(
            "(2) The rules in force before this Regulation were spread across "
            "sector-specific instruments and were applied unevenly. A single set "
            "of rules for the financial sector should reduce compliance costs and "
            "ensure a consistent level of protection."
        ),
        p(
            "(3) Processing should be lawful only where it rests on one of the "
            "grounds set out in this Regulation. Where processing is based on "
            "consent, that consent should be given by a clear affirmative act and "
            "should be as easy to withdraw as to give."
        ),
        p(
            "(4) Financial institutions are required by anti-money-laundering and "
            "tax legislation to keep certain records for fixed periods. In the "
            "interest of legal certainty, this Regulation sets maximum retention "
            "periods for the most common categories of records."
        ),
        p(
            "(5) Data subjects should receive a reply to their requests without "
            "undue delay and in any event within a fixed time limit. That time "
            "limit should be capable of extension only for complex or numerous "
            "requests, and the data subject should be told the reasons."
        ),
        p(
            "(6) The Data Protection Authority of the Fictional Republic should "
            "have the powers necessary to supervise the application of this "
            "Regulation and to impose administrative fines that are effective, "
            "proportionate and dissuasive."
        ),
        p("HAS ADOPTED THIS REGULATION:"),
    )


def _regulation_chapter_one() -> tuple[Block, ...]:
    return (
        h1("CHAPTER I", "General provisions"),
        h3("Article 1", "Subject matter"),
        p(
            "1. This Regulation lays down rules for the protection of natural "
            "persons with regard to the processing of personal data by financial "
            "institutions."
        ),
        p(
            "2. This Regulation also lays down the powers of the Data Protection "
            "Authority of the Fictional Republic ('the Authority') to supervise "
            "its application."
        ),
        h3("Article 2", "Scope"),
        p(
            "1. This Regulation applies to the processing of personal data, wholly "
            "or partly by automated means, by the following financial "
            "institutions established in the Fictional Republic:"
        ),
        ListItems(
            (
                "(a) credit institutions;",
                "(b) insurance and reinsurance undertakings and insurance intermediaries;",
                "(c) payment service providers and electronic money institutions;",
                "(d) investment firms and fund managers.",
            ),
            labelled=True,
        ),
        p(
            "2. This Regulation does not apply to the processing of personal data "
            "by a natural person in the course of a purely personal or household "
            "activity."
        ),
        h3("Article 3", "Definitions"),
        p("For the purposes of this Regulation, the following definitions apply:"),
        ListItems(
            (
                "(a) 'personal data' means any information relating to an "
                "identified or identifiable natural person ('data subject');",
                "(b) 'processing' means any operation performed on personal data, "
                "such as collection, recording, storage, consultation, disclosure, "
                "erasure or destruction;",
                "(c) 'controller' means the financial institution which, alone or "
                "jointly with others, determines the purposes and means of the "
                "processing;",
                "(d) 'consent' means any freely given, specific, informed and "
                "unambiguous indication of the data subject's wishes by a "
                "statement or by a clear affirmative action;",
                "(e) 'personal data breach' means a breach of security leading to "
                "the accidental or unlawful destruction, loss or alteration of, or "
                "unauthorised disclosure of or access to, personal data;",
                "(f) 'working day' means any day other than a Saturday, a Sunday "
                "or a public holiday in the Fictional Republic.",
            ),
            labelled=True,
        ),
        h3("Article 4", "Principles relating to processing"),
        p("1. Personal data shall be:"),
        ListItems(
            (
                "(a) processed lawfully, fairly and in a transparent manner;",
                "(b) collected for specified, explicit and legitimate purposes and "
                "not further processed in a manner incompatible with those "
                "purposes;",
                "(c) adequate, relevant and limited to what is necessary;",
                "(d) accurate and, where necessary, kept up to date;",
                "(e) kept for no longer than is necessary, and in any event for no "
                "longer than the periods laid down in Article 5;",
                "(f) protected against unauthorised processing and against "
                "accidental loss or damage by appropriate technical and "
                "organisational measures.",
            ),
            labelled=True,
        ),
        p("2. The controller shall be responsible for, and be able to demonstrate, compliance with paragraph 1."),
        p(
            "3. Before carrying out any processing operation listed in Annex I, "
            "the controller shall carry out a data protection impact assessment "
            "and shall consult the Authority where the assessment shows a high "
            "residual risk."
        ),
        h3("Article 5", "Retention of personal data"),
        p(
            "1. Without prejudice to a longer period imposed by a legal obligation "
            "within the meaning of point (c) of Article 6(1), controllers shall "
            "not retain personal data beyond the maximum periods set out in the "
            "following table:"
        ),
        table(
            (
                "Category of records",
                "Maximum retention period",
                "Period starts from",
            ),
            (
                (
                    "Customer due diligence (identification) records",
                    "5 years",
                    "End of the business relationship",
                ),
                (
                    "Payment and transaction records",
                    "7 years",
                    "Date of the transaction",
                ),
                (
                    "Insurance claim files",
                    "10 years",
                    "Date on which the claim is closed",
                ),
                ("Recorded telephone calls", "2 years", "Date of the recording"),
                (
                    "Unsuccessful loan or policy applications",
                    "6 months",
                    "Date of the decision",
                ),
                (
                    "CCTV recordings from branch premises",
                    "30 days",
                    "Date of the recording",
                ),
            ),
            caption="Maximum retention periods",
        ),
        p(
            "2. At the end of the applicable period, the controller shall erase "
            "or anonymise the personal data within 90 days."
        ),
        p(
            "3. Where a claim, complaint or court proceedings concerning the data "
            "subject are pending, the period referred to in paragraph 1 shall be "
            "suspended until the matter is finally resolved."
        ),
        h3("Article 6", "Lawfulness of processing"),
        p("1. Processing shall be lawful only if and to the extent that at least one of the following applies:"),
        ListItems(
            (
                "(a) the data subject has given consent to the processing for one or more specific purposes;",
                "(b) processing is necessary for the performance of a contract to "
                "which the data subject is party, or in order to take steps at "
                "the request of the data subject prior to entering into a "
                "contract;",
                "(c) processing is necessary for compliance with a legal "
                "obligation to which the controller is subject;",
                "(d) processing is necessary to protect the vital interests of the "
                "data subject or of another natural person;",
                "(e) processing is necessary for the purposes of the legitimate "
                "interests pursued by the controller, including the prevention of "
                "fraud, except where such interests are overridden by the "
                "interests or fundamental rights of the data subject.",
            ),
            labelled=True,
        ),
        p(
            "2. Where processing is based on consent under point (a) of paragraph "
            "1, the controller shall be able to demonstrate that the data subject "
            "has consented. The data subject shall have the right to withdraw "
            "consent at any time, and withdrawing consent shall be as easy as "
            "giving it."
        ),
        p(
            "3. Consent to marketing communications shall not be a condition for "
            "the provision of a financial product or service. Consent given for "
            "marketing purposes shall lapse after 24 months unless it is renewed."
        ),
        p(
            "4. Insurance undertakings may process data concerning health only on "
            "the basis of point (a) or (b) of paragraph 1 and only to the extent "
            "necessary for underwriting or for the settlement of a claim."
        ),
    )


def _regulation_chapter_two() -> tuple[Block, ...]:
    return (
        h1("CHAPTER II", "Rights of the data subject"),
        h2("Section 1", "Transparency"),
        h3("Article 7", "Information to be provided to the data subject"),
        p(
            "1. At the time when personal data are collected, the controller "
            "shall provide the data subject with the following information:"
        ),
        ListItems(
            (
                "(a) the identity and contact details of the controller and of its data protection officer;",
                "(b) the purposes of the processing and the legal basis for the "
                "processing referred to in Article 6(1);",
                "(c) the recipients or categories of recipients of the personal data;",
                "(d) the retention period applicable under Article 5;",
                "(e) the existence of the rights set out in Articles 8 and 10 and "
                "of the right to lodge a complaint with the Authority.",
            ),
            labelled=True,
        ),
        p(
            "2. Where personal data have not been obtained from the data subject, "
            "the controller shall provide the information referred to in "
            "paragraph 1 within 30 days of obtaining the data."
        ),
        p("3. The information shall be provided in writing, in clear and plain language and free of charge."),
        h3("Article 8", "Right of access"),
        p(
            "1. The data subject shall have the right to obtain from the "
            "controller confirmation as to whether or not personal data "
            "concerning him or her are being processed and, where that is the "
            "case, a copy of those data together with the information referred "
            "to in Article 7(1)."
        ),
        p(
            "2. The first copy shall be provided free of charge. For any further "
            "copy requested within 12 months, the controller may charge a "
            "reasonable fee not exceeding 20 crowns per request."
        ),
        p("3. The controller shall respond to a request under this Article in accordance with Article 9."),
        h3("Article 9", "Time limits for responding to requests"),
        p(
            "1. The controller shall respond to a request made under Article 8 or "
            "Article 10 without undue delay and in any event within 30 days of "
            "receipt of the request."
        ),
        p(
            "2. The period referred to in paragraph 1 may be extended by a "
            "further 30 days where necessary, taking into account the complexity "
            "and number of the requests. The controller shall inform the data "
            "subject of any such extension, and of the reasons for it, within the "
            "period referred to in paragraph 1."
        ),
        p(
            "3. Where the controller does not act on the request, it shall inform "
            "the data subject, within the period referred to in paragraph 1, of "
            "the reasons and of the possibility of lodging a complaint with the "
            "Authority."
        ),
        p(
            "4. Where requests are manifestly unfounded or excessive, in "
            "particular because of their repetitive character, the controller may "
            "refuse to act on them. The controller shall bear the burden of "
            "demonstrating that a request is manifestly unfounded or excessive."
        ),
        h2("Section 2", "Erasure"),
        h3("Article 10", "Right to erasure"),
        p(
            "1. The data subject shall have the right to obtain from the "
            "controller the erasure of personal data concerning him or her where "
            "one of the following grounds applies:"
        ),
        ListItems(
            (
                "(a) the personal data are no longer necessary in relation to the "
                "purposes for which they were collected;",
                "(b) the data subject withdraws the consent on which the "
                "processing is based according to point (a) of Article 6(1), and "
                "there is no other legal ground for the processing;",
                "(c) the retention period applicable under Article 5 has expired;",
                "(d) the personal data have been unlawfully processed.",
            ),
            labelled=True,
        ),
        p(
            "2. Paragraph 1 shall not apply to the extent that processing is "
            "necessary for compliance with a legal obligation referred to in "
            "point (c) of Article 6(1) or for the establishment, exercise or "
            "defence of legal claims."
        ),
        p(
            "3. The controller shall carry out the erasure, and confirm it to the "
            "data subject, in accordance with Article 9."
        ),
    )


def _regulation_chapter_three() -> tuple[Block, ...]:
    return (
        h1("CHAPTER III", "Supervision and final provisions"),
        h3("Article 11", "Personal data breaches and administrative fines"),
        p(
            "1. In the case of a personal data breach, the controller shall notify "
            "the Authority without undue delay and, where feasible, not later "
            "than 72 hours after having become aware of it."
        ),
        p(
            "2. Where the breach is likely to result in a high risk to the rights "
            "of data subjects, the controller shall also inform the data subjects "
            "concerned within 5 working days."
        ),
        p(
            "3. Infringements of Articles 4, 5 and 6 shall be subject to "
            "administrative fines of up to 20,000,000 crowns or up to 4% of the "
            "total annual turnover of the controller in the preceding financial "
            "year, whichever is higher."
        ),
        p(
            "4. Infringements of Articles 7 to 10 shall be subject to "
            "administrative fines of up to 10,000,000 crowns or up to 2% of the "
            "total annual turnover of the controller in the preceding financial "
            "year, whichever is higher."
        ),
        h3("Article 12", "Entry into force and application"),
        p(
            "1. This Regulation shall enter into force on the twentieth day "
            "following that of its publication in the Official Journal of the "
            "Fictional Republic."
        ),
        p("2. It shall apply from 1 September 2024."),
        p(
            "3. Processing operations already under way on 1 September 2024 shall "
            "be brought into conformity with this Regulation within six months of "
            "that date."
        ),
        p("This Regulation shall be binding in its entirety."),
        p("Done at Port Calder, 12 March 2024."),
        p("For the National Assembly"),
        p("The President"),
        p("A. MORELAND"),
    )


def _regulation_annex() -> tuple[Block, ...]:
    return (
        h1(
            "ANNEX I",
            "List of processing operations requiring an impact assessment",
        ),
        p("The following processing operations require a data protection impact assessment under Article 4(3):"),
        ListItems(
            (
                "1. Automated credit scoring or underwriting decisions that "
                "produce legal effects for the data subject without human review.",
                "2. Large-scale processing of data concerning health by insurance "
                "undertakings, meaning data relating to more than 10,000 data "
                "subjects per year.",
                "3. Systematic monitoring of the location of customers through mobile banking applications.",
                "4. Combining customer data obtained from two or more sources for profiling or marketing purposes.",
                "5. Use of biometric data, such as fingerprints or facial images, for customer authentication.",
                "6. Transfer of customer data to a service provider established outside the Fictional Republic.",
            ),
            numbered=True,
            labelled=True,
        ),
    )


def data_protection_regulation_en() -> HtmlDoc:
    title = "Regulation (FR) 2024/17 of the Fictional Republic on the Protection of Personal Data in Financial Services"
    header: tuple[Block, ...] = (
        Title(title),
        Meta("Adopted on 12 March 2024"),
        Meta("Published in the Official Journal of the Fictional Republic, No L 45, on 25 March 2024"),
    )
    enacting = _regulation_chapter_one() + _regulation_chapter_two() + _regulation_chapter_three()
    return HtmlDoc(
        lang="en",
        title=title,
        nav_links=("Home", "Legislation", "Official Journal", "Search", "Help"),
        footer_lines=(
            "Official Journal of the Fictional Republic \u2014 Legislation Portal",
            "This electronic version is provided for information only. Only the "
            "printed edition of the Official Journal is authentic.",
            "\u00a9 2024 Publications Office of the Fictional Republic \u00b7 "
            "Privacy notice \u00b7 Accessibility \u00b7 Contact",
        ),
        parts=(
            ("document-header", header),
            ("preamble", _regulation_preamble()),
            ("enacting-terms", enacting),
            ("annex", _regulation_annex()),
        ),
    )


# ---------------------------------------------------------------------------
# d) Thông tư số 21/2024/TT-HHBH (Vietnamese, HTML)
# ---------------------------------------------------------------------------


def _thong_tu_chapter_one() -> tuple[Block, ...]:
    return (
        h1("Chương I QUY ĐỊNH CHUNG"),
        h3("Điều 1. Phạm vi điều chỉnh"),
        p(
            "Thông tư này quy định việc thu thập, xử lý, lưu trữ, chia sẻ và xóa "
            "dữ liệu cá nhân của khách hàng bảo hiểm tại các doanh nghiệp bảo "
            "hiểm, đại lý bảo hiểm và doanh nghiệp môi giới bảo hiểm là thành viên "
            "của Hiệp hội Bảo hiểm Thử nghiệm (sau đây gọi là Hiệp hội)."
        ),
        h3("Điều 2. Đối tượng áp dụng"),
        p(
            "1. Doanh nghiệp bảo hiểm, chi nhánh doanh nghiệp bảo hiểm phi nhân "
            "thọ nước ngoài là thành viên Hiệp hội (sau đây gọi chung là doanh "
            "nghiệp bảo hiểm)."
        ),
        p("2. Đại lý bảo hiểm, doanh nghiệp môi giới bảo hiểm là thành viên Hiệp hội."),
        p(
            "3. Tổ chức, cá nhân cung cấp dịch vụ công nghệ thông tin, lưu trữ dữ "
            "liệu cho các đối tượng quy định tại khoản 1 và khoản 2 Điều này."
        ),
        h3("Điều 3. Giải thích từ ngữ"),
        p("Trong Thông tư này, các từ ngữ dưới đây được hiểu như sau:"),
        p(
            "1. Dữ liệu cá nhân của khách hàng là thông tin gắn với một khách hàng "
            "cụ thể hoặc giúp xác định một khách hàng cụ thể, bao gồm:"
        ),
        *points(
            "a) Họ, tên, ngày sinh, giới tính, số định danh cá nhân;",
            "b) Địa chỉ, số điện thoại, địa chỉ thư điện tử;",
            "c) Thông tin về tình trạng sức khỏe, tiền sử bệnh;",
            "d) Thông tin tài khoản ngân hàng, thu nhập;",
            "đ) Hình ảnh, giọng nói và dữ liệu sinh trắc học.",
        ),
        p("2. Dữ liệu cá nhân nhạy cảm là dữ liệu quy định tại điểm c và điểm đ khoản 1 Điều này."),
        p(
            "3. Xử lý dữ liệu là một hoặc nhiều hoạt động tác động tới dữ liệu cá "
            "nhân như thu thập, ghi, phân tích, lưu trữ, chỉnh sửa, chia sẻ, xóa, "
            "hủy."
        ),
        p(
            "4. Vi phạm dữ liệu là sự cố làm lộ, mất, thay đổi hoặc để truy cập "
            "trái phép dữ liệu cá nhân của khách hàng."
        ),
    )


def _thong_tu_chapter_two() -> tuple[Block, ...]:
    return (
        h1("Chương II BẢO VỆ DỮ LIỆU CÁ NHÂN CỦA KHÁCH HÀNG"),
        h2("Mục 1. THU THẬP VÀ XỬ LÝ DỮ LIỆU"),
        h3("Điều 4. Nguyên tắc xử lý dữ liệu"),
        p(
            "1. Dữ liệu cá nhân chỉ được thu thập trong phạm vi cần thiết cho việc "
            "giao kết, thực hiện hợp đồng bảo hiểm và giải quyết bồi thường."
        ),
        p(
            "2. Doanh nghiệp bảo hiểm không được sử dụng dữ liệu cá nhân cho mục "
            "đích tiếp thị khi chưa có sự đồng ý của khách hàng theo quy định tại "
            "Điều 5 Thông tư này."
        ),
        p(
            "3. Việc chia sẻ dữ liệu cá nhân cho bên thứ ba phải được lập thành "
            "văn bản, trong đó nêu rõ mục đích, phạm vi dữ liệu được chia sẻ và "
            "thời hạn sử dụng."
        ),
        h3("Điều 5. Sự đồng ý của khách hàng"),
        p(
            "1. Sự đồng ý của khách hàng phải được thể hiện rõ ràng bằng văn bản, "
            "thông điệp dữ liệu hoặc thao tác xác nhận trên ứng dụng điện tử của "
            "doanh nghiệp bảo hiểm."
        ),
        p(
            "2. Đối với dữ liệu cá nhân nhạy cảm quy định tại khoản 2 Điều 3 Thông "
            "tư này, doanh nghiệp bảo hiểm phải thông báo cho khách hàng trước khi "
            "xử lý và lấy sự đồng ý riêng cho từng mục đích xử lý."
        ),
        p(
            "3. Khách hàng có quyền rút lại sự đồng ý bất kỳ lúc nào. Doanh nghiệp "
            "bảo hiểm phải ngừng xử lý dữ liệu trong thời hạn 05 ngày làm việc kể "
            "từ ngày nhận được yêu cầu rút lại sự đồng ý."
        ),
        p(
            "4. Khách hàng có quyền yêu cầu cung cấp, chỉnh sửa dữ liệu cá nhân "
            "của mình. Doanh nghiệp bảo hiểm phải đáp ứng yêu cầu trong thời hạn "
            "10 ngày làm việc kể từ ngày nhận được yêu cầu."
        ),
        h2("Mục 2. LƯU TRỮ, XÓA DỮ LIỆU VÀ XỬ LÝ VI PHẠM"),
        h3("Điều 6. Thời hạn lưu trữ dữ liệu"),
        p("1. Doanh nghiệp bảo hiểm lưu trữ dữ liệu cá nhân của khách hàng không quá thời hạn quy định tại bảng sau:"),
        table(
            ("Loại dữ liệu", "Thời hạn lưu trữ tối đa", "Thời điểm bắt đầu tính"),
            (
                (
                    "Hồ sơ yêu cầu bảo hiểm không được chấp thuận",
                    "06 tháng",
                    "Ngày từ chối",
                ),
                ("Hồ sơ hợp đồng bảo hiểm", "10 năm", "Ngày hợp đồng chấm dứt"),
                (
                    "Hồ sơ bồi thường",
                    "10 năm",
                    "Ngày thanh toán hoặc ngày từ chối bồi thường",
                ),
                ("Ghi âm cuộc gọi tư vấn", "02 năm", "Ngày ghi âm"),
                (
                    "Dữ liệu phục vụ tiếp thị",
                    "24 tháng",
                    "Ngày khách hàng đồng ý",
                ),
            ),
            caption="Bảng thời hạn lưu trữ dữ liệu cá nhân",
        ),
        p(
            "2. Hết thời hạn lưu trữ quy định tại khoản 1 Điều này, doanh nghiệp "
            "bảo hiểm phải xóa hoặc hủy dữ liệu trong thời hạn 30 ngày và lập biên "
            "bản xóa, hủy dữ liệu."
        ),
        h3("Điều 7. Thông báo vi phạm dữ liệu"),
        p(
            "1. Khi phát hiện vi phạm dữ liệu, doanh nghiệp bảo hiểm phải thông "
            "báo cho Hiệp hội trong thời hạn 72 giờ kể từ thời điểm phát hiện."
        ),
        p("2. Nội dung thông báo gồm:"),
        *points(
            "a) Thời điểm, địa điểm và mô tả vi phạm;",
            "b) Loại dữ liệu và số lượng khách hàng bị ảnh hưởng;",
            "c) Biện pháp đã áp dụng để khắc phục hậu quả;",
            "d) Đầu mối liên hệ của doanh nghiệp bảo hiểm.",
        ),
        p(
            "3. Trường hợp vi phạm liên quan đến từ 1.000 khách hàng trở lên hoặc "
            "liên quan đến dữ liệu cá nhân nhạy cảm, doanh nghiệp bảo hiểm phải "
            "thông báo cho khách hàng bị ảnh hưởng trong thời hạn 07 ngày làm "
            "việc kể từ thời điểm phát hiện."
        ),
    )


def _thong_tu_chapter_three() -> tuple[Block, ...]:
    return (
        h1("Chương III ĐIỀU KHOẢN THI HÀNH"),
        h3("Điều 8. Hiệu lực và trách nhiệm thi hành"),
        p("1. Thông tư này có hiệu lực thi hành kể từ ngày 01 tháng 8 năm 2024."),
        p(
            "2. Doanh nghiệp bảo hiểm phải hoàn thành việc rà soát, điều chỉnh quy "
            "trình xử lý dữ liệu cá nhân cho phù hợp với Thông tư này trước ngày "
            "31 tháng 12 năm 2024."
        ),
        p(
            "3. Trưởng Ban Pháp chế và Tuân thủ, người đứng đầu các doanh nghiệp "
            "thành viên chịu trách nhiệm thi hành Thông tư này."
        ),
    )


def data_protection_rules_vi() -> HtmlDoc:
    title = "Thông tư số 21/2024/TT-HHBH quy định về bảo vệ dữ liệu cá nhân của khách hàng bảo hiểm"
    header: tuple[Block, ...] = (
        Meta("HIỆP HỘI BẢO HIỂM THỬ NGHIỆM"),
        Meta("Số: 21/2024/TT-HHBH"),
        Meta("Hà Nội, ngày 20 tháng 6 năm 2024"),
        Title("THÔNG TƯ"),
        Meta("Quy định về bảo vệ dữ liệu cá nhân của khách hàng bảo hiểm"),
    )
    preamble: tuple[Block, ...] = (
        p("Căn cứ Điều lệ Hiệp hội Bảo hiểm Thử nghiệm được Đại hội thành viên thông qua ngày 05 tháng 01 năm 2023;"),
        p("Căn cứ Quy chế hoạt động của Ban Chấp hành Hiệp hội Bảo hiểm Thử nghiệm;"),
        p("Theo đề nghị của Trưởng Ban Pháp chế và Tuân thủ,"),
        p(
            "Chủ tịch Hiệp hội Bảo hiểm Thử nghiệm ban hành Thông tư quy định về "
            "bảo vệ dữ liệu cá nhân của khách hàng bảo hiểm."
        ),
    )
    body = _thong_tu_chapter_one() + _thong_tu_chapter_two() + _thong_tu_chapter_three()
    signature: tuple[Block, ...] = (
        p("Nơi nhận:"),
        ListItems(
            (
                "Như khoản 3 Điều 8;",
                "Các doanh nghiệp thành viên;",
                "Ban Chấp hành Hiệp hội;",
                "Lưu: VT, Ban PCTT.",
            )
        ),
        center("CHỦ TỊCH"),
        center("(đã ký)"),
        center("Trần Minh Khoa"),
    )
    return HtmlDoc(
        lang="vi",
        title=title,
        nav_links=("Trang chủ", "Văn bản", "Tra cứu", "Liên hệ"),
        footer_lines=(
            "Cổng thông tin điện tử Hiệp hội Bảo hiểm Thử nghiệm",
            "Văn bản đăng tải chỉ có giá trị tham khảo.",
            "\u00a9 2024 Hiệp hội Bảo hiểm Thử nghiệm. Mọi quyền được bảo lưu.",
        ),
        parts=(
            ("document-header", header),
            ("preamble", preamble),
            ("body", body),
            ("signature", signature),
        ),
    )


# ---------------------------------------------------------------------------
# e) Bluewave Travel Insurance (English, DOCX)
# ---------------------------------------------------------------------------


def travel_terms_en() -> list[Block]:
    return [
        Title("Bluewave Travel Insurance \u2014 Terms and Conditions"),
        Meta("Policy wording BW-TR-2024/2"),
        Meta(
            "Underwritten by Bluewave Insurance Company Limited. These terms apply "
            "to policies purchased on or after 1 July 2024."
        ),
        h1("Part 1 General"),
        h2("1.1 Who is covered"),
        p(
            "This insurance covers the persons named on the certificate of "
            "insurance who are aged 79 or under on the date the policy is "
            "purchased and who normally live in the country where the policy was "
            "issued. Children under 18 travelling with an insured adult are "
            "covered free of charge, up to a maximum of four children per policy."
        ),
        h2("1.2 Period of cover"),
        p(
            "Cancellation cover starts on the date the policy is purchased. All "
            "other cover starts when you leave your home to begin the trip and "
            "ends when you return home or at the end of the period shown on your "
            "certificate, whichever is earlier."
        ),
        p(
            "A single-trip policy covers one trip of up to 90 days. An annual "
            "multi-trip policy covers any number of trips in 12 months, but no "
            "single trip may last longer than 31 days. If your return is delayed "
            "by an event covered by this policy, cover is extended free of charge "
            "for up to 30 days."
        ),
        h2("1.3 Definitions"),
        p("Close relative means your spouse or partner, parent, child, brother, sister, grandparent or grandchild."),
        p(
            "Pre-existing medical condition means any illness or injury for which "
            "you received treatment, medication or advice in the 24 months before "
            "the policy was purchased."
        ),
        p(
            "Excess means the amount you must pay towards each claim, per insured "
            "person, as shown in the summary of benefits in clause 1.4."
        ),
        h2("1.4 Summary of benefits"),
        p(
            "The table below shows the most we will pay for each insured person "
            "per trip and the excess that applies to each claim."
        ),
        table(
            ("Benefit", "Maximum amount", "Excess"),
            (
                ("Medical expenses", "USD 50,000", "USD 100"),
                (
                    "Emergency evacuation and repatriation",
                    "USD 100,000",
                    "Nil",
                ),
                ("Trip cancellation and curtailment", "USD 5,000", "USD 75"),
                ("Baggage (single item limit USD 500)", "USD 2,500", "USD 50"),
                ("Travel delay", "USD 400", "Nil"),
                ("Personal liability", "USD 1,000,000", "USD 250"),
            ),
        ),
        h2("1.5 Cooling-off period"),
        p(
            "You may cancel this policy within 14 days of purchase and receive a "
            "full refund, provided you have not started a trip or made a claim. "
            "No refund is given after the 14-day cooling-off period."
        ),
        h1("Part 2 Medical expenses"),
        h2("2.1 What is covered"),
        p(
            "We will pay up to USD 50,000 per insured person per trip for the "
            "necessary and reasonable costs incurred outside your home country as "
            "a result of sudden illness or accidental injury during the trip, "
            "including:"
        ),
        ListItems(
            (
                "hospital, surgical and medical treatment fees;",
                "ambulance transport to the nearest suitable hospital;",
                "medicines prescribed by a doctor;",
                "emergency dental treatment for the relief of pain, up to USD 500;",
                "a hospital benefit of USD 50 for each full day you are an in-patient, up to USD 1,500.",
            )
        ),
        h2("2.2 Emergency evacuation and repatriation"),
        p(
            "We will pay up to USD 100,000 for transporting you to a hospital "
            "able to treat you, or back to your home country, when the treating "
            "doctor and our medical adviser agree that this is medically "
            "necessary. The transport must be arranged or approved in advance by "
            "Bluewave Assist."
        ),
        h2("2.3 Notifying the emergency assistance service"),
        p(
            "You, or someone acting for you, must contact Bluewave Assist within "
            "72 hours of being admitted to hospital as an in-patient, and before "
            "arranging any out-patient treatment expected to cost more than "
            "USD 1,000. If you do not, we may reduce the amount we pay by up to "
            "20%."
        ),
        h2("2.4 What is not covered"),
        ListItems(
            (
                "treatment of a pre-existing medical condition, unless you declared it and we accepted it in writing;",
                "treatment that, in the opinion of our medical adviser, can reasonably wait until you return home;",
                "travelling against the advice of a doctor or in order to obtain medical treatment;",
                "pregnancy or childbirth after the 32nd week of pregnancy;",
                "cosmetic or elective surgery;",
                "any claim arising from your use of alcohol or drugs, other than "
                "drugs taken as prescribed by a doctor.",
            )
        ),
        h1("Part 3 Trip cancellation and curtailment"),
        h2("3.1 What is covered"),
        p(
            "We will pay up to USD 5,000 for travel and accommodation costs that "
            "you have paid or are contracted to pay and cannot recover, if you "
            "must cancel or cut short your trip because of:"
        ),
        ListItems(
            (
                "the death, serious injury or serious illness of you, a close relative or a travelling companion;",
                "your compulsory redundancy, provided you had been employed continuously for at least 2 years;",
                "being called for jury service or as a witness in court;",
                "your home being made uninhabitable by fire, storm or flood in the 7 days before you are due to leave.",
            )
        ),
        h2("3.2 Conditions"),
        p(
            "You must tell your travel provider as soon as you know that you need "
            "to cancel. If you delay, we will only pay the cancellation charges "
            "that would have applied at the time you should have cancelled. An "
            "excess of USD 75 per insured person applies to each claim."
        ),
        h1("Part 4 Baggage and travel delay"),
        h2("4.1 Baggage and personal belongings"),
        p(
            "We will pay up to USD 2,500 for your baggage and personal belongings "
            "that are lost, stolen or damaged during the trip. The most we will "
            "pay for any single item, pair or set is USD 500, and the most we "
            "will pay for all valuables together is USD 750."
        ),
        p(
            "Loss of or damage to baggage in the care of an airline or other "
            "carrier must be reported to the carrier within 24 hours, and you "
            "must obtain a Property Irregularity Report. If your checked baggage "
            "is delayed by more than 12 hours, we will pay up to USD 200 for "
            "essential replacement items."
        ),
        h2("4.2 Travel delay"),
        p(
            "If the departure of your booked outward or return flight is delayed "
            "by at least 12 hours, we will pay USD 40 for each full 12 hours of "
            "delay, up to USD 400 in total."
        ),
        h1("Part 5 Claims"),
        h2("5.1 How to make a claim"),
        ListItems(
            (
                "In a medical emergency, contact Bluewave Assist immediately using the numbers in Annex 1.",
                "Report any theft or loss to the local police within 24 hours and obtain a written report.",
                "Complete the online claim form within 45 days of returning home.",
                "Send us original receipts, medical reports and the police or carrier report.",
                "Keep copies of all documents you send us.",
            ),
            numbered=True,
        ),
        h2("5.2 Settlement"),
        p(
            "We will pay valid claims within 10 business days of receiving all "
            "the documents we need. Claims are paid in US dollars; expenses "
            "incurred in another currency are converted at the exchange rate on "
            "the date the expense was incurred."
        ),
        h2("5.3 Fraud"),
        p(
            "If a claim is fraudulent or exaggerated in any way, we will not pay "
            "any part of it and we may cancel the policy without refunding the "
            "premium."
        ),
        h1("Annex 1 Emergency contacts"),
        p("Bluewave Assist (24 hours a day, 7 days a week): +1 555 0190"),
        p("Bluewave Assist email: assist@bluewave-travel.example"),
        p("Claims department (Monday to Friday, 09:00\u201317:00): +1 555 0191, claims@bluewave-travel.example"),
        p(
            "Postal address for original receipts: Bluewave Insurance Company "
            "Limited, Claims Unit, 18 Marina Row, Port Calder"
        ),
        p("Complaints: complaints@bluewave-travel.example. We aim to send a full response within 20 business days."),
    ]


# ---------------------------------------------------------------------------
# f) Quy tắc bảo hiểm du lịch quốc tế (Vietnamese, Markdown + DOCX)
# ---------------------------------------------------------------------------


def _travel_rules_vi_chapter_one() -> list[Block]:
    return [
        h1("Chương I QUY ĐỊNH CHUNG"),
        h2("Điều 1. Phạm vi điều chỉnh và đối tượng áp dụng"),
        p(
            "1. Quy tắc này quy định điều kiện, điều khoản bảo hiểm cho công dân "
            "Việt Nam và người nước ngoài cư trú tại Việt Nam khi đi du lịch, công "
            "tác, học tập ngắn hạn ở nước ngoài (sau đây gọi là chuyến đi)."
        ),
        p(
            "2. Người được bảo hiểm là người từ đủ 06 tháng tuổi đến 80 tuổi tại "
            "ngày bắt đầu chuyến đi, có tên trong Giấy chứng nhận bảo hiểm. Người "
            "từ 70 tuổi trở lên được hưởng 50% quyền lợi bảo hiểm quy định tại "
            "Điều 4 Quy tắc này."
        ),
        p(
            "3. Quy tắc này không áp dụng đối với người đang điều trị bệnh tâm thần "
            "hoặc người bị thương tật vĩnh viễn từ 80% trở lên."
        ),
        h2("Điều 2. Giải thích từ ngữ"),
        p("Trong Quy tắc này, các từ ngữ dưới đây được hiểu như sau:"),
        p(
            "1. Chuyến đi là hành trình ghi trong Giấy chứng nhận bảo hiểm, bắt "
            "đầu khi Người được bảo hiểm làm thủ tục xuất cảnh tại Việt Nam và kết "
            "thúc khi làm thủ tục nhập cảnh trở lại Việt Nam hoặc khi hết thời hạn "
            "bảo hiểm, tùy theo thời điểm nào đến trước."
        ),
        p(
            "2. Ốm đau, bệnh tật là tình trạng sức khỏe bất thường phát sinh lần "
            "đầu trong chuyến đi và cần được điều trị y tế."
        ),
        p("3. Tai nạn là sự kiện bất ngờ do tác động của một lực từ bên ngoài lên thân thể Người được bảo hiểm."),
        p(
            "4. Bệnh có sẵn là bệnh hoặc thương tật mà Người được bảo hiểm đã được "
            "chẩn đoán hoặc điều trị trong vòng 12 tháng trước ngày bắt đầu chuyến "
            "đi."
        ),
        p(
            "5. Đơn vị cứu trợ là tổ chức được Công ty Bảo hiểm Sông Hồng (sau đây "
            "gọi là Công ty) ủy quyền cung cấp dịch vụ hỗ trợ khẩn cấp 24 giờ "
            "trong ngày, bao gồm:"
        ),
        *points(
            "a) Tư vấn y tế qua điện thoại;",
            "b) Giới thiệu cơ sở y tế và bảo lãnh viện phí;",
            "c) Tổ chức vận chuyển cấp cứu;",
            "d) Hỗ trợ thông tin khi mất hộ chiếu, giấy tờ tùy thân;",
            "đ) Bố trí cho một người thân sang thăm khi Người được bảo hiểm nằm viện trên 10 ngày.",
        ),
        h2("Điều 3. Thời hạn bảo hiểm và phí bảo hiểm"),
        p(
            "1. Thời hạn bảo hiểm tối đa cho mỗi chuyến đi là 180 ngày. Trường hợp "
            "chuyến đi bị kéo dài ngoài ý muốn do sự kiện thuộc phạm vi bảo hiểm, "
            "thời hạn bảo hiểm được tự động gia hạn tối đa 07 ngày mà không thu "
            "thêm phí."
        ),
        p(
            "2. Phí bảo hiểm được tính theo vùng địa lý và số ngày của chuyến đi "
            "theo Phụ lục I Quy tắc này và phải được đóng đầy đủ trước ngày bắt "
            "đầu chuyến đi."
        ),
        p(
            "3. Bên mua bảo hiểm được hoàn lại 100% phí bảo hiểm nếu hủy hợp đồng "
            "trước ngày bắt đầu chuyến đi do bị từ chối cấp thị thực và xuất trình "
            "văn bản từ chối. Các trường hợp hủy hợp đồng khác trước ngày bắt đầu "
            "chuyến đi được hoàn lại 80% phí bảo hiểm."
        ),
    ]


def _travel_rules_vi_chapter_two() -> list[Block]:
    return [
        h1("Chương II QUYỀN LỢI BẢO HIỂM"),
        h2("Điều 4. Bảng quyền lợi bảo hiểm"),
        p(
            "1. Số tiền bảo hiểm tối đa và mức khấu trừ cho mỗi Người được bảo "
            "hiểm trong một chuyến đi được quy định tại bảng sau:"
        ),
        table(
            (
                "Quyền lợi bảo hiểm",
                "Số tiền bảo hiểm tối đa (đồng)",
                "Mức khấu trừ (đồng)",
            ),
            (
                ("Chi phí y tế do ốm đau, tai nạn", "1.000.000.000", "500.000"),
                ("Vận chuyển cấp cứu, hồi hương", "500.000.000", "Không áp dụng"),
                ("Hủy, rút ngắn chuyến đi", "50.000.000", "1.000.000"),
                ("Hành lý và tư trang", "20.000.000", "500.000"),
                ("Chuyến bay bị trì hoãn", "5.000.000", "Không áp dụng"),
            ),
            caption="Bảng quyền lợi bảo hiểm",
        ),
        p("2. Tổng số tiền bồi thường cho tất cả các quyền lợi trong một chuyến đi không vượt quá 1.500.000.000 đồng."),
        h2("Điều 5. Chi phí y tế và vận chuyển cấp cứu"),
        p("1. Công ty thanh toán các chi phí y tế cần thiết và hợp lý phát sinh ở nước ngoài do ốm đau, tai nạn, gồm:"),
        *points(
            "a) Chi phí nằm viện, phẫu thuật và thuốc điều trị theo chỉ định của bác sĩ;",
            "b) Chi phí điều trị ngoại trú, tối đa 20.000.000 đồng mỗi lần khám;",
            "c) Chi phí điều trị răng cấp cứu, tối đa 5.000.000 đồng;",
            "d) Trợ cấp nằm viện 1.000.000 đồng mỗi ngày, tối đa 30 ngày.",
        ),
        p(
            "2. Chi phí vận chuyển cấp cứu, hồi hương chỉ được thanh toán khi do "
            "Đơn vị cứu trợ tổ chức hoặc được Đơn vị cứu trợ chấp thuận trước bằng "
            "văn bản."
        ),
        p(
            "3. Trường hợp Người được bảo hiểm tử vong ở nước ngoài, Công ty thanh "
            "toán chi phí hồi hương thi hài hoặc mai táng tại chỗ trong giới hạn "
            "số tiền bảo hiểm quy định tại Điều 4 Quy tắc này."
        ),
        h2("Điều 6. Hủy chuyến đi, hành lý và chuyến bay bị trì hoãn"),
        p(
            "1. Công ty bồi thường các khoản chi phí đã trả trước không được hoàn "
            "lại khi chuyến đi bị hủy trong vòng 30 ngày trước ngày khởi hành do:"
        ),
        *points(
            "a) Người được bảo hiểm hoặc người thân bị ốm đau nghiêm trọng hoặc tử vong;",
            "b) Nhà ở của Người được bảo hiểm bị thiệt hại nghiêm trọng do cháy, lũ lụt;",
            "c) Người được bảo hiểm được triệu tập làm người làm chứng tại Tòa án.",
        ),
        p(
            "2. Hành lý và tư trang bị mất do trộm cắp, cướp hoặc do hãng vận "
            "chuyển làm thất lạc được bồi thường tối đa 5.000.000 đồng cho mỗi món "
            "hoặc mỗi bộ đồ và không vượt quá số tiền bảo hiểm quy định tại Điều 4 "
            "Quy tắc này."
        ),
        p(
            "3. Chuyến bay bị trì hoãn liên tục từ 06 giờ trở lên so với lịch "
            "trình được bồi thường 500.000 đồng cho mỗi 06 giờ trì hoãn, tối đa "
            "5.000.000 đồng."
        ),
        h2("Điều 7. Loại trừ bảo hiểm"),
        p("Công ty không chịu trách nhiệm bồi thường trong các trường hợp sau:"),
        p("1. Bệnh có sẵn quy định tại khoản 4 Điều 2 Quy tắc này, trừ trường hợp cấp cứu đe dọa tính mạng."),
        p("2. Người được bảo hiểm ra nước ngoài với mục đích điều trị bệnh hoặc đi ngược lại chỉ định của bác sĩ."),
        p("3. Thai sản, trừ biến chứng thai sản xảy ra trước tuần thứ 28 của thai kỳ."),
        p(
            "4. Người được bảo hiểm sử dụng rượu, bia vượt quá nồng độ cồn cho "
            "phép theo pháp luật nước sở tại hoặc sử dụng ma túy, chất kích thích."
        ),
        p("5. Tham gia các môn thể thao mạo hiểm như leo núi có dùng dây, lặn ở độ sâu trên 30 mét, nhảy dù."),
        p(
            "6. Chiến tranh, khủng bố, bạo loạn, trừ trường hợp Người được bảo "
            "hiểm bất ngờ bị cuốn vào sự kiện trong vòng 07 ngày đầu kể từ khi sự "
            "kiện bắt đầu."
        ),
        p("7. Hành lý bị bỏ quên hoặc để không có người trông coi ở nơi công cộng."),
    ]


def _travel_rules_vi_chapter_three() -> list[Block]:
    return [
        h1("Chương III BỒI THƯỜNG"),
        h2("Điều 8. Thông báo sự kiện bảo hiểm và hồ sơ bồi thường"),
        p(
            "1. Khi phải nhập viện, Người được bảo hiểm hoặc người đại diện phải "
            "thông báo cho Đơn vị cứu trợ trong vòng 72 giờ kể từ thời điểm nhập "
            "viện qua số điện thoại khẩn cấp ghi trên Giấy chứng nhận bảo hiểm."
        ),
        p(
            "2. Trường hợp hành lý bị mất hoặc thất lạc, Người được bảo hiểm phải "
            "báo cho hãng vận chuyển hoặc cơ quan công an nước sở tại trong vòng "
            "24 giờ và lấy biên bản xác nhận."
        ),
        p("3. Hồ sơ bồi thường phải được gửi cho Công ty trong thời hạn 90 ngày kể từ ngày kết thúc chuyến đi, gồm:"),
        *points(
            "a) Giấy yêu cầu bồi thường;",
            "b) Bản sao hộ chiếu có dấu xuất cảnh, nhập cảnh;",
            "c) Bản gốc chứng từ y tế, hóa đơn chi phí;",
            "d) Biên bản của hãng vận chuyển hoặc cơ quan công an (đối với hành lý);",
            "đ) Chứng từ chứng minh chi phí đã trả trước không được hoàn lại (đối với hủy chuyến đi).",
        ),
        h2("Điều 9. Thời hạn giải quyết bồi thường và hiệu lực thi hành"),
        p(
            "1. Công ty giải quyết bồi thường trong thời hạn 15 ngày làm việc kể "
            "từ ngày nhận đầy đủ hồ sơ hợp lệ quy định tại khoản 3 Điều 8 Quy tắc "
            "này. Trường hợp từ chối bồi thường, Công ty thông báo bằng văn bản và "
            "nêu rõ lý do."
        ),
        p(
            "2. Tiền bồi thường được thanh toán bằng đồng Việt Nam theo tỷ giá bán "
            "ra của ngân hàng nơi Công ty mở tài khoản tại ngày phát sinh chi phí."
        ),
        p("3. Quy tắc này có hiệu lực từ ngày 15 tháng 8 năm 2024."),
    ]


def _travel_rules_vi_annex() -> list[Block]:
    return [
        h1("Phụ lục I. BIỂU PHÍ BẢO HIỂM THEO VÙNG"),
        p("(Phí bảo hiểm cho mỗi Người được bảo hiểm, tính theo ngày)"),
        p("1. Vùng 1 (các nước Đông Nam Á): 30.000 đồng/ngày."),
        p("2. Vùng 2 (châu Á ngoài Vùng 1 và châu Úc): 45.000 đồng/ngày."),
        p("3. Vùng 3 (toàn thế giới, bao gồm châu Âu và châu Mỹ): 70.000 đồng/ngày."),
        p("4. Phí bảo hiểm tối thiểu cho mỗi chuyến đi là 150.000 đồng."),
        p("5. Chuyến đi từ 30 ngày trở lên được giảm 15% phí bảo hiểm; nhóm từ 10 người trở lên được giảm thêm 5%."),
    ]


def travel_rules_vi() -> list[Block]:
    return [
        Meta("CÔNG TY BẢO HIỂM SÔNG HỒNG"),
        Title("QUY TẮC BẢO HIỂM DU LỊCH QUỐC TẾ"),
        Meta(
            "(Ban hành kèm theo Quyết định số 88/2024/QĐ-SH ngày 10 tháng 7 năm "
            "2024 của Tổng Giám đốc Công ty Bảo hiểm Sông Hồng)"
        ),
        *_travel_rules_vi_chapter_one(),
        *_travel_rules_vi_chapter_two(),
        *_travel_rules_vi_chapter_three(),
        *_travel_rules_vi_annex(),
    ]


# ---------------------------------------------------------------------------
# PDF renderer (fpdf2)
# ---------------------------------------------------------------------------

_PDF_HEADING_SIZES = {1: 12.5, 2: 11.0, 3: 10.5}
_PDF_BODY_SIZE = 9.5
_PDF_LINE = 4.6
_PDF_PARA_GAP = 1.0
_PDF_POINT_GAP = 0.5
_PDF_POINT_INDENT = 7.0


class CorpusPDF(FPDF):
    """A4 portrait PDF with DejaVu fonts and a bare page-number footer."""

    def __init__(self, page_label: str) -> None:
        super().__init__(orientation="P", unit="mm", format="A4")
        self.page_label = page_label
        self.add_font(FONT_FAMILY, "", str(FONT_REGULAR))
        self.add_font(FONT_FAMILY, "B", str(FONT_BOLD))
        self.set_margins(left=18, top=18, right=18)
        self.set_auto_page_break(auto=True, margin=22)

    def footer(self) -> None:
        self.set_y(-15)
        self.set_font(FONT_FAMILY, "", 8)
        self.cell(0, 5, f"{self.page_label} {self.page_no()}", align="C")


def _pdf_text(
    pdf: FPDF,
    text: str,
    *,
    size: float,
    style: str = "",
    align: str = "L",
    height: float = _PDF_LINE,
    indent: float = 0.0,
) -> None:
    pdf.set_font(FONT_FAMILY, style, size)
    pdf.set_x(pdf.l_margin + indent)
    pdf.multi_cell(
        pdf.epw - indent,
        height,
        nfc(text),
        align=align,
        new_x="LMARGIN",
        new_y="NEXT",
    )


def _pdf_table(pdf: FPDF, block: Table) -> None:
    # Keep the caption, header row and at least a few body rows on one page.
    if pdf.will_page_break(8.0 * (min(len(block.rows), 4) + 2)):
        pdf.add_page()
    if block.caption:
        pdf.ln(1)
        _pdf_text(pdf, block.caption, size=_PDF_BODY_SIZE, style="B", align="C")
        pdf.ln(1)
    pdf.set_font(FONT_FAMILY, "", 9)
    with pdf.table(
        col_widths=block.widths,
        text_align="LEFT",
        line_height=5.5,
        padding=1.5,
        headings_style=FontFace(emphasis="BOLD"),
    ) as tbl:
        for values in (block.header, *block.rows):
            row = tbl.row()
            for value in values:
                row.cell(nfc(value))
    pdf.ln(3)


def _pdf_block(pdf: FPDF, block: Block) -> None:
    match block:
        case Title(text=text):
            _pdf_text(pdf, text, size=15, style="B", align="C", height=8)
            pdf.ln(1)
        case Meta(text=text):
            _pdf_text(pdf, text, size=_PDF_BODY_SIZE, align="C", height=5.5)
            pdf.ln(1)
        case Heading(level=level, text=text, title=title):
            if pdf.will_page_break(25):
                pdf.add_page()
            pdf.ln(3 if level == 1 else 1.5)
            size = _PDF_HEADING_SIZES.get(level, _PDF_BODY_SIZE)
            _pdf_text(pdf, text, size=size, style="B", height=6)
            if title:
                _pdf_text(pdf, title, size=size, style="B", height=6)
            pdf.ln(1)
        case Para(text=text, style="point"):
            _pdf_text(pdf, text, size=_PDF_BODY_SIZE, indent=_PDF_POINT_INDENT)
            pdf.ln(_PDF_POINT_GAP)
        case Para(text=text, style=style):
            _pdf_text(
                pdf,
                text,
                size=_PDF_BODY_SIZE,
                style="B" if style == "bold" else "",
                align="C" if style in ("center", "bold") else "L",
            )
            pdf.ln(_PDF_PARA_GAP)
        case ListItems(items=items, numbered=numbered, labelled=labelled):
            for number, item in enumerate(items, start=1):
                label = "" if labelled else (f"{number}. " if numbered else "\u2022 ")
                _pdf_text(pdf, label + item, size=_PDF_BODY_SIZE, indent=_PDF_POINT_INDENT)
                pdf.ln(_PDF_POINT_GAP)
        case Table():
            _pdf_table(pdf, block)
        case PageBreak():
            pdf.add_page()


def write_pdf(
    blocks: Sequence[Block],
    path: Path,
    *,
    title: str,
    subject: str,
    lang: str,
    page_label: str,
) -> None:
    pdf = CorpusPDF(page_label)
    pdf.set_creation_date(FIXED_PDF_DATE)
    pdf.set_title(nfc(title))
    pdf.set_subject(nfc(subject))
    pdf.set_author(AUTHOR)
    pdf.set_creator("citewise scripts/make_sample_corpus.py")
    pdf.set_lang(lang)
    pdf.add_page()
    for block in blocks:
        _pdf_block(pdf, block)
    path.write_bytes(bytes(pdf.output()))


# ---------------------------------------------------------------------------
# DOCX renderer (python-docx)
# ---------------------------------------------------------------------------


def _docx_table(doc: DocxDocument, block: Table) -> None:
    if block.caption:
        caption = doc.add_paragraph()
        caption.alignment = WD_ALIGN_PARAGRAPH.CENTER
        caption.add_run(nfc(block.caption)).bold = True
    tbl = doc.add_table(rows=1, cols=len(block.header))
    tbl.style = "Table Grid"
    for cell, value in zip(tbl.rows[0].cells, block.header, strict=True):
        cell.text = ""
        cell.paragraphs[0].add_run(nfc(value)).bold = True
    for values in block.rows:
        cells = tbl.add_row().cells
        for cell, value in zip(cells, values, strict=True):
            cell.text = nfc(value)


def _docx_block(doc: DocxDocument, block: Block) -> None:
    match block:
        case Title(text=text):
            doc.add_paragraph(nfc(text), style="Title")
        case Meta(text=text):
            doc.add_paragraph(nfc(text)).alignment = WD_ALIGN_PARAGRAPH.CENTER
        case Heading(level=level, text=text, title=title):
            heading = nfc(text if title is None else f"{text} {title}")
            doc.add_heading(heading, level=level)
        case Para(text=text, style=style):
            para = doc.add_paragraph()
            para.add_run(nfc(text)).bold = style == "bold"
            if style == "point":
                para.paragraph_format.left_indent = Mm(8)
            elif style in ("center", "bold"):
                para.alignment = WD_ALIGN_PARAGRAPH.CENTER
        case ListItems(items=items, numbered=numbered):
            list_style = "List Number" if numbered else "List Bullet"
            for item in items:
                doc.add_paragraph(nfc(item), style=list_style)
        case Table():
            _docx_table(doc, block)
        case PageBreak():
            doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)


def _stable_zip(data: bytes) -> bytes:
    """Rewrite a ZIP container with fixed timestamps and permissions."""
    target_buffer = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(data)) as source,
        zipfile.ZipFile(target_buffer, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=FIXED_ZIP_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.create_system = 0
            entry.external_attr = 0o644 << 16
            target.writestr(entry, source.read(info.filename))
    return target_buffer.getvalue()


def write_docx(
    blocks: Sequence[Block],
    path: Path,
    *,
    title: str,
    subject: str,
    language: str,
) -> None:
    doc = Document()
    section = doc.sections[0]
    section.page_width = Mm(210)
    section.page_height = Mm(297)
    for margin in ("left_margin", "right_margin", "top_margin", "bottom_margin"):
        setattr(section, margin, Mm(20))
    for block in blocks:
        _docx_block(doc, block)
    props = doc.core_properties
    props.title = nfc(title)
    props.subject = nfc(subject)
    props.author = AUTHOR
    props.last_modified_by = AUTHOR
    props.language = language
    props.comments = "Fictional sample document for citewise tests."
    props.keywords = "citewise, sample, fictional"
    props.revision = 1
    props.created = FIXED_DOCX_DATE
    props.modified = FIXED_DOCX_DATE
    props.last_printed = FIXED_DOCX_DATE
    buffer = io.BytesIO()
    doc.save(buffer)
    path.write_bytes(_stable_zip(buffer.getvalue()))


# ---------------------------------------------------------------------------
# Markdown renderer
# ---------------------------------------------------------------------------


def _md_table(block: Table) -> str:
    lines: list[str] = []
    if block.caption:
        lines.extend([block.caption, ""])
    lines.append("| " + " | ".join(block.header) + " |")
    lines.append("|" + "|".join(" --- " for _ in block.header) + "|")
    lines.extend("| " + " | ".join(row) + " |" for row in block.rows)
    return "\n".join(lines)


def render_markdown(blocks: Sequence[Block]) -> str:
    chunks: list[str] = []
    for block in blocks:
        match block:
            case Title(text=text):
                chunks.append(f"# {text}")
            case Meta(text=text):
                chunks.append(text)
            case Heading(level=level, text=text, title=title):
                heading = text if title is None else f"{text} {title}"
                chunks.append(f"{'#' * (level + 1)} {heading}")
            case Para(text=text):
                chunks.append(text)
            case ListItems(items=items, numbered=numbered, labelled=labelled):
                if labelled:
                    chunks.extend(items)
                else:
                    chunks.append(
                        "\n".join(f"{n}. {item}" if numbered else f"- {item}" for n, item in enumerate(items, start=1))
                    )
            case Table():
                chunks.append(_md_table(block))
            case PageBreak():
                pass
    return nfc("\n\n".join(chunks) + "\n")


# ---------------------------------------------------------------------------
# HTML renderer
# ---------------------------------------------------------------------------

_HTML_STYLE = """\
body { font-family: Georgia, "DejaVu Serif", serif; margin: 0; color: #222; }
nav { background: #1f3a5f; padding: 0.5em 1em; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav li { display: inline; margin-right: 1.5em; }
nav a { color: #fff; text-decoration: none; }
main { max-width: 48em; margin: 1.5em auto; padding: 0 1em; }
h1, h2, h3, h4 { font-family: Arial, "DejaVu Sans", sans-serif; }
h2, h3, h4, .heading-title, .center { text-align: center; }
.heading-title { font-weight: bold; margin-top: 0; }
.point { margin-left: 2em; }
ol.labelled { list-style: none; padding-left: 2em; }
table { border-collapse: collapse; margin: 1em auto; }
caption { font-weight: bold; margin-bottom: 0.5em; }
th, td { border: 1px solid #777; padding: 0.3em 0.6em; text-align: left; }
footer { border-top: 1px solid #ccc; font-size: 0.85em; color: #555;
         padding: 1em; text-align: center; }"""


def _esc(text: str) -> str:
    return html.escape(nfc(text), quote=False)


def _html_table(block: Table) -> list[str]:
    out = ["<table>"]
    if block.caption:
        out.append(f"  <caption>{_esc(block.caption)}</caption>")
    out.append("  <thead>")
    out.append("    <tr>" + "".join(f"<th>{_esc(cell)}</th>" for cell in block.header) + "</tr>")
    out.append("  </thead>")
    out.append("  <tbody>")
    for row in block.rows:
        out.append("    <tr>" + "".join(f"<td>{_esc(cell)}</td>" for cell in row) + "</tr>")
    out.append("  </tbody>")
    out.append("</table>")
    return out


def _html_block(block: Block) -> list[str]:
    match block:
        case Title(text=text):
            return [f"<h1>{_esc(text)}</h1>"]
        case Meta(text=text):
            return [f'<p class="doc-meta center">{_esc(text)}</p>']
        case Heading(level=level, text=text, title=title):
            tag = f"h{level + 1}"
            out = [f"<{tag}>{_esc(text)}</{tag}>"]
            if title is not None:
                out.append(f'<p class="heading-title">{_esc(title)}</p>')
            return out
        case Para(text=text, style="body"):
            return [f"<p>{_esc(text)}</p>"]
        case Para(text=text, style="bold"):
            return [f'<p class="center"><strong>{_esc(text)}</strong></p>']
        case Para(text=text, style=style):
            return [f'<p class="{style}">{_esc(text)}</p>']
        case ListItems(items=items, numbered=numbered, labelled=labelled):
            if labelled:
                open_tag = '<ol class="labelled">'
                close_tag = "</ol>"
            elif numbered:
                open_tag, close_tag = "<ol>", "</ol>"
            else:
                open_tag, close_tag = "<ul>", "</ul>"
            return [
                open_tag,
                *(f"  <li>{_esc(item)}</li>" for item in items),
                close_tag,
            ]
        case Table():
            return _html_table(block)
        case PageBreak():
            return []
    raise TypeError(f"unsupported block: {block!r}")


def render_html(doc: HtmlDoc) -> str:
    lines = [
        "<!DOCTYPE html>",
        f'<html lang="{doc.lang}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_esc(doc.title)}</title>",
        "<style>",
        _HTML_STYLE,
        "</style>",
        "</head>",
        "<body>",
        '<nav aria-label="Site navigation">',
        "  <ul>",
        *(f'    <li><a href="#">{_esc(link)}</a></li>' for link in doc.nav_links),
        "  </ul>",
        "</nav>",
        "<main>",
        "<article>",
    ]
    for css_class, blocks in doc.parts:
        tag = "header" if css_class == "document-header" else "section"
        lines.append(f'<{tag} class="{css_class}">')
        for block in blocks:
            lines.extend(_html_block(block))
        lines.append(f"</{tag}>")
    lines.extend(["</article>", "</main>", "<footer>"])
    lines.extend(f"  <p>{_esc(line)}</p>" for line in doc.footer_lines)
    lines.extend(["</footer>", "</body>", "</html>", ""])
    return nfc("\n".join(lines))


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def _write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", newline="\n")


def _outputs() -> list[tuple[str, Callable[[Path], None]]]:
    travel_vi = travel_rules_vi()
    return [
        (
            "home-insurance-policy-en.pdf",
            lambda path: write_pdf(
                home_policy_en(),
                path,
                title="Harbourview Mutual Home Insurance Policy (HM-2025/04)",
                subject="Fictional home insurance policy wording",
                lang="en",
                page_label="Page",
            ),
        ),
        (
            "quy-tac-bao-hiem-nha-o-vi.pdf",
            lambda path: write_pdf(
                home_rules_vi(),
                path,
                title="Quy tắc bảo hiểm nhà ở tư nhân",
                subject="Quy tắc bảo hiểm hư cấu - Công ty Bảo hiểm Sông Hồng",
                lang="vi",
                page_label="Trang",
            ),
        ),
        (
            "data-protection-regulation-en.html",
            lambda path: _write_text(path, render_html(data_protection_regulation_en())),
        ),
        (
            "quy-dinh-bao-ve-du-lieu-vi.html",
            lambda path: _write_text(path, render_html(data_protection_rules_vi())),
        ),
        (
            "travel-insurance-terms-en.docx",
            lambda path: write_docx(
                travel_terms_en(),
                path,
                title="Bluewave Travel Insurance \u2014 Terms and Conditions",
                subject="Fictional travel insurance terms",
                language="en-GB",
            ),
        ),
        (
            "quy-tac-bao-hiem-du-lich-vi.md",
            lambda path: _write_text(path, render_markdown(travel_vi)),
        ),
        (
            "quy-tac-bao-hiem-du-lich-vi.docx",
            lambda path: write_docx(
                travel_vi,
                path,
                title="Quy tắc bảo hiểm du lịch quốc tế",
                subject="Quy tắc bảo hiểm hư cấu - Công ty Bảo hiểm Sông Hồng",
                language="vi-VN",
            ),
        ),
    ]


def generate(out_dir: Path) -> list[Path]:
    """Write every corpus file into ``out_dir`` and return their paths."""
    for font in (FONT_REGULAR, FONT_BOLD):
        if not font.is_file():
            raise FileNotFoundError(f"DejaVu font not found: {font}")
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for filename, writer in _outputs():
        path = out_dir / filename
        writer(path)
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate the bundled citewise demo corpus.")
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT_DIR,
        help=f"output directory (default: {DEFAULT_OUT_DIR})",
    )
    args = parser.parse_args(argv)
    for path in generate(args.out):
        print(f"{path.stat().st_size:>8}  {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
