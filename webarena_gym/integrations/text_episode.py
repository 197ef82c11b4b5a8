"""An episode driven by text, for libraries that keep the chat history themselves.

TRL, SkyRL and verifiers append every observation the env returns to their own chat
history; what they need from the env is the first user message, the text answering each
action, and a reward at the end, including for an episode they stop themselves.
:class:`TextEpisode` gives exactly that over one :class:`~webarena_gym.env.WebArenaEnv`
(one world).
"""

from __future__ import annotations

import logging
from typing import Any

from ..env import DEFAULT_MAX_STEPS, WebArenaEnv
from ..errors import ConfigurationError
from ..prompts import user_turn

logger = logging.getLogger(__name__)

#: What an action gets once the episode is over (the library may ask for more turns).
EPISODE_OVER = "[The episode is over: no further actions are taken.]"
STEP_LIMIT = "\n[The step limit is reached: the episode is over.]"


class TextEpisode:
    """One env and its current episode, as text in and text out.

    Args:
        max_steps: Step limit of an episode; integrations set it from the library's own
            turn limit so that the two agree.
        **env_kwargs: Passed to :class:`~webarena_gym.env.WebArenaEnv` (suite, split,
            backend, task_ids, max_chars, ...).

    >>> episode = TextEpisode(suite="embedded", max_steps=3)   # doctest: +SKIP
    >>> print(episode.start(task_id=1003)[:5])                 # doctest: +SKIP
    Task:
    """

    def __init__(self, *, max_steps: int = DEFAULT_MAX_STEPS, **env_kwargs: Any):
        if not isinstance(max_steps, int) or max_steps < 1:
            raise ConfigurationError(f"max_steps must be a positive integer, got {max_steps!r}.")
        self._env_kwargs = dict(env_kwargs, max_steps=max_steps)
        self.env = WebArenaEnv(**self._env_kwargs)
        self.info: dict[str, Any] = {}
        self._started = False
        self._reward = 0.0
        self._closed = False

    @property
    def done(self) -> bool:
        """Whether the current episode is over (or none was started)."""
        return self.env.episode_over

    def start(self, task_id: Any = None, seed: int | None = None, *, suite: str | None = None,
              split: str | None = None) -> str:
        """Start an episode (a task id, or one drawn with ``seed``): the task and the first page as one user message.

        ``suite`` and ``split`` say where the task id comes from (a dataset row carries them):
        the env follows them, unless it was built with another suite or split on purpose,
        which is refused by name. An episode still running is first ended and scored (no answer).
        """
        if self._started and not self.done:
            self.env.end_episode("a new episode started")
        self._follow(suite=suite, split=split)
        options = {"task_id": int(task_id)} if task_id is not None else None
        observation, self.info = self.env.reset(seed=seed, options=options)
        self._started = True
        return user_turn(observation, url=self.info["url"], intent=self.info["intent"], step=0,
                         max_steps=self.env.max_steps)

    def _follow(self, **wanted: str | None) -> None:
        """Rebuild the env on the suite and split a row names, when they differ from the current ones."""
        current = {"suite": self.env.suite, "split": self.env.split}
        changed = {key: value for key, value in wanted.items() if value is not None and value != current[key]}
        if not changed:
            return
        pinned = {key: self._env_kwargs[key] for key in changed if self._env_kwargs.get(key) is not None}
        if pinned:
            given = ", ".join(f"{key}={value!r}" for key, value in changed.items())
            chosen = ", ".join(f"{key}={value!r}" for key, value in pinned.items())
            raise ConfigurationError(
                f"The row's task is from {given}, but this env was built with {chosen}. Build the env with the "
                f"dataset's {'/'.join(changed)} (or leave {'/'.join(pinned)} out: the env then follows the rows)."
            )
        logger.debug("Env follows the row to %s", changed)
        self.env.close()
        self.env = WebArenaEnv(**{**self._env_kwargs, **current, **changed})

    def act(self, action: str) -> str:
        """Take one action string of the grammar; the text that answers it (the next page, or the end)."""
        if not self._started or self.done:
            return EPISODE_OVER
        observation, _reward, terminated, truncated, self.info = self.env.step(action)
        if terminated:
            return EPISODE_OVER
        text = user_turn(observation, url=self.info["url"], step=self.info["step"], max_steps=self.env.max_steps)
        return text + STEP_LIMIT if truncated else text

    def finish(self, reason: str = "ended by the library") -> float:
        """The episode's reward, ending it first (scored without an answer) when the library stopped it early."""
        if not self._started or self._closed:  # after close(): the reward the episode ended with
            return self._reward
        if not self.done:
            logger.debug("Episode of task %s ended from outside after %s steps: %s",
                         self.info.get("task_id"), self.info.get("step"), reason)
        self._reward, self.info = self.env.end_episode(reason)
        return self._reward

    def close(self) -> None:
        """End a running episode (scored; :meth:`finish` still gives its reward) and release the world."""
        if self._started:
            self.finish("closed")
        self._closed = True
        self.env.close()
