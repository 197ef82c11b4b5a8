"""``string_match``: the agent's answer against the task's reference answers.

Default mode ``"vab"``: VisualAgentBench's WebArena-Lite evaluator (``StringEvaluator``
in ``VAB-WebArena-Lite/new/evaluators.py``), which WebRL and WebAgent-R1 report with:

- :func:`clean_answer`: a leading and trailing ``'`` (else ``"``) removed, lowercased,
  nothing stripped. The answer is cleaned twice (once when the evaluator reads it, once
  per comparison), so ``"'N/A'"`` becomes ``n/a``; references are cleaned once.
- ``exact_match``: cleaned equality.
- ``must_include``: every item must match; an item may hold ``" |OR| "`` alternatives
  (one suffices; an alternative that cleans to ``""`` matches anything, as a substring).
  A reference that is a single word token must be one of the answer's tokens (so ``"0"``
  is not found in ``"10"``); tokens are NLTK ``word_tokenize``'s (see :mod:`.word_tokens`)
  plus the pieces of any token that contains ``/`` (``gitlab.com/yjlou`` also yields
  ``yjlou``). A longer reference is a substring test. A bare-string ``must_include``
  (Lite task 81) makes that code raise: it scores 0.
- ``fuzzy_match``: the string ``"N/A"`` passes an answer that cleans (twice) to ``n/a``,
  else asks the judge whether the answer explains why the task is impossible; a list is
  judged by the judge (see :mod:`.fuzzy`: rule-based by default, pluggable). The judge
  reads the answer cleaned once, and a text a ``program_html`` locator read as it is.

Mode ``"lenient"`` changes what the README lists: the answer's surrounding whitespace
and any number of nested quote pairs are removed, an empty alternative matches nothing,
a whitespace-only answer is no answer, and a bare-string ``must_include`` is read as a
one-item list. An answer of None (the episode ended without ``exit``) scores 0 in both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import TaskDataError
from ..tasks.task import ReferenceAnswers, Task, alternatives_of
from .fuzzy import Judge, explains_impossible, fuzzy_match
from .modes import EvaluationMode
from .word_tokens import word_tokenize

_QUOTES = "'\""


def clean_answer(text: str) -> str:
    """VisualAgentBench's cleaning: one leading and trailing ``'`` (else ``"``) removed, lowercased.

    >>> clean_answer('"Hello World"')
    'hello world'
    >>> clean_answer("'it's'"), clean_answer(" 'a' "), clean_answer("'")
    ("it's", " 'a' ", '')
    """
    for quote in _QUOTES:
        if text.startswith(quote) and text.endswith(quote):
            text = text[1:-1]
            break
    return text.lower()


def is_bare_na(answer: str | None) -> bool:
    """Whether ``answer`` is a bare N/A as VisualAgentBench reads it (cleaned twice): what scores an unachievable task.

    >>> is_bare_na("'N/A'"), is_bare_na("n/a"), is_bare_na("N/A, not found"), is_bare_na(None)
    (True, True, False, False)
    """
    return answer is not None and clean_answer(clean_answer(answer)) == "n/a"


def lenient_clean(text: str) -> str:
    """Lenient cleaning: surrounding whitespace and nested quote pairs removed, lowercased.

    >>> lenient_clean(" \\"'N/A'\\" ")
    'n/a'
    """
    text = text.strip()
    while len(text) >= 2 and text[0] == text[-1] and text[0] in _QUOTES:
        text = text[1:-1].strip()
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
            tokens.update(token.split("/"))
    tokens.discard("")
    return tokens


class _Prediction:
    """A text being matched, with its cleaned form and (computed once) its tokens."""

    def __init__(self, text: str, evaluation: EvaluationMode):
        self.evaluation = evaluation
        self.cleaned = lenient_clean(text) if evaluation == "lenient" else clean_answer(text)
        self._tokens: set[str] | None = None

    def clean_reference(self, reference: str) -> str:
        return lenient_clean(reference) if self.evaluation == "lenient" else clean_answer(reference)

    def has_token(self, token: str) -> bool:
        if self._tokens is None:
            self._tokens = answer_tokens(self.cleaned)
        return token in self._tokens


def exact_match(reference: str, text: str, *, evaluation: EvaluationMode = "vab") -> bool:
    """Cleaned equality.

    >>> exact_match("Quest Lumaflex Band", "'quest lumaflex band'")
    True
    >>> exact_match("5", " 5"), exact_match("5", " 5", evaluation="lenient")
    (False, True)
    """
    prediction = _Prediction(text, evaluation)
    return prediction.cleaned == prediction.clean_reference(reference)


def must_include(reference: str, text: str, *, evaluation: EvaluationMode = "vab") -> bool:
    """Whether one ``must_include`` item (possibly with ``" |OR| "`` alternatives) is in the text.

    >>> must_include("0", "There are 10 orders")
    False
    >>> must_include("0", "I found 0 orders.")
    True
    >>> must_include("Impulse Duffle |OR| Overnight Duffle", "the overnight duffle sold best")
    True
    """
    return _includes(reference, _Prediction(text, evaluation))


def _includes(reference: str, prediction: _Prediction) -> bool:
    for alternative in alternatives_of(reference):
        ref = prediction.clean_reference(alternative)
        if not ref and prediction.evaluation == "lenient":
            continue
        if len(word_tokenize(ref)) == 1:
            if prediction.has_token(ref):
                return True
        elif ref in prediction.cleaned:
            return True
    return False


@dataclass
class MatchOutcome:
    """Result of comparing one text with reference answers: the score and why."""

    score: float
    details: dict[str, Any] = field(default_factory=dict)


def match_reference_answers(
    references: ReferenceAnswers,
    text: str,
    *,
    intent: str = "",
    judge: Judge | None = None,
    evaluation: EvaluationMode = "vab",
    located: bool = False,
) -> MatchOutcome:
    """Score ``text`` against the reference answers; the details say what failed.

    Shared by ``string_match`` (the agent's answer) and ``program_html`` (``located=True``:
    the text a locator read). In ``"vab"`` mode an answer is cleaned twice and every kind
    present must pass, while a located text is cleaned once and only the first kind
    present counts (exact_match, else must_include, else fuzzy_match), as in that code.
    In ``"lenient"`` mode every kind present must pass.

    >>> match_reference_answers(ReferenceAnswers(must_include=("0", "b")), "10 b").details
    {'must_include_missing': ['0']}
    """
    vab = evaluation == "vab"
    read = clean_answer(text) if vab and not located else text  # what that code holds as the prediction
    prediction = _Prediction(read, evaluation)
    kinds = [k for k in ("exact_match", "must_include", "fuzzy_match") if getattr(references, k) is not None]
    if vab and located:
        kinds = kinds[:1]
    details: dict[str, Any] = {}
    score = 1.0
    for kind in kinds:
        if kind == "exact_match":
            ok = prediction.cleaned == prediction.clean_reference(references.exact_match or "")
            details["exact_match"] = ok
            score *= ok
        elif kind == "must_include":
            if vab and references.must_include_is_string:
                details["error"] = "must_include is a string, not a list: VisualAgentBench's evaluator raises"
                return MatchOutcome(0.0, details)
            missing = [item for item in references.must_include or () if not _includes(item, prediction)]
            details["must_include_missing"] = missing
            score *= not missing
        else:
            reference = references.fuzzy_match
            if vab and reference == "N/A" and not located:
                # that code multiplies in the exact "n/a" test (the answer cleaned twice), then
                # replaces the score by the judge's, who reads the answer cleaned once
                score *= prediction.cleaned == "n/a"
                if score != 1:
                    score = float(_judge_not_applicable(read, intent, judge))
                details["fuzzy_match"] = bool(score)
                continue
            ok = fuzzy_match(read, reference or (), intent=intent, judge=judge)
            details["fuzzy_match"] = ok
            score *= ok
    return MatchOutcome(float(score), details)


def _judge_not_applicable(answer: str, intent: str, judge: Judge | None) -> bool:
    if not answer.strip():
        return False
    return bool(judge(intent, answer, "N/A")) if judge is not None else explains_impossible(answer)


def string_match(
    task: Task, answer: str | None, *, judge: Judge | None = None, evaluation: EvaluationMode = "vab"
) -> MatchOutcome:
    """The ``string_match`` evaluator: the agent's final answer against the reference answers.

    No answer (None: the episode ended without one) scores 0 whatever the reference
    (even ``"N/A"``); so does a whitespace-only answer in ``"lenient"`` mode.
    """
    if answer is None or (evaluation == "lenient" and not answer.strip()):
        return MatchOutcome(0.0, {"answer": answer, "reason": "no answer"})
    if task.eval.reference_answers is None:
        raise TaskDataError(f"Task {task.task_id!r} has string_match but no reference_answers.")
    outcome = match_reference_answers(
        task.eval.reference_answers, answer, intent=task.intent, judge=judge, evaluation=evaluation
    )
    outcome.details["answer"] = answer
    return outcome
