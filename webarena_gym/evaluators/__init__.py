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
from typing import Any

from ..backends.page import EvaluationPage
from ..dom import evaluate_locator_on_html
from ..tasks.task import Task
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
    "EvaluationMode",
    "EvaluationPage",
    "EvaluationResult",
    "Judge",
    "StaticPage",
    "call_function",
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
        if name == "string_match":
            outcome = string_match(task, answer, judge=judge, evaluation=evaluation)
        elif name == "url_match":
            ok = url_match(final_url, task.eval.reference_url or "", task.eval.url_note, evaluation=evaluation)
            outcome = MatchOutcome(
                float(ok),
                {
                    "url": final_url,
                    "reference_url": task.eval.reference_url,
                    "url_note": task.eval.url_note or "EXACT",
                },
            )
        else:
            outcome = program_html(task, page, last_url=final_url, judge=judge, evaluation=evaluation)
        components[name] = 1.0 if outcome.score else 0.0
        details[name] = outcome.details
    reward = 1.0 if components and all(components.values()) else 0.0
    return EvaluationResult(reward=reward, components=components, details=details)
