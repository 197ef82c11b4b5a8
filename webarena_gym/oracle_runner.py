"""Playing the task families' oracles in an env: the scripted experts behind the
demonstrations (:mod:`.demos`), the baselines and the family tests.

:func:`play` plays an oracle on one task of an env and returns the :class:`Episode`;
:func:`run_oracle` does it in a fresh embedded env for one task dict; :func:`run_answer`
plays "exit at once with this answer" (a wrong answer must earn 0), and
``run_answer(task, None)`` lets the step limit run out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, ActionName
from .env import WebArenaEnv
from .tasks.oracle import Oracle, OracleContext, OracleError


@dataclass
class Episode:
    """One played episode: ``observations[i]`` and ``urls[i]`` are what ``actions[i]`` was taken on."""

    reward: float
    actions: list[str] = field(default_factory=list)
    observations: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)
    terminated: bool = False


def play(env: Any, task_id: Any, solve: Oracle, task: dict[str, Any]) -> Episode:
    """Play ``solve`` on ``task_id`` in ``env``; oracle errors carry the page they failed on."""
    observation, info = env.reset(options={"task_id": task_id})
    ctx = OracleContext(task)
    ctx.update(observation, info, env.unwrapped.page)
    episode = Episode(reward=0.0, observations=[observation])
    steps = solve(ctx)
    while True:
        try:
            action = next(steps)
        except StopIteration:
            raise OracleError(f"Oracle for task {task_id} stopped without exit() on {ctx.url}") from None
        episode.urls.append(ctx.url)
        observation, reward, terminated, truncated, info = env.step(action)
        episode.actions.append(action)
        episode.observations.append(observation)
        episode.errors.append(info["last_action_error"])
        if info["last_action_error"] and not (terminated or truncated):
            raise OracleError(f"Oracle action {action} failed on task {task_id}: {info['last_action_error']}")
        ctx.update(observation, info, env.unwrapped.page)
        if terminated or truncated:
            episode.reward, episode.info, episode.terminated = reward, info, terminated
            return episode


def run_oracle(task: dict[str, Any], solve: Oracle, *, backend: str = "direct", max_steps: int = 30) -> Episode:
    """Play an oracle on one task dict (placeholders unresolved) in a fresh embedded env."""
    task = dict(task, task_id=task.get("task_id", 0))
    env = WebArenaEnv(suite="embedded", backend=backend, tasks=[task], max_steps=max_steps)
    try:
        resolved = env.tasks[0].to_dict()
        return play(env, task["task_id"], solve, resolved)
    finally:
        env.close()


def run_answer(task: dict[str, Any], answer: str | None, *, backend: str = "direct", max_steps: int = 3) -> Episode:
    """Exit at once with ``answer``; with None, wait until the step limit truncates the episode."""
    def solve(ctx: OracleContext) -> Iterator[str]:
        if answer is not None:
            yield ctx.exit(answer)
        while True:
            yield Action(ActionName.WAIT).to_string()

    return run_oracle(task, solve, backend=backend, max_steps=max_steps)
