"""``fuzzy_match``: a documented rule-based judge, and the plug-in point for an LLM judge.

WebArena asks GPT-4 whether an answer is "semantically equivalent" to the reference.
That cannot run offline and is not deterministic, so the default here is a rule:

1. Both texts are normalised (:func:`normalize_text`): Unicode folded (NFKC, accents
   and curly quotes removed), lowercased; full dates written as ``2023 01 05`` whatever
   their format (``2023-01-05``, ``1/5/2023``, ``Jan 5, 2023``, ``5 January 2023``);
   month names cut to three letters; ordinals ``8th`` -> ``8``; the words zero to twenty
   -> digits; money and numbers canonical (``$1,000.00`` -> ``1000``, ``5.50`` -> ``5.5``);
   a number glued to a unit split off (``1.4km`` -> ``1.4 km``) and common units unified
   (minutes/mins -> min, hours/hr -> h, kilometers -> km, meters -> m, miles -> mi);
   every other punctuation mark dropped (apostrophes vanish, the rest become spaces).
2. The answer matches when every reference part appears in it as a whole run of words
   (so ``"0"`` is not found in ``"10"``). A part that is a phone-like number (7+ digits
   and only digits, spaces, ``+ - ( ) .``) matches the same digits written any way,
   with or without a leading country code ``1``.

Unachievable tasks (reference ``"N/A"``): an answer of exactly ``N/A`` wins; otherwise the
answer must say the task cannot be done, i.e. contain one of :data:`IMPOSSIBLE_PHRASES`
(after normalisation): "not available", "cannot", "unable", "does not exist", "there is
no", "not found", ... An empty answer never matches anything.

Anything that follows the :class:`Judge` protocol replaces the rule, e.g. an LLM call.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Protocol, runtime_checkable


@runtime_checkable
class Judge(Protocol):
    """Decides a ``fuzzy_match``: ``judge(intent, answer, reference) -> bool``.

    ``reference`` is the reference parts joined with ``", "`` (as WebArena's LLM prompt
    receives them), or ``"N/A"`` for an unachievable task. The answer is passed as the
    agent gave it.
    """

    def __call__(self, intent: str, answer: str, reference: str) -> bool: ...


_MONTHS = "january february march april may june july august september october november december".split()
_MONTH_NUMBER = {name: i + 1 for i, name in enumerate(_MONTHS)}
_MONTH_NUMBER.update({name[:3]: i + 1 for i, name in enumerate(_MONTHS)})
_MONTH_NUMBER["sept"] = 9
_MONTH_RE = r"(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
_NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen twenty".split()
    )
}
_UNITS = {
    "minutes": "min",
    "minute": "min",
    "mins": "min",
    "hours": "h",
    "hour": "h",
    "hrs": "h",
    "hr": "h",
    "seconds": "s",
    "second": "s",
    "secs": "s",
    "sec": "s",
    "kilometers": "km",
    "kilometres": "km",
    "kilometer": "km",
    "kilometre": "km",
    "meters": "m",
    "metres": "m",
    "meter": "m",
    "metre": "m",
    "miles": "mi",
    "mile": "mi",
}

#: Phrases (normalised) by which an answer says the task cannot be done.
IMPOSSIBLE_PHRASES = (
    "n a",
    "not available",
    "not applicable",
    "not possible",
    "impossible",
    "cannot",
    "can not",
    "cant",
    "unable",
    "no such",
    "does not exist",
    "doesnt exist",
    "do not exist",
    "dont exist",
    "did not exist",
    "not exist",
    "there is no",
    "there are no",
    "there isnt",
    "there arent",
    "theres no",
    "there was no",
    "there were no",
    "not found",
    "could not find",
    "couldnt find",
    "no results",
    "no result",
    "not achievable",
    "unachievable",
    "not feasible",
    "infeasible",
    "no record",
    "no records",
)


def _date(year: str, month: int, day: str | None = None) -> str:
    if not 1 <= month <= 12 or (day is not None and not 1 <= int(day) <= 31):
        raise ValueError
    return f" {year} {month:02d}" + (f" {int(day):02d} " if day is not None else " ")


def _canonical_dates(text: str) -> str:
    def sub(pattern: str, build) -> None:
        nonlocal text

        def replace(match: re.Match[str]) -> str:
            try:
                return build(match)
            except ValueError:
                return match.group(0)

        text = re.sub(pattern, replace, text)

    sub(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b", lambda m: _date(m[1], int(m[2]), m[3]))
    sub(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b", lambda m: _date(m[3], int(m[1]), m[2]))  # US order
    sub(
        rf"\b{_MONTH_RE}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b",
        lambda m: _date(m[3], _MONTH_NUMBER[m[1]], m[2]),
    )
    sub(
        rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_RE},?\s+(\d{{4}})\b",
        lambda m: _date(m[3], _MONTH_NUMBER[m[2]], m[1]),
    )
    sub(rf"\b{_MONTH_RE},?\s+(\d{{4}})\b", lambda m: _date(m[2], _MONTH_NUMBER[m[1]]))
    return text


def _canonical_number(match: re.Match[str]) -> str:
    digits = match.group(1).replace(",", "")
    try:
        value = Decimal(digits)
    except InvalidOperation:
        return match.group(0)
    if "." not in digits:
        return digits  # keep leading zeros of ids such as 000000180
    text = format(value.normalize(), "f")
    return text


def normalize_text(text: str) -> list[str]:
    """The words of ``text`` after the fuzzy rule's normalisation (see the module docstring).

    >>> normalize_text("It's $1,000.50 -- 1.4km on Jan 5th, 2023!")
    ['its', '1000.5', '1.4', 'km', 'on', '2023', '01', '05']
    """
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = _canonical_dates(text)
    text = re.sub(r"\b(\d+)(?:st|nd|rd|th)\b", r"\1", text)
    text = re.sub(rf"\b{_MONTH_RE}(?=\W|$)", lambda m: _MONTHS[_MONTH_NUMBER[m[1]] - 1][:3], text)
    text = re.sub(r"[$€£]\s*(?=\d)", " ", text)
    text = re.sub(r"(\d)([a-z])", r"\1 \2", text)
    # thousands separators only where they really group thousands: 1,000 and 12,345,678
    text = re.sub(r"\b(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\b", _canonical_number, text)
    text = text.replace("'", "")
    text = re.sub(r"(?<!\d)\.|\.(?!\d)|[^\w.]|_", " ", text)
    words = text.split()
    return [_UNITS.get(w, _NUMBER_WORDS.get(w, w)) for w in words]


def _contains_run(words: Sequence[str], run: Sequence[str]) -> bool:
    n = len(run)
    return any(list(words[i : i + n]) == list(run) for i in range(len(words) - n + 1))


def _phone_digits(text: str) -> str | None:
    """The digits of a phone-like number (7+ digits, only digits and separators), else None."""
    if not re.fullmatch(r"[\d\s+\-().]+", text.strip()):
        return None
    digits = re.sub(r"\D", "", text)
    return digits if len(digits) >= 7 else None


def _same_phone(a: str, b: str) -> bool:
    strip = lambda d: d[1:] if len(d) == 11 and d.startswith("1") else d  # noqa: E731
    return strip(a) == strip(b)


def rule_fuzzy_match(answer: str, reference_parts: Sequence[str]) -> bool:
    """The default fuzzy rule: every reference part is present in the answer.

    >>> rule_fuzzy_match("It is 1,000 dollars", ["$1000.00"])
    True
    >>> rule_fuzzy_match("About 64 minutes by car", ["64 min"])
    True
    >>> rule_fuzzy_match("10 items", ["0"])
    False
    >>> rule_fuzzy_match("Call 412-578-5000", ["+1 412 578 5000"])
    True
    """
    if not answer or not answer.strip():
        return False
    words = normalize_text(answer)
    answer_phones = [d for d in (_phone_digits(m) for m in re.findall(r"[+(]?\d[\d\s\-().]*\d", answer)) if d]
    for part in reference_parts:
        phone = _phone_digits(part)
        if phone is not None:
            if not any(_same_phone(phone, candidate) for candidate in answer_phones):
                return False
            continue
        run = normalize_text(part)
        if not run:
            if part.strip().lower() not in answer.lower():
                return False
        elif not _contains_run(words, run):
            return False
    return True


def is_not_applicable(reference: object) -> bool:
    """Whether a fuzzy reference marks an unachievable task: ``"N/A"`` or ``["N/A"]``."""
    if isinstance(reference, str):
        return reference.strip().lower() == "n/a"
    return isinstance(reference, (list, tuple)) and len(reference) == 1 and is_not_applicable(reference[0])


def explains_impossible(answer: str) -> bool:
    """Whether the answer says the task cannot be done (one of :data:`IMPOSSIBLE_PHRASES`).

    >>> explains_impossible("Sorry, there is no such order in the system.")
    True
    >>> explains_impossible("The order total is $5")
    False
    """
    words = normalize_text(answer or "")
    return any(_contains_run(words, phrase.split()) for phrase in IMPOSSIBLE_PHRASES)


def fuzzy_match(
    answer: str | None, reference: Sequence[str] | str, *, intent: str = "", judge: Judge | None = None
) -> bool:
    """Judge ``answer`` against a ``fuzzy_match`` reference (parts, or ``"N/A"``).

    >>> fuzzy_match("N/A", "N/A")
    True
    >>> fuzzy_match("I cannot find that product, it does not exist.", ["N/A"])
    True
    >>> fuzzy_match("", "N/A")
    False
    """
    if answer is None or not answer.strip():
        return False
    if is_not_applicable(reference):
        if _strip_quotes(answer).strip().lower() == "n/a":
            return True
        return bool(judge(intent, answer, "N/A")) if judge is not None else explains_impossible(answer)
    parts = [reference] if isinstance(reference, str) else list(reference)
    if judge is not None:
        return bool(judge(intent, answer, ", ".join(parts)))
    return rule_fuzzy_match(answer, parts)


def _strip_quotes(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text
