"""Checks every site's task families share: quota, well-formed instances, evaluator mix, oracles."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from webarena_gym.evaluators.functions import registered_functions
from webarena_gym.oracle_runner import run_answer, run_oracle
from webarena_gym.sites.world import pristine_database
from webarena_gym.tasks.families import TaskFamily
from webarena_gym.tasks.task import Task

Instances = Mapping[str, Sequence[dict[str, Any]]]
KINDS = {"information", "navigation", "content"}


def check_quota(families: Sequence[TaskFamily], instances: Instances, *, prefix: str, families_at_least: int,
                tasks_at_least: int, kinds: set[str] | None = KINDS) -> None:
    """Enough families named ``<prefix>...``, enough tasks, ten or more per family, and (with ``kinds``) all kinds."""
    sizes = {family.name: len(instances[family.name]) for family in families}
    assert len(families) >= families_at_least and all(name.startswith(prefix) for name in sizes), sorted(sizes)
    assert sum(sizes.values()) >= tasks_at_least, sizes
    assert {name: size for name, size in sizes.items() if size < 10} == {}
    if kinds is not None:
        assert {family.kind for family in families} == kinds


def check_instances(family: TaskFamily, items: Sequence[dict[str, Any]], *, start_url: str,
                    own_start_urls: bool = False, require_login: bool = True) -> None:
    """Valid WebArena tasks on the family's sites, distinct intents, the same on every instantiation.

    Each starts at ``start_url``, or with ``own_start_urls`` at a page under it.
    """
    intents = [item["intent"] for item in items]
    assert len(set(intents)) == len(intents), family.name
    assert family.instantiate(pristine_database) == list(items), family.name
    for item in items:
        task = Task.from_dict(item | {"task_id": 0, "intent_template": family.intent_template})
        assert tuple(task.sites) == family.sites and item["require_login"] is require_login, item
        assert item["start_url"].startswith(start_url) if own_start_urls else item["start_url"] == start_url, item
        assert "{{" not in task.intent
        assert set(item["eval"]["eval_types"]) <= {"string_match", "url_match", "program_html"}


def check_evaluator_mix(families: Sequence[TaskFamily], instances: Instances, *, site_url: str,
                        string_match: tuple[float, float], url_match: tuple[float, float],
                        program_html: tuple[float, float]) -> None:
    """The shares of the families' evaluators (their first instances') lie within the bounds, as in
    WebArena-Lite, and the references use what WebArena's do: every answer kind, url notes, helpers."""
    kinds = [tuple(instances[f.name][0]["eval"]["eval_types"]) for f in families]
    for name, (low, high) in (("string_match", string_match), ("url_match", url_match), ("program_html", program_html)):
        assert low <= sum(name in k for k in kinds) / len(kinds) <= high, (name, kinds)
    evals = [item["eval"] for family in families for item in instances[family.name]]
    answers = [e["reference_answers"] for e in evals if e["reference_answers"]]
    assert any("exact_match" in a for a in answers)
    assert any(" |OR| " in m for a in answers for m in a.get("must_include", []))
    assert any(isinstance(a.get("fuzzy_match"), list) for a in answers)
    assert any(a.get("fuzzy_match") == "N/A" for a in answers)
    assert any(e.get("url_note") == "GOLD in PRED" and "?" in e["reference_url"] for e in evals)
    targets = [t for e in evals for t in e["program_html"]]
    urls = {t["url"] for t in targets}
    assert "last" in urls and any(u.startswith(site_url + "/") for u in urls)
    helpers = {re.match(r"func:(\w+)", text).group(1)
               for t in targets for text in (t["url"], t["locator"]) if text.startswith("func:")}
    assert helpers and helpers <= set(registered_functions())


def check_oracle_solves(family: TaskFamily, items: Sequence[dict[str, Any]], *, backend: str = "direct") -> list:
    """The family's oracle earns the full reward on each item; returns the episodes."""
    episodes = []
    for item in items:
        episode = run_oracle(item, family.solve, backend=backend)
        assert episode.reward == 1.0, (item["intent"], episode.actions, episode.info.get("reward_components"))
        episodes.append(episode)
    return episodes


def check_wrong_answers_earn_nothing(items: Sequence[dict[str, Any]], wrong: str = "I am not sure", *,
                                     stall_only_string_match: bool = False) -> None:
    """Exiting at once with ``wrong`` earns nothing, nor does stalling until the step limit
    (with ``stall_only_string_match``, checked only on string_match tasks)."""
    for item in items:
        assert run_answer(item, wrong).reward == 0.0, item["intent"]
        if not stall_only_string_match or "string_match" in item["eval"]["eval_types"]:
            assert run_answer(item, None).reward == 0.0, item["intent"]
