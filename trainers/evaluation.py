"""Success rate of a local model on a suite, through webarena_gym's evaluation runner.

>>> from trainers.config import AgentArguments                      # doctest: +SKIP
>>> results = evaluate_model(model, tokenizer, AgentArguments(split="test", max_turns=30))  # doctest: +SKIP
>>> print(format_success_table({"model": results}))                  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from webarena_gym.evaluation import EpisodeResult, RunWriter, make_agent_envs, run_evaluation, success_rate

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
    workers: int | None = None,
    envs: Any = None,
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
        episodes_at_once: Episodes in flight, generated as one batch (at most the envs' count when ``envs`` is given).
        workers: Env worker processes (0: the envs stay in this process; None:
            :func:`webarena_gym.vector_workers.default_workers` chooses).
        envs: Reuse these envs, a :func:`~webarena_gym.evaluation.make_agent_envs` vector env
            (default: built from ``agent``, closed at the end).
        writer: Append each finished episode to this run file (and skip the tasks it holds).
        progress: Show a progress bar.
        desc: Its label.
    """
    policy = LocalModelPolicy(model, tokenizer, max_new_tokens=max_new_tokens, temperature=temperature,
                              batch_size=episodes_at_once)
    own_envs = envs is None
    if own_envs:
        count = episodes_at_once if task_ids is None else max(1, min(episodes_at_once, len(set(task_ids))))
        envs = make_agent_envs(count, workers=workers, **agent.context_kwargs(), **agent.env_kwargs())
    try:
        task_ids = envs.task_ids if task_ids is None else task_ids
        return run_evaluation(envs, policy, task_ids, episodes_in_flight=min(episodes_at_once, envs.num_envs),
                              writer=writer, progress=progress, desc=desc)
    finally:
        if own_envs:
            envs.close()
