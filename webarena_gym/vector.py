"""Vector envs: many WebArena envs stepped concurrently, each with its own world and session.

On the Playwright backend all envs share one browser (a context each) and their page
I/O overlaps on the browser loop; on the direct backend each env has its own world
in-process. Gymnasium 1.x next-step autoreset: the step after an episode ends returns
the first observation of the next episode (reward 0, not terminated, not truncated).

Group mode runs every env on the same task in separate worlds, as GRPO needs for the
G rollouts of one prompt.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .env import WebArenaEnv
from .errors import ConfigurationError, InfrastructureError

logger = logging.getLogger(__name__)


class WebArenaVectorEnv(VectorEnv):
    """``num_envs`` WebArena envs stepped concurrently on a thread pool.

    Args:
        num_envs: Number of envs.
        group: Run all envs on the same task (reset picks one task for the whole group).
        wrap: Optional function applied to each env (e.g. ``CompressedHistory``).
        **env_kwargs: Passed to :class:`~webarena_gym.env.WebArenaEnv`.

    An env whose browser page crashes ends its episode truncated, with
    ``info["episode_end_reason"]`` saying why; its session is recreated at the next
    reset, and the other envs carry on.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, *, group: bool = False, wrap: Callable[[gym.Env], gym.Env] | None = None,
                 **env_kwargs: Any):
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigurationError(f"num_envs must be a positive integer, got {num_envs!r}.")
        self.num_envs = num_envs
        self.group = group
        self.executor = ThreadPoolExecutor(max_workers=num_envs, thread_name_prefix="webarena-env")
        make_one = (lambda: wrap(WebArenaEnv(**env_kwargs))) if wrap else (lambda: WebArenaEnv(**env_kwargs))
        self.envs: list[gym.Env] = list(self.executor.map(lambda _: make_one(), range(num_envs)))
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._needs_reset = np.zeros(num_envs, dtype=bool)
        self._observations: list[str] = [""] * num_envs
        self._group_task: Any = None
        self.closed = False

    @property
    def task_ids(self) -> list[Any]:
        return [t.task_id for t in self.envs[0].unwrapped.tasks]

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None):
        """Reset every env. ``options["task_id"]``: one task for all; ``options["task_ids"]``: one per env.

        ``options["keep_task"]``: each env keeps its task across autoresets (group mode always does).
        """
        super().reset(seed=seed)
        seeds = seed if isinstance(seed, (list, tuple)) else [None if seed is None else seed + i for i in range(self.num_envs)]
        if len(seeds) != self.num_envs:
            raise ConfigurationError(f"Got {len(seeds)} seeds for {self.num_envs} envs.")
        per_env = self._task_options(options or {})
        results = list(self.executor.map(lambda i: self.envs[i].reset(seed=seeds[i], options=per_env[i]), range(self.num_envs)))
        infos: dict[str, Any] = {}
        for i, (observation, info) in enumerate(results):
            self._observations[i] = observation
            infos = self._add_info(infos, info, i)
        self._needs_reset[:] = False
        return tuple(self._observations), infos

    def _task_options(self, options: dict[str, Any]) -> list[dict[str, Any]]:
        keep = {"keep_task": True} if options.get("keep_task") else {}
        return [dict(per_env, **keep) for per_env in self._chosen_tasks(options)]

    def _chosen_tasks(self, options: dict[str, Any]) -> list[dict[str, Any]]:
        if "task_ids" in options:
            ids = list(options["task_ids"])
            if len(ids) != self.num_envs:
                raise ConfigurationError(f"options['task_ids'] needs {self.num_envs} ids, got {len(ids)}.")
            return [{"task_id": task_id} for task_id in ids]
        task_id = options.get("task_id")
        if task_id is None and self.group:
            ids = self.task_ids
            task_id = ids[int(self.np_random.integers(len(ids)))]
        if self.group:
            self._group_task = task_id
        return [{"task_id": task_id} if task_id is not None else {} for _ in range(self.num_envs)]

    def step(self, actions: Sequence[str]):
        if len(actions) != self.num_envs:
            raise ConfigurationError(f"step() needs {self.num_envs} actions, got {len(actions)}.")
        results = list(self.executor.map(lambda i: self._step_one(i, actions[i]), range(self.num_envs)))
        observations, rewards, terminations, truncations = [], np.zeros(self.num_envs), np.zeros(self.num_envs, bool), np.zeros(self.num_envs, bool)
        infos: dict[str, Any] = {}
        for i, (observation, reward, terminated, truncated, info) in enumerate(results):
            observations.append(observation)
            rewards[i], terminations[i], truncations[i] = reward, terminated, truncated
            infos = self._add_info(infos, info, i)
        self._observations = observations
        self._needs_reset = terminations | truncations
        return tuple(observations), rewards, terminations, truncations, infos

    def _step_one(self, index: int, action: str):
        env = self.envs[index]
        if self._needs_reset[index]:
            options = {"task_id": self._group_task} if self.group and self._group_task is not None else None
            observation, info = env.reset(options=options)
            return observation, 0.0, False, False, info
        try:
            return env.step(action)
        except InfrastructureError as exc:
            logger.warning("Env %d: %s; its episode ends and its session will be recreated", index, exc)
            info = {"episode_end_reason": f"crash: {exc}", "last_action_error": str(exc)}
            return self._observations[index], 0.0, False, True, info

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call a method (or read an attribute) of every env."""
        def one(env: gym.Env) -> Any:
            attribute = getattr(env, name)
            return attribute(*args, **kwargs) if callable(attribute) else attribute

        return tuple(self.executor.map(one, self.envs))

    def close_extras(self, **kwargs: Any) -> None:
        list(self.executor.map(lambda env: env.close(), self.envs))
        self.executor.shutdown(wait=True)


def make_vec(num_envs: int, *, group: bool = False, wrap: Callable[[gym.Env], gym.Env] | None = None,
             **env_kwargs: Any) -> WebArenaVectorEnv:
    """``num_envs`` concurrent WebArena envs (see :class:`WebArenaVectorEnv`).

    >>> envs = make_vec(4, group=True, suite="embedded", split="train")  # doctest: +SKIP
    >>> observations, infos = envs.reset(seed=0)                          # doctest: +SKIP
    >>> len(set(infos["task_id"]))                                        # doctest: +SKIP
    1
    """
    return WebArenaVectorEnv(num_envs, group=group, wrap=wrap, **env_kwargs)
