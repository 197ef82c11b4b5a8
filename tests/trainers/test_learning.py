"""After a short BC warm start, multi-turn GRPO raises the success rate on an embedded task family.

The family is the embedded suite's ``map.missing_information`` ("What is the website of
<place>?", which the map does not know: the answer is "N/A"). Its oracle searches the
place, opens it and answers; the tiny model after a short BC run writes well-formed
actions but rarely ends with the right answer, and GRPO finds that it pays to answer.
"""

from __future__ import annotations

import pytest
from transformers import set_seed

from trainers.bc import train_bc
from trainers.config import AgentArguments, BCConfig, MultiTurnGRPOConfig
from trainers.grpo import MultiTurnGRPOTrainer
from trainers.policy import Sampler, load_policy
from trainers.rollout import EnvGroup, collect_rollouts, make_env_group
from trainers.tiny import TinyModelSpec, build_tiny_model, demonstration_texts
from webarena_gym.demos import record_oracle_demonstrations
from webarena_gym.tasks.embedded_suite import family_task_ids

pytestmark = [pytest.mark.train, pytest.mark.slow]

FAMILY = "map.missing_information"
AGENT = {"split": "train", "max_turns": 3, "max_observation_chars": 2000}
SAMPLES_PER_TASK = 6


def sampled_success(model_dir, envs: EnvGroup, task_ids: list[int]) -> float:
    """Success rate of the policy as it samples in training (temperature 1), with a fixed seed."""
    model, tokenizer = load_policy(str(model_dir))
    set_seed(1234)
    sampler = Sampler(model, tokenizer, max_new_tokens=48, temperature=1.0, batch_size=64)
    trajectories = collect_rollouts(envs, task_ids * SAMPLES_PER_TASK, sampler, tokenizer)
    return sum(t.reward for t in trajectories) / len(trajectories)


def test_grpo_raises_the_success_rate_after_a_bc_warm_start(tmp_path):
    task_ids = family_task_ids("train", [FAMILY])
    assert len(task_ids) >= 4
    demos = list(record_oracle_demonstrations("train", task_ids=task_ids, progress=False))
    tiny = build_tiny_model(tmp_path / "tiny", texts=demonstration_texts(demos),
                            spec=TinyModelSpec(hidden_size=64, intermediate_size=192))
    train_bc(BCConfig(output_dir=str(tmp_path / "bc"), num_train_epochs=12, learning_rate=1e-2,
                      lr_scheduler_type="constant", per_device_train_batch_size=8, save_strategy="no",
                      disable_tqdm=True, seed=0, task_ids=task_ids, **AGENT), str(tiny), demonstrations=demos)

    envs = make_env_group(AgentArguments(task_ids=task_ids, **AGENT), workers=2)
    try:
        before = sampled_success(tmp_path / "bc", envs, task_ids)
        assert 0.0 < before < 0.75, f"the warm start should leave room to improve, got {before:.2f}"
        args = MultiTurnGRPOConfig(
            output_dir=str(tmp_path / "grpo"), task_ids=task_ids, layout="turn", num_generations=8,
            per_device_train_batch_size=32, max_steps=20, learning_rate=2e-3, lr_scheduler_type="constant",
            beta=0.0, max_completion_length=48, save_strategy="no", disable_tqdm=True, seed=0, **AGENT,
        )
        trainer = MultiTurnGRPOTrainer(str(tmp_path / "bc"), args, envs=envs)
        trainer.train()
        trainer.save_model(str(tmp_path / "grpo"))
        after = sampled_success(tmp_path / "grpo", envs, task_ids)
    finally:
        envs.close()
    rewards = [log["rollout/reward"] for log in trainer.state.log_history if "rollout/reward" in log]
    assert len(rewards) == 20
    assert after >= before + 0.3, f"success {before:.2f} -> {after:.2f}; rollout reward per step {rewards}"
    assert sum(rewards[-5:]) / 5 > sum(rewards[:5]) / 5 + 0.2
