"""The rollout loop on process workers: more episodes than envs, and env steps overlapped with generation."""

from __future__ import annotations

import re

import pytest

from trainers.chat import text_ids
from trainers.rollout import RolloutClock, collect_rollouts

pytestmark = [pytest.mark.train]


def place_oracle(tokenizer, demos, envs, log):
    """A scripted policy that solves the place family (click the place, then exit), noting if envs were stepping."""
    clicks = {demo.intent: demo.turns[0].action for demo in demos}

    def generate(batch):
        log.append(envs.waiting)
        out = []
        for ids in batch:
            text = tokenizer.decode(ids)
            intent = next(intent for intent in clicks if intent in text)
            step = int(re.findall(r"\(step (\d+) of", text)[-1])
            action = clicks[intent] if step == 1 else 'exit(message="")'
            out.append(text_ids(tokenizer, action) + [tokenizer.eos_token_id])
        return out

    return generate


def test_overlapped_rollouts_play_the_same_episodes_while_envs_step(place_family, shared_place_envs, tiny_tokenizer):
    _tasks, demos = place_family
    task_ids = [demo.task_id for demo in demos] * 3  # more episodes than the 8 envs
    runs = {}
    for overlap in (False, True):
        log, clock = [], RolloutClock()
        generate = place_oracle(tiny_tokenizer, demos, shared_place_envs, log)
        trajectories = collect_rollouts(shared_place_envs, task_ids, generate, tiny_tokenizer, overlap=overlap,
                                        clock=clock)
        runs[overlap] = (trajectories, log, clock)
    for overlap, (trajectories, _log, clock) in runs.items():
        assert [t.task_id for t in trajectories] == task_ids
        assert all(t.reward == 1.0 and t.terminated and len(t.turns) == 2 for t in trajectories), overlap
        assert clock.generated_tokens > 0 and clock.env_s > 0
    plain, overlapped = runs[False], runs[True]
    assert [[turn.action for turn in t.turns] for t in plain[0]] == [[turn.action for turn in t.turns] for t in overlapped[0]]
    assert not any(plain[1])  # without overlap, the policy never generates while envs step
    assert sum(overlapped[1]) >= len(overlapped[1]) // 2  # with it, most generate calls run beside an env step
