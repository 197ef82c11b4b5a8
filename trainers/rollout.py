"""Multi-turn rollouts: many episodes at once, one env (and one world) each.

The envs are a :class:`webarena_gym.vector_workers.ProcessVectorEnv` in worker processes
with autoreset disabled (the vector env the evaluation runner uses too): each turn, the
contexts of the live episodes are generated as one batch, then only their envs step (the
others get ``None``); an env whose episode ended starts the next waiting episode through a
reset mask, so a batch may hold more episodes than there are envs. Every turn keeps the exact token ids of its context and of its
sampled action, so training rows can be rebuilt without re-tokenising what the model
produced.

With ``overlap=True`` the env slots form two lanes: while one lane's envs step in the
workers (``step_async``), the policy generates for the other lane, then the roles swap,
so neither the generator nor the env workers wait for the other when their times are
comparable (``benchmarks/vector_throughput.py`` measures it).
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from webarena_gym.errors import EnvWorkerError
from webarena_gym.vector import env_info, reset_tasks

from .chat import prompt_ids

logger = logging.getLogger(__name__)

#: ``generate(prompt_ids_batch) -> completion_ids_batch``: one sampled turn per context.
Generate = Callable[[list[list[int]]], list[list[int]]]


@dataclass
class RolloutClock:
    """Where a rollout batch's time went (seconds), and tokens sampled.

    ``generation_s``: in ``generate``; ``env_s``: waiting for envs (their steps and resets);
    with overlap, env time hidden behind generation is not counted, so the two add up to
    about the batch's wall time either way.
    """

    generation_s: float = 0.0
    env_s: float = 0.0
    generated_tokens: int = 0

    @property
    def tokens_per_s(self) -> float:
        """Sampled tokens per second of generation."""
        return self.generated_tokens / self.generation_s if self.generation_s > 0 else 0.0


@dataclass
class TurnSample:
    """One turn: its context (messages and their exact tokens), the sampled tokens, the env's verdict.

    ``messages`` is the compressed-history context (current page in full); ``action`` the
    decoded text the env received; ``error`` the env's ``last_action_error`` for it.
    """

    messages: list[dict[str, str]]
    prompt_ids: list[int]
    completion_ids: list[int]
    action: str
    error: str = ""


@dataclass
class Trajectory:
    """One episode of one rollout; ``reward`` is the env's final reward (0 or 1)."""

    task_id: int
    intent: str
    sites: list[str]
    turns: list[TurnSample] = field(default_factory=list)
    reward: float = 0.0
    terminated: bool = False
    truncated: bool = False
    answer: str | None = None
    #: Why the episode was lost to the infrastructure (a Ray env worker died or hung); "" when it was not.
    infrastructure_error: str = ""

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    @property
    def action_tokens(self) -> int:
        return sum(len(t.completion_ids) for t in self.turns)




def executor_kwargs(args: Any) -> dict[str, Any]:
    """The rollout vector env's executor arguments of a GRPO config (none for worker processes)."""
    if getattr(args, "env_executor", "process") != "ray":
        return {}
    resources = json.loads(args.ray_resources) if isinstance(args.ray_resources, str) else args.ray_resources
    return {"executor": "ray", "ray_address": args.ray_address, "ray_num_cpus": args.ray_num_cpus,
            "ray_resources": resources}


def collect_rollouts_rerunning_lost(envs: Any, task_ids: Sequence[int], generate: Generate, tokenizer: Any, *,
                                    tries: int = 3, **kwargs: Any) -> tuple[list[Trajectory], int]:
    """:func:`collect_rollouts`, playing again (up to ``tries`` times) every episode lost to the infrastructure.

    A rollout whose env worker died or hung would otherwise count as a failure (reward 0) and
    skew its group's advantages; another episode of the same task from the same policy is an
    equally valid sample. Returns the trajectories and how many episodes were played again.
    """
    trajectories = collect_rollouts(envs, task_ids, generate, tokenizer, **kwargs)
    rerun = 0
    for _ in range(tries):
        lost = [i for i, t in enumerate(trajectories) if t.infrastructure_error]
        if not lost:
            return trajectories, rerun
        logger.warning("%d rollouts were lost to the infrastructure (%s); playing them again", len(lost),
                       trajectories[lost[0]].infrastructure_error)
        rerun += len(lost)
        again = collect_rollouts(envs, [task_ids[i] for i in lost], generate, tokenizer, **kwargs)
        for i, trajectory in zip(lost, again, strict=True):
            trajectories[i] = trajectory
    lost = [t.infrastructure_error for t in trajectories if t.infrastructure_error]
    if lost:
        raise EnvWorkerError(f"{len(lost)} rollouts were lost to the infrastructure {tries + 1} times in a row "
                             f"(last: {lost[0]}); check the Ray cluster (`ray status`).")
    return trajectories, rerun


def make_rollout_envs(agent: Any, num_envs: int, *, workers: int | None = None, **env_overrides: Any) -> Any:
    """Rollout envs for the agent settings of a config (:class:`trainers.config.AgentArguments`).

    ``num_envs`` envs (episodes played at once) in ``workers`` processes (0: in this
    process, on threads), autoreset disabled, each env wrapped in the agent's
    compressed-history context: the evaluation runner's envs
    (:func:`webarena_gym.evaluation.make_agent_envs`). ``workers=None`` means what it means
    everywhere (:func:`webarena_gym.vector_workers.default_workers`): for the direct backend with
    two or more envs and more than one core, the cores shared among the training processes of
    this machine (``accelerate launch`` sets ``LOCAL_WORLD_SIZE``), at most one per env; else 0.
    ``env_overrides`` replace keyword arguments of :class:`~webarena_gym.env.WebArenaEnv`
    (e.g. explicit ``tasks``).
    """
    from webarena_gym.evaluation import make_agent_envs

    return make_agent_envs(num_envs, workers=workers, **agent.context_kwargs(), **{**agent.env_kwargs(), **env_overrides})


