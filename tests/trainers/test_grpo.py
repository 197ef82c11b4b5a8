"""Multi-turn GRPO on the embedded map site with a tiny model: loss masking, updates, metrics."""

from __future__ import annotations

import importlib.util
import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file
from transformers import TrainerCallback

from trainers.checkpoint import latest_checkpoint
from trainers.grpo import MultiTurnGRPOTrainer
from trainers.metrics import read_metrics
from trainers.policy import Sampler, load_policy
from trainers.rollout import collect_rollouts
from webarena_gym.errors import ConfigurationError

from .place_family import MAX_CHARS, grpo_config, place_envs, winner_loser_batch

pytestmark = [pytest.mark.train, pytest.mark.slow]


def _trainer(model_dir, envs, tmp_path, **overrides) -> MultiTurnGRPOTrainer:
    return MultiTurnGRPOTrainer(str(model_dir), grpo_config(tmp_path, **overrides), envs=envs)


@pytest.mark.parametrize("beta", [0.0, 0.1])
def test_gradients_flow_only_from_action_tokens(bc_model_dir, shared_place_envs, tmp_path, beta):
    trainer = _trainer(bc_model_dir, shared_place_envs, tmp_path, layout="trajectory", beta=beta)
    tokenizer = trainer.processing_class
    batch = winner_loser_batch(tokenizer)
    ids = torch.cat([batch["prompt_ids"], batch["completion_ids"]], dim=1)
    attention = torch.cat([batch["prompt_mask"], batch["completion_mask"]], dim=1)
    keep = batch["completion_ids"].size(1)
    if beta:
        with torch.no_grad():
            batch["ref_per_token_logps"] = trainer._reference_logps(ids, attention, keep) - 0.5  # policy != reference

    # The last hidden state at position p feeds only the score of token p + 1 (TRL fuses the LM head).
    captured = []

    def keep_grad(_module, _inputs, output):
        output.retain_grad()
        captured.append(output)

    hook = trainer.model.model.norm.register_forward_hook(keep_grad)
    try:
        trainer.compute_loss(trainer.model, batch).backward()
    finally:
        hook.remove()
    prompt_width = batch["prompt_ids"].size(1)
    per_token = captured[-1].grad[:, prompt_width - 1 : prompt_width - 1 + keep].abs().sum(-1)
    trained = (per_token > 0).long()
    assert torch.equal(trained, batch["completion_mask"] * batch["tool_mask"])
    assert (batch["tool_mask"] == 0).any() and (batch["tool_mask"] == 1).any()


@pytest.mark.parametrize("layout", ["turn", "trajectory"])
def test_one_step_changes_the_policy_and_logs_the_training_dynamics(bc_model_dir, shared_place_envs, tmp_path, layout):
    trainer = _trainer(bc_model_dir, shared_place_envs, tmp_path, layout=layout, per_device_train_batch_size=32)
    before = {name: p.detach().clone() for name, p in trainer.model.named_parameters()}
    trainer.train()
    log = trainer.state.log_history[0]
    assert log["frac_reward_zero_std"] < 1.0, "some task should have both successes and failures to learn from"
    changed = [name for name, p in trainer.model.named_parameters() if not torch.equal(before[name], p.detach())]
    assert len(changed) == len(before)
    for key in ("rollout/success_rate", "rollout/tokens_per_trajectory", "rollout/interactions", "kl",
                "clip_ratio/region_mean"):
        assert key in log
    assert log["time/generation_s"] > 0 and log["time/env_s"] > 0 and log["time/generated_tokens_per_s"] > 0
    assert 1.0 <= log["rollout/interactions"] <= 3.0
    records = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert records[0]["rollout/reward"] == log["rollout/reward"]
    assert (tmp_path / "training_dynamics.png").stat().st_size > 10_000
    if importlib.util.find_spec("tensorboard"):  # the same numbers reach TRL's tensorboard writer
        assert list(tmp_path.glob("runs/*/events.out.tfevents.*"))


