"""Envs in worker processes behind the Gymnasium 1.x vector API.

:class:`ProcessVectorEnv` spreads ``num_envs`` envs over ``workers`` processes (each hosts
a contiguous slice of the envs, so 512 rollouts on 16 cores are 16 processes of 32 envs),
and steps them with ``step_async``/``step_wait``. Every worker owns its envs: on the
direct backend their worlds, on the Playwright backend its own Chromium (one context per
env). Env steps of the direct backend are CPU-bound Python, so a thread pool serializes
them on the GIL; processes use every core.

The vector API (autoreset modes, reset masks, ``None`` actions that leave an env alone,
group mode) is :class:`~webarena_gym.vector.WebArenaVectorBase`'s, shared with the
in-process :class:`~webarena_gym.vector.WebArenaVectorEnv`; this module only hosts the envs.

Workers start with the ``forkserver`` method (``spawn`` where there is none), never
``fork``: the parent may hold a Playwright event loop, torch threads or open SQLite
handles that a forked child must not inherit. Both start a worker by importing the script's
``__main__`` module again, so scripts that create workers need the usual
``if __name__ == "__main__":`` guard; without it every worker would make workers of its own.
That is detected in the worker, which exits at once with :data:`UNGUARDED_MAIN_EXIT_CODE`,
and the parent raises one :class:`~webarena_gym.errors.ConfigurationError` naming the guard.
Workers exit quietly when their parent goes away (killed, or ended without closing them).
An exception in a worker comes back as the
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
import sys
import time
from collections.abc import Callable
from multiprocessing import connection as mp_connection
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

from .errors import ConfigurationError, EnvWorkerError
from .suites import resolve_suite
from .vector import EnvResult, WebArenaVectorBase, WebArenaVectorEnv, sendable_env_factory
from .worker_loop import run_worker

logger = logging.getLogger(__name__)

START_METHODS = ("forkserver", "spawn")
#: Seconds ``close`` waits for a worker to close its envs before terminating it.
CLOSE_TIMEOUT_S = 60.0
#: The exit status of a worker that found itself making workers while multiprocessing re-imported the
#: parent's ``__main__`` (a script without the ``if __name__ == "__main__":`` guard): sysexits' EX_CONFIG.
UNGUARDED_MAIN_EXIT_CODE = 78


def default_worker_count() -> int:
    """The number of cores this process may run on (the default number of env workers)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class ProcessVectorEnv(WebArenaVectorBase):
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
        if _importing_main_for_a_new_process():
            # Python's own check would raise in this half-started worker, print its traceback, and leave the
            # parent a worker that died for no stated reason; exit with a status the parent explains instead.
            os._exit(UNGUARDED_MAIN_EXIT_CODE)
        self._init_vector(num_envs, group, autoreset_mode)
        workers = default_worker_count() if workers is None else workers
        if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
            raise ConfigurationError(
                f"workers must be a positive integer (or None for one per core), got {workers!r}; "
                "webarena_gym.make_vec(n, workers=0) keeps the envs in this process."
            )
        start_method = start_method or ("forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn")
        if start_method not in START_METHODS:
            raise ConfigurationError(
                f"start_method must be one of {START_METHODS}, got {start_method!r}: a forked worker would inherit "
                "the parent's Playwright loop, threads and open database handles."
            )
        factory = sendable_env_factory(make_env, wrap, env_kwargs, hosts="the worker processes")

        self._broken: str | None = None
        #: Env indices hosted by each worker, in order.
        self.slices = [list(part) for part in np.array_split(np.arange(num_envs), min(workers, num_envs))]
        self._where = {int(i): (w, k) for w, part in enumerate(self.slices) for k, i in enumerate(part)}
        self._connections: list[Any] = []
        self._processes: list[Any] = []
        self._pending: dict[int, list[int]] = {}
        self._replies: dict[int, tuple[str, Any]] = {}
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
        observation_space, action_space, _metadata, tasks = replies[0]
        self._init_spaces(observation_space, action_space, tasks)
        self.closed = False
        logger.info("%d envs in %d worker processes (%s)", num_envs, len(self.slices), start_method)

    @property
    def workers(self) -> int:
        """The number of worker processes."""
        return len(self.slices)

    @property
    def worker_pids(self) -> list[int]:
        return [process.pid for process in self._processes]

    # -- other env calls ----------------------------------------------------------------
    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call a method (or read an attribute, through wrappers) of every env."""
        self._require_idle("call")
        replies = self._request({w: ("call", ([self._where[int(i)][1] for i in part], name, args, kwargs))
                                 for w, part in enumerate(self.slices)})
        return tuple(value for w in range(len(self.slices)) for value in replies[w])

    def close_extras(self, **kwargs: Any) -> None:
        self._shutdown()

    def __del__(self) -> None:
        if getattr(self, "_processes", None) and not getattr(self, "closed", True):
            self._shutdown()

    # -- plumbing -------------------------------------------------------------------------
    def _require_idle(self, what: str) -> None:
        if self._broken:
            raise EnvWorkerError(self._broken)
        super()._require_idle(what)

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

    def _collect(self, timeout: float | None) -> dict[int, EnvResult]:
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
        if code == UNGUARDED_MAIN_EXIT_CODE:
            self._broken = _unguarded_main_message()
            self._shutdown()
            raise ConfigurationError(self._broken) from None  # not the broken pipe it was noticed by
        how = f"was killed by signal {-code}" if code is not None and code < 0 else f"exited with code {code}"
        envs = self.slices[worker]
        self._broken = (
            f"Env worker {worker} (pid {process.pid}) {how} while hosting envs {envs[0]}-{envs[-1]}; their episodes "
            "are lost. Close this vector env and make a new one (if the machine ran out of memory, host fewer envs "
            "per worker)."
        )
        self._shutdown()
        raise EnvWorkerError(self._broken) from None

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


def _importing_main_for_a_new_process() -> bool:
    """Whether multiprocessing is running the parent's ``__main__`` module in a process it is starting.

    The flag is the one Python's own check (``multiprocessing.spawn._check_not_importing_main``)
    reads: set while a spawned or forkserver child (or the forkserver itself) imports the main module.
    """
    return bool(getattr(mp.current_process(), "_inheriting", False))


def _unguarded_main_message() -> str:
    main = getattr(sys.modules.get("__main__"), "__file__", None) or "the main module"
    return (
        f"Env worker processes could not start: each one imports {main} again (Python's spawn and forkserver start "
        "methods do), and its top-level code makes worker processes itself. Put the code that makes them under "
        "`if __name__ == \"__main__\":`, e.g.\n\n"
        "    def main():\n"
        "        envs = webarena_gym.make_vec(8, workers=2)\n"
        "        ...\n\n"
        "    if __name__ == \"__main__\":\n"
        "        main()\n\n"
        "(\"Safe importing of main module\" in Python's multiprocessing guidelines), or keep the envs in this "
        "process with workers=0."
    )


def _worker_exception(worker: int, error: Any, *, pid: int) -> BaseException:
    exc, trace = error
    if isinstance(exc, BaseException):
        exc.add_note(f"Raised in env worker {worker} (pid {pid}):\n{trace}")
        return exc
    return EnvWorkerError(f"Env worker {worker} (pid {pid}) failed: {exc}\n{trace}")


def default_workers(num_envs: int, *, suite: str | None = None, backend: str | None = None,
                    make_env: Callable[[], gym.Env] | None = None,
                    wrap: Callable[[gym.Env], gym.Env] | None = None) -> int:
    """What ``workers=None`` means, one rule for every vector env: :func:`make_vec`'s, evaluation's
    (``webarena-gym eval``, ``evaluate_model``) and the trainer's rollouts.

    Worker processes for the direct backend whenever there are two or more envs and more than one
    core: one per core this process may use, shared among the training processes of this machine
    (``LOCAL_WORLD_SIZE``; at least one each), at most one per env. Otherwise 0, the envs in this process on threads:
    one env gains nothing from a process, the Playwright backend's envs share one browser here,
    and an env factory that cannot be sent to a process (a lambda or closure as ``make_env`` or
    ``wrap``) stays here too.
    """
    if backend is None:
        backend = "direct" if make_env is not None or resolve_suite(suite) == "embedded" else "playwright"
    cores = default_worker_count()
    if backend != "direct" or num_envs < 2 or cores < 2:
        return 0
    try:
        pickle.dumps((make_env, wrap))
    except Exception:  # pickling fails in many ways (PicklingError, AttributeError, TypeError)
        return 0
    return min(max(1, cores // max(1, int(os.environ.get("LOCAL_WORLD_SIZE", "1") or 1))), num_envs)


#: The hosts ``make_vec(executor=...)`` knows: this process's threads, worker processes, Ray actors.
EXECUTORS = ("thread", "process", "ray")


def make_vec(num_envs: int, *, workers: int | None = None, executor: str | None = None, **kwargs):
    """A vector env of ``num_envs`` WebArena envs stepped concurrently, behind one vector API.

    ``workers`` means the same here as everywhere (evaluation, the trainer's rollouts):
    ``workers=0`` keeps the envs in this process, stepped on a thread pool
    (:class:`webarena_gym.vector.WebArenaVectorEnv`, whose ``envs`` are reachable directly);
    ``workers=N`` puts them in N worker processes, each hosting a slice of them
    (:class:`webarena_gym.vector_workers.ProcessVectorEnv`, which adds ``start_method``);
    ``workers=None`` lets :func:`default_workers` choose between the two (processes for two or
    more direct-backend envs on a machine with more than one core). Both take ``group``,
    ``wrap``, ``make_env``, ``autoreset_mode`` and the env's keyword arguments.
    ``executor="thread"`` or ``"process"`` forces the host; ``executor="ray"`` hosts the envs in
    ``workers`` Ray actors across a cluster instead (:class:`webarena_gym.vector_ray.RayVectorEnv`,
    which adds ``ray_address``, ``ray_num_cpus``, ``ray_resources`` and ``worker_timeout_s``;
    Ray is the ``ray`` extra).
    """
    if executor not in (None, *EXECUTORS):
        raise ConfigurationError(f"executor must be one of {EXECUTORS} (or None), got {executor!r}.")
    if executor == "ray":
        from .vector_ray import RayVectorEnv

        return RayVectorEnv(num_envs, workers=workers or None, **kwargs)  # 0 (no processes) means the default here
    if executor == "thread" and workers:
        raise ConfigurationError(f"executor='thread' keeps the envs in this process: drop workers={workers!r}.")
    if executor is None and workers is None:
        workers = default_workers(num_envs, suite=kwargs.get("suite"), backend=kwargs.get("backend"),
                                  make_env=kwargs.get("make_env"), wrap=kwargs.get("wrap"))
    if executor == "thread" or (executor is None and type(workers) is int and workers == 0):
        return WebArenaVectorEnv(num_envs, **kwargs)
    return ProcessVectorEnv(num_envs, workers=workers, **kwargs)  # it validates ``workers``
