"""Wrappers that turn the env into what a policy sees."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from gymnasium.utils import RecordConstructorArgs

from .errors import ConfigurationError
from .prompts import Turn, build_messages, messages_to_text
from .settings import DEFAULT_KEEP_LAST
from .spaces import UnicodeText


class CompressedHistory(gym.Wrapper[str, str, str, str], RecordConstructorArgs):
    """The agent's context with compressed history (WebAgent-R1's dynamic context compression).

    Observations become the whole prompt as flat text; ``info["messages"]`` holds the
    same as chat messages for ``tokenizer.apply_chat_template``. Every past action is kept
    in full, past observations are replaced by a one-line placeholder (the last
    ``keep_last`` are kept whole), and the current observation is in full.
    ``info["context_chars"]`` is the prompt's length and ``info["turn_chars"]`` the length
    of each message, so the growth of the context can be measured. The step budget the
    prompt states is the env's ``info["max_steps"]``.

    Its arguments are recorded as Gymnasium's wrappers record theirs
    (:class:`~gymnasium.utils.RecordConstructorArgs`): ``env.spec.additional_wrappers`` names
    them, and ``gym.make(env.spec)`` builds the same wrapped env again.

    Args:
        env: A WebArena env (or a wrapper of one).
        thinking: Ask for ``<think>...</think><answer>...</answer>`` instead of a bare action.
        keep_last: How many past observations to keep in full (0 = WebAgent-R1's setting).
        task_after_page: Restate the task after the page in every user message (WebArena's
            prompt layout) instead of once before the first page (WebAgent-R1's).

    >>> import webarena_gym, gymnasium as gym                          # doctest: +SKIP
    >>> env = CompressedHistory(gym.make("WebArenaLite-v0", suite="embedded"))  # doctest: +SKIP
    >>> prompt, info = env.reset(seed=0)                               # doctest: +SKIP
    >>> info["messages"][0]["role"]                                    # doctest: +SKIP
    'system'
    """

    def __init__(self, env: gym.Env[str, str], *, thinking: bool = False, keep_last: int = DEFAULT_KEEP_LAST,
                 task_after_page: bool = False):
        if not isinstance(keep_last, int) or keep_last < 0:
            raise ConfigurationError(f"keep_last must be a non-negative integer, got {keep_last!r}.")
        RecordConstructorArgs.__init__(self, thinking=thinking, keep_last=keep_last, task_after_page=task_after_page)
        gym.Wrapper.__init__(self, env)
        self.thinking = thinking
        self.keep_last = keep_last
        self.task_after_page = bool(task_after_page)
        self.observation_space = UnicodeText(max_length=10_000_000)
        self.history: list[Turn] = []
        self._intent = ""
        self._max_steps = 0
        self._current: tuple[str, str] = ("", "")

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        observation, info = self.env.reset(seed=seed, options=options)
        self.history = []
        # a suite that wants a structured final answer (webarena-verified) says how, after the task
        self._intent = info["intent"] + (f"\n\n{info['answer_format']}" if info.get("answer_format") else "")
        return self._context(observation, info)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        seen, url = self._current
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.history.append(Turn(seen, str(action), url))
        prompt, info = self._context(observation, info)
        return prompt, reward, terminated, truncated, info

    @property
    def page(self) -> str:
        """The current observation as the env returned it (the last message holds it in full)."""
        return self._current[0]

    def messages(self) -> list[dict[str, str]]:
        """The current context as chat messages."""
        observation, url = self._current
        return build_messages(
            self._intent, self.history, observation, url, thinking=self.thinking, keep_last=self.keep_last,
            max_steps=self._max_steps, task_after_page=self.task_after_page,
        )

    def _context(self, observation: str, info: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        self._current = (observation, info["url"])
        self._max_steps = int(info.get("max_steps") or 0)
        messages = self.messages()
        text = messages_to_text(messages)
        info = dict(info, messages=messages, context_chars=len(text), turn_chars=[len(m["content"]) for m in messages])
        return text, info