@pytest.mark.parametrize("layout", ["turn", "trajectory"])
def test_micro_batches_make_the_same_step_as_one_pass(bc_model_dir, shared_place_envs, tmp_path, layout):
    """A step's 32 rollouts, played together, trained as 4 forward passes of 8 (gradient accumulation) or one of 32:
    the same rollouts and, under plain SGD (whose update is the gradient, scale included), the same update."""

    def one_step(name, micro):
        trainer = _trainer(bc_model_dir, shared_place_envs, tmp_path / name, layout=layout, optim="sgd",
                           learning_rate=0.5, beta=0.0, per_device_train_batch_size=micro,
                           gradient_accumulation_steps=32 // micro, steps_per_generation=32 // micro)
        before = {n: p.detach().clone() for n, p in trainer.model.named_parameters()}
        trainer.train()
        (log, *_), delta = trainer.state.log_history, {n: p.detach() - before[n] for n, p in trainer.model.named_parameters()}
        return log, delta

    whole_log, whole = one_step("whole", 32)
    micro_log, micro = one_step("micro", 8)
    for key in ("rollout/reward", "rollout/tokens_per_trajectory", "rollout/interactions"):
        assert micro_log[key] == whole_log[key], key  # the same rollouts, generated as one batch
    assert 0.0 < whole_log["rollout/reward"] < 1.0, "the step should have successes and failures to learn from"
    moved = max(d.abs().max().item() for d in whole.values())
    assert moved > 1e-4
    for name in whole:
        torch.testing.assert_close(micro[name], whole[name], rtol=1e-3, atol=1e-3 * moved)


def test_lora_trains_only_the_adapter(bc_model_dir, shared_place_envs, tmp_path):
    trainer = _trainer(bc_model_dir, shared_place_envs, tmp_path, lora_r=4, per_device_train_batch_size=32,
                       learning_rate=1e-2)
    before = {name: p.detach().clone() for name, p in trainer.model.named_parameters()}
    trainer.train()
    after = dict(trainer.model.named_parameters())
    changed = {name for name in before if not torch.equal(before[name], after[name].detach())}
    assert changed and all("lora_" in name for name in changed)
    assert all(after[name].requires_grad == ("lora_" in name) for name in before)


@pytest.mark.parametrize("sampling", ["learnable", "learnable_distinct"])
def test_the_learnable_curriculum_draws_batches_and_learns_from_every_group_played(bc_model_dir, shared_place_envs,
                                                                                  tmp_path, sampling):
    from trainers.curriculum import LearnableTaskSampler

    trainer = _trainer(bc_model_dir, shared_place_envs, tmp_path, layout="trajectory", task_sampling=sampling,
                       max_steps=2, curriculum_memory=0.9)
    trainer.train()
    learnability = trainer._task_sampler.learnability
    assert learnability.memory == 0.9
    assert isinstance(trainer._task_sampler, LearnableTaskSampler)
    assert trainer._task_sampler.distinct_families == (sampling == "learnable_distinct")
    # 2 steps x 2 tasks, G=4: four groups were counted, each under its task's family (ad-hoc tasks: the task)
    played = sum(learnability.informative.values()) + sum(learnability.uninformative.values())
    assert 4 * learnability.memory**2 <= played <= 4
    assert set(learnability.informative) == {("task", t.task_id) for t in shared_place_envs.tasks}
    zero_spread = [log["frac_reward_zero_std"] for log in trainer.state.log_history if "frac_reward_zero_std" in log]
    assert sum(learnability.informative.values()) <= 4 * (1 - min(zero_spread)) + 1e-9
    table = trainer.curriculum_table()
    assert {row["family"] for row in table} == {str(("task", t.task_id)) for t in shared_place_envs.tasks}
    assert sum(row["drawn"] for row in table) >= 4 and all(row["example_intent"].startswith("Open") for row in table)


def test_an_unknown_task_sampling_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"task_sampling must be one of \('uniform', 'learnable', 'learnable_distinct'\), got 'greedy'"):
        grpo_config(tmp_path, task_sampling="greedy")


@pytest.mark.parametrize("memory", [0.0, 1.5, -0.1])
def test_a_curriculum_memory_outside_0_to_1_is_refused(tmp_path, memory):
    with pytest.raises(ValueError, match=rf"curriculum_memory must be in \(0, 1\], got {memory}"):
        grpo_config(tmp_path, task_sampling="learnable", curriculum_memory=memory)


def test_the_interaction_limit_bounds_every_episode(bc_model_dir, place_family, tiny_tokenizer):
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(bc_model_dir)
    envs = place_envs(place_family[0], 4, max_turns=1)
    try:
        trajectories = collect_rollouts(envs, [1, 1, 2, 2], Sampler(model, tiny_tokenizer, temperature=1.0), tiny_tokenizer)
    finally:
        envs.close()
    assert [len(t.turns) for t in trajectories] == [1, 1, 1, 1]
    assert all(t.terminated or t.truncated for t in trajectories)


@pytest.mark.parametrize("workers", [1, 0], ids=["worker process", "in this process"])
def test_the_config_builds_the_envs_the_agent_trains_in(tmp_path, workers):
    from trainers.config import AgentArguments
    from trainers.rollout import make_rollout_envs
    from webarena_gym.prompts import THINKING_FORMAT

    agent = AgentArguments(split="train", max_turns=4, max_chars=900, thinking=True)
    envs = make_rollout_envs(agent, 1, workers=workers)
    try:
        _prompts, infos = envs.reset(options={"task_id": envs.task_ids[0]})
        limits = envs.call("max_steps"), envs.call("max_chars")
    finally:
        envs.close()
    assert limits == ((4,), (900,))
    (messages,) = infos["messages"]
    assert messages[0]["content"].endswith(THINKING_FORMAT)
    assert "(step 1 of 4)" in messages[1]["content"]


