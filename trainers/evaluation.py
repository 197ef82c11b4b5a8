"""Success rate of a model on a suite: batched episodes, results in webarena_gym's evaluation format.

>>> from trainers.config import AgentArguments                      # doctest: +SKIP
>>> results = evaluate_model(model, tokenizer, AgentArguments(split="test", max_turns=30))  # doctest: +SKIP
>>> print(format_success_table({"model": results}))                  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from webarena_gym.evaluation import EpisodeResult

from .config import AgentArguments
from .policy import Sampler
from .rollout import Trajectory, collect_rollouts, make_rollout_envs


def trajectory_result(trajectory: Trajectory) -> EpisodeResult:
    """A trajectory as webarena_gym's :class:`EpisodeResult` (for success tables and JSONL)."""
    return EpisodeResult(
        task_id=trajectory.task_id,
        sites=list(trajectory.sites),
        reward=trajectory.reward,
        steps=len(trajectory.turns),
        answer=trajectory.answer,
        actions=[turn.action for turn in trajectory.turns],
        errors=[turn.error for turn in trajectory.turns],
    )


def evaluate_model(
    model: Any,
    tokenizer: Any,
    agent: AgentArguments,
    task_ids: Sequence[int] | None = None,
    *,
    max_new_tokens: int = 128,
    temperature: float = 0.0,
    episodes_at_once: int = 16,
    workers: int | None = None,
    envs: Any = None,
    progress: bool = True,
    desc: str = "evaluate",
) -> list[EpisodeResult]:
    """Play one episode per task (greedy by default) and return the results in task order.

    Args:
        model: A causal LM (any device).
        tokenizer: Its tokenizer, with a chat template.
        agent: Suite, split, interaction limit (``max_turns``: 30 is the usual evaluation
            budget), observation budget and answer format.
        task_ids: Tasks to play (default: every task of ``agent``'s split and task_ids).
        max_new_tokens: Token limit of one turn.
        temperature: 0 for greedy decoding.
        episodes_at_once: Episodes played at once (the envs kept open).
        workers: Env worker processes (default: one per core).
        envs: Reuse these envs (default: built from ``agent``, closed at the end).
        progress: Show a progress bar.
        desc: Its label.
    """
    from tqdm.auto import tqdm

    own_envs = envs is None
    envs = envs if envs is not None else make_rollout_envs(agent, episodes_at_once, workers=workers)
    try:
        if task_ids is None:
            task_ids = [task.task_id for task in envs.tasks]
        sampler = Sampler(model, tokenizer, max_new_tokens=max_new_tokens, temperature=temperature,
                          batch_size=episodes_at_once)
        with tqdm(total=len(task_ids), desc=desc, unit="episode", disable=not progress) as bar:
            # A finished episode's env starts the next task at once: no batch waits for its slowest episode.
            trajectories = collect_rollouts(envs, list(task_ids), sampler, tokenizer, progress=bar)
        return [trajectory_result(t) for t in trajectories]
    finally:
        if own_envs:
            envs.close()


def success_rate(results: Sequence[EpisodeResult]) -> float:
    """Fraction of episodes with reward 1."""
    return sum(r.reward >= 1.0 for r in results) / max(len(results), 1)
