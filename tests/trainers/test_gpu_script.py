"""The GPU measurements' driver, dry-run on a CPU: every stage recorded (measured, or skipped saying why), the
table printed, and the same command again keeps what finished."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.train, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
STAGES = ("gpu_tests", "step_time_0_5b", "memory_3b", "vllm", "findings")


def run_driver(output: Path, *more: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "TRL_EXPERIMENTAL_SILENCE": "1",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("OUT", None)
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gpu_measurements.py"), "--dry-run",
                           "--output", str(output), *more], env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=3000)


def test_the_dry_run_records_every_stage_prints_the_table_and_resumes(tmp_path):
    output = tmp_path / "gpu"
    first = run_driver(output)
    assert first.returncode == 0, first.stdout + first.stderr
    record = json.loads((output / "gpu_measurements.json").read_text())
    stages = record["stages"]
    assert record["dry_run"] and record["device"] is None
    assert set(stages) == set(STAGES)
    for name, stage in stages.items():
        assert stage["status"] in ("measured", "skipped"), (name, stage)
        if stage["status"] == "skipped":
            assert stage["reason"], name  # a skipped stage says why
    for name in ("gpu_tests", "memory_3b"):
        assert "no CUDA device" in stages[name]["reason"]
    assert "vLLM is not installed" in stages["vllm"]["reason"] or "no CUDA device" in stages["vllm"]["reason"]
    row = stages["step_time_0_5b"]["result"]["rows"][0]
    assert row["step_s"] > 0 and row["tokens_per_s"] > 0 and row["gpu_busy"] is None
    assert row["gpu_busy_unmeasured"] == "no CUDA device"
    assert abs(row["generation"] + row["env"] + row["update"] - 1) < 1e-6
    assert stages["memory_3b"]["result"]["probes"][0]["fits"]  # the probe's code ran on the tiny model
    assert set(stages["findings"]["result"]["summary"]["arms"]) == {"untrained"}

    table = first.stdout.splitlines()
    assert table[0].startswith("GPU measurements (dry run, CPU)")
    assert table[1].split()[:3] == ["stage", "status", "seconds"]
    assert [line.split()[0] for line in table[2:]] == list(STAGES)

    # The same command again: nothing is run again, the same table is printed.
    again = run_driver(output)
    assert again.returncode == 0, again.stdout + again.stderr
    assert all(f"{name}: done in an earlier call" in again.stderr for name in STAGES)
    assert json.loads((output / "gpu_measurements.json").read_text())["stages"] == stages
    assert again.stdout == first.stdout

    # --redo runs one stage again; a real run into a dry run's folder is refused.
    redone = run_driver(output, "--redo", "vllm", "--stages", "vllm")
    assert redone.returncode == 0 and "vllm: done in an earlier call" not in redone.stderr
    refused = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gpu_measurements.py"), "--output",
                              str(output)], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600,
                             env={**os.environ, "CUDA_VISIBLE_DEVICES": ""})
    assert refused.returncode != 0 and "holds a dry run" in refused.stderr


def test_the_gpu_tests_skip_without_cuda_and_say_why(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pytest", "-m", "gpu", str(ROOT / "tests" / "trainers" / "test_gpu.py"),
                           "-q", "-rs", "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=900, env={**os.environ, "CUDA_VISIBLE_DEVICES": ""})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "8 skipped" in done.stdout and "needs a CUDA device" in done.stdout
