"""Evaluators with WebArena-Lite semantics: string_match, url_match, program_html.

The entry point is :func:`evaluate`. It needs no env: give it a task (a :class:`Task` or a
raw WebArena dict), the agent's answer, the final URL and, for program_html, a page (an
env backend's ``evaluation_page()``, or :class:`StaticPage` over saved HTML).

>>> task = {"task_id": 1, "sites": ["shopping"], "start_url": "__SHOPPING__", "intent": "How many?",
...         "eval": {"eval_types": ["string_match"], "reference_answers": {"must_include": ["0"]}}}
>>> evaluate(task, answer="There are 10", url="http://127.0.0.1:7770/").reward
0.0
>>> result = evaluate(task, answer="0", url="http://127.0.0.1:7770/")
>>> result.reward, result.components
(1.0, {'string_match': 1.0})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

from ..backends.page import EvaluationPage
from ..dom import evaluate_locator_on_html
from ..errors import ConfigurationError
from ..tasks.task import EVAL_TYPES, Task
from . import official_functions  # noqa: F401  (registers WebArena's func: helpers)
from .functions import call_function, register_function, registered_functions
from .fuzzy import Judge, explains_impossible, fuzzy_match, rule_fuzzy_match
from .modes import DEFAULT_EVALUATION, EVALUATION_MODES, EvaluationMode, check_evaluation_mode
from .program_html import program_html
from .static_page import StaticPage
from .string_match import MatchOutcome, clean_answer, exact_match, must_include, string_match
from .url_match import clean_url, url_match

__all__ = [
    "DEFAULT_EVALUATION",
    "EVALUATION_MODES",
    "EVALUATORS",
    "EvaluationMode",
    "EvaluationPage",
    "EvaluationResult",
    "Evaluator",
    "Judge",
    "StaticPage",
    "call_function",
    "check_evaluators",
    "clean_answer",
    "clean_url",
    "evaluate",
    "evaluate_locator_on_html",
    "exact_match",
    "explains_impossible",
    "fuzzy_match",
    "must_include",
    "register_function",
    "registered_functions",
    "rule_fuzzy_match",
    "url_match",
]


class Evaluator(Protocol):
    """One evaluator type: scores an episode's end (answer, final URL, page) against a task."""

    def __call__(
        self,
        task: Task,
        *,
        answer: str | None,
        url: str | None,
        page: EvaluationPage | None,
        judge: Judge | None,
        evaluation: EvaluationMode,
    ) -> MatchOutcome: ...


def _string_match(
    task: Task, *, answer: str | None, url: str | None, page: EvaluationPage | None, judge: Judge | None,
    evaluation: EvaluationMode,
) -> MatchOutcome:
    return string_match(task, answer, judge=judge, evaluation=evaluation)


def _url_match(
    task: Task, *, answer: str | None, url: str | None, page: EvaluationPage | None, judge: Judge | None,
    evaluation: EvaluationMode,
) -> MatchOutcome:
    ok = url_match(url, task.eval.reference_url or "", task.eval.url_note, evaluation=evaluation)
    return MatchOutcome(
        float(ok), {"url": url, "reference_url": task.eval.reference_url, "url_note": task.eval.url_note or "EXACT"}
    )


def _program_html(
    task: Task, *, answer: str | None, url: str | None, page: EvaluationPage | None, judge: Judge | None,
    evaluation: EvaluationMode,
) -> MatchOutcome:
    return program_html(task, page, last_url=url, judge=judge, evaluation=evaluation)


def _webarena_verified(
    task: Task, *, answer: str | None, url: str | None, page: EvaluationPage | None, judge: Judge | None,
    evaluation: EvaluationMode,
) -> MatchOutcome:
    raise ConfigurationError(
        f"Task {task.task_id!r} is scored by the webarena-verified package (eval type 'webarena_verified'), "
        "which needs the structured answer and the episode's network trace, not evaluate(): run it in the env "
        "with suite='webarena-verified', or call webarena_gym.suites.verified.evaluate_verified."
    )


