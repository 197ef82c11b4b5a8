"""WebArena-Verified: its 812 audited tasks, scored by the package's own evaluator.

The tasks, the evaluator and the answer schema come from the installed ``webarena-verified``
package (``pip install 'webarena-gym[verified]'``); nothing of its scoring is re-implemented
here. An episode ends with the agent's structured answer,
``exit(message='{"task_type": "RETRIEVE", "status": "SUCCESS", "retrieved_data": ["..."]}')``
(:data:`ANSWER_FORMAT`), and the reward is the ``score`` of the package's ``evaluate_task``
for that answer and the episode's network trace (every request the backend made, as HAR
entries), each evaluator's score in ``info["reward_components"]``.

Splits: ``"all"`` (also ``"test"``: the 812 tasks), ``"hard"`` (the package's 258-task hard
subset) and ``"lite"`` (the verified versions of WebArena-Lite's 165 tasks; their Lite id in
``task.extra["lite_task_id"]``). Task ids are WebArena's (0-811) in every split. Start URLs are
the package's own, rendered for the configured ``WA_*`` bases as its harness renders them.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import ConfigurationError, InfrastructureError, InvalidActionError
from ..tasks.task import Evaluation, Task
from ..webarena_sites import PLACEHOLDERS

logger = logging.getLogger(__name__)

VERIFIED_SUITE = "webarena-verified"
#: ``test`` is the whole benchmark, as ``all``.
VERIFIED_SPLITS = ("all", "hard", "lite", "test")
VERIFIED_VERSION = "1.2.3"
INSTALL = (f"pip install 'webarena-gym[verified]'; beside pinned pydantic>=2.13, as scripts/setup.sh does: "
           f"pip install --no-deps webarena-verified=={VERIFIED_VERSION}, then its other dependencies")
#: The site names of this package are the package's (``shopping_admin``, ``gitlab``, ...).
EVAL_TYPE = "webarena_verified"

ANSWER_FORMAT = (
    "This suite is scored from your final structured response and the requests you made. Finish with "
    "exit(message='<JSON>') where <JSON> is an object with: \"task_type\": \"RETRIEVE\" (you looked something "
    "up), \"MUTATE\" (you changed something) or \"NAVIGATE\" (you went to a page); \"status\": \"SUCCESS\", "
    "\"NOT_FOUND_ERROR\", \"ACTION_NOT_ALLOWED_ERROR\", \"PERMISSION_DENIED_ERROR\", \"DATA_VALIDATION_ERROR\" or "
    "\"UNKNOWN_ERROR\"; \"retrieved_data\": a list of the values asked for (numbers as numbers) for RETRIEVE, "
    "null otherwise; \"error_details\": null on success, else why. For example: "
    "exit(message='{\"task_type\": \"RETRIEVE\", \"status\": \"SUCCESS\", \"retrieved_data\": [\"Quest Lumaflex Band\"], "
    "\"error_details\": null}')"
)


def require_verified() -> Any:
    """The ``webarena_verified`` package, or a :class:`ConfigurationError` naming the extra that installs it."""
    try:
        import webarena_verified
    except ImportError as exc:
        raise ConfigurationError(
            f"The {VERIFIED_SUITE} suite (WebArenaVerified-v0) needs the webarena-verified package, which is not "
            f"installed ({exc}). Install the 'verified' extra: {INSTALL}."
        ) from exc
    return webarena_verified


def check_verified_split(split: str) -> str:
    """``"all"`` for ``all``/``test``, else ``hard`` or ``lite``; a :class:`ConfigurationError` for others."""
    if split not in VERIFIED_SPLITS:
        raise ConfigurationError(
            f"The {VERIFIED_SUITE} suite's split must be one of {VERIFIED_SPLITS} ('test' is 'all'), got {split!r}."
        )
    return "all" if split == "test" else split


def _environments(site_urls: Mapping[str, str]) -> dict[str, Any]:
    from webarena_verified.types.config import EnvironmentConfig
    from webarena_verified.types.task import WebArenaSite

    known = {site.value for site in WebArenaSite}
    return {WebArenaSite(name): EnvironmentConfig(urls=[url.rstrip("/")])
            for name, url in site_urls.items() if name in known}


@lru_cache(maxsize=8)
def _benchmark(site_items: tuple[tuple[str, str], ...]) -> Any:
    """The package's facade for these site URLs (it loads the 812 tasks once)."""
    require_verified()
    from webarena_verified.api import WebArenaVerified
    from webarena_verified.types.config import WebArenaVerifiedConfig

    environments = _environments(dict(site_items))
    return WebArenaVerified(config=WebArenaVerifiedConfig(environments=environments or None))


