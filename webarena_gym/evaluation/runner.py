"""The evaluation loop: any :class:`~.policy.Policy` over a list of tasks, many episodes in flight.

Each turn the contexts of all live episodes go to the policy as one batch, then their
envs step together (the vector env of :func:`~.envs.make_agent_envs`, the same one the
trainer's rollouts use: envs in worker processes, or in this process with ``workers=0``);
a slot whose episode ended starts the next task right away through a reset mask. Every
finished episode is appended to the run file (when one is given) before the next turn,
so a run that is killed keeps what it finished, and running it again plays only the
tasks that are missing. The progress bar shows the running success rate.

>>> from webarena_gym.evaluation import RunWriter, make_agent_envs, run_evaluation   # doctest: +SKIP
>>> envs = make_agent_envs(8, suite="embedded", split="test", max_steps=30)           # doctest: +SKIP
>>> with RunWriter("run.jsonl", policy.describe()) as writer:                          # doctest: +SKIP
...     results = run_evaluation(envs, policy, envs.task_ids, writer=writer)
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..actions import printable
from ..errors import ConfigurationError
from ..vector import env_info, reset_tasks
from .envs import require_agent_envs
from .policy import Policy, PolicyOutput
from .results import EpisodeResult, StepRecord, canonical_action
from .run_file import RunWriter

logger = logging.getLogger(__name__)

#: Longest model output passed to the env (the action space's limit); longer outputs are cut.
MAX_OUTPUT_CHARS = 100_000


@dataclass
class _Episode:
    """An episode in flight: its result so far and the context of its next turn."""

    result: EpisodeResult
    messages: list[dict[str, str]]
    url: str
    screenshot: str | None
    turns: list[StepRecord] = field(default_factory=list)


def run_evaluation(
    envs: Any,
    policy: Policy,
    task_ids: Sequence[int],
    *,
    episodes_in_flight: int | None = None,
    writer: RunWriter | None = None,
    record_observations: bool = True,
    progress: bool | Any = True,
    desc: str = "eval",
) -> list[EpisodeResult]:
    """Play one episode per task id and return the results in the order of ``task_ids``.

    Args:
        envs: A vector env with autoreset disabled whose envs are wrapped in
            :class:`~webarena_gym.wrappers.CompressedHistory` (their ``info["messages"]`` is
            what the policy answers): :func:`~.envs.make_agent_envs`.
        policy: Answers a batch of contexts.
        task_ids: Tasks to play (a repeated id plays once).
        episodes_in_flight: Episodes played at once (default and at most: ``envs.num_envs``).
        writer: Run file to append each finished episode to; the tasks it already holds
            are not played again, and their results are returned with the new ones.
        record_observations: Keep each turn's page text in the results (the bulk of a run file).
        progress: Show a progress bar (or pass a tqdm-like bar to advance).
        desc: The bar's label.
    """
    from tqdm.auto import tqdm

    require_agent_envs(envs)
    episodes_in_flight = envs.num_envs if episodes_in_flight is None else episodes_in_flight
    if not isinstance(episodes_in_flight, int) or not 1 <= episodes_in_flight <= envs.num_envs:
        raise ConfigurationError(
            f"episodes_in_flight must be an integer from 1 to the number of envs ({envs.num_envs}), "
            f"got {episodes_in_flight!r}."
        )
    wanted = list(dict.fromkeys(int(t) for t in task_ids))
    done: dict[int, EpisodeResult] = {}
    if writer is not None:
        done = {t: writer.finished[t] for t in wanted if t in writer.finished}
    pending = deque(t for t in wanted if t not in done)
    own_bar = not hasattr(progress, "update")
    bar = tqdm(total=len(wanted), initial=len(done), desc=desc, unit="episode",
               disable=not progress) if own_bar else progress
    successes = sum(r.success for r in done.values())
    slots: list[_Episode | None] = [None] * min(episodes_in_flight, max(len(pending), 1))
    splits, strict = envs.get_attr("split"), envs.get_attr("strict_actions")
    tasks = {task.task_id: task for task in getattr(envs, "tasks", None) or []}
    try:
        while pending or any(slots):
            free = [i for i, slot in enumerate(slots) if slot is None][: len(pending)]
            if free:
                starting = {i: pending.popleft() for i in free}
                infos = reset_tasks(envs, starting)
                for i, task_id in starting.items():
                    slots[i] = _start(task_id, env_info(infos, i), splits[i], tasks.get(task_id))
            live = [i for i, slot in enumerate(slots) if slot is not None]
            outputs = _act(policy, [slots[i].messages for i in live])
            actions: list[str | None] = [None] * envs.num_envs
            for i, output in zip(live, outputs, strict=True):
                actions[i] = printable(output.text if isinstance(output.text, str) else "")[:MAX_OUTPUT_CHARS]
            _observations, rewards, terminations, truncations, infos = envs.step(actions)
            for i, output in zip(live, outputs, strict=True):
                episode = slots[i]
                step = (rewards[i], terminations[i], truncations[i], env_info(infos, i))
                if _record_turn(episode, output, actions[i], step, strict[i], record_observations):
                    slots[i] = None
                    if writer is not None:
                        writer.append(episode.result)
                    done[episode.result.task_id] = episode.result
                    successes += episode.result.success
                    bar.update(1)
                    bar.set_postfix_str(f"success {successes}/{len(done)} ({successes / len(done):.1%})")
    finally:
        if own_bar:
            bar.close()
    return [done[t] for t in wanted if t in done]


def _start(task_id: int, info: dict[str, Any], split: str, task: Any) -> _Episode:
    if "messages" not in info:
        raise ConfigurationError(
            "The evaluation envs must give the agent's context in info['messages']: wrap each env in "
            "webarena_gym.wrappers.CompressedHistory (webarena_gym.evaluation.make_agent_envs does)."
        )
    result = EpisodeResult(task_id, list(info["sites"]), 0.0, 0, None, intent=info.get("intent", ""),
                           family=_family_name(task_id, split, info), template=info.get("intent_template_id"),
                           # (envs built from explicit task dicts may reuse an id: the intent must match too)
                           reference=task.eval.to_dict() if task is not None and task.intent == info.get("intent") else {})
    return _Episode(result, info["messages"], info.get("url", ""), info.get("screenshot"))


def _act(policy: Policy, contexts: list[list[dict[str, str]]]) -> list[PolicyOutput]:
    outputs = policy.act(contexts)
    if len(outputs) != len(contexts) or not all(isinstance(o, PolicyOutput) for o in outputs):
        raise ConfigurationError(
            f"{type(policy).__name__}.act must return one PolicyOutput per context: got {len(outputs)} "
            f"outputs for {len(contexts)} contexts."
        )
    return outputs


def _record_turn(episode: _Episode, output: PolicyOutput, text: str, step: tuple[Any, ...], strict: bool,
                 record_observations: bool) -> bool:
    """Add one turn to ``episode`` (``step``: reward, terminated, truncated, info); returns whether it ended."""
    reward, terminated, truncated, info = step
    errors = [e for e in (output.error, info.get("last_action_error", "")) if e]
    episode.result.turns.append(StepRecord(
        output=text,
        action=canonical_action(text, strict=bool(strict)),
        error="; ".join(errors),
        url=episode.url,
        observation=episode.messages[-1]["content"] if record_observations else "",
        reasoning=printable(output.reasoning),
        prompt_tokens=output.prompt_tokens,
        completion_tokens=output.completion_tokens,
        screenshot=episode.screenshot,
    ))
    # an episode lost to the infrastructure (a Ray env worker died or hung) has no new messages: it ends here
    episode.messages, episode.url = info.get("messages", episode.messages), info.get("url", episode.url)
    episode.screenshot = info.get("screenshot")
    if not (terminated or truncated):
        return False
    result = episode.result
    result.reward, result.steps, result.answer = float(reward), len(result.turns), info.get("answer")
    result.reward_components = dict(info.get("reward_components") or {})
    result.end_reason = "exit" if terminated else "infrastructure_error" if info.get("infrastructure_error") else "step_limit"
    result.final_url = info.get("url", "")
    return True


def _family_name(task_id: int, split: str, info: dict[str, Any]) -> str | None:
    """The embedded family of the task, when the env runs the embedded suite's own tasks."""
    if info.get("suite") != "embedded" or split not in ("train", "test"):
        return None
    from ..suites.embedded import family_of

    try:
        family = family_of(task_id, split)
    except KeyError:
        return None
    # Envs built from explicit task dicts reuse ids: only a matching intent identifies the family.
    return family.name if _embedded_intents(split).get(task_id) == info.get("intent") else None


@cache
def _embedded_intents(split: str) -> dict[int, str]:
    from ..suites.embedded import embedded_tasks

    return {task.task_id: task.intent for task in embedded_tasks(split)}
