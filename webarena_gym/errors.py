"""One exception hierarchy for webarena-gym.

Agent mistakes (bad actions, unknown element ids, ...) never raise: they become
``info["last_action_error"]``. Everything here is a configuration or infrastructure
fault that a person must fix, and every message says how.
"""

from __future__ import annotations


class WebArenaGymError(Exception):
    """Base class of every error raised by webarena-gym."""


class ConfigurationError(WebArenaGymError, ValueError):
    """A bad argument or setting: says what was expected, what was given and how to fix it."""


class UnknownTaskError(ConfigurationError, KeyError):
    """A task id that the selected suite and split do not contain."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""


class TaskDataError(ConfigurationError):
    """Task data that is missing or malformed (official JSON not installed, bad schema)."""


class TrajectoryFileError(WebArenaGymError, ValueError):
    """A demonstration or trajectory file that cannot be read."""


class InfrastructureError(WebArenaGymError, RuntimeError):
    """Something outside the agent's control broke: a site, the browser, the docker engine."""


class SiteUnavailableError(InfrastructureError):
    """A website the task needs does not answer."""


class LoginStateError(InfrastructureError):
    """A task needs a saved login state (``webarena-gym sites login`` writes them) that is missing or unreadable."""


class BrowserUnavailableError(InfrastructureError):
    """Chromium is missing or crashed."""


class DockerError(InfrastructureError):
    """The docker engine or a site container is not usable."""


class EndpointError(InfrastructureError):
    """A model endpoint that cannot be used: unreachable, refusing the credentials, or still
    rate-limiting after every retry."""


class InvalidActionError(WebArenaGymError, ValueError):
    """An agent's action that cannot be carried out.

    Raised inside the action parser and the backends, and always caught by the env,
    which reports the message in ``info["last_action_error"]`` and the next
    observation. It never escapes ``env.step``.
    """


class EnvWorkerError(InfrastructureError):
    """An env worker process died or failed to start; its envs and their episodes are lost."""


class EnvClosedError(WebArenaGymError, RuntimeError):
    """A ``step``, ``reset`` (or another episode call) on an env or vector env after its ``close()``.

    A closed env has released its browser session and its world for good: make a new one.
    """


def user_error_message(exc: BaseException) -> str | None:
    """The one-line message of a fault the user must fix: a webarena-gym error, or a file they named
    that the system refused. ``None`` for anything else, a defect whose traceback should show."""
    if isinstance(exc, WebArenaGymError):
        return str(exc)
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    return None
