"""Training on a CPU: the output layer scores only the positions that carry loss, and bf16 autocast trains."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from .place_family import bc_config, grpo_config

pytestmark = pytest.mark.train


class ScoredRows:
    """Counts the rows TRL's fused LM head runs the output layer on (the real function runs)."""

    def __init__(self, monkeypatch):
        import trl.trainer.utils as trl_utils

        real = trl_utils._ChunkedLogProbFunction
        self.rows = 0

        class Counting:
            @staticmethod
            def apply(hidden, *args):
                self.rows += hidden.shape[0]
                return real.apply(hidden, *args)

        monkeypatch.setattr(trl_utils, "_ChunkedLogProbFunction", Counting)


def _weights(model_dir) -> dict[str, torch.Tensor]:
    from safetensors.torch import load_file

    return load_file(str(model_dir / "model.safetensors"))


def test_bc_scores_the_action_positions_only_and_trains_as_if_it_scored_every_one(place_family, tiny_model_dir,
                                                                                    tmp_path, monkeypatch):
    from trainers.bc import train_bc

    _tasks, demos = place_family
    runs = {}
    for every_position in (True, False):
        scored = ScoredRows(monkeypatch)
        output = tmp_path / f"every_{every_position}"
        trainer = train_bc(bc_config(output, max_steps=3, logging_steps=1, score_every_position=every_position),
                           str(tiny_model_dir), demonstrations=demos)
        losses = [log["loss"] for log in trainer.state.log_history if "loss" in log]
        runs[every_position] = scored.rows, losses, _weights(output)
    (every_rows, every_losses, every_weights), (labelled_rows, labelled_losses, labelled_weights) = runs[True], runs[False]
    # The place family's actions are a few tokens after a page of hundreds: most positions carry no loss.
    assert 0 < 5 * labelled_rows < every_rows
    assert labelled_losses == pytest.approx(every_losses, rel=1e-5)
    for name, weight in every_weights.items():
        torch.testing.assert_close(labelled_weights[name], weight, rtol=1e-4, atol=1e-6)
    import trl.trainer.utils as trl_utils

    assert trl_utils._use_triton(torch.device("cpu")) is False  # TRL's own choice is back after training


def test_grpo_scores_the_completion_positions_only_and_makes_the_same_step(bc_model_dir, shared_place_envs, tmp_path,
                                                                           monkeypatch):
    from trainers.grpo import MultiTurnGRPOTrainer

    steps = {}
    for every_position in (True, False):
        scored = ScoredRows(monkeypatch)
        trainer = MultiTurnGRPOTrainer(str(bc_model_dir), grpo_config(
            tmp_path / f"every_{every_position}", layout="trajectory", optim="sgd", learning_rate=0.5, beta=0.0,
            per_device_train_batch_size=32, score_every_position=every_position), envs=shared_place_envs)
        before = {n: p.detach().clone() for n, p in trainer.model.named_parameters()}
        trainer.train()
        delta = {n: p.detach() - before[n] for n, p in trainer.model.named_parameters()}
        steps[every_position] = scored.rows, trainer.state.log_history[0], delta
    (every_rows, every_log, every_delta), (labelled_rows, labelled_log, labelled_delta) = steps[True], steps[False]
    assert 0 < labelled_rows < every_rows  # the first turn's prompt is not scored
    for key in ("rollout/reward", "rollout/tokens_per_trajectory", "rollout/interactions"):
        assert labelled_log[key] == every_log[key], key  # the same rollouts
    assert 0.0 < every_log["rollout/reward"] < 1.0, "the step should have successes and failures to learn from"
    moved = max(d.abs().max().item() for d in every_delta.values())
    assert moved > 1e-4
    for name, delta in every_delta.items():
        torch.testing.assert_close(labelled_delta[name], delta, rtol=1e-3, atol=1e-3 * moved)


@pytest.mark.skipif(torch.cuda.is_available(), reason="bf16 on a CPU")
def test_bf16_on_a_cpu_trains_under_autocast_and_saves_float32_weights(place_family, tiny_model_dir, tmp_path):
    from trainers.bc import train_bc

    _tasks, demos = place_family
    config = bc_config(tmp_path / "bf16", max_steps=2, logging_steps=1, bf16=True)
    assert config.use_cpu  # transformers refuses bf16 without a GPU otherwise
    assert not bc_config(tmp_path / "fp32").bf16  # float32 stays the default on a CPU
    losses = {}
    for name, bf16 in (("bf16", True), ("fp32", False)):
        trainer = train_bc(bc_config(tmp_path / name, max_steps=2, logging_steps=1, bf16=bf16), str(tiny_model_dir),
                           demonstrations=demos)
        losses[name] = [log["loss"] for log in trainer.state.log_history if "loss" in log]
    assert all(loss == loss and loss < 20 for loss in losses["bf16"])  # finite
    assert losses["bf16"] != losses["fp32"]  # bf16 matmuls round otherwise: autocast was on
    assert losses["bf16"] == pytest.approx(losses["fp32"], rel=0.05)
    assert {w.dtype for w in _weights(tmp_path / "bf16").values()} == {torch.float32}
    config = json.loads((tmp_path / "bf16" / "config.json").read_text())
    assert config.get("dtype", config.get("torch_dtype")) == "float32"


def test_the_bc_step_benchmark_prints_its_table_alone_with_equal_fp32_losses(tiny_model_dir):
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "bc_step_time.py"
    done = subprocess.run([sys.executable, str(script), "--model", str(tiny_model_dir), "--steps", "2", "--families", "2",
                           "--accumulation", "2"], capture_output=True, text=True, timeout=900, check=True)
    lines = done.stdout.splitlines()
    assert not [line for line in lines if line.startswith("{")]  # no trainer log among the table's lines
    assert lines[0].startswith("2 BC steps per row of 1 x 2 rows") and lines[1].split()[:3] == ["row", "s/step", "vs"]
    rows = {line[:26].strip(): line[26:].split() for line in lines[2:]}
    assert {"fp32, every position", "fp32, labelled positions"} <= set(rows) and len(lines) == 2 + len(rows)
    assert rows["fp32, every position"][1] == "1.00x"
    losses = {name: [float(x) for x in row[2:]] for name, row in rows.items()}
    assert len(losses["fp32, every position"]) == 2
    assert losses["fp32, labelled positions"] == pytest.approx(losses["fp32, every position"], abs=1e-4)
    assert "loss" in done.stderr  # the trainer's logs go to stderr