def benchmark(site_urls: Mapping[str, str]) -> Any:
    """The package's ``WebArenaVerified`` configured with ``site_urls`` (site name -> base URL)."""
    return _benchmark(tuple(sorted(site_urls.items())))


def split_task_ids(split: str, *, bench: Any = None) -> list[int]:
    """The task ids of a split, in the package's order (``lite``: WebArena-Lite's order)."""
    split = check_verified_split(split)
    require_verified()
    all_ids = [task.task_id for task in (bench or benchmark({})).get_tasks()]
    if split == "all":
        return all_ids
    if split == "hard":
        from webarena_verified.types.data import TaskSubset
        from webarena_verified.utils import get_package_assets_path

        path = get_package_assets_path() / "dataset" / "subsets" / "webarena-verified-hard.json"
        return list(TaskSubset.model_validate_json(path.read_text(encoding="utf-8")).task_ids)
    return list(_lite_ids())


def _lite_ids() -> dict[int, int]:
    """WebArena id -> WebArena-Lite id, from the installed Lite data."""
    from .official import load_official_tasks

    return {task.old_task_id: task.task_id for task in load_official_tasks("test", site_urls={})}


def load_verified_tasks(split: str = "all", *, site_urls: Mapping[str, str]) -> list[Task]:
    """The split's tasks, start URLs rendered as the package renders them for ``site_urls``.

    A task whose sites are not all in ``site_urls`` keeps its ``__SITE__`` placeholders (the
    env then draws among the others and names the variable to set).
    """
    split = check_verified_split(split)
    bench = benchmark(site_urls)
    config = bench.config
    lite = _lite_ids() if split == "lite" else {}
    by_id = {task.task_id: task for task in bench.get_tasks()}
    tasks = []
    for task_id in split_task_ids(split, bench=bench):
        vtask = by_id[task_id]
        sites = tuple(site.value for site in vtask.sites)
        configured = [site for site in vtask.sites if site in (config.environments or {})]
        start_urls = [config.render_url(url, configured, strict=False) if configured else url
                      for url in vtask.start_urls]
        expected = vtask.expected_agent_response
        extra: dict[str, Any] = {"start_urls": start_urls, "revision": vtask.revision,
                                 "task_type": str(expected.task_type)}
        if task_id in lite:
            extra["lite_task_id"] = lite[task_id]
        tasks.append(Task(
            task_id=task_id,
            sites=sites,
            intent=vtask.intent,
            start_url=start_urls[0],
            # the package's evaluators, for people and reports (tasks show, run files); scoring reads the package
            eval=Evaluation(eval_types=(EVAL_TYPE,), extra={"evaluators": vtask.model_dump(mode="json")["eval"]}),
            require_login=True,
            intent_template=vtask.intent_template,
            instantiation_dict=dict(vtask.instantiation_dict),
            intent_template_id=vtask.intent_template_id,
            extra=extra,
        ).resolve({site: url for site, url in site_urls.items() if site in PLACEHOLDERS}))
    return tasks


