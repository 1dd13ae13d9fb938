"""Parties a policy speaks of in the first and second person: "we will pay valid claims" is the insurer
paying, "you must notify us" the insured notifying. An answer restating it in the third person ("The insurer
will pay valid claims ...") says the same thing; read word by word, "insurer" is a word the source never
uses. ``in_source_persons`` rewrites the claim's party nouns to the pronouns the source uses for them, before
support is scored, and only where no swap of parties can hide behind the rewrite:

- a party is rewritten only when the source uses its pronouns and never names it by its noun;
- when the source uses both persons ("we will pay you"), the claim is rewritten only when it names both
  parties, in the order the source first uses their pronouns: "the insured will pay the insurer" stays as
  written against "we will pay you", and fails as a party swap, as before.

English and Vietnamese consumer-policy wording ("chúng tôi" / "quý khách")."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class _Person:
    pronouns: re.Pattern[str]
    nouns: re.Pattern[str]
    subject: str
    possessive: str

    def pronoun(self, m: re.Match[str]) -> str:
        """The pronoun standing for a match of ``nouns``: possessive for "the insurer's"."""
        return self.possessive if m.group("pos") else self.subject


def _words(forms: str) -> str:
    return "|".join(sorted((re.escape(f) for f in forms.split(",")), key=len, reverse=True))


def _person(pronouns: str, nouns: str, subject: str, possessive: str) -> _Person:
    return _Person(
        re.compile(rf"(?<!\w)(?:{_words(pronouns)})(?!\w)", re.I),
        re.compile(rf"(?<!\w)(?:the\s+)?(?:{_words(nouns)})(?P<pos>['’]s)?(?!\w)", re.I),
        subject,
        possessive,
    )


_PERSONS: dict[str, tuple[_Person, _Person]] = {
    "en": (
        _person(
            "we,us,our,ours",
            "insurance company,insurer,company,underwriter,insurers",
            "we",
            "our",
        ),
        _person(
            "you,your,yours",
            "insured person,insured,policyholder,policy holder,policy-holder,policyowner",
            "you",
            "your",
        ),
    ),
    "vi": (
        _person(
            "chúng tôi",
            "công ty bảo hiểm,doanh nghiệp bảo hiểm,công ty,nhà bảo hiểm",
            "chúng tôi",
            "của chúng tôi",
        ),
        _person(
            "quý khách,bạn",
            "người được bảo hiểm,bên mua bảo hiểm,khách hàng",
            "quý khách",
            "của quý khách",
        ),
    ),
}


def _first(pattern: re.Pattern[str], text: str) -> int:
    m = pattern.search(text)
    return m.start() if m else len(text)


def in_source_persons(claim: str, source: str) -> str:
    """``claim`` with the party nouns the source speaks of by pronoun replaced by those pronouns; unchanged
    when nothing is to be rewritten or a rewrite could hide a swap of parties (module docstring)."""
    for persons in _PERSONS.values():
        spoken = [p for p in persons if p.pronouns.search(source) and not p.nouns.search(source)]
        named = [p for p in spoken if p.nouns.search(claim)]
        if not named:
            continue
        both = all(p.pronouns.search(source) for p in persons)
        if both:
            if len(named) < len(persons):
                continue  # one party named against a source speaking of two: its role is not checked here
            src_first, src_second = (_first(p.pronouns, source) for p in persons)
            claim_first, claim_second = (_first(p.nouns, claim) for p in persons)
            if (src_first < src_second) != (claim_first < claim_second):
                continue  # named in the other order: a swap the features must see
        for p in named:
            claim = p.nouns.sub(p.pronoun, claim)
        return claim
    return claim
