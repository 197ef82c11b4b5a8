"""BC and GRPO in bf16 on CUDA: eager attention, finite gradients, and the loss on the same tokens as on a CPU.

Run on a GPU machine: ``pytest -m gpu tests/trainers/test_gpu.py`` (``scripts/gpu_measure.sh`` does).
Without CUDA every test here is skipped, saying why (``tests/conftest.py``). On an H200, BC in bf16
went NaN on 2 of 3 seeds until the trainers asked for eager attention there (``trainers.config.training_attention``).
"""

from __future__ import annotations

import math

import pytest
import torch

from trainers.bc import train_bc
from trainers.config import training_attention
from trainers.grpo import MultiTurnGRPOTrainer
from trainers.scoring import labelled_positions_scored

from .place_family import bc_config, grpo_config, winner_loser_batch

pytestmark = [pytest.mark.gpu, pytest.mark.train]


def trained_positions(model, compute_loss) -> torch.Tensor:
    """Which positions of a batch the loss sends gradient to: the final norm's output, per position.

    The hidden state at position p feeds only the score of token p + 1, so these are the positions
    just before every token that carries loss.
    """
    captured = []

    def keep_grad(_module, _inputs, output):
        output.retain_grad()
        captured.append(output)

    hook = model.model.norm.register_forward_hook(keep_grad)
    try:
        loss = compute_loss()
        loss.backward()
    finally:
        hook.remove()
    assert torch.isfinite(loss), loss
    return captured[-1].grad.abs().sum(-1) > 0


def finite_grad_norms(trainer) -> list[float]:
    norms = [log["grad_norm"] for log in trainer.state.log_history if "grad_norm" in log]
    assert norms, trainer.state.log_history
    assert all(math.isfinite(n) for n in norms), norms
    return norms


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bc_steps_in_bf16_on_cuda_train_with_eager_attention_and_finite_gradients(place_family, tiny_model_dir,
                                                                                  tmp_path, seed):
    _tasks, demos = place_family
    config = bc_config(tmp_path, max_steps=3, logging_steps=1, seed=seed)  # bf16 and eager: the CUDA defaults
    assert config.bf16 and config.attn_implementation == training_attention(True) == "eager"
    trainer = train_bc(config, str(tiny_model_dir), demonstrations=demos)
    assert trainer.model.device.type == "cuda" and trainer.model.config._attn_implementation == "eager"
    finite_grad_norms(trainer)


def test_bc_in_bf16_on_cuda_trains_only_the_labelled_tokens(place_family, tiny_model_dir, tmp_path):
    """The same positions carry loss as on a CPU: those whose next token is the demonstration's (labels)."""
    _tasks, demos = place_family
    trainer = train_bc(bc_config(tmp_path, max_steps=1), str(tiny_model_dir), demonstrations=demos)
    batch = next(iter(trainer.get_train_dataloader()))
    batch = {k: v.to(trainer.model.device) if isinstance(v, torch.Tensor) else v for k, v in batch.items()}
    trainer.model.train()

    def loss():
        with labelled_positions_scored(True), trainer.compute_loss_context_manager():
            return trainer.compute_loss(trainer.model, batch)

    trained = trained_positions(trainer.model, loss)
    labelled = batch["labels"][:, 1:] != -100
    assert labelled.any() and not labelled.all()
    assert torch.equal(trained[:, :-1], labelled) and not trained[:, -1].any()


@pytest.mark.parametrize("beta", [0.0, 0.1])
def test_grpo_in_bf16_on_cuda_trains_only_the_action_tokens(tiny_model_dir, shared_place_envs, tmp_path, beta):
    """The masks of the CPU test (test_grpo.py) on CUDA in bf16: gradient from the policy's tokens only."""
    trainer = MultiTurnGRPOTrainer(str(tiny_model_dir), grpo_config(tmp_path, layout="trajectory", beta=beta),
                                   envs=shared_place_envs)
    assert trainer.args.bf16 and trainer.model.config._attn_implementation == "eager"
    if beta:
        assert trainer.ref_model.config._attn_implementation == "eager"
    device = trainer.model.device
    batch = {k: v.to(device) if isinstance(v, torch.Tensor) else v
             for k, v in winner_loser_batch(trainer.processing_class).items()}
    ids = torch.cat([batch["prompt_ids"], batch["completion_ids"]], dim=1)
    attention = torch.cat([batch["prompt_mask"], batch["completion_mask"]], dim=1)
    keep = batch["completion_ids"].size(1)
    if beta:
        with torch.no_grad(), trainer.compute_loss_context_manager():
            batch["ref_per_token_logps"] = trainer._reference_logps(ids, attention, keep) - 0.5  # policy != reference
    trainer.model.train()
    trainer.current_gradient_accumulation_steps = trainer.args.gradient_accumulation_steps  # what train() sets

    def loss():
        with labelled_positions_scored(True), trainer.compute_loss_context_manager():
            return trainer.compute_loss(trainer.model, batch)

    trained = trained_positions(trainer.model, loss)
    prompt_width = batch["prompt_ids"].size(1)
    per_token = trained[:, prompt_width - 1 : prompt_width - 1 + keep].long()
    assert torch.equal(per_token, batch["completion_mask"] * batch["tool_mask"])
    assert (batch["tool_mask"] == 0).any() and (batch["tool_mask"] == 1).any()


@pytest.mark.parametrize("layout", ["turn", "trajectory"])
def test_a_grpo_step_in_bf16_on_cuda_has_finite_gradients(tiny_model_dir, shared_place_envs, tmp_path, layout):
    trainer = MultiTurnGRPOTrainer(str(tiny_model_dir), grpo_config(tmp_path, layout=layout, logging_steps=1),
                                   envs=shared_place_envs)
    assert trainer.args.bf16 and trainer.args.gradient_checkpointing  # the CUDA defaults
    trainer.train()
    finite_grad_norms(trainer)  # a random model's rewards may all be 0: the masks' test has the gradients that move
    log = trainer.state.log_history[0]
    assert log["memory/peak_gib"] > 0 and log["time/generated_tokens_per_s"] > 0
    assert all(torch.isfinite(p).all() for p in trainer.model.parameters())
