"""Vector envs: many WebArena envs stepped concurrently, each with its own world and session.

:class:`WebArenaVectorBase` is the one vector API, whatever hosts the envs:
:class:`WebArenaVectorEnv` keeps them in this process on a thread pool, and
:class:`~webarena_gym.vector_workers.ProcessVectorEnv` spreads them over worker processes.
On the Playwright backend the envs of one process share its browser (a context each) and
their page I/O overlaps on the browser loop; on the direct backend each env has its own
world, and its steps are CPU-bound Python that threads serialize on the GIL.

Two autoreset modes (``metadata["autoreset_mode"]``):

- ``AutoresetMode.NEXT_STEP`` (default): the step after an episode ends returns the first
  observation of the next one (reward 0, no ending); group mode keeps the group's task.
- ``AutoresetMode.DISABLED``: an ended env stays ended until the caller resets it with
  ``reset(options={"reset_mask": mask})`` (Gymnasium's reset masks); only masked envs reset.

In both modes an action of ``None`` leaves that env alone for the step: it is not stepped,
its observation is its last one, its reward 0, its ending flags False, and its entries in
the infos are masked out (``infos["_<key>"][i]`` is False). This is how a rollout batch or
an evaluation steps only its live episodes, and how two halves of a batch step in turns
while the policy generates for the other half (``step_async`` one half, generate,
``step_wait``). Group mode runs every env on the same task in separate worlds, as GRPO
needs for the G rollouts of one prompt.

After ``close()`` (which may be called again), ``reset``, ``step``, ``step_async`` and
``call`` raise :class:`~webarena_gym.errors.EnvClosedError`: make a new vector env.

An env whose page crashes or hangs (an :class:`~webarena_gym.errors.InfrastructureError`)
ends its episode truncated, with ``info["episode_end_reason"]`` saying why; it gets a
fresh session at its next reset, and the other envs carry on.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import os
import pickle
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .arguments import check_flag
from .errors import ConfigurationError, EnvClosedError, InfrastructureError

logger = logging.getLogger(__name__)

#: One env's result of a step or reset: ``(observation, reward, terminated, truncated, info)``.
EnvResult = tuple[Any, float, bool, bool, dict[str, Any]]


# -- hosting one env: shared by the thread pool here and the worker processes ---------------
@dataclass(frozen=True)
class EnvFactory:
    """A picklable recipe for one env: ``WebArenaEnv(**env_kwargs)``, optionally wrapped.

    ``wrap`` must pickle too to reach worker processes: a class (``CompressedHistory``), a
    module-level function or a ``functools.partial`` of one.
    """

    env_kwargs: dict[str, Any] = field(default_factory=dict)
    wrap: Callable[[gym.Env], gym.Env] | None = None

    def __call__(self) -> gym.Env:
        from .env import WebArenaEnv

        env = WebArenaEnv(**self.env_kwargs)
        return self.wrap(env) if self.wrap is not None else env


def env_factory(make_env: Callable[[], gym.Env] | None, wrap: Callable[[gym.Env], gym.Env] | None,
                env_kwargs: dict[str, Any]) -> Callable[[], gym.Env]:
    """``make_env``, or an :class:`EnvFactory` of ``wrap`` and ``env_kwargs`` (not both)."""
    if make_env is not None and (wrap is not None or env_kwargs):
        raise ConfigurationError("Pass either make_env or env keyword arguments (and wrap), not both.")
    return make_env if make_env is not None else EnvFactory(dict(env_kwargs), wrap)


def sendable_env_factory(make_env: Callable[[], gym.Env] | None, wrap: Callable[[gym.Env], gym.Env] | None,
                         env_kwargs: dict[str, Any], *, hosts: str) -> Callable[[], gym.Env]:
    """:func:`env_factory`, refused with a clear error unless it pickles (to reach ``hosts``, e.g. "the Ray actors")."""
    factory = env_factory(make_env, wrap, env_kwargs)
    try:
        pickle.dumps(factory)
    except Exception as exc:  # pickling fails in many ways (PicklingError, AttributeError, TypeError)
        raise ConfigurationError(
            f"The env factory must pickle to reach {hosts}, and {factory!r} does not ({exc}). "
            "Use a class, a module-level function or functools.partial instead of a lambda or closure."
        ) from exc
    return factory


def step_or_end(env: Any, action: Any, last_observation: Any) -> EnvResult:
    """``env.step(action)``, except that an infrastructure fault ends the episode truncated instead of raising."""
    try:
        return env.step(action)
    except InfrastructureError as exc:
        logger.warning("Env in process %d: %s; the episode ends and the env gets a new session at reset",
                       os.getpid(), exc)
        info = {"episode_end_reason": f"crash: {exc}", "last_action_error": str(exc)}
        return last_observation, 0.0, False, True, info


def run_entry(env: Any, kind: str, argument: Any, last_observation: Any) -> EnvResult:
    """One env's share of a vector step: ``kind`` ``"step"`` (argument: the action) or ``"reset"`` (``(seed, options)``).

    A reset gives reward 0 and no ending, which is also the shape of a next-step autoreset.
    """
    if kind == "reset":
        seed, options = argument
        observation, info = env.reset(seed=seed, options=options)
        return observation, 0.0, False, False, info
    return step_or_end(env, argument, last_observation)


def call_env(env: Any, name: str, args: Sequence[Any] = (), kwargs: dict[str, Any] | None = None) -> Any:
    """Call a method of ``env`` (or read an attribute), found through its wrappers."""
    attribute = env.get_wrapper_attr(name)
    return attribute(*args, **(kwargs or {})) if callable(attribute) else attribute


def close_envs(envs: Sequence[Any]) -> None:
    """Close every env, logging (not raising) a failure so that the others still close."""
    for env in envs:
        try:
            env.close()
        except Exception:  # closing the others matters more than one env's close error
            logger.exception("Closing an env failed (process %d)", os.getpid())


def env_info(infos: dict[str, Any], index: int) -> dict[str, Any]:
    """Env ``index``'s own info out of Gymnasium vector infos (only the keys it reported, as Python values).

    >>> env_info({"step": np.array([3, 0]), "_step": np.array([True, False])}, 0)
    {'step': 3}
    """
    info: dict[str, Any] = {}
    for key, values in infos.items():
        mask = infos.get(f"_{key}")
        if mask is None or not mask[index]:
            continue
        value = env_info(values, index) if isinstance(values, dict) else values[index]
        info[key] = value.item() if isinstance(value, np.generic) else value
    return info


def reset_tasks(envs: VectorEnv, tasks: dict[int, Any]) -> dict[str, Any]:
    """Reset only the envs ``tasks`` names, env ``i`` on task ``tasks[i]`` (one reset-mask reset); the vector infos."""
    mask = np.zeros(envs.num_envs, dtype=bool)
    ids: list[Any] = [None] * envs.num_envs
    for i, task_id in tasks.items():
        mask[i], ids[i] = True, task_id
    _observations, infos = envs.reset(options={"reset_mask": mask, "task_ids": ids})
    return infos


# -- the vector API ------------------------------------------------------------------------
class WebArenaVectorBase(VectorEnv):
    """The vector API of the WebArena envs (see the module docstring); subclasses host the envs.

    A host implements ``_send(entries)`` (start ``{env index: (kind, argument)}``, see
    :func:`run_entry`, and return at once), ``_collect(timeout)`` (their results by env
    index), ``call`` and ``close_extras``.
    """

    _stepping = False

    def _init_vector(self, num_envs: int, group: bool, autoreset_mode: AutoresetMode | str) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ConfigurationError(f"num_envs must be a positive integer, got {num_envs!r}.")
        group = check_flag("group", group)
        mode = AutoresetMode(autoreset_mode)
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.DISABLED):
            raise ConfigurationError(f"autoreset_mode must be NEXT_STEP or DISABLED, got {mode!r}.")
        self.num_envs, self.group = num_envs, group
        self.metadata = {"autoreset_mode": mode}
        self.autoreset_mode = mode
        self.closed = True  # until the host has made its envs (a failed start has nothing to close)
        self._ended = np.zeros(num_envs, dtype=bool)
        self._observations: list[Any] = [None] * num_envs
        self._group_task: Any = None
        self.tasks: list[Any] | None = None

    def _init_spaces(self, observation_space: gym.Space, action_space: gym.Space, tasks: list[Any] | None) -> None:
        self.single_observation_space, self.single_action_space = observation_space, action_space
        self.observation_space = batch_space(observation_space, self.num_envs)
        self.action_space = batch_space(action_space, self.num_envs)
        self.tasks = tasks

    @property
    def task_ids(self) -> list[Any]:
        """The ids of the envs' tasks."""
        return [task.task_id for task in self.tasks or []]

    @property
    def waiting(self) -> bool:
        """Whether a ``step_async`` is in flight (its ``step_wait`` not called yet)."""
        return self._stepping

    # -- reset ------------------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        """Reset every env, or only those of ``options["reset_mask"]``.

        ``options["task_id"]``: one task for all the reset envs; ``options["task_ids"]``: one
        per env (length ``num_envs``; entries of envs not reset are ignored). Other options
        (e.g. ``keep_task``) reach every reset env. Infos hold entries of the reset envs only.
        """
        self._require_idle("reset")
        if options is not None and not isinstance(options, Mapping):
            raise ConfigurationError(f"options must be a dict such as {{'task_ids': [...]}} or None, got {options!r:.80}.")
        seeds = _seeds(seed, self.num_envs)
        super().reset(seed=seed if isinstance(seed, int) else None)
        options = dict(options or {})
        mask = _reset_mask(options.pop("reset_mask", None), self.num_envs)
        per_env = self._task_options(options, mask)
        self._send({int(i): ("reset", (seeds[i], per_env[i])) for i in np.flatnonzero(mask)})
        results = self._collect(None)
        infos: dict[str, Any] = {}
        for i, (observation, _reward, _terminated, _truncated, info) in sorted(results.items()):
            self._observations[i] = observation
            infos = self._add_info(infos, info, i)
        self._ended[mask] = False
        return tuple(self._observations), infos

    def _task_options(self, options: dict[str, Any], mask: np.ndarray) -> list[dict[str, Any]]:
        """Each env's reset options: its task id (explicit, or the group's) and the other options."""
        if "task_ids" in options:
            ids = options.pop("task_ids")
            if isinstance(ids, (str, bytes)) or not isinstance(ids, (Sequence, np.ndarray)):
                raise ConfigurationError(f"options['task_ids'] must be a list of {self.num_envs} task ids, got {ids!r:.80}.")
            ids = list(ids)
            if len(ids) != self.num_envs:
                raise ConfigurationError(f"options['task_ids'] needs {self.num_envs} ids, got {len(ids)}.")
            return [dict(options, task_id=task_id) if task_id is not None else dict(options) for task_id in ids]
        task_id = options.pop("task_id", None)
        if self.group:
            if task_id is None and (mask.all() or self._group_task is None):
                ids = self.task_ids
                task_id = ids[int(self.np_random.integers(len(ids)))]
            self._group_task = task_id if task_id is not None else self._group_task
            task_id = self._group_task
        return [dict(options, task_id=task_id) if task_id is not None else dict(options) for _ in range(self.num_envs)]

    # -- step -------------------------------------------------------------------------
    def step(self, actions: Sequence[Any]):
        """``step_async(actions)`` then ``step_wait()``."""
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions: Sequence[Any]) -> None:
        """Start one action per env (``None``: leave that env alone) and return at once."""
        self._require_idle("step_async")
        if len(actions) != self.num_envs:
            raise ConfigurationError(f"step_async() needs {self.num_envs} actions (None to skip an env), got {len(actions)}.")
        entries: dict[int, tuple[str, Any]] = {}
        for i, action in enumerate(actions):
            if action is None:
                continue
            if not self._ended[i]:
                entries[i] = ("step", action)
            elif self.autoreset_mode == AutoresetMode.NEXT_STEP:
                options = {"task_id": self._group_task} if self.group and self._group_task is not None else None
                entries[i] = ("reset", (None, options))
            else:
                raise ConfigurationError(
                    f"Env {i}'s episode has ended and autoreset is disabled: reset it with "
                    "reset(options={'reset_mask': mask}) or pass None as its action."
                )
        self._send(entries)

    def step_wait(self, timeout: float | None = None):
        """The results of the last ``step_async``, for all envs (skipped ones as the module docstring says).

        Raises:
            multiprocessing.TimeoutError: ``timeout`` seconds passed first (call again to keep waiting).
        """
        if not self._stepping:
            self._require_idle("step_wait")  # closed: say so
            raise ConfigurationError("step_wait() called without a step_async() before it.")
        results = self._collect(timeout)
        rewards = np.zeros(self.num_envs)
        terminations = np.zeros(self.num_envs, dtype=bool)
        truncations = np.zeros(self.num_envs, dtype=bool)
        infos: dict[str, Any] = {}
        for i, (observation, reward, terminated, truncated, info) in sorted(results.items()):
            self._observations[i] = observation
            rewards[i], terminations[i], truncations[i] = reward, terminated, truncated
            self._ended[i] = bool(terminated or truncated)
            infos = self._add_info(infos, info, i)
        return tuple(self._observations), rewards, terminations, truncations, infos

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """An attribute of every env (found through wrappers)."""
        return self.call(name)

    def __enter__(self) -> WebArenaVectorBase:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    # -- what a host provides ------------------------------------------------------------
    def _send(self, entries: dict[int, tuple[str, Any]]) -> None:
        raise NotImplementedError

    def _collect(self, timeout: float | None) -> dict[int, EnvResult]:
        raise NotImplementedError

    def _require_idle(self, what: str) -> None:
        if self.closed:
            raise EnvClosedError(
                f"{what}() on a closed vector env: close() shut its envs down for good. Make a new one with "
                "webarena_gym.make_vec(...) or gym.make_vec('WebArenaLite-v0', ...)."
            )
        if self._stepping:
            raise ConfigurationError(f"{what}() while a step_async() waits for its step_wait().")


class WebArenaVectorEnv(WebArenaVectorBase):
    """``num_envs`` WebArena envs in this process, stepped concurrently on a thread pool.

    Args:
        num_envs: Number of envs.
        group: Run all envs on the same task (reset picks one task for the whole group).
        wrap: Optional function applied to each env (e.g. ``CompressedHistory``).
        make_env: A ``() -> env`` used instead of ``WebArenaEnv(**env_kwargs)``.
        autoreset_mode: ``AutoresetMode.NEXT_STEP`` or ``AutoresetMode.DISABLED``.
        **env_kwargs: Passed to :class:`~webarena_gym.env.WebArenaEnv`.

    The envs are in ``self.envs``, reachable directly (their pages, worlds, backends).
    """

    def __init__(self, num_envs: int, *, group: bool = False, wrap: Callable[[gym.Env], gym.Env] | None = None,
                 make_env: Callable[[], gym.Env] | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP, **env_kwargs: Any):
        self._init_vector(num_envs, group, autoreset_mode)
        factory = env_factory(make_env, wrap, env_kwargs)
        self.executor = ThreadPoolExecutor(max_workers=num_envs, thread_name_prefix="webarena-env")
        self._futures: dict[int, Future] = {}
        made = [self.executor.submit(factory) for _ in range(num_envs)]
        wait(made)
        self.envs: list[gym.Env] = [job.result() for job in made if job.exception() is None]
        if len(self.envs) < num_envs:  # close the envs that were made before raising why one was not
            close_envs(self.envs)
            self.executor.shutdown(wait=True)
            raise next(job.exception() for job in made if job.exception() is not None)
        first = self.envs[0]
        self._init_spaces(first.observation_space, first.action_space, getattr(first.unwrapped, "tasks", None))
        self.closed = False

    def _send(self, entries: dict[int, tuple[str, Any]]) -> None:
        self._futures = {i: self.executor.submit(run_entry, self.envs[i], kind, argument, self._observations[i])
                         for i, (kind, argument) in entries.items()}
        self._stepping = True

    def _collect(self, timeout: float | None) -> dict[int, EnvResult]:
        # Every env finishes before an error propagates: closing envs while other threads
        # still use their worlds would crash inside SQLite.
        _done, pending = wait(list(self._futures.values()), timeout)
        if pending:
            raise mp.TimeoutError(f"{len(pending)} envs did not finish within {timeout} s.")
        futures, self._futures, self._stepping = self._futures, {}, False
        for i in sorted(futures):
            if futures[i].exception() is not None:
                raise futures[i].exception()
        return {i: job.result() for i, job in futures.items()}

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call a method (or read an attribute, through wrappers) of every env."""
        self._require_idle("call")
        return tuple(self.executor.map(lambda env: call_env(env, name, args, kwargs), self.envs))

    def close_extras(self, **kwargs: Any) -> None:
        wait(list(self._futures.values()))
        self._futures, self._stepping = {}, False
        list(self.executor.map(lambda env: close_envs([env]), self.envs))
        self.executor.shutdown(wait=True)


