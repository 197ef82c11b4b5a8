"""Envs in worker processes behind the Gymnasium 1.x vector API.

:class:`ProcessVectorEnv` spreads ``num_envs`` envs over ``workers`` processes (each hosts
a contiguous slice of the envs, so 512 rollouts on 16 cores are 16 processes of 32 envs),
and steps them with ``step_async``/``step_wait``. Every worker owns its envs: on the
direct backend their worlds, on the Playwright backend its own Chromium (one context per
env). Env steps of the direct backend are CPU-bound Python, so a thread pool serializes
them on the GIL; processes use every core.

Two autoreset modes (``metadata["autoreset_mode"]``):

- ``AutoresetMode.NEXT_STEP`` (default, as :mod:`webarena_gym.vector`): the step after an
  episode ends returns the first observation of the next one (reward 0, no ending); group
  mode keeps the group's task.
- ``AutoresetMode.DISABLED``: an ended env stays ended until the caller resets it with
  ``reset(options={"reset_mask": mask})`` (Gymnasium's reset masks); only masked envs reset.

In both modes an action of ``None`` leaves that env alone for the step: it is not stepped,
its observation is its last one, its reward 0, its ending flags False, and its entries in
the infos are masked out (``infos["_<key>"][i]`` is False). This is how a rollout batch
steps only its live episodes, and how two halves of a batch step in turns while the
policy generates for the other half (``step_async`` one half, generate, ``step_wait``).

Workers start with the ``forkserver`` method (``spawn`` where there is none), never
``fork``: the parent may hold a Playwright event loop, torch threads or open SQLite
handles that a forked child must not inherit. Scripts that create workers therefore need
the usual ``if __name__ == "__main__":`` guard. An exception in a worker comes back as the
same exception (with the worker's traceback as a note); a worker that dies is detected
through its process sentinel and raises :class:`~webarena_gym.errors.EnvWorkerError`,
never a hang.

>>> envs = ProcessVectorEnv(8, workers=2, group=True, suite="embedded")  # doctest: +SKIP
>>> observations, infos = envs.reset(seed=0)                              # doctest: +SKIP
>>> envs.step_async(['do(action="Wait")'] * 4 + [None] * 4)              # doctest: +SKIP
>>> observations, rewards, terminated, truncated, infos = envs.step_wait()  # doctest: +SKIP
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import os
import pickle
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing import connection as mp_connection
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .errors import ConfigurationError, EnvWorkerError
from .worker_loop import run_worker

logger = logging.getLogger(__name__)

START_METHODS = ("forkserver", "spawn")
#: Seconds ``close`` waits for a worker to close its envs before terminating it.
CLOSE_TIMEOUT_S = 60.0


def default_worker_count() -> int:
    """The number of cores this process may run on (the default number of env workers)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class EnvFactory:
    """A picklable recipe for one env: ``WebArenaEnv(**env_kwargs)``, optionally wrapped.

    ``wrap`` must pickle too: a class (``CompressedHistory``), a module-level function or a
    ``functools.partial`` of one.
    """

    env_kwargs: dict[str, Any] = field(default_factory=dict)
    wrap: Callable[[gym.Env], gym.Env] | None = None

    def __call__(self) -> gym.Env:
        from .env import WebArenaEnv

        env = WebArenaEnv(**self.env_kwargs)
        return self.wrap(env) if self.wrap is not None else env


