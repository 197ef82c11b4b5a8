"""Multi-process training: ``accelerate launch`` with two CPU processes (gloo) runs GRPO and BC.

The launched module is ``multiprocess_run.py``: real accelerate, real torch.distributed over
gloo, real env worker processes under each training process. A GRPO group spans both
processes (each gets two of a task's four rollouts), and the advantages each process
trains with must be the ones a single process would compute over the whole group.
"""

from __future__ import annotations

import json
import math
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from trainers.objective import group_advantages

from .multiprocess_run import LAYOUTS

pytestmark = [pytest.mark.train, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
GROUP = 4

#: Two processes on this machine's CPU, as ``accelerate launch --multi_gpu --num_processes 2`` starts them
#: (accelerate starts several processes only in that mode); with no visible GPU the trainers' configs
#: resolve ``use_cpu`` and the processes talk over gloo. A file keeps a user's default config out.
ACCELERATE_CONFIG = """\
compute_environment: LOCAL_MACHINE
distributed_type: MULTI_GPU
num_machines: 1
num_processes: 2
machine_rank: 0
mixed_precision: 'no'
gpu_ids: all
rdzv_backend: static
same_network: true
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def launched(tiny_model_dir, tmp_path_factory) -> tuple[Path, list[dict]]:
    """Run the module under ``accelerate launch`` once; its output folder and each process's record."""
    folder = tmp_path_factory.mktemp("multiprocess")
    config = folder / "accelerate.yaml"
    config.write_text(ACCELERATE_CONFIG, encoding="utf-8")
    out = folder / "out"
    out.mkdir()
    command = [sys.executable, "-m", "accelerate.commands.launch", "--config_file", str(config),
               "--main_process_port", str(free_port()), "-m", "tests.trainers.multiprocess_run", str(out),
               str(tiny_model_dir)]
    environment = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "OMP_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}
    # The timeout only detects a hang (a lost collective would wait forever); it is far above any run's time.
    result = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=3000)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-6000:]
    return out, [json.loads((out / f"rank{rank}.json").read_text(encoding="utf-8")) for rank in (0, 1)]


def test_two_processes_on_gloo(launched):
    _out, ranks = launched
    assert [r["rank"] for r in ranks] == [0, 1] and all(r["processes"] == 2 for r in ranks)
    assert all(r["backend"] == "gloo" for r in ranks) and ranks[0]["pid"] != ranks[1]["pid"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_group_spanning_processes_gets_the_advantages_of_one_process(launched, layout):
    _out, ranks = launched
    first, second = (r["grpo"][layout] for r in ranks)
    # One step, one group: two rollouts of the same task on each process.
    (ids_0,), (ids_1,) = first["task_ids"], second["task_ids"]
    assert len(ids_0) == len(ids_1) == GROUP // 2 and len(set(ids_0 + ids_1)) == 1
    # Process 0 answered right, process 1 wrong: the group's rewards differ across processes.
    (rewards_0,), (rewards_1,) = first["rewards"], second["rewards"]
    assert rewards_0 == [1.0, 1.0] and rewards_1 == [0.0, 0.0]

    expected = group_advantages(torch.tensor(rewards_0 + rewards_1), GROUP).tolist()
    (advantages_0,), (advantages_1,) = first["advantages"], second["advantages"]
    assert advantages_0 == pytest.approx(expected[:2], abs=1e-5)
    assert advantages_1 == pytest.approx(expected[2:], abs=1e-5)
    assert all(a > 0.5 for a in advantages_0) and all(a < -0.5 for a in advantages_1)
    if layout == "turn":  # this trainer gathers the rewards itself, in process order
        assert first["gathered"] == second["gathered"] == [rewards_0 + rewards_1]
    else:  # the curriculum counted the one group, informative, the same way in both processes
        # (both tasks come from one family, one intent template)
        assert first["curriculum"] == second["curriculum"] and list(first["curriculum"].values()) == [[1.0, 0.0]]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_process_owns_its_env_workers_and_only_the_first_saves(launched, layout):
    out, ranks = launched
    first, second = (r["grpo"][layout] for r in ranks)
    assert first["worker_pids"] and second["worker_pids"]
    assert not set(first["worker_pids"]) & set(second["worker_pids"])
    assert not {r["pid"] for r in ranks} & set(first["worker_pids"] + second["worker_pids"])
    assert all(math.isfinite(loss) for r in (first, second) for loss in r["losses"]) and first["losses"]
    assert first["saved"] is True and second["saved"] is False
    assert (out / layout / "policy" / "config.json").is_file()
    # The metrics file is written once, and its rollout means cover both processes' rollouts.
    records = [json.loads(line) for line in (out / layout / "metrics.jsonl").read_text().splitlines()]
    rollout = [r for r in records if "rollout/reward" in r]
    assert len(rollout) == 1 and rollout[0]["rollout/reward"] == pytest.approx(0.5)


def test_bc_shards_its_rows_over_the_processes_and_saves_one_model(launched):
    from transformers import AutoModelForCausalLM

    out, ranks = launched
    first, second = (r["bc"] for r in ranks)
    assert first["rows"] == second["rows"] >= 8
    # Each process iterates over its half of every global batch of 2 x 2 rows.
    assert first["batches"] == second["batches"] == math.ceil(first["rows"] / 4)
    assert first["losses"] and all(math.isfinite(loss) for loss in first["losses"] + second["losses"])
    records = [json.loads(line) for line in (out / "bc" / "metrics.jsonl").read_text().splitlines()]
    assert len([r for r in records if "loss" in r]) == len(first["losses"])
    model = AutoModelForCausalLM.from_pretrained(out / "bc")
    assert model.config.model_type == "qwen2"
