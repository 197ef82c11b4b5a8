"""``program_html``: read values off pages after the episode and compare them with references.

For each target of the task, in order (WebArena-Lite's semantics):

1. the page: ``url == "last"`` keeps the current page (the one the episode ended on, or
   the previous target's); a literal URL is opened with ``page.goto``; ``"func:..."``
   computes the URL with a registered helper (``__last_url__`` is the episode's final URL);
2. ``prep_actions`` (JavaScript) run through ``page.evaluate_locator``; failures are ignored;
3. the locator: ``""`` gives the page's HTML, ``"func:..."`` a registered helper's value,
   anything else ``page.evaluate_locator`` (a JavaScript expression); a locator that
   fails gives ``""``;
4. ``required_contents`` is checked with the rules of ``string_match``; in the default
   ``"vab"`` mode as VisualAgentBench's ``HTMLContentExactEvaluator`` does it: the located
   text is cleaned once and only the first kind present counts (exact_match, else
   must_include, else fuzzy_match).

The score is the product over targets.
"""

from __future__ import annotations

import logging
from typing import Any

from ..backends.page import EvaluationPage
from ..errors import ConfigurationError
from ..tasks.task import ProgramHtmlTarget, Task
from .functions import call_function
from .fuzzy import Judge
from .modes import EvaluationMode
from .string_match import MatchOutcome, match_reference_answers

logger = logging.getLogger(__name__)


def locate(page: EvaluationPage, locator: str, *, last_url: str | None = None) -> str:
    """The text a program_html locator selects on the current page ("" when it fails)."""
    if not locator.strip():
        return page.content()
    if locator.lstrip().startswith("func:"):
        return call_function(locator, page, last_url=last_url)
    try:
        value = page.evaluate_locator(locator)
    except Exception as exc:  # a backend that raises instead of returning "": the page is wrong
        logger.info("Locator %r failed on %s: %s", locator, page.url, exc)
        return ""
    return "" if value is None else str(value)


def target_url(target: ProgramHtmlTarget, page: EvaluationPage, *, last_url: str | None = None) -> str:
    """The URL a target reads from: ``"last"``, a literal URL, or a ``func:`` helper's result."""
    url = target.url.strip()
    if url.startswith("func:"):
        return call_function(url, page, last_url=last_url)
    return url


def program_html(
    task: Task,
    page: EvaluationPage | None,
    *,
    last_url: str | None = None,
    judge: Judge | None = None,
    evaluation: EvaluationMode = "vab",
) -> MatchOutcome:
    """The ``program_html`` evaluator over every target of ``task``."""
    if page is None:
        raise ConfigurationError(
            f"Task {task.task_id!r} is checked with program_html, which reads the final page: pass page= "
            "(an env backend's evaluation_page(), or webarena_gym.evaluators.StaticPage for saved HTML)."
        )
    last = last_url if last_url is not None else page.url
    score = 1.0
    targets: list[dict[str, Any]] = []
    for target in task.eval.program_html:
        url = target_url(target, page, last_url=last)
        if url != "last":
            page.goto(url)
        for action in target.prep_actions:
            try:
                page.evaluate_locator(action)
            except Exception as exc:  # WebArena ignores failed preparation steps too
                logger.info("prep action %r failed: %s", action, exc)
        text = locate(page, target.locator, last_url=last)
        outcome = match_reference_answers(
            target.required_contents, text, intent=task.intent, judge=judge, evaluation=evaluation, located=True
        )
        targets.append(
            {
                "url": url,
                "locator": target.locator,
                "score": outcome.score,
                "text": text if len(text) <= 2000 else text[:2000] + "...",
                **outcome.details,
            }
        )
        score *= outcome.score
    return MatchOutcome(score, {"targets": targets})
