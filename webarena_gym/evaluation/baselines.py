"""Baselines: the embedded suite's scripted experts, a random agent and a fixed answer, one env at a time.

A step policy is any callable ``policy(observation, info) -> action string``; an optional
``policy.reset(info)`` is called at the start of each episode. Models are evaluated with
:func:`~.runner.run_evaluation` instead (batched, resumable).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from ..actions import Action, ActionName
from .results import EpisodeResult, StepRecord, canonical_action

StepPolicy = Callable[[str, dict[str, Any]], str]


class RandomPolicy:
    """Clicks, types and scrolls at random, and sometimes exits with a random answer."""

    def __init__(self, seed: int = 0, exit_probability: float = 0.1):
        self.rng = random.Random(seed)
        self.exit_probability = exit_probability
        self.page = None

    def __call__(self, observation: str, info: dict[str, Any]) -> str:
        elements = self.page.elements if self.page is not None else []
        roll = self.rng.random()
        if roll < self.exit_probability:
            return Action(ActionName.EXIT, message=self.rng.choice(["", "N/A", "0", "yes", "Done"])).to_string()
        if elements and roll < 0.75:
            element = self.rng.choice(elements)
            if element.is_text_field():
                return Action(ActionName.TYPE, element=element.id, argument=self.rng.choice(["test", "shoes", "2023"])).to_string()
            if element.tag == "select" and element.options:
                return Action(
                    ActionName.SELECT_DROPDOWN_OPTION, element=element.id, argument=self.rng.choice(element.options)
                ).to_string()
            return Action(ActionName.CLICK, element=element.id).to_string()
        return Action(self.rng.choice([ActionName.SCROLL_DOWN, ActionName.GO_BACKWARD, ActionName.WAIT])).to_string()


class AnswerAtOnce:
    """Exits at the first step with one fixed answer, reading nothing.

    ``AnswerAtOnce("N/A")`` scores exactly the tasks whose reference marks them unachievable:
    the floor a policy reaches by saying N/A to everything, which a trained agent has to beat
    before its success means it read anything.
    """

    def __init__(self, answer: str = "N/A"):
        self.action = Action(ActionName.EXIT, message=answer).to_string()

    def __call__(self, observation: str, info: dict[str, Any]) -> str:
        return self.action


def run_policy(env: Any, policy: StepPolicy, task_ids: Iterable[int], *, progress: bool = True,
               desc: str = "episodes") -> list[EpisodeResult]:
    """Play ``policy`` once on each task id; returns one result per episode."""
    from tqdm.auto import tqdm

    results = []
    for task_id in tqdm(list(task_ids), desc=desc, unit="task", disable=not progress):
        observation, info = env.reset(options={"task_id": task_id})
        if hasattr(policy, "reset"):
            policy.reset(info)
        result = EpisodeResult(task_id, list(info["sites"]), 0.0, 0, None, intent=info["intent"],
                               template=info.get("intent_template_id"),
                               reference=env.unwrapped.tasks_by_id[task_id].eval.to_dict())
        while True:
            if hasattr(policy, "page"):
                policy.page = env.unwrapped.page
            action = policy(observation, info)
            url = info["url"]
            observation, reward, terminated, truncated, info = env.step(action)
            result.turns.append(StepRecord(action, canonical_action(action), info["last_action_error"], url))
            if terminated or truncated:
                result.reward, result.steps, result.answer = reward, info["step"], info.get("answer")
                result.reward_components = dict(info["reward_components"])
                result.end_reason, result.final_url = ("exit" if terminated else "step_limit"), info["url"]
                break
        results.append(result)
    return results


def run_oracle_suite(env: Any, task_ids: Iterable[int], split: str, *, progress: bool = True) -> list[EpisodeResult]:
    """The embedded suite's scripted experts on each task (an upper bound: should be all 1.0)."""
    from tqdm.auto import tqdm

    from ..oracle_runner import play
    from ..suites.embedded import family_of
    from ..tasks.oracle import OracleError

    results = []
    for task_id in tqdm(list(task_ids), desc="oracle", unit="task", disable=not progress):
        task = env.unwrapped.tasks_by_id[task_id]
        try:
            episode = play(env, task_id, family_of(task_id, split).solve, task.to_dict())
            turns = [StepRecord(action, action, error, url)
                     for action, error, url in zip(episode.actions, episode.errors, episode.urls, strict=True)]
            results.append(EpisodeResult(task_id, list(task.sites), episode.reward, len(episode.actions),
                                         episode.info.get("answer"), turns, task.intent,
                                         family=family_of(task_id, split).name, template=task.intent_template_id,
                                         reference=task.eval.to_dict()))
        except OracleError as exc:
            results.append(EpisodeResult(task_id, list(task.sites), 0.0, 0, None, intent=task.intent,
                                         end_reason=f"oracle error: {str(exc)[:500]}", template=task.intent_template_id,
                                         reference=task.eval.to_dict()))
    return results
