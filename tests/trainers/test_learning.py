"""After a BC warm start that leaves room to improve, multi-turn GRPO raises the success rate.

The family is the embedded suite's ``map.missing_information`` ("What is the website of
<place>?", which the map does not know: the answer is "N/A"). Its oracle searches the
place, opens it and answers.

Where a short BC run lands depends on the machine's arithmetic order, so the warm start
is not left to chance: BC learns from a 50/50 mixture of the oracle's episodes and copies
that end with a wrong answer (a made-up website). The warm-started policy then answers
right about half the time on every machine, and the only way up is what GRPO learns
from the binary reward. The control is the same policy without the GRPO update, sampled
the same way on many episodes, so sampling noise cannot decide the outcome (the standard
error of each success rate is at most 0.04; the test asks for +25 points).
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from transformers import set_seed

from trainers.bc import train_bc
from trainers.config import AgentArguments, BCConfig, MultiTurnGRPOConfig
from trainers.grpo import MultiTurnGRPOTrainer
from trainers.policy import Sampler, load_policy
from trainers.rollout import collect_rollouts, make_rollout_envs
from trainers.tiny import TinyModelSpec, build_tiny_model, demonstration_texts
from webarena_gym.demos import Demonstration, record_oracle_demonstrations
from webarena_gym.env import WebArenaEnv
from webarena_gym.suites.embedded import family_task_ids

pytestmark = [pytest.mark.train, pytest.mark.slow]

FAMILY = "map.missing_information"
AGENT = {"split": "train", "max_turns": 3, "max_chars": 2000}
SAMPLES_PER_TASK = 16


def with_wrong_answer(demo: Demonstration) -> Demonstration:
    """The same episode, ending with a made-up website instead of "N/A" (it earns 0)."""
    place = demo.intent.removeprefix("What is the website of ").strip(" ?")
    wrong = "www." + re.sub(r"[^a-z0-9]+", "", place.lower()) + ".com"
    last = dataclasses.replace(demo.turns[-1], action=f'exit(message="{wrong}")',
                               thought=f"I have what the task asks for; the answer is: {wrong}")
    return dataclasses.replace(demo, turns=[*demo.turns[:-1], last], reward=0.0)


def replayed_reward(demo: Demonstration) -> float:
    env = WebArenaEnv(suite="embedded", split="train", task_ids=[demo.task_id], max_steps=AGENT["max_turns"])
    try:
        env.reset(options={"task_id": demo.task_id})
        for turn in demo.turns:
            _, reward, terminated, truncated, info = env.step(turn.action)
            assert not info["last_action_error"], info["last_action_error"]
        assert terminated
        return reward
    finally:
        env.close()


def sampled_success(model_dir, envs, task_ids: list[int]) -> float:
    """Success rate of the policy as it samples in training (temperature 1), with a fixed seed."""
    model, tokenizer = load_policy(str(model_dir))
    set_seed(1234)
    sampler = Sampler(model, tokenizer, max_new_tokens=48, temperature=1.0, batch_size=64)
    trajectories = collect_rollouts(envs, task_ids * SAMPLES_PER_TASK, sampler, tokenizer)
    return sum(t.reward for t in trajectories) / len(trajectories)


@pytest.mark.parametrize("seed", [0])
def test_grpo_raises_the_success_rate_after_a_bc_warm_start(tmp_path, seed):
    task_ids = family_task_ids("train", [FAMILY])
    assert len(task_ids) >= 4
    demos = list(record_oracle_demonstrations("train", task_ids=task_ids, progress=False))
    wrong = [with_wrong_answer(d) for d in demos]
    assert replayed_reward(demos[0]) == 1.0 and replayed_reward(wrong[0]) == 0.0
    mixture = [d for pair in zip(demos, wrong, strict=True) for d in pair]
    tiny = build_tiny_model(tmp_path / "tiny", texts=demonstration_texts(mixture),
                            spec=TinyModelSpec(hidden_size=64, intermediate_size=192))
    train_bc(BCConfig(output_dir=str(tmp_path / "bc"), num_train_epochs=12, learning_rate=1e-2,
                      lr_scheduler_type="constant", per_device_train_batch_size=8, save_strategy="no",
                      disable_tqdm=True, seed=seed, task_ids=task_ids, **AGENT), str(tiny), demonstrations=mixture)

    envs = make_rollout_envs(AgentArguments(task_ids=task_ids, **AGENT), 32, workers=2)
    try:
        before = sampled_success(tmp_path / "bc", envs, task_ids)
        assert 0.1 < before < 0.7, f"the mixed warm start should answer right about half the time, got {before:.2f}"
        args = MultiTurnGRPOConfig(
            output_dir=str(tmp_path / "grpo"), task_ids=task_ids, layout="turn", num_generations=8,
            per_device_train_batch_size=32, max_steps=20, learning_rate=2e-3, lr_scheduler_type="constant",
            beta=0.0, max_completion_length=48, save_strategy="no", disable_tqdm=True, seed=seed, **AGENT,
        )
        trainer = MultiTurnGRPOTrainer(str(tmp_path / "bc"), args, envs=envs)
        trainer.train()
        trainer.save_model(str(tmp_path / "grpo"))
        after = sampled_success(tmp_path / "grpo", envs, task_ids)
    finally:
        envs.close()
    rewards = [log["rollout/reward"] for log in trainer.state.log_history if "rollout/reward" in log]
    assert len(rewards) == 20
    assert after >= before + 0.25, f"success {before:.2f} -> {after:.2f}; rollout reward per step {rewards}"
