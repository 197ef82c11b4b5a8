"""Envs in Ray actors across a cluster, behind the same vector API as worker processes.

:class:`RayVectorEnv` spreads ``num_envs`` envs over ``workers`` Ray actors, each hosting a
contiguous slice of them exactly as a worker process does: the actor class is
:class:`~webarena_gym.worker_loop.EnvHost`, the host that worker processes serve over their
pipe, so an env steps the same way in both. The vector API (autoreset modes, reset masks,
``None`` actions, group mode, ``step_async``/``step_wait``) is
:class:`~webarena_gym.vector.WebArenaVectorBase`'s.

>>> envs = webarena_gym.make_vec(256, workers=32, executor="ray", ray_address="auto",   # doctest: +SKIP
...                              ray_resources={"browser": 1}, suite="embedded")

Ray is an optional extra (``pip install "webarena-gym[ray]"``); ``import webarena_gym``
never imports it. Without ``ray_address`` the vector env joins the cluster this process is
already connected to, else the one ``ray.init()`` finds (``RAY_ADDRESS`` or a ``ray start``
cluster on this machine), else starts a local one. Actors are spread over the nodes
(``SPREAD`` scheduling); each asks for ``ray_num_cpus`` CPUs and the custom ``ray_resources``
(e.g. ``{"browser": 1}`` with ``ray start --resources='{"browser": 64}'`` on the CPU nodes
only, to keep browsers off GPU nodes).

Faults never become a silent reward of 0. An actor that dies mid-episode (killed, its node
lost, out of memory), or that does not answer a batch within ``worker_timeout_s``
(:data:`DEFAULT_WORKER_TIMEOUT_S`; it is then killed), ends the episodes of all its envs
truncated with ``info["infrastructure_error"]`` (and ``info["episode_end_reason"]``
starting with ``"infrastructure:"``); envs it hosted that were not in that step report the
same at their next step. The actor is replaced at once, so the next reset works. Set-up
mistakes raise :class:`~webarena_gym.errors.ConfigurationError` before any episode: Ray not
installed, no cluster at the address, resources no node has.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import os
import socket
import time
from collections.abc import Callable, Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

from .errors import ConfigurationError, EnvWorkerError
from .vector import EnvResult, WebArenaVectorBase, sendable_env_factory
from .worker_loop import EnvHost

logger = logging.getLogger(__name__)

#: Seconds a Ray env worker may take to answer one batch (a step of its envs, or a reset) before it
#: is treated as hung: killed and replaced, its episodes ended with an infrastructure error.
DEFAULT_WORKER_TIMEOUT_S = 600.0
#: Seconds a new Ray env worker may take to be placed and build its envs (a busy cluster queues it).
START_TIMEOUT_S = 600.0
#: Seconds ``close`` waits for the actors to close their envs before killing them.
CLOSE_TIMEOUT_S = 60.0
#: The install hint every "Ray is missing" error carries.
RAY_EXTRA = 'pip install "webarena-gym[ray]"'
#: The key of ``info`` that says an episode was lost to the infrastructure (an actor died or hung).
INFRASTRUCTURE_ERROR_KEY = "infrastructure_error"


def import_ray() -> Any:
    """The ``ray`` module, or a :class:`ConfigurationError` naming the extra that installs it."""
    try:
        import ray
    except ImportError as exc:
        raise ConfigurationError(
            f"executor='ray' needs Ray, which is not installed ({exc}). Install the extra: {RAY_EXTRA}, "
            "or use worker processes on this machine (executor='process')."
        ) from exc
    return ray


def connect(address: str | None = None) -> Any:
    """Connect this process to the Ray cluster at ``address`` (see the module docstring); the ``ray`` module.

    Raises:
        ConfigurationError: Ray is not installed, or nothing answers at ``address``.
    """
    ray = import_ray()
    if ray.is_initialized():
        return ray
    if address not in (None, "", "auto", "local") and not address.startswith(("ray://", "anyscale://")):
        _check_reachable(address)
    try:
        ray.init(address=address or None, logging_level=logging.WARNING, log_to_driver=False,
                 include_dashboard=False if not address else None, configure_logging=False)
    except ConnectionError as exc:
        raise ConfigurationError(
            f"No Ray cluster at {address!r}: {exc}. Start one with `ray start --head` on the head node (and "
            "`ray start --address=<head>:6379` on each other node), then pass the head's address, or leave the "
            "address unset to start a local cluster."
        ) from exc
    return ray


def _check_reachable(address: str) -> None:
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=5):
            return
    except ValueError:
        raise ConfigurationError(
            f"A Ray cluster address is host:port (e.g. 10.0.0.1:6379) or 'auto', got {address!r}."
        ) from None
    except OSError as exc:
        raise ConfigurationError(
            f"No Ray cluster at {address!r} ({exc}). Start one with `ray start --head --port={port}` on that host "
            f"(and `ray start --address={address}` on each other node), or leave the address unset to start a "
            "local cluster."
        ) from None


def check_resources(ray: Any, request: Mapping[str, float]) -> None:
    """Raise a :class:`ConfigurationError` unless some live node has every resource of ``request``."""
    nodes = [node for node in ray.nodes() if node.get("Alive")]
    wanted = {name: float(amount) for name, amount in request.items() if amount}
    if any(all(node["Resources"].get(name, 0.0) >= amount for name, amount in wanted.items()) for node in nodes):
        return
    short = next((name for name, amount in wanted.items()
                  if not any(node["Resources"].get(name, 0.0) >= amount for node in nodes)), None)
    have = "; ".join(
        f"node {node['NodeManagerAddress']} ({node['NodeID'][:8]}): "
        + ", ".join(f"{name}={value:g}" for name, value in sorted(node["Resources"].items())
                    if not name.startswith("node:") and "memory" not in name)
        for node in nodes) or "no live nodes"
    what = f"{wanted[short]:g} of resource {short!r}" if short else f"all of {wanted} on one node"
    raise ConfigurationError(
        f"Each Ray env worker asks for {what}, and no node of the cluster has it ({have}). Start a node that "
        f"has it (e.g. `ray start --address=<head> --resources='{{\"{short or 'name'}\": 64}}'`) or ask for less "
        "(ray_num_cpus, ray_resources)."
    )


class RayEnvHost(EnvHost):
    """The Ray actor class: an :class:`EnvHost` that also says where it runs."""

    def make(self, count: int, environment: dict[str, str] | None) -> tuple[Any, Any, Any, Any]:
        """Set the driver's ``WA_*`` variables (only those: other nodes have their own paths), build the envs."""
        os.environ.update(environment or {})
        return super().make(count, None)

    def where(self) -> tuple[str, int]:
        """The id of this actor's Ray node and its process id."""
        import ray

        return ray.get_runtime_context().get_node_id(), os.getpid()


