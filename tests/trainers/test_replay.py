"""Demonstration replay during GRPO (trainers/replay.py): the rows, the batches, and the loss term it adds."""

from __future__ import annotations

import json
import math

import pytest
import torch
from trl import GRPOTrainer

from trainers.chat import demonstration_rows, prompt_ids
from trainers.grpo import MultiTurnGRPOTrainer
from trainers.policy import load_policy
from trainers.replay import IGNORE_INDEX, DemonstrationReplay, replay_rows
from webarena_gym.demos import TrajectoryFileError, write_demonstrations

from .place_family import grpo_config, winner_loser_batch

pytestmark = [pytest.mark.train]


def test_a_row_trains_exactly_the_action_after_the_context_the_agent_sees(place_family, tiny_tokenizer, tmp_path):
    _tasks, demos = place_family
    config = grpo_config(tmp_path)
    rows = replay_rows(demos, config, tiny_tokenizer)
    chats = demonstration_rows(demos, config)
    assert len(rows) == len(chats) == sum(len(d.turns) for d in demos)
    for (ids, context_length), chat in zip(rows, chats, strict=True):
        # the context is tokenised exactly as a rollout tokenises it, the action follows it
        assert ids[:context_length] == prompt_ids(tiny_tokenizer, chat["prompt"])
        action = tiny_tokenizer.decode(ids[context_length:])
        assert action.startswith(chat["completion"][0]["content"] + tiny_tokenizer.eos_token)


def test_every_row_is_replayed_once_per_pass_with_loss_on_actions_only(place_family, tiny_tokenizer, tmp_path):
    _tasks, demos = place_family
    replay = DemonstrationReplay(demos, grpo_config(tmp_path), tiny_tokenizer, batch_size=3, seed=0)
    count = len(replay.rows)
    seen = []
    for _ in range(math.ceil(count / 3)):
        batch = replay.next_batch()
        assert batch["input_ids"].shape == batch["labels"].shape == batch["attention_mask"].shape
        for ids, labels, mask in zip(batch["input_ids"], batch["labels"], batch["attention_mask"], strict=True):
            length = int(mask.sum())
            assert mask[:length].all() and not mask[length:].any()  # padded on the right
            trained = labels != IGNORE_INDEX
            assert trained.any() and torch.equal(labels[trained], ids[trained])
            assert not trained[length:].any()
            seen.append(tuple(ids[:length].tolist()))
    assert len(seen) >= count
    assert set(seen[:count]) == {tuple(ids) for ids, _ in replay.rows}  # the first pass covers every row
    with pytest.raises(ValueError, match="batch_size must be at least 1"):
        DemonstrationReplay(demos, grpo_config(tmp_path), tiny_tokenizer, batch_size=0, seed=0)


def test_the_loss_is_lower_for_the_model_that_cloned_the_demonstrations(place_family, tiny_model_dir, bc_model_dir,
                                                                         tmp_path):
    _tasks, demos = place_family
    losses = {}
    for name, directory in (("tiny", tiny_model_dir), ("bc", bc_model_dir)):
        model, tokenizer = load_policy(str(directory))
        replay = DemonstrationReplay(demos, grpo_config(tmp_path), tokenizer, batch_size=64, seed=0)
        with torch.no_grad():
            losses[name] = replay.loss(model).item()
    assert math.isfinite(losses["tiny"]) and math.isfinite(losses["bc"])
    assert losses["bc"] < losses["tiny"] / 4, losses


def test_the_loss_scores_action_positions_only_and_equals_the_causal_lm_loss_over_every_position(
        place_family, bc_model_dir, tmp_path):
    _tasks, demos = place_family
    model, tokenizer = load_policy(str(bc_model_dir))
    compact = DemonstrationReplay(demos, grpo_config(tmp_path), tokenizer, batch_size=5, seed=3)
    whole = DemonstrationReplay(demos, grpo_config(tmp_path), tokenizer, batch_size=5, seed=3)  # the same draws
    kept = []
    model.get_output_embeddings().register_forward_hook(lambda _layer, inputs, _out: kept.append(inputs[0].shape[:-1]))
    with torch.no_grad():
        for _ in range(3):
            batch = whole.next_batch()
            expected = model(**batch).loss.item()
            assert compact.loss(model).item() == pytest.approx(expected, rel=1e-5)
            labelled = int((batch["labels"][:, 1:] != IGNORE_INDEX).sum())
            assert kept[-1] == (labelled,)  # the output layer saw exactly the positions that predict an action token
            assert labelled < batch["input_ids"].numel() / 2