def parse_answer(message: str) -> dict[str, Any]:
    """The agent's structured response from its ``exit`` message, checked against the package's schema.

    Raises:
        InvalidActionError: the message is not a JSON object valid for ``FinalAgentResponse``
            (the agent's mistake: the episode goes on and the error says what to fix).
    """
    require_verified()
    from pydantic import ValidationError
    from webarena_verified.types.agent_response import FinalAgentResponse

    try:
        response = json.loads(message)
    except (TypeError, json.JSONDecodeError) as exc:
        raise InvalidActionError(
            f"This suite's exit message must be a JSON object (the structured response), got {message!r:.120} "
            f"({exc}). {ANSWER_FORMAT}"
        ) from None
    if not isinstance(response, dict):
        raise InvalidActionError(f"The exit message must be a JSON object, got {type(response).__name__}. {ANSWER_FORMAT}")
    try:
        FinalAgentResponse.model_validate(dict(response))
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'response'}: {e['msg']}" for e in exc.errors())
        raise InvalidActionError(f"The structured response does not fit the schema ({problems}). {ANSWER_FORMAT}") from None
    return response


@dataclass(frozen=True)
class VerifiedResult:
    """The package's verdict on one episode."""

    reward: float
    components: dict[str, float]
    details: dict[str, Any] = field(default_factory=dict)


def check_trace(entries: list[dict[str, Any]]) -> None:
    """A :class:`InfrastructureError` when the trace is empty or the package's loader cannot read it."""
    if not entries:
        raise InfrastructureError(
            "The episode's network trace is empty: the backend recorded no request, so WebArena-Verified cannot "
            "score it (a reward of 0 would blame the agent). Was the start page reached? Check the site and backend."
        )
    from webarena_verified.types.tracing import NetworkTrace

    try:
        NetworkTrace.from_content(entries)
    except Exception as exc:
        raise InfrastructureError(f"The episode's network trace is not readable by webarena-verified: {exc}") from exc


def evaluate_verified(task: Task, answer: dict[str, Any] | None, entries: list[dict[str, Any]], *,
                      site_urls: Mapping[str, str]) -> VerifiedResult:
    """Score an episode with the package's ``evaluate_task`` (reward = its ``score``).

    Raises:
        InfrastructureError: the trace is empty or unreadable.
    """
    check_trace(entries)
    result = benchmark(site_urls).evaluate_task(task_id=int(task.task_id), agent_response=answer,
                                                network_trace=list(entries))
    components: dict[str, float] = {}
    verdicts = []
    for evaluator in result.evaluators_results:
        name = evaluator.evaluator_name
        key, index = name, 2
        while key in components:
            key, index = f"{name}#{index}", index + 1
        components[key] = float(evaluator.score)
        verdicts.append({"evaluator": key, "score": float(evaluator.score), "status": str(evaluator.status),
                         "assertions": [" ".join(a.assertion_msgs or ()) or a.assertion_name
                                        for a in (evaluator.assertions or ()) if not a.is_success]})
    if str(result.status).upper().endswith("ERROR"):
        logger.warning("webarena-verified could not evaluate task %s: %s", task.task_id, result.error_msg)
    details = {"status": str(result.status), "score": float(result.score), "evaluators": verdicts,
               "agent_response": answer, "error": result.error_msg}
    return VerifiedResult(float(result.score), components, details)


def write_run_files(run_dir: str | os.PathLike[str], task_id: Any, answer: dict[str, Any] | None,
                    har: dict[str, Any]) -> Path:
    """``<run_dir>/<task_id>/agent_response.json`` and ``network.har``, the package's output layout."""
    folder = Path(run_dir) / str(task_id)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "agent_response.json").write_text(json.dumps(answer), encoding="utf-8")
    (folder / "network.har").write_text(json.dumps(har, ensure_ascii=False), encoding="utf-8")
    return folder


__all__ = ["ANSWER_FORMAT", "VERIFIED_SPLITS", "VERIFIED_SUITE", "VerifiedResult", "benchmark", "check_trace",
           "evaluate_verified", "load_verified_tasks", "parse_answer", "require_verified", "split_task_ids",
           "write_run_files"]
