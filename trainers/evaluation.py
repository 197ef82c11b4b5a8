"""Success rate of a local model on a suite, through webarena_gym's evaluation runner.

>>> from trainers.config import AgentArguments                      # doctest: +SKIP
>>> results = evaluate_model(model, tokenizer, AgentArguments(split="test", max_turns=30))  # doctest: +SKIP
>>> print(format_success_table({"model": results}))                  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from webarena_gym.evaluation import EnvGroup, EpisodeResult, RunWriter, run_evaluation, success_rate

from .config import AgentArguments
from .policy import LocalModelPolicy

__all__ = ["evaluate_model", "success_rate"]


def evaluate_model(
    model: Any,
    tokenizer: Any,
    agent: AgentArguments | None,
    task_ids: Sequence[int] | None = None,
    *,
    max_new_tokens: int = 128,
    temperature: float = 0.0,
    episodes_at_once: int = 16,
    workers: int = 4,
    envs: EnvGroup | None = None,
    writer: RunWriter | None = None,
    progress: bool = True,
    desc: str = "evaluate",
) -> list[EpisodeResult]:
    """Play one episode per task (greedy by default) and return the results in task order.

    Args:
        model: A causal LM (any device).
        tokenizer: Its tokenizer, with a chat template.
        agent: Suite, split, interaction limit (``max_turns``: 30 is the usual evaluation
            budget), observation budget and answer format (unused when ``envs`` is given).
        task_ids: Tasks to play (default: every task of ``agent``'s split and task_ids).
        max_new_tokens: Token limit of one turn.
        temperature: 0 for greedy decoding.
        episodes_at_once: Episodes in flight, generated as one batch (and envs kept open).
        workers: Threads stepping the envs.
        envs: Reuse these envs (default: built from ``agent``, closed at the end).
        writer: Append each finished episode to this run file (and skip the tasks it holds).
        progress: Show a progress bar.
        desc: Its label.
    """
    policy = LocalModelPolicy(model, tokenizer, max_new_tokens=max_new_tokens, temperature=temperature,
                              batch_size=episodes_at_once)
    own_envs = envs is None
    envs = envs if envs is not None else _evaluation_envs(agent, workers=workers)
    try:
        if task_ids is None:
            envs.ensure(1)
            task_ids = [task.task_id for task in envs.envs[0].unwrapped.tasks]
        return run_evaluation(envs, policy, task_ids, episodes_in_flight=episodes_at_once, writer=writer,
                              progress=progress, desc=desc)
    finally:
        if own_envs:
            envs.close()


def _evaluation_envs(agent: AgentArguments, *, workers: int) -> EnvGroup:
    """Envs for the agent settings of a config, stepped by the runner's thread pool."""
    from webarena_gym.env import WebArenaEnv
    from webarena_gym.wrappers import CompressedHistory

    kwargs = agent.env_kwargs()

    def make_env() -> Any:
        return CompressedHistory(WebArenaEnv(**kwargs), thinking=agent.thinking, keep_last=agent.keep_last_observations)

    return EnvGroup(make_env, workers=workers)