class ProcessVectorEnv(VectorEnv):
    """``num_envs`` WebArena envs hosted by ``workers`` processes (see the module docstring).

    Args:
        num_envs: Number of envs.
        workers: Worker processes (default: the cores this process may use; never more than ``num_envs``).
        group: Run all envs on the same task (reset picks one task for the whole group).
        wrap: Optional picklable function applied to each env (e.g. ``CompressedHistory``).
        make_env: A picklable ``() -> env`` used instead of ``WebArenaEnv(**env_kwargs)``.
        autoreset_mode: ``AutoresetMode.NEXT_STEP`` or ``AutoresetMode.DISABLED``.
        start_method: ``"forkserver"`` or ``"spawn"`` (default: forkserver where available).
        **env_kwargs: Passed to :class:`~webarena_gym.env.WebArenaEnv`.
    """

    def __init__(self, num_envs: int, *, workers: int | None = None, group: bool = False,
                 wrap: Callable[[gym.Env], gym.Env] | None = None, make_env: Callable[[], gym.Env] | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP, start_method: str | None = None,
                 **env_kwargs: Any):
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ConfigurationError(f"num_envs must be a positive integer, got {num_envs!r}.")
        workers = default_worker_count() if workers is None else workers
        if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
            raise ConfigurationError(f"workers must be a positive integer (or None for one per core), got {workers!r}.")
        mode = AutoresetMode(autoreset_mode)
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.DISABLED):
            raise ConfigurationError(f"autoreset_mode must be NEXT_STEP or DISABLED, got {mode!r}.")
        start_method = start_method or ("forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn")
        if start_method not in START_METHODS:
            raise ConfigurationError(
                f"start_method must be one of {START_METHODS}, got {start_method!r}: a forked worker would inherit "
                "the parent's Playwright loop, threads and open database handles."
            )
        if make_env is not None and (wrap is not None or env_kwargs):
            raise ConfigurationError("Pass either make_env or env keyword arguments (and wrap), not both.")
        factory = make_env if make_env is not None else EnvFactory(dict(env_kwargs), wrap)
        try:
            pickle.dumps(factory)
        except Exception as exc:
            raise ConfigurationError(
                f"The env factory must pickle to reach the worker processes, and {factory!r} does not ({exc}). "
                "Use a class, a module-level function or functools.partial instead of a lambda or closure."
            ) from exc

        self.num_envs, self.group = num_envs, group
        self.metadata = {"autoreset_mode": mode}
        self.autoreset_mode = mode
        self.closed = False
        self._broken: str | None = None
        #: Env indices hosted by each worker, in order.
        self.slices = [list(part) for part in np.array_split(np.arange(num_envs), min(workers, num_envs))]
        self._where = {int(i): (w, k) for w, part in enumerate(self.slices) for k, i in enumerate(part)}
        self._connections: list[Any] = []
        self._processes: list[Any] = []
        self._pending: dict[int, list[int]] = {}
        self._replies: dict[int, tuple[str, Any]] = {}
        self._ended = np.zeros(num_envs, dtype=bool)
        self._observations: list[Any] = [None] * num_envs
        self._group_task: Any = None
        context = mp.get_context(start_method)
        try:
            for index in range(len(self.slices)):
                parent_end, child_end = context.Pipe()
                process = context.Process(target=run_worker, args=(child_end, factory), daemon=True,
                                          name=f"webarena-env-worker-{index}")
                process.start()
                child_end.close()
                self._connections.append(parent_end)
                self._processes.append(process)
            replies = self._request({w: ("make", (len(part), dict(os.environ))) for w, part in enumerate(self.slices)})
        except BaseException:
            self._shutdown()
            raise
        observation_space, action_space, _metadata, self.tasks = replies[0]
        self.single_observation_space, self.single_action_space = observation_space, action_space
        self.observation_space = batch_space(observation_space, num_envs)
        self.action_space = batch_space(action_space, num_envs)
        logger.info("%d envs in %d worker processes (%s)", num_envs, len(self.slices), start_method)

    @property
    def workers(self) -> int:
        """The number of worker processes."""
        return len(self.slices)

    @property
    def waiting(self) -> bool:
        """Whether a ``step_async`` is in flight (its ``step_wait`` not called yet)."""
        return self._stepping

    @property
    def worker_pids(self) -> list[int]:
        return [process.pid for process in self._processes]

    @property
    def task_ids(self) -> list[Any]:
        return [task.task_id for task in self.tasks or []]

    # -- reset ------------------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        """Reset every env, or only those of ``options["reset_mask"]``.

        ``options["task_id"]``: one task for all the reset envs; ``options["task_ids"]``: one
        per env (length ``num_envs``; entries of envs not reset are ignored). Other options
        reach every reset env. Infos hold entries of the reset envs only.
        """
        self._require_idle("reset")
        super().reset(seed=seed if isinstance(seed, int) else None)
        seeds = list(seed) if isinstance(seed, (list, tuple)) else [
            None if seed is None else seed + i for i in range(self.num_envs)]
        if len(seeds) != self.num_envs:
            raise ConfigurationError(f"Got {len(seeds)} seeds for {self.num_envs} envs.")
        options = dict(options or {})
        mask = _reset_mask(options.pop("reset_mask", None), self.num_envs)
        per_env = self._task_options(options, mask)
        entries = {i: ("reset", (seeds[i], per_env[i])) for i in np.flatnonzero(mask)}
        results = self._run(entries)
        infos: dict[str, Any] = {}
        for i, (observation, _reward, _terminated, _truncated, info) in results.items():
            self._observations[i] = observation
            infos = self._add_info(infos, info, i)
        self._ended[mask] = False
        return tuple(self._observations), infos

    def _task_options(self, options: dict[str, Any], mask: np.ndarray) -> list[dict[str, Any]]:
        if "task_ids" in options:
            ids = list(options.pop("task_ids"))
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
        """Send one action per env to the workers (``None``: leave that env alone) and return at once."""
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
        if not self._pending and not self._stepping:
            raise ConfigurationError("step_wait() called without a step_async() before it.")
        results = self._collect(timeout)
        rewards = np.zeros(self.num_envs)
        terminations = np.zeros(self.num_envs, dtype=bool)
        truncations = np.zeros(self.num_envs, dtype=bool)
        infos: dict[str, Any] = {}
        for i, (observation, reward, terminated, truncated, info) in results.items():
            self._observations[i] = observation
            rewards[i], terminations[i], truncations[i] = reward, terminated, truncated
            self._ended[i] = bool(terminated or truncated)
            infos = self._add_info(infos, info, i)
        return tuple(self._observations), rewards, terminations, truncations, infos

    # -- other env calls ----------------------------------------------------------------
    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call a method (or read an attribute, through wrappers) of every env."""
        self._require_idle("call")
        replies = self._request({w: ("call", ([self._where[int(i)][1] for i in part], name, args, kwargs))
                                 for w, part in enumerate(self.slices)})
        return tuple(value for w in range(len(self.slices)) for value in replies[w])

    def get_attr(self, name: str) -> tuple[Any, ...]:
        return self.call(name)

    def close_extras(self, **kwargs: Any) -> None:
        self._shutdown()

    def __del__(self) -> None:
        if getattr(self, "_processes", None) and not getattr(self, "closed", True):
            self._shutdown()

    # -- plumbing -------------------------------------------------------------------------
    _stepping = False

    def _require_idle(self, what: str) -> None:
        if self._broken:
            raise EnvWorkerError(self._broken)
        if self.closed:
            raise ConfigurationError(f"{what}() on a closed vector env.")
        if self._stepping:
            raise ConfigurationError(f"{what}() while a step_async() waits for its step_wait().")

    def _run(self, entries: dict[int, tuple[str, Any]]) -> dict[int, tuple[Any, ...]]:
        self._send(entries)
        return self._collect(None)

    def _send(self, entries: dict[int, tuple[str, Any]]) -> None:
        batches: dict[int, list[tuple[int, str, Any]]] = {}
        order: dict[int, list[int]] = {}
        for i in sorted(entries):
            worker, slot = self._where[int(i)]
            kind, argument = entries[i]
            batches.setdefault(worker, []).append((slot, kind, argument))
            order.setdefault(worker, []).append(int(i))
        self._post({w: ("run", batch) for w, batch in batches.items()})
        self._pending = order
        self._stepping = True

    def _collect(self, timeout: float | None) -> dict[int, tuple[Any, ...]]:
        order = self._pending
        try:
            replies = self._receive(list(order), timeout)
        except mp.TimeoutError:
            raise  # still pending: step_wait may be called again
        except BaseException:
            self._pending, self._stepping = {}, False
            raise
        self._pending, self._stepping = {}, False
        return {i: result for w, indices in order.items() for i, result in zip(indices, replies[w], strict=True)}

    def _request(self, messages: dict[int, tuple[str, Any]]) -> dict[int, Any]:
        self._post(messages)
        return self._receive(list(messages), None)

    def _post(self, messages: dict[int, tuple[str, Any]]) -> None:
        for worker, message in messages.items():
            try:
                self._connections[worker].send(message)
            except (BrokenPipeError, OSError):
                self._died(worker)
        self._replies = {}

    def _receive(self, workers: list[int], timeout: float | None) -> dict[int, Any]:
        """Every worker's reply; raises the first worker error only after all replied, so pipes stay in step."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while waiting := [w for w in workers if w not in self._replies]:
            handles = {self._connections[w]: w for w in waiting}
            handles.update({self._processes[w].sentinel: w for w in waiting})
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready = mp_connection.wait(list(handles), remaining)
            if not ready:
                raise mp.TimeoutError(f"Env workers {waiting} did not answer within {timeout} s.")
            for handle in ready:
                worker = handles[handle]
                if worker in self._replies:
                    continue
                try:
                    if self._connections[worker].poll():
                        self._replies[worker] = self._connections[worker].recv()
                    elif not self._processes[worker].is_alive():
                        self._died(worker)
                except (EOFError, OSError):
                    self._died(worker)
        replies, self._replies = self._replies, {}
        errors = [(w, replies[w][1]) for w in workers if replies[w][0] == "error"]
        if errors:
            raise _worker_exception(*errors[0], pid=self._processes[errors[0][0]].pid)
        return {w: replies[w][1] for w in workers}

    def _died(self, worker: int) -> None:
        process = self._processes[worker]
        process.join(timeout=5)
        code = process.exitcode
        how = f"was killed by signal {-code}" if code is not None and code < 0 else f"exited with code {code}"
        envs = self.slices[worker]
        self._broken = (
            f"Env worker {worker} (pid {process.pid}) {how} while hosting envs {envs[0]}-{envs[-1]}; their episodes "
            "are lost. Close this vector env and make a new one (if the machine ran out of memory, host fewer envs "
            "per worker)."
        )
        self._shutdown()
        raise EnvWorkerError(self._broken)

    def _shutdown(self) -> None:
        """Ask every live worker to close its envs, then make sure each process is gone."""
        self.closed = True
        for connection, process in zip(self._connections, self._processes, strict=False):
            if process.is_alive():
                try:
                    connection.send(("close", None))
                except (BrokenPipeError, OSError):
                    pass
        deadline = time.monotonic() + CLOSE_TIMEOUT_S
        for connection, process in zip(self._connections, self._processes, strict=False):
            process.join(timeout=max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                logger.warning("Env worker pid %d did not close in time; terminating it", process.pid)
                process.terminate()
                process.join(timeout=5)
            connection.close()
        self._connections, self._processes = [], []


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


def _worker_exception(worker: int, error: Any, *, pid: int) -> BaseException:
    exc, trace = error
    if isinstance(exc, BaseException):
        exc.add_note(f"Raised in env worker {worker} (pid {pid}):\n{trace}")
        return exc
    return EnvWorkerError(f"Env worker {worker} (pid {pid}) failed: {exc}\n{trace}")


def make_process_vec(num_envs: int, *, workers: int | None = None, **kwargs: Any) -> ProcessVectorEnv:
    """``num_envs`` envs in worker processes (see :class:`ProcessVectorEnv`)."""
    return ProcessVectorEnv(num_envs, workers=workers, **kwargs)