def test_evaluation_reports_success_per_site(bc_model_dir, place_family):
    from trainers.evaluation import evaluate_model, success_rate
    from trainers.policy import load_policy
    from webarena_gym.evaluation import format_success_table

    model, tokenizer = load_policy(str(bc_model_dir))
    with place_envs(place_family[0], 2) as envs:  # two episodes in flight for three tasks
        results = evaluate_model(model, tokenizer, None, [1, 2, 3], envs=envs, max_new_tokens=24, progress=False)
    assert [r.task_id for r in results] == [1, 2, 3]
    assert all(r.sites == ["map"] and 1 <= r.steps <= 2 and len(r.actions) == r.steps for r in results)
    table = format_success_table({"bc": results})
    assert "map" in table and f"{100 * success_rate(results):.1f}%" in table


def test_a_sampled_action_with_control_characters_does_not_stop_a_rollout(shared_place_envs, tiny_tokenizer):
    from trainers.chat import text_ids

    script = iter(['do(action="Type", element="1", argument="PNC\x00 Park\x07")', 'exit(message="")'])

    def scripted(batch):  # a policy that writes raw bytes, as a byte-level model can
        action = next(script)
        return [text_ids(tiny_tokenizer, action) + [tiny_tokenizer.eos_token_id] for _ in batch]

    (trajectory,) = collect_rollouts(shared_place_envs, [1], scripted, tiny_tokenizer)
    # the env reports the untypeable characters as the agent's mistake; the episode goes on
    assert trajectory.turns[0].action == 'do(action="Type", element="1", argument="PNC\x00 Park\x07")'
    assert "NUL character" in trajectory.turns[0].error and trajectory.terminated


def test_a_start_model_prompted_otherwise_than_the_run_is_warned_about(bc_model_dir, shared_place_envs, tmp_path,
                                                                        caplog, messages_of):
    recorded = json.loads((bc_model_dir / "agent_settings.json").read_text())  # what train_bc saved
    with caplog.at_level("WARNING", logger="trainers.agent_record"):
        _trainer(bc_model_dir, shared_place_envs, tmp_path / "same")
    assert messages_of("trainers.agent_record") == []
    chars = recorded["max_chars"]
    with caplog.at_level("WARNING", logger="trainers.agent_record"):
        _trainer(bc_model_dir, shared_place_envs, tmp_path / "other", max_chars=chars + 1000, thinking=True)
    assert messages_of("trainers.agent_record") == [
        f"{bc_model_dir} was trained with max_chars={chars} and this run uses {chars + 1000}, so its "
        f"prompts differ from those it learnt (pass --max_chars {chars} to repeat them).",
        f"{bc_model_dir} was trained with thinking=False and this run uses True, so its prompts differ from those "
        "it learnt (leave out --thinking to repeat them)."]


class _StopAt(TrainerCallback):
    """Stops training after ``step`` (once it is saved): what a killed run leaves behind."""

    def __init__(self, step: int):
        self.step = step

    def on_step_end(self, args, state, control, **kwargs):
        if state.global_step == self.step:
            control.should_training_stop = True