def _seeds(seed: Any, num_envs: int) -> list[int | None]:
    """Each env's reset seed: ``seed + i`` for one int, or a sequence of ``num_envs`` ints or Nones."""
    def valid(value: Any) -> bool:
        return value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0)

    if isinstance(seed, np.ndarray) and seed.ndim == 1 and np.issubdtype(seed.dtype, np.integer):
        seed = seed.tolist()
    if seed is None or valid(seed):
        return [None if seed is None else seed + i for i in range(num_envs)]
    if isinstance(seed, (list, tuple)) and all(valid(value) for value in seed):
        if len(seed) != num_envs:
            raise ConfigurationError(f"Got {len(seed)} seeds for {num_envs} envs.")
        return list(seed)
    raise ConfigurationError(
        f"seed must be a non-negative int, None, or a list of {num_envs} of them (one per env); got {seed!r:.80}.")


def _reset_mask(mask: Any, num_envs: int) -> np.ndarray:
    if mask is None:
        return np.ones(num_envs, dtype=bool)
    if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (num_envs,):
        raise ConfigurationError(
            f"options['reset_mask'] must be a numpy bool array of shape ({num_envs},), got {mask!r}."
        )
    if not mask.any():
        raise ConfigurationError("options['reset_mask'] must select at least one env.")
    return mask
