"""SkyRL-gym: a ``BaseTextEnv`` registered as ``"webarena"``.

SkyRL's generator makes one env per trajectory with ``skyrl_gym.make(env_class,
env_config=..., extras=row_extras)`` (it puts its turn limit in ``extras["max_turns"]``),
calls ``init(prompt)`` for the first prompt, then ``step(model_output)`` until ``done``,
appending each step's ``observations`` to the chat history, and ``close()``. Here the
task id comes from the dataset row (``extra_info.task_id`` or ``task_id``), the step limit
follows ``max_turns``, the env plays the task in the row's ``extra_info.split`` and
``suite`` (when the row names them and ``env_config`` does not), the reward (0 or 1) comes with the last step, and ``close()`` on an
episode the generator stopped early (its context limit) scores it as ended without an answer.

One line::

    import webarena_gym.integrations.skyrl   # registers "webarena"; rows: dataset_rows(...)

SkyRL keeps the chat history (token in, token out) and appends every observation, so
past pages cannot be replaced by placeholders: WebAgent-R1's context compression does not
survive this integration (the README shows what that costs in context tokens).
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput
from skyrl_gym.envs.registration import register, registry

from ..env import DEFAULT_MAX_STEPS, WebArenaEnv
from ..errors import ConfigurationError
from ..prompts import system_prompt
from .text_episode import TextEpisode

ENV_ID = "webarena"
#: ``env_config`` keys that are not :class:`~webarena_gym.env.WebArenaEnv` arguments.
_OWN_KEYS = ("thinking",)


def _plain(config: Any) -> dict[str, Any]:
    """An OmegaConf ``DictConfig`` (what SkyRL passes) or a mapping, as a dict."""
    if config is None:
        return {}
    if hasattr(config, "items") and not isinstance(config, Mapping):
        from omegaconf import OmegaConf

        config = OmegaConf.to_container(config, resolve=True)
    if not isinstance(config, Mapping):
        raise ConfigurationError(f"The env config (skyrl_gym_cfg.{ENV_ID}) must be a mapping, got {config!r:.80}.")
    return dict(config)


def _whole_number(value: Any, what: str) -> int:
    """A dataset value that must be an integer: an int, a string of digits, or a whole float (parquet's)."""
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    raise ConfigurationError(f"{what} must be an integer, got {value!r:.80}.")


def _row_value(extras: Mapping[str, Any], key: str) -> Any:
    """A column of the row: top-level, else in ``extra_info``."""
    extra_info = extras.get("extra_info") or {}
    return extras.get(key, extra_info.get(key) if isinstance(extra_info, Mapping) else None)


def _task_id(extras: Mapping[str, Any]) -> int | None:
    task_id = _row_value(extras, "task_id")
    return None if task_id is None else _whole_number(task_id, "The row's task_id")


def _messages(prompt: Any) -> list[dict[str, Any]]:
    """The row's prompt as a list of message dicts (None: none), or a ConfigurationError."""
    if prompt is None:
        return []
    if not isinstance(prompt, (str, bytes, Mapping)) and isinstance(prompt, Iterable):
        messages = list(prompt)
        if all(isinstance(message, Mapping) for message in messages):
            return [dict(message) for message in messages]
    raise ConfigurationError(f"The row's prompt must be a list of chat messages (role, content), got {prompt!r:.80}.")


class WebArenaTextEnv(BaseTextEnv):
    """A WebArena episode as a SkyRL text env; the model writes actions in the grammar.

    Args:
        env_config: SkyRL's per-env config (``skyrl_gym_cfg.webarena``): ``WebArenaEnv`` keyword
            arguments (suite, split, backend, max_chars, ...) and ``thinking`` (answer format of
            the system prompt added when the dataset's prompt has none).
        extras: The dataset row's extras: ``task_id`` (or ``extra_info.task_id``), ``max_turns``.
    """

    def __init__(self, env_config: Any = None, extras: Mapping[str, Any] | None = None):
        super().__init__()
        config = _plain(env_config)
        extras = dict(extras or {})
        self.thinking = bool(config.pop("thinking", False))
        self.max_turns = _whole_number(extras.get("max_turns") or config.pop("max_steps", DEFAULT_MAX_STEPS), "max_turns")
        config.pop("max_steps", None)
        if self.max_turns < 1:
            raise ConfigurationError(f"max_turns must be a positive integer, got {self.max_turns!r}.")
        self.task_id = _task_id(extras)
        # Where the row's task lives; env_config's own suite/split win, and start() refuses a clash by name.
        self._origin = {key: value for key in ("suite", "split") if (value := _row_value(extras, key)) is not None}
        unknown = sorted(set(config) - set(inspect.signature(WebArenaEnv).parameters))
        if unknown:
            raise ConfigurationError(f"Unknown key(s) {unknown} in skyrl_gym_cfg.{ENV_ID}: it takes WebArenaEnv's "
                                     f"arguments (suite, split, backend, max_chars, ...) and {', '.join(_OWN_KEYS)}.")
        self._episode = TextEpisode(max_steps=self.max_turns, **{**self._origin, **config})
        self._ended_from_outside = False

    def init(self, prompt: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The dataset prompt with the task and first page appended (and a system prompt if it has none)."""
        conversation = _messages(prompt)
        first = self._episode.start(task_id=self.task_id, **self._origin)
        if not conversation or conversation[0].get("role") != "system":
            conversation.insert(0, {"role": "system", "content": system_prompt(thinking=self.thinking)})
        if conversation[-1].get("role") == "user":
            conversation[-1]["content"] = (conversation[-1].get("content") or "") + first
        else:
            conversation.append({"role": "user", "content": first})
        return conversation, {"task_id": self._episode.info["task_id"]}

    def step(self, action: str) -> BaseTextEnvStepOutput:
        self.turns += 1
        text = self._episode.act(action)
        done = self._episode.done
        reward = self._episode.finish() if done else 0.0
        info = self._episode.info
        return BaseTextEnvStepOutput(
            observations=[] if done else [{"role": "user", "content": text}],
            reward=reward,
            done=done,
            metadata={"task_id": info.get("task_id"), "url": info.get("url"),
                      "last_action_error": info.get("last_action_error", "")},
        )

    def get_metrics(self) -> dict[str, Any]:
        info = self._episode.info
        return {"steps": info.get("step", 0), "success": float(self._episode.done and self._episode.finish() == 1.0),
                "ended_from_outside": float(self._ended_from_outside)}

    def close(self) -> None:
        """End an episode the generator stopped (scored without an answer) and release the world."""
        if not self._episode.done:
            self._ended_from_outside = True
            self._episode.finish("SkyRL stopped the trajectory")
        self._episode.close()


def dataset_rows(task_ids: Sequence[int], *, split: str | None = None, suite: str | None = None,
                 thinking: bool = False) -> list[dict[str, Any]]:
    """Rows of a SkyRL prompt dataset: a system prompt, an empty user turn (``init`` adds the task and page).

    ``split`` and ``suite``, when given, go into ``extra_info`` beside the task id, and the
    env plays the task there (``env_config`` need not repeat them).
    """
    prompt = [{"role": "system", "content": system_prompt(thinking=thinking)}, {"role": "user", "content": ""}]
    origin = {key: value for key, value in (("split", split), ("suite", suite)) if value is not None}
    return [{"data_source": "webarena-gym", "prompt": prompt, "env_class": ENV_ID,
             "extra_info": {"task_id": int(task_id), **origin}} for task_id in task_ids]


if ENV_ID not in registry:
    register(id=ENV_ID, entry_point=f"{__name__}:WebArenaTextEnv")

__all__ = ["ENV_ID", "WebArenaTextEnv", "dataset_rows"]
