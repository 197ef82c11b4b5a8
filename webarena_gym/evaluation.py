"""Running agents over a suite and reporting success per site.

An agent is any callable ``policy(observation, info) -> action string``; an optional
``policy.reset(info)`` is called at the start of each episode. The oracle and a
random agent are built in (the baselines of the main job); trained models plug in
through :mod:`trainers`.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .actions import Action

Policy = Callable[[str, dict[str, Any]], str]


@dataclass
class EpisodeResult:
    """One evaluated episode (what ``--trajectories`` writes as JSONL)."""

    task_id: int
    sites: list[str]
    reward: float
    steps: int
    answer: str | None
    actions: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def site_group(self) -> str:
        return self.sites[0] if len(self.sites) == 1 else "multisite"


class RandomPolicy:
    """Clicks, types and scrolls at random, and sometimes exits with a random answer."""

    def __init__(self, seed: int = 0, exit_probability: float = 0.1):
        self.rng = random.Random(seed)
        self.exit_probability = exit_probability
        self.page = None

    def __call__(self, observation: str, info: dict[str, Any]) -> str:
        elements = self.page.elements if self.page is not None else []
        roll = self.rng.random()
        if roll < self.exit_probability:
            return Action("exit", message=self.rng.choice(["", "N/A", "0", "yes", "Done"])).to_string()
        if elements and roll < 0.75:
            element = self.rng.choice(elements)
            if element.is_text_field():
                return Action("Type", element=element.id, argument=self.rng.choice(["test", "shoes", "2023"])).to_string()
            if element.tag == "select" and element.options:
                return Action("Select Dropdown Option", element=element.id, argument=self.rng.choice(element.options)).to_string()
            return Action("Click", element=element.id).to_string()
        return Action(self.rng.choice(["Scroll Down", "Go Backward", "Wait"])).to_string()


def run_policy(env: Any, policy: Policy, task_ids: Iterable[int], *, progress: bool = True, desc: str = "episodes") -> list[EpisodeResult]:
    """Play ``policy`` once on each task id; returns one result per episode."""
    from tqdm.auto import tqdm

    results = []
    for task_id in tqdm(list(task_ids), desc=desc, unit="task", disable=not progress):
        observation, info = env.reset(options={"task_id": task_id})
        if hasattr(policy, "reset"):
            policy.reset(info)
        result = EpisodeResult(task_id, list(info["sites"]), 0.0, 0, None)
        while True:
            if hasattr(policy, "page"):
                policy.page = env.unwrapped.page
            action = policy(observation, info)
            observation, reward, terminated, truncated, info = env.step(action)
            result.actions.append(action)
            result.errors.append(info["last_action_error"])
            if terminated or truncated:
                result.reward, result.steps, result.answer = reward, info["step"], info.get("answer")
                break
        results.append(result)
    return results


def run_oracle_suite(env: Any, task_ids: Iterable[int], split: str, *, progress: bool = True) -> list[EpisodeResult]:
    """The embedded suite's scripted experts on each task (an upper bound: should be all 1.0)."""
    from tqdm.auto import tqdm

    from .tasks.embedded_suite import family_of
    from .tasks.oracle import OracleError, play

    results = []
    for task_id in tqdm(list(task_ids), desc="oracle", unit="task", disable=not progress):
        task = env.unwrapped.tasks_by_id[task_id]
        try:
            episode = play(env, task_id, family_of(task_id, split).solve, task.to_dict())
            results.append(EpisodeResult(task_id, list(task.sites), episode.reward, len(episode.actions),
                                         episode.info.get("answer"), episode.actions, episode.errors))
        except OracleError as exc:
            results.append(EpisodeResult(task_id, list(task.sites), 0.0, 0, None, errors=[str(exc)[:500]]))
    return results


def success_by_site(results: Iterable[EpisodeResult]) -> dict[str, tuple[int, int]]:
    """{site group: (successes, episodes)}, plus ``"all"``."""
    table: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for result in results:
        for key in (result.site_group, "all"):
            table[key][0] += int(result.reward >= 1.0)
            table[key][1] += 1
    return {k: (v[0], v[1]) for k, v in sorted(table.items(), key=lambda kv: (kv[0] == "all", kv[0]))}


def format_success_table(columns: dict[str, list[EpisodeResult]]) -> str:
    """A plain-text table: one row per site, one column per agent (success rate and counts)."""
    tables = {name: success_by_site(results) for name, results in columns.items()}
    sites = sorted({s for t in tables.values() for s in t}, key=lambda s: (s == "all", s))
    header = f"{'site':<16}" + "".join(f"{name:>22}" for name in columns)
    lines = [header, "-" * len(header)]
    for site in sites:
        cells = []
        for name in columns:
            wins, total = tables[name].get(site, (0, 0))
            cells.append(f"{(100 * wins / total if total else 0):6.1f}% ({wins:>3}/{total:<3})".rjust(22))
        lines.append(f"{site:<16}" + "".join(cells))
    return "\n".join(lines)


def write_results(results: Iterable[EpisodeResult], path: str | Path) -> None:
    with Path(path).open("w", encoding="utf-8") as handle:
        for result in results:
            handle.write(json.dumps(asdict(result), ensure_ascii=False) + "\n")
