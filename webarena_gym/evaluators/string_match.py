"""``string_match``: the agent's answer against the task's reference answers.

Semantics of WebArena-Lite's evaluator (VisualAgentBench), which WebRL and WebAgent-R1
report with:

- :func:`clean_answer`: one pair of surrounding quotes removed, lowercased; the
  reference is cleaned the same way.
- ``exact_match``: cleaned equality.
- ``must_include``: every item must match; an item may hold ``" |OR| "`` alternatives
  (one suffices). A reference that is a single word token must be one of the answer's
  tokens (so ``"0"`` is not found in ``"10"``); tokens are NLTK ``word_tokenize``'s
  (see :mod:`.word_tokens`) plus the pieces of any token that contains ``/``
  (``gitlab.com/yjlou`` also yields ``yjlou``). A longer reference is a substring test.
- ``fuzzy_match``: see :mod:`.fuzzy` (rule-based by default, pluggable judge).
- ``"N/A"`` (unachievable tasks): under ``fuzzy_match`` an exact ``N/A`` or an answer that
  explains the task is impossible passes; under ``exact_match`` / ``must_include`` (as
  WebArena-Lite rewrote a few tasks) the literal ``N/A`` is needed, as in the benchmark.
- An empty or missing answer matches nothing, not even ``"N/A"``: stalling earns no reward.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import TaskDataError
from ..tasks.task import ReferenceAnswers, Task
from .fuzzy import Judge, fuzzy_match
from .word_tokens import word_tokenize

OR = " |OR| "


def clean_answer(text: str) -> str:
    """Remove one pair of surrounding quotes and lowercase.

    >>> clean_answer('"Hello World"')
    'hello world'
    >>> clean_answer("'it's'")
    "it's"
    """
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return text.lower()


def answer_tokens(text: str) -> set[str]:
    """The tokens a one-token reference is looked for in: word tokens and their ``/`` pieces.

    >>> sorted(answer_tokens("see gitlab.com/yjlou, or 10."))
    [',', '.', '10', 'gitlab.com', 'gitlab.com/yjlou', 'or', 'see', 'yjlou']
    """
    tokens = set()
    for token in word_tokenize(text):
        tokens.add(token)
        if "/" in token:
            tokens.update(piece for piece in token.split("/") if piece)
    return tokens


def exact_match(reference: str, text: str) -> bool:
    """Cleaned equality.

    >>> exact_match("Quest Lumaflex Band", "'quest lumaflex band'")
    True
    """
    return clean_answer(text) == clean_answer(reference)


def must_include(reference: str, text: str) -> bool:
    """Whether one ``must_include`` item (possibly with ``" |OR| "`` alternatives) is in the answer.

    >>> must_include("0", "There are 10 orders")
    False
    >>> must_include("0", "I found 0 orders.")
    True
    >>> must_include("Impulse Duffle |OR| Overnight Duffle", "the overnight duffle sold best")
    True
    """
    cleaned = clean_answer(text)
    tokens: set[str] | None = None
    for alternative in reference.split(OR):
        ref = clean_answer(alternative)
        if not ref:
            continue
        if len(word_tokenize(ref)) == 1:
            if tokens is None:
                tokens = answer_tokens(cleaned)
            if ref in tokens:
                return True
        elif ref in cleaned:
            return True
    return False


@dataclass
class MatchOutcome:
    """Result of comparing one text with reference answers: the score and why."""

    score: float
    details: dict[str, Any] = field(default_factory=dict)


def match_reference_answers(
    references: ReferenceAnswers, text: str, *, intent: str = "", judge: Judge | None = None
) -> MatchOutcome:
    """Score ``text`` against every kind of reference present (the product: all must pass).

    Shared by ``string_match`` (the agent's answer) and ``program_html`` (the located
    text). The details say what failed, for people reading evaluation logs.

    >>> match_reference_answers(ReferenceAnswers(must_include=("0", "b")), "10 b").details
    {'must_include_missing': ['0']}
    """
    details: dict[str, Any] = {}
    score = 1.0
    if references.exact_match is not None:
        ok = exact_match(references.exact_match, text)
        details["exact_match"] = ok
        score *= ok
    if references.must_include is not None:
        missing = [item for item in references.must_include if not must_include(item, text)]
        details["must_include_missing"] = missing
        score *= not missing
    if references.fuzzy_match is not None:
        ok = fuzzy_match(text, references.fuzzy_match, intent=intent, judge=judge)
        details["fuzzy_match"] = ok
        score *= ok
    return MatchOutcome(float(score), details)


def string_match(task: Task, answer: str | None, *, judge: Judge | None = None) -> MatchOutcome:
    """The ``string_match`` evaluator: the agent's final answer against the reference answers.

    An empty or missing answer scores 0 whatever the reference (even ``"N/A"``).
    """
    if answer is None or not answer.strip():
        return MatchOutcome(0.0, {"answer": answer, "reason": "no answer"})
    if task.eval.reference_answers is None:
        raise TaskDataError(f"Task {task.task_id!r} has string_match but no reference_answers.")
    outcome = match_reference_answers(task.eval.reference_answers, answer, intent=task.intent, judge=judge)
    outcome.details["answer"] = answer
    return outcome