class RayVectorEnv(WebArenaVectorBase):
    """``num_envs`` WebArena envs hosted by ``workers`` Ray actors (see the module docstring).

    Args:
        num_envs: Number of envs.
        workers: Ray actors (default: one per 8 envs; never more than ``num_envs``).
        group: Run all envs on the same task (reset picks one task for the whole group).
        wrap: Optional picklable function applied to each env (e.g. ``CompressedHistory``).
        make_env: A picklable ``() -> env`` used instead of ``WebArenaEnv(**env_kwargs)``.
        autoreset_mode: ``AutoresetMode.NEXT_STEP`` or ``AutoresetMode.DISABLED``.
        ray_address: The cluster to join (``"host:port"``, ``"auto"``); None: see the module docstring.
        ray_num_cpus: CPUs each actor asks for (default 1).
        ray_resources: Custom resources each actor asks for, e.g. ``{"browser": 1}``.
        worker_timeout_s: Seconds an actor may take to answer one batch before it counts as hung.
        **env_kwargs: Passed to :class:`~webarena_gym.env.WebArenaEnv`.
    """

    def __init__(self, num_envs: int, *, workers: int | None = None, group: bool = False,
                 wrap: Callable[[gym.Env], gym.Env] | None = None, make_env: Callable[[], gym.Env] | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP, ray_address: str | None = None,
                 ray_num_cpus: float = 1.0, ray_resources: Mapping[str, float] | None = None,
                 worker_timeout_s: float = DEFAULT_WORKER_TIMEOUT_S, **env_kwargs: Any):
        self._init_vector(num_envs, group, autoreset_mode)
        workers = max(1, -(-num_envs // 8)) if workers is None else workers
        if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
            raise ConfigurationError(f"workers must be a positive integer (Ray actors), got {workers!r}.")
        if not isinstance(ray_num_cpus, (int, float)) or isinstance(ray_num_cpus, bool) or ray_num_cpus < 0:
            raise ConfigurationError(f"ray_num_cpus must be a number >= 0, got {ray_num_cpus!r}.")
        resources = dict(ray_resources or {})
        if any(not isinstance(v, (int, float)) or isinstance(v, bool) or v < 0 for v in resources.values()):
            raise ConfigurationError(f"ray_resources must map names to amounts >= 0, got {ray_resources!r}.")
        if not isinstance(worker_timeout_s, (int, float)) or worker_timeout_s <= 0:
            raise ConfigurationError(f"worker_timeout_s must be a positive number of seconds, got {worker_timeout_s!r}.")
        factory = sendable_env_factory(make_env, wrap, env_kwargs, hosts="the Ray actors")
        self._ray = ray = connect(ray_address)
        check_resources(ray, {"CPU": ray_num_cpus, **resources})
        self.worker_timeout_s = float(worker_timeout_s)
        self._factory = factory
        self._options = {"num_cpus": ray_num_cpus, "resources": resources, "max_restarts": 0,
                         "scheduling_strategy": "SPREAD"}
        self._environment = {key: value for key, value in os.environ.items() if key.startswith("WA_")}
        #: Env indices hosted by each worker, in order.
        self.slices = [list(part) for part in np.array_split(np.arange(num_envs), min(workers, num_envs))]
        self._where = {int(i): (w, k) for w, part in enumerate(self.slices) for k, i in enumerate(part)}
        self._actors: list[Any] = []
        self._places: list[tuple[str, int]] = []
        self._refs: dict[int, Any] = {}
        self._batches: dict[int, list[tuple[int, str, Any]]] = {}
        self._lost: dict[int, str] = {}  # env -> why its episode was lost, not yet reported
        self._sent_at = 0.0
        self.replaced = 0
        try:
            self._actors = [self._new_actor() for _ in self.slices]
            made = self._get([actor.make.remote(len(part), self._environment)
                              for actor, part in zip(self._actors, self.slices, strict=True)], "start")
            self._places = self._get([actor.where.remote() for actor in self._actors], "start")
        except BaseException:
            self._kill_all()
            raise
        observation_space, action_space, _metadata, tasks = made[0]
        self._init_spaces(observation_space, action_space, tasks)
        self.closed = False
        logger.info("%d envs in %d Ray actors on %d nodes", num_envs, len(self.slices), len(set(self.worker_nodes)))

    # -- where the envs are --------------------------------------------------------------
    @property
    def workers(self) -> int:
        """The number of Ray actors."""
        return len(self.slices)

    @property
    def worker_nodes(self) -> list[str]:
        """The Ray node id of each actor."""
        return [node for node, _pid in self._places]

    @property
    def worker_pids(self) -> list[int]:
        """The process id of each actor (on its node)."""
        return [pid for _node, pid in self._places]

    @property
    def env_nodes(self) -> list[str]:
        """The Ray node id of each env's actor."""
        return [self._places[self._where[i][0]][0] for i in range(self.num_envs)]

    # -- other env calls ----------------------------------------------------------------
    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call a method (or read an attribute, through wrappers) of every env."""
        self._require_idle("call")
        refs = [actor.call.remote([self._where[int(i)][1] for i in part], name, args, kwargs)
                for actor, part in zip(self._actors, self.slices, strict=True)]
        return tuple(value for values in self._get(refs, f"call {name!r}") for value in values)

    def close_extras(self, **kwargs: Any) -> None:
        ray = self._ray
        refs = [actor.close.remote() for actor in self._actors]
        try:
            ray.wait(refs, num_returns=len(refs), timeout=CLOSE_TIMEOUT_S)
        except Exception:  # noqa: BLE001  closing: a dead actor has nothing left to close
            logger.debug("waiting for Ray env actors to close", exc_info=True)
        self._kill_all()
        self._refs, self._stepping = {}, False

    # -- plumbing -------------------------------------------------------------------------
    def _new_actor(self) -> Any:
        remote = self._ray.remote(RayEnvHost)
        return remote.options(**self._options).remote(self._factory)

    def _get(self, refs: list[Any], what: str) -> list[Any]:
        ray = self._ray
        timeout = START_TIMEOUT_S if what in ("start", "restart") else self.worker_timeout_s
        try:
            return ray.get(refs, timeout=timeout)
        except ray.exceptions.GetTimeoutError:
            raise EnvWorkerError(
                f"Ray env actors did not {what} within {timeout:g} s: the cluster may lack free resources for them "
                "(see `ray status`) or the envs hang."
            ) from None
        except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError) as exc:
            raise EnvWorkerError(f"A Ray env actor died during {what}: {exc}") from None
        except ray.exceptions.RayTaskError as exc:
            raise exc.as_instanceof_cause() from None

    def _send(self, entries: dict[int, tuple[str, Any]]) -> None:
        batches: dict[int, list[tuple[int, str, Any]]] = {}
        self._lost_results: dict[int, EnvResult] = {}
        for i in sorted(entries):
            kind, argument = entries[i]
            if kind == "step" and i in self._lost:  # its actor is gone: report the lost episode now
                self._lost_results[i] = _infrastructure_result(self._observations[i], self._lost.pop(i))
                continue
            if kind == "reset":
                self._lost.pop(i, None)
            worker, slot = self._where[int(i)]
            batches.setdefault(worker, []).append((slot, kind, argument))
        self._batches = batches
        self._refs = {w: self._actors[w].run.remote(batch) for w, batch in batches.items()}
        self._sent_at = time.monotonic()
        self._stepping = True

    def _collect(self, timeout: float | None) -> dict[int, EnvResult]:
        ray = self._ray
        deadline = None if timeout is None else time.monotonic() + timeout
        budget_end = self._sent_at + self.worker_timeout_s
        refs = dict(self._refs)
        pending: list[Any] = []
        while refs:  # none when every entry was an env already lost
            now = time.monotonic()
            waits = [budget_end - now] + ([] if deadline is None else [deadline - now])
            ready, pending = ray.wait(list(refs.values()), num_returns=len(refs), timeout=max(0.0, min(waits)))
            if not pending:
                break
            if time.monotonic() >= budget_end:
                break  # the pending actors are hung
            if deadline is not None and time.monotonic() >= deadline:
                raise mp.TimeoutError(f"Ray env actors did not answer within {timeout} s.")
        pending_refs = set(pending)
        results: dict[int, EnvResult] = {i: r for i, r in self._lost_results.items()}
        failed: dict[int, str] = {}
        error: BaseException | None = None
        for w, ref in refs.items():
            indices = [self.slices[w][slot] for slot, _kind, _argument in self._batches[w]]
            if ref in pending_refs:
                failed[w] = f"Ray env worker {w} did not answer within worker_timeout_s={self.worker_timeout_s:g} s"
                continue
            try:
                values = ray.get(ref)
            except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError,
                    ray.exceptions.ObjectLostError) as exc:
                failed[w] = f"Ray env worker {w} died ({type(exc).__name__}: {str(exc).splitlines()[0][:200]})"
                continue
            except ray.exceptions.RayTaskError as exc:
                error = error or exc.as_instanceof_cause()
                continue
            results.update(zip(indices, values, strict=True))
        self._refs, self._stepping = {}, False
        for w, why in failed.items():
            results.update(self._replace(w, why))
        if error is not None:
            raise error
        return results

    def _replace(self, worker: int, why: str) -> dict[int, EnvResult]:
        """Replace a dead or hung actor; the results of its batch (ended episodes, resets rerun on the new actor)."""
        node, pid = self._places[worker]
        message = f"{why} (node {node[:8]}, pid {pid}); its episodes are lost and the worker was replaced"
        logger.warning("%s", message)
        self._ray.kill(self._actors[worker], no_restart=True)
        self._actors[worker] = self._new_actor()
        self._get([self._actors[worker].make.remote(len(self.slices[worker]), self._environment)], "restart")
        self._places[worker] = self._get([self._actors[worker].where.remote()], "restart")[0]
        self.replaced += 1
        batch = self._batches.get(worker, [])
        hosted = self.slices[worker]
        for slot, i in enumerate(hosted):
            if not any(s == slot for s, _kind, _argument in batch):
                self._lost[i] = message  # mid-episode but not stepped now: reported at its next step
        resets = [(slot, kind, argument) for slot, kind, argument in batch if kind == "reset"]
        results = {hosted[slot]: _infrastructure_result(self._observations[hosted[slot]], message)
                   for slot, kind, _argument in batch if kind == "step"}
        if resets:  # a reset has no episode to lose: run it again on the new actor
            values = self._get([self._actors[worker].run.remote(resets)], "reset")[0]
            results.update({hosted[slot]: value for (slot, _kind, _argument), value in zip(resets, values, strict=True)})
        return results

    def _kill_all(self) -> None:
        self.closed = True
        for actor in self._actors:
            try:
                self._ray.kill(actor, no_restart=True)
            except Exception:  # noqa: BLE001  already gone
                logger.debug("killing a Ray env actor", exc_info=True)
        self._actors = []


def _infrastructure_result(observation: Any, message: str) -> EnvResult:
    """The result of an episode lost to the infrastructure: truncated, reward 0, the error in info."""
    info = {"episode_end_reason": f"infrastructure: {message}", INFRASTRUCTURE_ERROR_KEY: message,
            "last_action_error": message}
    return observation, 0.0, False, True, info