def test_grpo_adds_the_weighted_replay_loss_and_logs_it(place_family, bc_model_dir, shared_place_envs, tmp_path):
    _tasks, demos = place_family
    coef = 0.5
    trainer = MultiTurnGRPOTrainer(str(bc_model_dir), grpo_config(tmp_path, layout="trajectory", beta=0.0,
                                                                       bc_replay_coef=coef),
                                   envs=shared_place_envs, demonstrations=demos)
    tokenizer = trainer.processing_class
    batch = winner_loser_batch(tokenizer)
    trainer.model.train()
    trainer.current_gradient_accumulation_steps = trainer.args.gradient_accumulation_steps  # what train() sets
    with torch.no_grad():
        total = trainer.compute_loss(trainer.model, batch).item()
        policy_only = GRPOTrainer.compute_loss(trainer, trainer.model, batch).item()
        # the same first batch, drawn by a replay with the trainer's seed
        expected = DemonstrationReplay(demos, trainer.args, tokenizer, batch_size=8, seed=0).loss(trainer.model).item()
    assert total == pytest.approx(policy_only + coef * expected, rel=1e-4, abs=1e-6)
    assert trainer._metrics["train"]["replay/nll"] == [pytest.approx(expected, rel=1e-4)]


@pytest.mark.slow
def test_a_step_with_replay_reads_the_demonstrations_file_and_logs_the_replay_loss(place_family, bc_model_dir,
                                                                                   shared_place_envs, tmp_path):
    _tasks, demos = place_family
    path = tmp_path / "demos.jsonl"
    write_demonstrations(demos, path)
    trainer = MultiTurnGRPOTrainer(str(bc_model_dir), grpo_config(
        tmp_path, layout="trajectory", bc_replay_coef=1.0, bc_replay_demonstrations=str(path)), envs=shared_place_envs)
    trainer.train()
    records = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert math.isfinite(records[0]["replay/nll"]) and records[0]["replay/nll"] > 0


def test_replay_without_demonstrations_or_with_a_corrupt_file_is_refused_before_envs_start(bc_model_dir, tmp_path):
    with pytest.raises(ValueError, match="bc_replay_coef > 0 needs demonstrations"):
        MultiTurnGRPOTrainer(str(bc_model_dir), grpo_config(tmp_path, bc_replay_coef=0.5))
    corrupt = tmp_path / "corrupt.jsonl"
    corrupt.write_bytes(b'{"schema": "webarena-gym/demo-v1", "task_id": \xff\n')
    with pytest.raises(TrajectoryFileError, match="corrupt.jsonl:1"):
        MultiTurnGRPOTrainer(str(bc_model_dir), grpo_config(tmp_path, bc_replay_coef=0.5,
                                                            bc_replay_demonstrations=str(corrupt)))
    with pytest.raises(ValueError, match="at least one successful demonstration"):
        MultiTurnGRPOTrainer(str(bc_model_dir), grpo_config(tmp_path, bc_replay_coef=0.5), demonstrations=[])


@pytest.mark.parametrize("settings, message", [
    ({"bc_replay_coef": -0.1}, "bc_replay_coef must be >= 0"),
    ({"bc_replay_coef": float("nan")}, "bc_replay_coef must be >= 0"),
    ({"bc_replay_batch_size": 0}, "bc_replay_batch_size must be an integer >= 1"),
])
def test_bad_replay_settings_are_refused(tmp_path, settings, message):
    with pytest.raises(ValueError, match=message):
        grpo_config(tmp_path, **settings)
