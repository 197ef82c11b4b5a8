"""OpenEnv: the env as an OpenEnv ``Environment``, and a server with one world per session.

OpenEnv 0.10 serves an environment with ``create_app()``: every WebSocket session gets
its own instance from a factory (here: its own world), while the plain HTTP ``/reset``
and ``/step`` endpoints build a fresh instance for each request, so a ``/step`` never sees
the episode its ``/reset`` started. :func:`create_app` keeps OpenEnv's app and replaces
those HTTP routes with ones that keep episodes open between requests: ``/reset`` returns
an ``episode_id`` (in ``metadata``), ``/step`` and ``/state`` take it (and may leave it
out while only one HTTP episode is open).

Actions are strings of the grammar (``{"action": "do(action=\\"Click\\", element=\\"12\\")"}``).
Observations carry the page and, when ``reset(compressed_context=True)`` asks, the
agent's whole context with past pages compressed (WebAgent-R1's compression), ready for
a chat template: a client can send ``observation["messages"]`` instead of appending every
page to its own history.

One line::

    webarena-gym serve-env --port 8000        # or: docker build -f docker/openenv/Dockerfile .
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections import OrderedDict
from typing import Any

import gymnasium as gym
from fastapi import Body, HTTPException
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.serialization import deserialize_action, serialize_observation
from openenv.core.env_server.types import (
    Action,
    Observation,
    ResetRequest,
    ResetResponse,
    State,
    StepRequest,
    StepResponse,
)
from pydantic import Field, ValidationError

from ..env import WebArenaEnv
from ..errors import ConfigurationError, UnknownTaskError
from ..sites.server import listen
from ..wrappers import CompressedHistory

logger = logging.getLogger(__name__)

ENV_NAME = "webarena"


class WebArenaAction(Action):
    """One agent action in the grammar."""

    action: str = Field(..., description='An action, e.g. do(action="Click", element="12") or exit(message="...")')


class WebArenaObservation(Observation):
    """What the agent sees after a reset or a step (``reward`` and ``done`` as OpenEnv defines them)."""

    page: str = Field(default="", description="The page as simplified HTML with numbered elements")
    url: str = Field(default="")
    intent: str = Field(default="", description="The task")
    task_id: int | None = Field(default=None)
    step: int = Field(default=0, description="Actions taken in this episode")
    max_steps: int = Field(default=0, description="Step limit of the episode")
    last_action_error: str = Field(default="", description="What was wrong with the last action, if anything")
    reward_components: dict[str, float] = Field(default_factory=dict)
    messages: list[dict[str, str]] | None = Field(
        default=None, description="The agent's context with past pages compressed (reset(compressed_context=True))"
    )


class WebArenaState(State):
    """The current episode: its task, and whether and how it ended."""

    task_id: int | None = None
    intent: str = ""
    url: str = ""
    done: bool = False
    reward: float | None = None


class WebArenaEnvironment(Environment[WebArenaAction, WebArenaObservation, WebArenaState]):
    """A WebArena env behind OpenEnv's ``Environment`` interface; one instance owns one world.

    Args:
        **env_kwargs: Passed to :class:`~webarena_gym.env.WebArenaEnv` (built on the first reset,
            so instances made only to read metadata cost nothing).
    """

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, **env_kwargs: Any):
        super().__init__()
        self._env_kwargs = env_kwargs
        self._env: CompressedHistory | None = None
        self._compressed = False
        self._state = WebArenaState()

    def reset(self, seed: int | None = None, episode_id: str | None = None, task_id: int | None = None,
              compressed_context: bool = False, **kwargs: Any) -> WebArenaObservation:
        """Start an episode (``task_id``, else one drawn with ``seed``); an unfinished one is ended and scored first."""
        if self._env is None:
            self._env = CompressedHistory(WebArenaEnv(**self._env_kwargs))
        elif not self._env.unwrapped.episode_over:
            self._env.unwrapped.end_episode("a new episode started")
        self._compressed = bool(compressed_context)
        _prompt, info = self._env.reset(seed=seed, options={"task_id": task_id} if task_id is not None else None)
        self._state = WebArenaState(episode_id=episode_id or uuid.uuid4().hex, step_count=0, task_id=info["task_id"],
                                    intent=info["intent"], url=info["url"])
        return self._observation(info, reward=None, done=False)

    def step(self, action: WebArenaAction, timeout_s: float | None = None, **kwargs: Any) -> WebArenaObservation:
        """Take one action; agent mistakes come back in ``last_action_error``, never as errors."""
        if self._env is None:
            raise RuntimeError("Call reset() before step().")
        _prompt, reward, terminated, truncated, info = self._env.step(action.action)
        done = bool(terminated or truncated)
        if not self._state.done:
            self._state.step_count = info["step"]
            self._state.url, self._state.done = info["url"], done
            self._state.reward = float(reward) if done else None
        return self._observation(info, reward=float(reward), done=done)

    @property
    def state(self) -> WebArenaState:
        return self._state

    def close(self) -> None:
        """End a running episode (scored, no answer) and release the world."""
        if self._env is not None:
            if not self._env.unwrapped.episode_over:
                self._env.unwrapped.end_episode("the session closed")
            self._env.close()
            self._env = None

    def _observation(self, info: dict[str, Any], *, reward: float | None, done: bool) -> WebArenaObservation:
        return WebArenaObservation(
            page=self._env.page, url=info["url"], intent=info["intent"], task_id=info["task_id"], step=info["step"],
            max_steps=info["max_steps"], last_action_error=info.get("last_action_error", ""),
            reward_components=info.get("reward_components") or {},
            messages=info["messages"] if self._compressed else None,
            reward=reward, done=done, metadata={"episode_id": self._state.episode_id},
        )


class HttpEpisodes:
    """Episodes started over plain HTTP, kept open between requests, each in its own world.

    At capacity, the least recently used episode is ended (scored) and its world reused.
    """

    def __init__(self, capacity: int, **env_kwargs: Any):
        self.capacity = capacity
        self._env_kwargs = env_kwargs
        self._episodes: OrderedDict[str, WebArenaEnvironment] = OrderedDict()
        self._lock = threading.Lock()

    def reset(self, options: dict[str, Any]) -> WebArenaObservation:
        episode_id = str(options.pop("episode_id", None) or uuid.uuid4().hex)
        with self._lock:
            environment = self._episodes.pop(episode_id, None)
            if environment is None and len(self._episodes) >= self.capacity:
                evicted, environment = self._episodes.popitem(last=False)
                logger.info("HTTP episode %s evicted (capacity %d reached)", evicted, self.capacity)
            self._episodes[episode_id] = environment = environment or WebArenaEnvironment(**self._env_kwargs)
        try:
            return environment.reset(episode_id=episode_id, **options)
        except (ValueError, gym.error.Error) as exc:  # a bad task id or seed: the episode does not stay open
            with self._lock:
                if self._episodes.get(episode_id) is environment:
                    del self._episodes[episode_id]
            environment.close()
            raise HTTPException(404 if isinstance(exc, UnknownTaskError) else 400, str(exc)) from None

    def find(self, episode_id: str | None) -> WebArenaEnvironment:
        if episode_id is not None and not isinstance(episode_id, str):
            raise HTTPException(400, f"episode_id must be the string /reset returned in metadata, got {episode_id!r:.80}")
        with self._lock:
            if episode_id is None:
                if len(self._episodes) != 1:
                    raise HTTPException(400, f"{len(self._episodes)} HTTP episodes are open: pass the episode_id that "
                                             "/reset returned in metadata (or POST /reset to start one).")
                episode_id = next(iter(self._episodes))
            environment = self._episodes.get(episode_id)
            if environment is None:
                raise HTTPException(404, f"No open HTTP episode {episode_id!r}; POST /reset starts one "
                                         f"(at most {self.capacity} stay open, the least recently used ends first).")
            self._episodes.move_to_end(episode_id)
            return environment

    def close(self) -> None:
        with self._lock:
            for environment in self._episodes.values():
                environment.close()
            self._episodes.clear()


def create_app(*, max_sessions: int = 8, **env_kwargs: Any):
    """OpenEnv's FastAPI app for the env: WebSocket sessions and HTTP episodes, one world each.

    Args:
        max_sessions: Concurrent WebSocket sessions, and HTTP episodes kept open.
        **env_kwargs: Passed to :class:`~webarena_gym.env.WebArenaEnv`.
    """
    from openenv.core.env_server.http_server import create_app as openenv_app

    if not isinstance(max_sessions, int) or max_sessions < 1:
        raise ConfigurationError(f"max_sessions must be a positive integer, got {max_sessions!r}.")
    WebArenaEnv(**env_kwargs).close()  # a bad setting fails here, not in every session's first reset

    def factory() -> WebArenaEnvironment:
        return WebArenaEnvironment(**env_kwargs)

    app = openenv_app(factory, WebArenaAction, WebArenaObservation, env_name=ENV_NAME,
                      max_concurrent_envs=max_sessions, state_cls=WebArenaState)
    _serve_http_episodes(app, HttpEpisodes(max_sessions, **env_kwargs))
    return app


def _serve_http_episodes(app: Any, episodes: HttpEpisodes) -> None:
    """Replace OpenEnv's per-request HTTP ``/reset``, ``/step`` and ``/state`` with routes over ``episodes``."""
    replaced = {"/reset", "/step", "/state"}
    app.router.routes[:] = [r for r in app.router.routes if getattr(r, "path", None) not in replaced]

    @app.post("/reset", response_model=ResetResponse, tags=["Environment Control"])
    async def reset(request: ResetRequest = Body(default_factory=ResetRequest)) -> ResetResponse:  # noqa: B008
        options = request.model_dump(exclude_unset=True)
        observation = await asyncio.to_thread(episodes.reset, options)
        return ResetResponse(**serialize_observation(observation))

    @app.post("/step", response_model=StepResponse, tags=["Environment Control"])
    async def step(request: StepRequest) -> StepResponse:
        try:
            action = deserialize_action(request.action, WebArenaAction)
        except ValidationError as exc:
            raise HTTPException(422, exc.errors()) from None
        environment = episodes.find((request.model_extra or {}).get("episode_id"))
        observation = await asyncio.to_thread(environment.step, action)
        return StepResponse(**serialize_observation(observation))

    @app.get("/state", response_model=WebArenaState, tags=["State Management"])
    async def state(episode_id: str | None = None) -> WebArenaState:
        return episodes.find(episode_id).state

    app.router.on_shutdown.append(episodes.close)


def serve(host: str = "127.0.0.1", port: int = 8000, *, max_sessions: int = 8, announce: str | None = None,
          **env_kwargs: Any) -> None:
    """Serve the env with uvicorn until interrupted (``webarena-gym serve-env``).

    ``announce`` is printed once the settings are checked and the app is built, before serving starts.
    """
    import uvicorn

    app = create_app(max_sessions=max_sessions, **env_kwargs)
    try:  # bound here: uvicorn reports a taken port by logging it and exiting the process
        listener = listen(host, port)
    except OSError as exc:
        raise ConfigurationError(f"Cannot serve the env on {host}:{port}: {exc}. Pass a free port (CLI: --port) "
                                 "and an address of this machine (CLI: --host).") from None
    if announce:
        print(announce, flush=True)
    with listener:
        uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[listener])


__all__ = ["WebArenaAction", "WebArenaEnvironment", "WebArenaObservation", "WebArenaState", "create_app", "serve"]