@pytest.mark.parametrize("sampling", ["uniform", "learnable"])
def test_a_run_resumed_from_its_checkpoint_goes_on_as_if_never_stopped(place_family, bc_model_dir, shared_place_envs,
                                                                       tmp_path, sampling, caplog, monkeypatch):
    """4 steps in one go, or stopped after 2 and resumed from the checkpoint there: the same rollouts, the same
    weights. With the curriculum, its draws and counts carry over; with replay, its draw order. The tied LM head
    loads with the embedding, without a warning of a missing key."""
    _tasks, demos = place_family
    settings = dict(layout="trajectory", task_sampling=sampling, max_steps=4, save_strategy="steps", save_steps=1,
                    learning_rate=1e-2, beta=0.0, bc_replay_coef=0.5 if sampling == "learnable" else 0.0)

    def trainer(name, *callbacks):
        return MultiTurnGRPOTrainer(str(bc_model_dir), grpo_config(tmp_path / name, **settings), envs=shared_place_envs,
                                    callbacks=callbacks, demonstrations=demos)

    whole = trainer("whole")
    whole.train()
    trainer("stopped", _StopAt(2)).train()
    checkpoint = latest_checkpoint(tmp_path / "stopped")
    assert checkpoint is not None and checkpoint.name == "checkpoint-2"
    resumed = trainer("stopped")
    monkeypatch.setattr(logging.getLogger("transformers"), "propagate", True)  # its own handler keeps it from caplog
    with caplog.at_level(logging.WARNING, logger="transformers"):
        resumed.train(resume_from_checkpoint=checkpoint)
    assert resumed.model.config.tie_word_embeddings and "missing keys" not in caplog.text

    def rollouts(path):
        return [(r["step"], r["rollout/reward"], r["rollout/tokens_per_trajectory"]) for r in read_metrics(path)
                if "rollout/reward" in r]

    assert rollouts(tmp_path / "stopped" / "metrics.jsonl") == rollouts(tmp_path / "whole" / "metrics.jsonl")
    assert [step for step, *_ in rollouts(tmp_path / "whole" / "metrics.jsonl")] == [1, 2, 3, 4]
    start = load_policy(str(bc_model_dir))[0].state_dict()
    assert max((w - start[n]).abs().max().item() for n, w in whole.model.named_parameters()) > 1e-4
    for (name, w), r in zip(whole.model.named_parameters(), resumed.model.parameters(), strict=True):
        torch.testing.assert_close(r, w, rtol=1e-4, atol=1e-6, msg=name)
    if sampling == "learnable":
        assert resumed.curriculum_table() == whole.curriculum_table()

    # A run of 3 steps stopped after its last checkpoint: resuming there trains nothing more (the Trainer's loop
    # would train a 4th step, 3 not being a whole number of epochs of 2 steps) and ends as the checkpoint left it;
    # a checkpoint past a run's steps is not taken for its end.
    last = tmp_path / "whole" / "checkpoint-3"

    def run_of(steps, name):
        return MultiTurnGRPOTrainer(str(bc_model_dir), grpo_config(tmp_path / name, **{**settings, "max_steps": steps}),
                                    envs=shared_place_envs, demonstrations=demos)

    finished = run_of(3, "finished")
    assert finished.train(resume_from_checkpoint=last).global_step == 3
    assert rollouts(tmp_path / "finished" / "metrics.jsonl") == rollouts(tmp_path / "whole" / "metrics.jsonl")[:3]
    saved = load_file(last / "model.safetensors")
    assert saved and all(torch.equal(finished.model.state_dict()[name], w) for name, w in saved.items())
    assert (finished.curriculum_table() is None) == (sampling == "uniform")
    with pytest.raises(ConfigurationError, match="at step 3, past this run's max_steps=2"):
        run_of(2, "shorter").train(resume_from_checkpoint=last)


def test_a_checkpoint_inside_a_batch_of_rollouts_or_of_another_run_is_refused(bc_model_dir, shared_place_envs,
                                                                              tmp_path):
    with pytest.raises(ConfigurationError, match="save inside a batch of rollouts"):
        _trainer(bc_model_dir, shared_place_envs, tmp_path, save_strategy="steps", save_steps=1, num_iterations=2)
    _trainer(bc_model_dir, shared_place_envs, tmp_path / "uniform", max_steps=1, save_strategy="steps",
             save_steps=1).train()
    checkpoint = latest_checkpoint(tmp_path / "uniform")
    with pytest.raises(ConfigurationError, match="another task_sampling"):
        _trainer(bc_model_dir, shared_place_envs, tmp_path / "learnable", task_sampling="learnable").train(
            resume_from_checkpoint=checkpoint)
    (checkpoint / "rollout_state.json").write_text("{", encoding="utf-8")  # a run stopped while saving
    assert latest_checkpoint(tmp_path / "uniform") == checkpoint  # the file is there, but
    with pytest.raises(ConfigurationError, match="not a whole GRPO checkpoint"):
        _trainer(bc_model_dir, shared_place_envs, tmp_path / "again").train(resume_from_checkpoint=checkpoint)


def test_the_step_time_benchmark_measures_a_model_with_the_observations_it_was_trained_with(bc_model_dir):
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "trainer_step_time.py"
    done = subprocess.run([sys.executable, str(script), "--model", str(bc_model_dir), "--steps", "1",
                           "--tasks-per-step", "2", "--num-generations", "2", "--layouts", "trajectory"],
                          capture_output=True, text=True, timeout=900, check=True, stdin=subprocess.DEVNULL)
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"1 GRPO steps per row, 2 tasks x G=2, {MAX_CHARS:,}-character observations")
    assert lines[1].split()[:2] == ["row", "s/step"] and lines[2].startswith("fp32 trajectory")
    assert lines[2].split()[-1] == "1.00x"
    assert "was trained with" not in done.stderr  # no warning that the prompts differ from the model's
