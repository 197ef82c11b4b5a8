"""TRL: an environment class for ``GRPOTrainer(environment_factory=...)``.

TRL's multi-turn agent path builds one environment per rollout, calls ``reset(**row)`` with
the dataset row and appends the text it returns to the prompt, exposes every public method
as a tool, runs the tool calls the model makes, and scores the rollout with
``get_reward()``. Here the tools are generated from the action definitions (one typed
function per action, docstring from the definition); ``reset`` gives the task and the
first page; ``get_reward`` ends an episode the rollout left unfinished (TRL never tells an
environment that a rollout is over), scored without an answer as at the step limit.

One line (the rows carry their split and suite, and the envs follow them)::

    GRPOTrainer(model, args=args, train_dataset=task_dataset("train"),
                environment_factory=environment_factory(args))

docs/guide/integrations.md has the whole runnable script.

TRL appends every tool result to the rollout's token sequence, so past pages cannot be
replaced by placeholders there: WebAgent-R1's context compression does not survive this
integration (the README shows what that costs in context tokens).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..actions import ACTIONS
from ..env import DEFAULT_MAX_STEPS
from ..prompts import tool_system_prompt, user_turn
from .text_episode import EPISODE_OVER, TextEpisode
from .tools import action_tool, action_tools, call_for_action, tool_name


class WebArenaToolEnv:
    """A WebArena env as a TRL environment: tools from the actions, ``reset``, ``get_reward``.

    Args:
        max_steps: Step limit (``environment_factory`` sets it from ``max_tool_calling_iterations``).
        **env_kwargs: Passed to :class:`~webarena_gym.env.WebArenaEnv`.

    Every public method other than ``reset`` and ``get_reward`` is a tool, so this class
    has no other public methods.

    >>> env = WebArenaToolEnv(suite="embedded")          # doctest: +SKIP
    >>> text = env.reset(task_id=1003)                   # doctest: +SKIP
    >>> page = env.click(element=4)                      # doctest: +SKIP
    >>> env.get_reward()                                 # doctest: +SKIP
    0.0
    """

    def __init__(self, *, max_steps: int = DEFAULT_MAX_STEPS, **env_kwargs: Any):
        self._episode = TextEpisode(max_steps=max_steps, **env_kwargs)

    def reset(self, task_id: Any = None, seed: int | None = None, suite: str | None = None,
              split: str | None = None, **row: Any) -> str:
        """Start the row's task: the task and the first page.

        ``task_id`` comes from the row's ``suite`` and ``split`` (:func:`task_dataset` writes
        them), and the env follows them; the other columns are ignored.
        """
        return self._episode.start(task_id=task_id, seed=seed, suite=suite, split=split)

    def get_reward(self) -> float:
        """The episode's reward (0 or 1); an episode still running is ended first, without an answer."""
        return self._episode.finish("the rollout ended before the episode")

    def _act(self, action: str) -> str:
        return self._episode.act(action)


for _spec in ACTIONS:
    setattr(WebArenaToolEnv, tool_name(_spec), action_tool(_spec, WebArenaToolEnv._act, method=True))


def environment_factory(args: Any = None, **env_kwargs: Any) -> Callable[[], WebArenaToolEnv]:
    """A factory for ``GRPOTrainer(environment_factory=...)`` whose step limit follows TRL's turn limit.

    Args:
        args: The ``GRPOConfig``: its ``max_tool_calling_iterations`` (when set) becomes the
            env's ``max_steps``, so an episode ends where TRL stops calling tools.
        **env_kwargs: Passed to :class:`WebArenaToolEnv` (suite, split, task_ids, max_chars, ...).
            Leave suite and split out to follow the dataset's rows; a row from another suite or
            split than one given here is refused by name.
    """
    turns = getattr(args, "max_tool_calling_iterations", None)
    if turns is not None and "max_steps" not in env_kwargs:
        env_kwargs["max_steps"] = int(turns)
    return functools.partial(WebArenaToolEnv, **env_kwargs)


def task_rows(task_ids: Sequence[int], *, split: str | None = None, suite: str | None = None) -> list[dict[str, Any]]:
    """Dataset rows for ``GRPOTrainer``: the tool-calling system prompt, an empty user turn
    (``reset`` fills it with the task and the page), the task id, and where it comes from
    (``split`` and ``suite`` columns, when given: the env follows them)."""
    origin = {key: value for key, value in (("split", split), ("suite", suite)) if value is not None}
    return [{"prompt": [{"role": "system", "content": tool_system_prompt()}, {"role": "user", "content": ""}],
             "task_id": int(task_id), **origin} for task_id in task_ids]


def task_dataset(split: str = "train", task_ids: Sequence[int] | None = None, *, suite: str = "embedded"):
    """A ``datasets.Dataset`` with one row per task of the split (or per given id of it).

    Every row names its ``split`` and ``suite``, so the envs of
    ``environment_factory(args)`` play each task where it lives.
    """
    from datasets import Dataset

    if task_ids is None:
        env = TextEpisode(suite=suite, split=split)
        try:
            task_ids = [task.task_id for task in env.env.tasks]
        finally:
            env.close()
    return Dataset.from_list(task_rows(task_ids, split=split, suite=suite))


def tool_schemas() -> list[dict[str, Any]]:
    """The JSON schemas of the action tools, as a chat template receives them."""
    from transformers.utils import get_json_schema

    return [get_json_schema(tool) for tool in action_tools(str)]


def tool_call_conversations(demos: Iterable[Any], *, max_steps: int = DEFAULT_MAX_STEPS) -> list[dict[str, Any]]:
    """Expert demonstrations as tool-calling conversations for TRL's ``SFTTrainer`` (``messages``, ``tools``).

    Each turn is the tool call that writes the expert's action, answered by the text
    :class:`WebArenaToolEnv` returns; after ``exit`` the conversation ends with an empty
    reply, which is how a rollout stops calling tools. Arguments are JSON text (the
    template writes them as they are), so rows of different tools fit one dataset schema.
    """
    schemas = json.dumps(tool_schemas())
    rows = []
    for demo in demos:
        first = demo.turns[0]
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": tool_system_prompt()},
            {"role": "user", "content": user_turn(first.observation, url=first.url, intent=demo.intent, step=0,
                                                  max_steps=max_steps)},
        ]
        for index, turn in enumerate(demo.turns):
            name, arguments = call_for_action(turn.action)
            call = {"type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
            messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
            following = demo.turns[index + 1] if index + 1 < len(demo.turns) else None
            result = EPISODE_OVER if following is None else user_turn(
                following.observation, url=following.url, step=index + 1, max_steps=max_steps)
            messages.append({"role": "tool", "name": name, "content": result})
        messages.append({"role": "assistant", "content": ""})
        rows.append({"messages": messages, "tools": schemas})
    return rows


__all__ = ["WebArenaToolEnv", "environment_factory", "task_dataset", "task_rows", "tool_call_conversations",
           "tool_schemas"]
