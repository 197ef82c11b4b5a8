"""The loop an env worker process runs: it hosts several envs and answers the parent's commands.

One pipe per worker carries ``(command, payload)`` requests and ``(status, result)``
replies, strictly one reply per request. The worker owns its envs (and their worlds, or
its own Chromium on the Playwright backend); nothing is shared with other workers.

Commands:

- ``"make"``: ``(count, environment)``: take the parent's environment variables, exactly (a
  forkserver's children would otherwise see the server's, from when it started: ``WA_*``
  site URLs or ``WA_BROWSER_WS`` set later would be missing, and ones unset later would
  linger), then build ``count`` envs
  with the pickled factory; replies with the spaces and the first env's task list.
- ``"run"``: a list of ``(slot, kind, argument)`` with kind ``"step"`` (argument: the
  action) or ``"reset"`` (argument: ``(seed, options)``); replies with one
  ``(observation, reward, terminated, truncated, info)`` per entry (a reset gives reward 0
  and no ending, which is also the shape of a next-step autoreset).
- ``"call"``: ``(slots, name, args, kwargs)``: call a method of (or read an attribute of)
  those envs, through wrappers.
- ``"close"``: close every env and exit.

A worker whose parent has gone away (killed, or exited without closing it) closes its envs and
exits quietly, whether it was waiting for a command or sending a reply: no traceback.

Each entry runs as :func:`webarena_gym.vector.run_entry` runs it in the in-process vector
env: an :class:`~webarena_gym.errors.InfrastructureError` raised by a step (a crashed or
hung page) ends that episode truncated with ``info["episode_end_reason"]``, and the env
gets a fresh session at its next reset. Any other exception
is sent back (pickled when it can be, else as its type name and message, always with the
worker's traceback) and the parent raises it.
"""

from __future__ import annotations

import os
import pickle
import signal
import traceback
from collections.abc import Callable
from typing import Any

from .vector import EnvResult, call_env, close_envs, run_entry


def _error_reply(exc: BaseException) -> tuple[str, Any]:
    trace = traceback.format_exc()
    try:
        pickle.dumps(exc)
        return "error", (exc, trace)
    except Exception:  # an exception that does not pickle still reaches the parent as text
        return "error", (f"{type(exc).__name__}: {exc}", trace)


class EnvHost:
    """The envs one worker hosts, and the commands it serves: one code path for a worker process and a Ray actor.

    :func:`run_worker` serves these methods over a pipe; :mod:`webarena_gym.vector_ray` makes
    this class a Ray actor. Each method is one command of the module docstring.
    """

    def __init__(self, make_env: Callable[[], Any]):
        self.make_env = make_env
        self.envs: list[Any] = []
        self.observations: list[Any] = []

    def make(self, count: int, environment: dict[str, str] | None) -> tuple[Any, Any, Any, Any]:
        """Take ``environment`` (the parent's variables, exactly; None keeps this process's), build ``count`` envs.

        Returns the spaces, metadata and task list of the first env.
        """
        if environment is not None:
            os.environ.clear()  # the parent's variables exactly: one it unset must not linger
            os.environ.update(environment)
        close_envs(self.envs)
        self.envs = []
        self.envs = [self.make_env() for _ in range(count)]
        self.observations = [None] * len(self.envs)
        first = self.envs[0]
        return first.observation_space, first.action_space, first.metadata, getattr(first.unwrapped, "tasks", None)

    def run(self, entries: list[tuple[int, str, Any]]) -> list[EnvResult]:
        """One ``(observation, reward, terminated, truncated, info)`` per ``(slot, kind, argument)`` entry."""
        results = []
        for slot, kind, argument in entries:
            result = run_entry(self.envs[slot], kind, argument, self.observations[slot])
            self.observations[slot] = result[0]
            results.append(result)
        return results

    def call(self, slots: list[int], name: str, args: Any, kwargs: dict[str, Any] | None) -> list[Any]:
        """``name`` called on (or read from) the envs in ``slots``, through wrappers."""
        return [call_env(self.envs[slot], name, args, kwargs) for slot in slots]

    def close(self) -> None:
        """Close every env (logging, not raising, one env's failure)."""
        envs, self.envs = self.envs, []
        close_envs(envs)


def run_worker(connection: Any, make_env: Callable[[], Any]) -> None:
    """Serve the parent's commands over ``connection`` until ``"close"`` or the parent goes away."""
    # Ctrl-C reaches the whole process group: the parent handles it and closes the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    host = EnvHost(make_env)
    try:
        while True:
            try:
                command, payload = connection.recv()
            except (EOFError, OSError):  # the parent died or closed its end
                return
            if command == "close":
                host.close()
                _send_or_quit(connection, ("ok", None))
                return
            try:
                if command == "make":
                    result: Any = host.make(*payload)
                elif command == "run":
                    result = host.run(payload)
                elif command == "call":
                    result = host.call(*payload)
                else:
                    raise ValueError(f"unknown worker command {command!r}")
                reply = ("ok", result)
            except Exception as exc:
                reply = _error_reply(exc)
            try:
                sent = _send_or_quit(connection, reply)
            except (pickle.PicklingError, TypeError, AttributeError) as exc:  # a result that cannot leave the process
                sent = _send_or_quit(connection, ("error", (f"the result of {command!r} cannot be sent to the parent: "
                                                            f"{exc}", "")))
            if not sent:
                return
    finally:
        host.close()


def _send_or_quit(connection: Any, message: Any) -> bool:
    """Send ``message`` to the parent; False when the parent is gone (its end of the pipe closed)."""
    try:
        connection.send(message)
    except (EOFError, OSError):  # BrokenPipeError, ConnectionResetError: the parent died
        return False
    return True
