"""Multi-turn rollouts: many episodes at once, one env (and one world) each.

Each turn, the contexts of all live episodes are generated as one batch, then their envs
step concurrently. Every turn keeps the exact token ids of its context and of its sampled
action, so training rows can be rebuilt without re-tokenising what the model produced.

The envs sit behind :class:`~webarena_gym.evaluation.envs.EnvGroup`, a list of envs stepped
by a thread pool, rather than ``webarena_gym.make_vec``: a Gymnasium vector env steps every
env each call and autoresets finished ones, while a rollout batch steps only its live
episodes and keeps finished ones as they ended. Anything with ``ensure``/``reset``/``step``/
``close`` of the same shape plugs in through :func:`make_env_group`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from webarena_gym.evaluation.envs import EnvGroup

from .chat import prompt_ids

logger = logging.getLogger(__name__)

#: ``generate(prompt_ids_batch) -> completion_ids_batch``: one sampled turn per context.
Generate = Callable[[list[list[int]]], list[list[int]]]


@dataclass
class RolloutClock:
    """Where a rollout batch's time went: generating actions vs stepping envs (seconds), and tokens sampled."""

    generation_s: float = 0.0
    env_s: float = 0.0
    generated_tokens: int = 0

    @property
    def tokens_per_s(self) -> float:
        """Sampled tokens per second of generation."""
        return self.generated_tokens / self.generation_s if self.generation_s > 0 else 0.0


@dataclass
class TurnSample:
    """One turn: its context (messages and their exact tokens), the sampled tokens, the env's verdict.

    ``messages`` is the compressed-history context (current page in full); ``action`` the
    decoded text the env received; ``error`` the env's ``last_action_error`` for it.
    """

    messages: list[dict[str, str]]
    prompt_ids: list[int]
    completion_ids: list[int]
    action: str
    error: str = ""


@dataclass
class Trajectory:
    """One episode of one rollout; ``reward`` is the env's final reward (0 or 1)."""

    task_id: int
    intent: str
    sites: list[str]
    turns: list[TurnSample] = field(default_factory=list)
    reward: float = 0.0
    terminated: bool = False
    truncated: bool = False
    answer: str | None = None

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    @property
    def action_tokens(self) -> int:
        return sum(len(t.completion_ids) for t in self.turns)


def make_env_group(agent: Any, *, workers: int = 4) -> EnvGroup:
    """Envs for the agent settings of a config (:class:`trainers.config.AgentArguments`)."""
    from webarena_gym.env import WebArenaEnv
    from webarena_gym.wrappers import CompressedHistory

    kwargs = agent.env_kwargs()

    def make_env() -> Any:
        env = WebArenaEnv(**kwargs)
        return CompressedHistory(env, thinking=agent.thinking, keep_last=agent.keep_last_observations)

    return EnvGroup(make_env, workers=workers)


def collect_rollouts(
    envs: EnvGroup,
    task_ids: Sequence[int],
    generate: Generate,
    tokenizer: Any,
    *,
    progress: Any = None,
    clock: RolloutClock | None = None,
) -> list[Trajectory]:
    """Play one episode per entry of ``task_ids`` (repeat an id for a group), all at once.

    Args:
        envs: Where the episodes run; env ``i`` plays ``task_ids[i]``.
        task_ids: Task of each episode.
        generate: Samples one turn for each context of a batch.
        tokenizer: Renders each context with its chat template.
        progress: Optional tqdm-like bar, advanced once per finished episode.
        clock: Optional :class:`RolloutClock` that accumulates generation and env time.
    """
    clock = clock if clock is not None else RolloutClock()
    trajectories = []
    contexts: list[list[dict[str, str]]] = []
    started = time.perf_counter()
    resets = envs.reset(task_ids)
    clock.env_s += time.perf_counter() - started
    for task_id, (_prompt, info) in zip(task_ids, resets, strict=True):
        trajectories.append(Trajectory(int(task_id), info["intent"], list(info["sites"])))
        contexts.append(info["messages"])
    while True:
        live = [i for i, t in enumerate(trajectories) if not t.done]
        if not live:
            break
        batch = [prompt_ids(tokenizer, contexts[i]) for i in live]
        started = time.perf_counter()
        completions = generate(batch)
        clock.generation_s += time.perf_counter() - started
        clock.generated_tokens += sum(len(ids) for ids in completions)
        # The env gets the text without special tokens; the sampled ids are kept as they are.
        actions = tokenizer.batch_decode(completions, skip_special_tokens=True)
        started = time.perf_counter()
        results = envs.step(live, actions)
        clock.env_s += time.perf_counter() - started
        for i, ids, context_ids, action, (_prompt, reward, terminated, truncated, info) in zip(
            live, completions, batch, actions, results, strict=True
        ):
            trajectory = trajectories[i]
            trajectory.turns.append(
                TurnSample(contexts[i], context_ids, list(ids), action, info.get("last_action_error", ""))
            )
            contexts[i] = info["messages"]
            if terminated or truncated:
                trajectory.reward, trajectory.answer = float(reward), info.get("answer")
                trajectory.terminated, trajectory.truncated = bool(terminated), bool(truncated)
                if progress is not None:
                    progress.update(1)
    return trajectories
