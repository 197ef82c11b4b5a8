"""The envs an agent plays in: a vector env of compressed-history envs, autoreset disabled.

The evaluation runner and the trainer's rollouts use the same vector env
(:func:`webarena_gym.make_vec`): each turn only the live episodes step (the others get
``None``), and an env whose episode ended starts the next task through a reset mask.
"""

from __future__ import annotations

import functools
from typing import Any

from gymnasium.vector import AutoresetMode

from ..errors import ConfigurationError
from ..wrappers import CompressedHistory


def make_agent_envs(num_envs: int, *, workers: int | None = None, thinking: bool = False, keep_last: int = 0,
                    task_after_page: bool = False, **env_kwargs: Any) -> Any:
    """``num_envs`` envs wrapped in the agent's context (:class:`~webarena_gym.wrappers.CompressedHistory`).

    Args:
        num_envs: Envs, i.e. episodes played at once.
        workers: Worker processes hosting the envs; 0 keeps them in this process, stepped on
            threads; None: :func:`webarena_gym.vector_workers.default_workers` chooses.
        thinking: The ``<think>...</think><answer>...</answer>`` format.
        keep_last: Past observations kept in full in the context.
        task_after_page: The task after the page in every user message (WebArena's layout).
        **env_kwargs: Passed to :class:`~webarena_gym.env.WebArenaEnv` (``tasks`` included).

    >>> envs = make_agent_envs(8, suite="embedded", split="test", max_steps=30)  # doctest: +SKIP
    """
    from ..vector_workers import make_vec

    wrap = functools.partial(CompressedHistory, thinking=thinking, keep_last=keep_last,
                             task_after_page=task_after_page)
    return make_vec(num_envs, workers=workers, wrap=wrap, autoreset_mode=AutoresetMode.DISABLED, **env_kwargs)


def require_agent_envs(envs: Any) -> None:
    """Refuse a vector env that would reset finished episodes behind the caller's back."""
    if envs.metadata.get("autoreset_mode") != AutoresetMode.DISABLED:
        raise ConfigurationError(
            "These envs autoreset finished episodes; playing a list of tasks needs autoreset disabled. Make them "
            "with webarena_gym.evaluation.make_agent_envs(n, ...) or webarena_gym.make_vec(n, workers=W, "
            "autoreset_mode=AutoresetMode.DISABLED, wrap=CompressedHistory)."
        )