def check_evaluators(table: Mapping[str, Evaluator], declared: tuple[str, ...] = EVAL_TYPES) -> None:
    """Refuse an evaluator table that does not implement exactly the ``declared`` evaluator types.

    Run on :data:`EVALUATORS` when this package is imported, so a type added to ``EVAL_TYPES``
    without an implementation fails at once instead of being scored by another evaluator.

    >>> check_evaluators({"string_match": _string_match}, ("string_match", "url_match"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    webarena_gym.errors.ConfigurationError: The evaluator table ...; without an implementation: ['url_match']; ...

    Raises:
        ConfigurationError: naming the types without an implementation and the names not declared.
    """
    missing = [name for name in declared if name not in table]
    undeclared = [name for name in table if name not in declared]
    if missing or undeclared:
        raise ConfigurationError(
            f"The evaluator table must implement exactly the declared evaluator types {list(declared)}; "
            f"without an implementation: {missing}; not declared: {undeclared}. Add the function to EVALUATORS "
            "in webarena_gym/evaluators/__init__.py (and its name to EVAL_TYPES in webarena_gym/tasks/task.py)."
        )


#: Each evaluator type of ``EVAL_TYPES`` (``tasks/task.py``) and the function that scores it.
EVALUATORS: Mapping[str, Evaluator] = MappingProxyType(
    {
        "string_match": _string_match,
        "url_match": _url_match,
        "program_html": _program_html,
        "webarena_verified": _webarena_verified,
    }
)
check_evaluators(EVALUATORS)


@dataclass(frozen=True)
class EvaluationResult:
    """The reward of one episode and how it came about.

    Attributes:
        reward: Exactly 0.0 or 1.0: the product of the task's evaluators.
        components: Each evaluator's score, by name (``string_match``, ``url_match``,
            ``program_html``), in the task's ``eval_types`` order.
        details: Per evaluator, what was compared (answer, URL, located texts, what failed).
    """

    reward: float
    components: dict[str, float] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def success(self) -> bool:
        return self.reward == 1.0


def evaluate(
    task: Task | Mapping[str, Any],
    *,
    answer: str | None,
    url: str | None = None,
    page: EvaluationPage | None = None,
    judge: Judge | None = None,
    evaluation: EvaluationMode = DEFAULT_EVALUATION,
) -> EvaluationResult:
    """Score an episode's outcome against a task's evaluators.

    Args:
        task: A :class:`Task` or a raw WebArena task dict. Placeholders still in it are
            resolved with ``page.site_urls`` when a page is given.
        answer: The agent's final answer (``exit(message=...)``); None or "" when the
            episode ended without one, which fails any string_match.
        url: The URL the episode ended on (default: ``page.url``).
        page: The final page, needed by program_html.
        judge: Replaces the rule-based fuzzy_match judge (e.g. an LLM call).
        evaluation: ``"vab"`` (default): VisualAgentBench's evaluators exactly, so success
            rates compare with published ones; ``"lenient"``: with the normalisations the
            README lists (see :mod:`.modes`).

    Raises:
        ConfigurationError: program_html is needed but no page was given, or an unknown
            evaluation mode.
        TaskDataError: the task is malformed or names an unknown ``func:`` helper.
    """
    evaluation = check_evaluation_mode(evaluation)
    if not isinstance(task, Task):
        task = Task.from_dict(task)
    if page is not None and task.placeholders():
        task = task.resolve(page.site_urls)
    final_url = url if url is not None else (page.url if page is not None else None)
    components: dict[str, float] = {}
    details: dict[str, Any] = {}
    for name in task.eval.eval_types:
        outcome = EVALUATORS[name](task, answer=answer, url=final_url, page=page, judge=judge, evaluation=evaluation)
        components[name] = 1.0 if outcome.score else 0.0
        details[name] = outcome.details
    reward = 1.0 if components and all(components.values()) else 0.0
    return EvaluationResult(reward=reward, components=components, details=details)
