"""The README's stand-alone scripts, run as a user runs them: demos, then ``examples/train_bc.py``,
``examples/train_grpo.py`` from the BC model, ``examples/evaluate.py`` of both; and
``examples/compressed_history.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from webarena_gym.cli import main as cli

pytestmark = [pytest.mark.train, pytest.mark.slow]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ENV = {**os.environ, "TRL_EXPERIMENTAL_SILENCE": "1", "CUDA_VISIBLE_DEVICES": ""}


def script(name: str, *argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXAMPLES / name), *argv], cwd=cwd, env=ENV, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=1800)


def test_bc_then_grpo_then_evaluation_from_the_scripts(tmp_path):
    assert cli(["demos", "--split", "train", "--limit", "6", "--out", str(tmp_path / "demos.jsonl")]) == 0
    bc = script("train_bc.py", "--model", "tiny", "--demonstrations", "demos.jsonl", "--output_dir", "bc",
                "--num_train_epochs", "1", "--max_turns", "3", "--report_to", "none", "--threads", "1", cwd=tmp_path)
    assert bc.returncode == 0, bc.stderr[-3000:]
    assert "model saved to bc" in bc.stdout
    grpo = script("train_grpo.py", "--model", "bc", "--output_dir", "grpo", "--max_steps", "1", "--num_generations",
                  "2", "--per_device_train_batch_size", "4", "--task_ids", "1000", "1001", "--max_turns", "3",
                  "--max_completion_length", "16", "--report_to", "none", "--threads", "1", "--save_strategy", "steps",
                  "--save_steps", "1", cwd=tmp_path)
    assert grpo.returncode == 0, grpo.stderr[-3000:]
    assert "was trained with" not in grpo.stderr  # the BC model's recorded settings are the run's
    assert "GRPO: 1 steps, rollout reward" in grpo.stdout and "model saved to grpo" in grpo.stdout
    # Trained further from its checkpoint: the step before is kept in the history, one more is taken.
    further = script("train_grpo.py", "--model", "bc", "--output_dir", "grpo", "--max_steps", "2", "--num_generations",
                     "2", "--per_device_train_batch_size", "4", "--task_ids", "1000", "1001", "--max_turns", "3",
                     "--max_completion_length", "16", "--report_to", "none", "--threads", "1", "--save_strategy", "steps",
                     "--save_steps", "1", "--resume_from_checkpoint", "latest", cwd=tmp_path)
    assert further.returncode == 0, further.stderr[-3000:]
    assert "GRPO: 2 steps, rollout reward" in further.stdout
    assert {path.name for path in (tmp_path / "grpo").glob("checkpoint-*")} == {"checkpoint-1", "checkpoint-2"}
    for stage in ("bc", "grpo"):
        assert {"config.json", "model.safetensors", "tokenizer.json", "metrics.jsonl", "training_dynamics.png"} <= \
            {path.name for path in (tmp_path / stage).iterdir()}
        recorded = json.loads((tmp_path / stage / "agent_settings.json").read_text())
        assert recorded["max_turns"] == 3 and recorded["max_chars"] == 16_000
    steps = [json.loads(line) for line in (tmp_path / "grpo" / "metrics.jsonl").read_text().splitlines()]
    assert any("rollout/reward" in step for step in steps)
    evaluated = script("evaluate.py", "--model", "bc", "grpo", "--task_ids", "0", "1", "--max_turns", "2",
                       "--max_new_tokens", "16", "--trajectories", "test.jsonl", "--threads", "1", cwd=tmp_path)
    assert evaluated.returncode == 0, evaluated.stderr[-3000:]
    assert "Success rate, embedded test split, at most 2 interactions:" in evaluated.stdout
    header = next(line for line in evaluated.stdout.splitlines() if line.startswith("site"))
    assert header.split()[1:] == ["bc", "grpo"]
    for index in (0, 1):  # one trajectory file per model, an episode per task
        episodes = [json.loads(line) for line in (tmp_path / f"test.{index}.jsonl").read_text().splitlines()]
        assert sorted(episode["task_id"] for episode in episodes) == [0, 1]
    unknown = script("evaluate.py", "--model", "bc", "--task_ids", "99999", "--thinking", "--threads", "1",
                     cwd=tmp_path)
    assert unknown.returncode == 1 and "Traceback" not in unknown.stderr
    assert "bc was trained with thinking=False and this run uses True" in unknown.stderr  # warned, then run
    assert unknown.stderr.splitlines()[-1].startswith("error: ") and "99999" in unknown.stderr


def test_the_compressed_history_script_prints_the_context_it_builds(tmp_path):
    shown = script("compressed_history.py", "--task-id", "0", "--keep-last", "1", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr[-3000:]
    assert shown.stdout.startswith("turn 1: ") and "context" in shown.stdout.splitlines()[0]
    assert "--- system ---" in shown.stdout and "--- user ---" in shown.stdout
    for argv, message in ((["--task-id", "99999"], "--task-id: Unknown task id 99999 in the embedded test split"),
                          (["--keep-last", "-1"], "argument --keep-last: must be at least 0, got -1")):
        refused = script("compressed_history.py", *argv, cwd=tmp_path)
        assert refused.returncode == 2 and message in refused.stderr and "Traceback" not in refused.stderr


@pytest.mark.parametrize(("argv", "status", "message"), [
    (["train_grpo.py", "--model", "bc", "--output_dir", "out", "--threads", "-1"], 2,
     "train_grpo.py: error: threads must be 0 (torch's default) or more, got -1"),
    (["train_grpo.py", "--model", "./absent", "--output_dir", "out"], 2,
     "train_grpo.py: error: there is no model directory './absent'"),
    (["train_grpo.py", "--model", "bc", "--output_dir", "out", "--resume_from_checkpoint", "latest"], 2,
     "train_grpo.py: error: there is no whole checkpoint in out to resume from"),
    (["train_bc.py", "--output_dir", "out", "--epochs", "2"], 2, "train_bc.py: error: unrecognized arguments: --epochs 2"),
    (["train_bc.py", "--output_dir", "out"], 1, "error: BCConfig.demonstrations is not set."),
    (["evaluate.py", "--model", "./absent", "--task_ids", "0"], 2, "evaluate.py: error: there is no model directory"),
])
def test_bad_input_ends_a_script_with_its_message_before_anything_is_written(tmp_path, argv, status, message):
    refused = script(*argv, cwd=tmp_path)
    assert refused.returncode == status, refused.stderr[-3000:]
    assert message in refused.stderr and "Traceback" not in refused.stderr
    assert len(refused.stderr.splitlines()) <= 3  # the message, not the usage of every trainer flag
    assert not (tmp_path / "out").exists()
