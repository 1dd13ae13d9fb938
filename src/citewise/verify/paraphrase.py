"""Words that legal provisions and the answers restating them use for the same thing, English and
Vietnamese: "notify" / "inform" / "tell", "within" / "no later than", "phải" / "có nghĩa vụ",
"doanh nghiệp bảo hiểm" / "công ty bảo hiểm". ``canonical_words`` maps each form to one token
before coverage is computed, so a faithful restatement is not scored as new words.

Only wording with one meaning in provisions is listed: figures, parties that can be swapped
("insurer" / "insured", "bên mua" / "bên bán"), negation, modality and bounds keep their own
checks (cues.py, numbers.py); a form here never changes which side of such a pair a text is on."""

from __future__ import annotations

import re
from functools import lru_cache

from citewise.lang import folded_words
from citewise.textmatch import words

EQUIVALENTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # -- English ----------------------------------------------------------------------------------
    (
        "notify",
        (
            "notify",
            "notifies",
            "notified",
            "notification",
            "inform",
            "informs",
            "informed",
            "tell",
            "tells",
            "told",
            "give notice",
            "gives notice",
            "send notice",
            "report to",
        ),
    ),
    ("within", ("within", "no later than", "not later than", "at the latest", "by no later than", "before the end of")),
    (
        "must",
        (
            "must",
            "shall",
            "is required to",
            "are required to",
            "has to",
            "have to",
            "is obliged to",
            "are obliged to",
            "needs to",
            "need to",
            "is obligated to",
        ),
    ),
    (
        "provide",
        (
            "provide",
            "provides",
            "provided",
            "give",
            "gives",
            "supply",
            "supplies",
            "submit",
            "submits",
            "send",
            "sends",
            "furnish",
            "furnishes",
            "hand over",
        ),
    ),
    (
        "pay",
        (
            "pay",
            "pays",
            "paid",
            "reimburse",
            "reimburses",
            "reimbursed",
            "compensate",
            "compensates",
            "indemnify",
            "indemnifies",
            "refund",
            "refunds",
        ),
    ),
    ("request", ("request", "requests", "ask for", "asks for", "apply for", "applies for", "demand", "demands")),
    ("begin", ("begin", "begins", "start", "starts", "commence", "commences", "take effect", "takes effect")),
    ("end", ("end", "ends", "expire", "expires", "cease", "ceases", "terminate", "terminates", "lapse", "lapses")),
    ("refuse", ("refuse", "refuses", "reject", "rejects", "decline", "declines", "deny", "denies")),
    ("permit", ("permit", "permits", "allow", "allows", "authorise", "authorises", "authorize", "authorizes")),
    ("prohibit", ("prohibit", "prohibits", "prohibited", "forbid", "forbids", "forbidden", "ban", "bans", "banned")),
    ("receive", ("receive", "receives", "received", "receipt", "obtain", "obtains", "get", "gets")),
    ("keep", ("keep", "keeps", "retain", "retains", "store", "stores", "preserve", "preserves")),
    ("erase", ("erase", "erases", "erasure", "delete", "deletes", "deletion")),
    ("change", ("change", "changes", "amend", "amends", "amendment", "modify", "modifies", "modification", "alter")),
    ("cancel", ("cancel", "cancels", "cancellation", "call off")),
    ("document", ("document", "documents", "documentation", "paperwork", "records", "evidence")),
    ("period", ("period", "time limit", "deadline")),
    ("person", ("person", "persons", "individual", "individuals", "people")),
    ("company", ("insurance company", "insurer", "insurers", "company", "insurance undertaking")),
    ("damage", ("damage", "damaged", "loss", "losses", "harm")),
    ("buy", ("buy", "buys", "purchase", "purchases", "take out", "takes out")),
    ("approve", ("approve", "approves", "approval", "consent", "consents", "agree", "agrees", "agreement")),
    ("examine", ("examine", "examines", "assess", "assesses", "review", "reviews", "evaluate", "evaluates")),
    # -- Vietnamese -------------------------------------------------------------------------------
    ("phai", ("phải", "có nghĩa vụ", "có trách nhiệm", "bắt buộc phải", "bắt buộc", "cần phải")),
    ("thongbao", ("thông báo", "báo cho", "báo tin", "cho biết", "thông tin cho")),
    ("trongthoihan", ("trong thời hạn", "trong vòng", "chậm nhất là", "chậm nhất", "không muộn hơn")),
    ("dnbh", ("doanh nghiệp bảo hiểm", "công ty bảo hiểm", "bên bảo hiểm", "nhà bảo hiểm")),
    ("chitra", ("bồi thường", "chi trả", "trả tiền", "thanh toán", "hoàn trả", "hoàn lại")),
    ("hoso", ("hồ sơ", "giấy tờ", "tài liệu", "chứng từ")),
    ("yeucau", ("yêu cầu", "đề nghị")),
    ("kentu", ("kể từ", "tính từ")),
    ("cungcap", ("cung cấp", "nộp", "gửi", "chuyển")),
    ("chamdut", ("chấm dứt", "hủy bỏ", "huỷ bỏ", "hủy", "huỷ", "kết thúc")),
    ("tuchoi", ("từ chối", "không chấp nhận")),
    ("chophep", ("cho phép", "được phép")),
    ("thiethai", ("thiệt hại", "tổn thất", "hư hỏng")),
    ("hopdong", ("hợp đồng bảo hiểm", "hợp đồng")),
    ("quydinh", ("quy định", "điều khoản", "quy tắc")),
    ("muabh", ("bên mua bảo hiểm", "người mua bảo hiểm")),
)


def _pattern() -> tuple[re.Pattern[str], dict[str, str]]:
    forms: dict[str, str] = {}
    for canon, alts in EQUIVALENTS:
        token = f" {canon} "  # "must" and "phai" are stop words: modality is checked by cues.py
        for a in alts:
            forms[folded_words(a)] = token
    # longest forms first, whole words only
    ordered = sorted(forms, key=len, reverse=True)
    return re.compile(r"(?<!\w)(" + "|".join(re.escape(f) for f in ordered) + r")(?!\w)"), forms


_PATTERN, _FORMS = _pattern()


@lru_cache(maxsize=4096)
def canonical_words(text: str) -> tuple[str, ...]:
    """The words of ``text`` (textmatch.words) with every listed form replaced by its class token."""
    folded = folded_words(text)
    return tuple(words(_PATTERN.sub(lambda m: _FORMS[m.group(1)], folded)))
