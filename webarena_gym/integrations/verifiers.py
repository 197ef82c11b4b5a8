"""verifiers 0.4: a taskset module for ``vf-eval`` (the env plays the user, the model acts).

``vf-eval webarena_gym.integrations.verifiers --env.taskset.split test ...`` imports this
module, finds its ``Taskset`` and ``Env`` subclasses through ``__all__``, and runs one
exchange per task: :class:`WebArenaVerifiersEnv` opens the conversation with the task and
the first page, steps the env host-side with each reply (an action of the grammar),
answers with the next page, and records the reward (0 or 1) when the episode ends. The
step limit follows the player's ``max_turns`` when it is set; an exchange that verifiers
ends first (a turn or token limit) is scored as ended, without an answer.

verifiers keeps the conversation itself and only appends user turns, so past pages
cannot be replaced by placeholders: WebAgent-R1's context compression does not survive
this integration (the README shows what that costs in context tokens).

verifiers 0.4 pins ``mcp==2.0.0`` and OpenEnv 0.10 needs ``mcp<2``: install the
``[verifiers]`` extra in an environment without ``[openenv]``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import verifiers.v1 as vf

from ..env import DEFAULT_MAX_STEPS
from ..prompts import system_prompt
from .text_episode import TextEpisode


class WebArenaTaskData(vf.TaskData):
    """One WebArena task: the conversation is opened by the env (no prompt of its own)."""

    task_id: int
    suite: str = "embedded"
    split: str = "test"
    max_chars: int | None = None


class WebArenaTasksetConfig(vf.TasksetConfig):
    suite: str = "embedded"
    """``embedded`` (offline sites) or ``webarena-lite`` (the real sites, ``WA_*`` variables)."""
    split: str = "test"
    """``test`` or ``train``."""
    task_ids: list[int] | None = None
    """Only these tasks (default: the whole split)."""
    thinking: bool = False
    """Ask for ``<think>...</think><answer>...</answer>`` instead of a bare action."""
    max_chars: int | None = None
    """Character budget of one page (default: the env's)."""


class WebArenaTask(vf.Task[WebArenaTaskData]):
    pass


class WebArenaEnvConfig(vf.EnvConfig):
    player: vf.AgentConfig = vf.AgentConfig()


class WebArenaVerifiersEnv(vf.Env[WebArenaEnvConfig]):
    """Steps the web env host-side: every reply of the player is one action."""

    async def run(self, task, agents):
        data = task.data
        max_steps = self.config.player.max_turns or DEFAULT_MAX_STEPS
        env_kwargs = {"suite": data.suite, "split": data.split, "task_ids": [data.task_id]}
        if data.max_chars is not None:
            env_kwargs["max_chars"] = data.max_chars
        episode = await asyncio.to_thread(TextEpisode, max_steps=max_steps, **env_kwargs)
        try:
            first = await asyncio.to_thread(episode.start, data.task_id)
            async with agents.player.interaction(task) as interaction:
                segment = await interaction.turn(first)
                while not segment.terminated:
                    answer = await asyncio.to_thread(episode.act, segment.last_reply)
                    if episode.done:
                        break
                    segment = await interaction.turn(answer)
                # Scored before the exchange closes, so the rollout's own scoring sees the reward.
                reward = await asyncio.to_thread(episode.finish, "verifiers ended the exchange")
                interaction.trace.record_reward("webarena_reward", reward, 1.0)
                interaction.trace.info["webarena_steps"] = episode.info.get("step", 0)
        finally:
            await asyncio.to_thread(episode.close)


class WebArenaTaskset(vf.Taskset[WebArenaTask, WebArenaTasksetConfig]):
    """The tasks of one suite and split, each a prompt-less task the env opens."""

    def load(self) -> Iterator[WebArenaTask]:
        config = self.config
        episode = TextEpisode(suite=config.suite, split=config.split, task_ids=config.task_ids)
        try:
            tasks = list(episode.env.tasks)
        finally:
            episode.close()
        prompt = system_prompt(thinking=config.thinking)
        for task in tasks:
            yield WebArenaTask(
                WebArenaTaskData(name=f"webarena-{config.suite}-{task.task_id}", id=str(task.task_id), prompt=None,
                                 system_prompt=prompt, task_id=task.task_id, suite=config.suite, split=config.split,
                                 max_chars=config.max_chars),
                config.task,
            )


__all__ = ["WebArenaTask", "WebArenaTaskData", "WebArenaTaskset", "WebArenaTasksetConfig", "WebArenaVerifiersEnv"]