class _Episodes:
    """The bookkeeping of one :func:`collect_rollouts` call: which episode each env slot plays."""

    def __init__(self, envs: Any, task_ids: Sequence[int], clock: RolloutClock, progress: Any):
        self.envs, self.task_ids, self.clock, self.progress = envs, list(task_ids), clock, progress
        self.trajectories: list[Trajectory | None] = [None] * len(self.task_ids)
        self.contexts: list[list[dict[str, str]]] = [[] for _ in self.task_ids]
        self.waiting = deque(range(len(self.task_ids)))
        self.playing: list[int | None] = [None] * envs.num_envs  # episode index per env slot

    def start(self, slots: Sequence[int]) -> None:
        """Start the next waiting episodes in the free ``slots`` (one reset of those envs)."""
        chosen = [slot for slot in slots if self.playing[slot] is None][: len(self.waiting)]
        if not chosen:
            return
        for slot in chosen:
            self.playing[slot] = self.waiting.popleft()
        started = time.perf_counter()
        infos = reset_tasks(self.envs, {slot: self.task_ids[self.playing[slot]] for slot in chosen})
        self.clock.env_s += time.perf_counter() - started
        for slot in chosen:
            episode, info = self.playing[slot], env_info(infos, slot)
            self.trajectories[episode] = Trajectory(int(self.task_ids[episode]), info["intent"], list(info["sites"]))
            self.contexts[episode] = info["messages"]

    def live(self, slots: Sequence[int]) -> list[int]:
        return [slot for slot in slots if self.playing[slot] is not None]

    def generate(self, slots: Sequence[int], generate: Generate, tokenizer: Any) -> dict[int, tuple]:
        """One sampled turn per live slot: ``slot -> (context ids, completion ids, action text)``."""
        slots = self.live(slots)
        if not slots:
            return {}
        batch = [prompt_ids(tokenizer, self.contexts[self.playing[slot]]) for slot in slots]
        started = time.perf_counter()
        completions = generate(batch)
        self.clock.generation_s += time.perf_counter() - started
        self.clock.generated_tokens += sum(len(ids) for ids in completions)
        # The env gets the text without special tokens; the sampled ids are kept as they are.
        actions = tokenizer.batch_decode(completions, skip_special_tokens=True)
        return {slot: (context, list(ids), action)
                for slot, context, ids, action in zip(slots, batch, completions, actions, strict=True)}

    def record(self, turns: dict[int, tuple], results: tuple[Any, ...]) -> None:
        """Record the step results of the slots in ``turns``; finished episodes free their slot."""
        _observations, rewards, terminations, truncations, infos = results
        for slot, (context_ids, ids, action) in turns.items():
            episode, info = self.playing[slot], env_info(infos, slot)
            trajectory = self.trajectories[episode]
            error = info.get("last_action_error") or ""
            trajectory.turns.append(TurnSample(self.contexts[episode], context_ids, ids, action, error))
            self.contexts[episode] = info.get("messages", self.contexts[episode])  # none when the worker was lost
            if terminations[slot] or truncations[slot]:
                trajectory.infrastructure_error = info.get("infrastructure_error") or ""
                trajectory.reward, trajectory.answer = float(rewards[slot]), info.get("answer")
                trajectory.terminated, trajectory.truncated = bool(terminations[slot]), bool(truncations[slot])
                self.playing[slot] = None
                if self.progress is not None:
                    self.progress.update(1)


def collect_rollouts(
    envs: Any,
    task_ids: Sequence[int],
    generate: Generate,
    tokenizer: Any,
    *,
    progress: Any = None,
    clock: RolloutClock | None = None,
    overlap: bool = False,
) -> list[Trajectory]:
    """Play one episode per entry of ``task_ids`` (repeat an id for a group); trajectories in that order.

    Args:
        envs: A vector env with autoreset disabled that skips envs given ``None``
            (:func:`make_rollout_envs`); with fewer envs than episodes, a finished episode's
            env starts the next waiting one.
        task_ids: Task of each episode.
        generate: Samples one turn for each context of a batch.
        tokenizer: Renders each context with its chat template.
        progress: Optional tqdm-like bar, advanced once per finished episode.
        clock: Optional :class:`RolloutClock` that accumulates generation and env time.
        overlap: Step one half of the envs while generating for the other half.
    """
    clock = clock if clock is not None else RolloutClock()
    episodes = _Episodes(envs, task_ids, clock, progress)
    slots = list(range(envs.num_envs))
    lanes = [slots[0::2], slots[1::2]] if overlap and len(slots) > 1 else [slots, []]
    episodes.start(slots)
    planned: list[dict[int, tuple]] = [episodes.generate(lanes[0], generate, tokenizer), {}]
    current = 0
    while episodes.waiting or any(episodes.live(lane) for lane in lanes):
        other = 1 - current
        turns = planned[current]
        if turns:
            actions = [None] * envs.num_envs
            for slot, (_context, _ids, action) in turns.items():
                actions[slot] = action
            envs.step_async(actions)
        if not planned[other]:
            planned[other] = episodes.generate(lanes[other], generate, tokenizer)
        if turns:
            started = time.perf_counter()
            results = envs.step_wait()
            clock.env_s += time.perf_counter() - started
            episodes.record(turns, results)
            planned[current] = {}
            episodes.start(lanes[current])
        current = other
    return episodes.trajectories  # type: ignore[return-value]
