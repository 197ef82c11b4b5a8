"""Freed memory goes back to the machine: after a dropped allocation, and after every GRPO step."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import trainers.memory
from trainers.grpo import MultiTurnGRPOTrainer
from trainers.memory import _malloc_trim

from .place_family import grpo_config

ROOT = Path(__file__).resolve().parents[2]

#: 400 MB of 4 KiB blocks from malloc's heap, freed but for one block in 64: the kept ones pin the heap, so
#: glibc's own trimming of its top cannot give the freed pages back and the resident size stays.
FRAGMENTED = textwrap.dedent("""
    from trainers.memory import release_freed_memory

    def resident():
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS"))

    blocks = [bytearray(4096) for _ in range(100_000)]
    kept = blocks[::64]
    del blocks
    before = resident()
    released = release_freed_memory()
    print(released, before, resident())
""")


@pytest.mark.skipif(_malloc_trim() is None or not Path("/proc/self/status").exists(),
                    reason="needs glibc's malloc_trim and /proc")
def test_freed_memory_held_between_pages_in_use_goes_back_to_the_machine():
    run = subprocess.run([sys.executable, "-c", FRAGMENTED], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         stdin=subprocess.DEVNULL, check=True)  # `python -c` imports from its working folder
    released, before, after = run.stdout.split()
    assert released == "True"
    assert int(before) - int(after) > 200_000_000, run.stdout  # most of the 400 MB freed


@pytest.mark.train
@pytest.mark.slow
def test_every_grpo_step_releases_the_memory_it_freed(bc_model_dir, shared_place_envs, tmp_path, monkeypatch):
    calls = []
    release = trainers.memory.release_freed_memory
    monkeypatch.setattr(trainers.memory, "release_freed_memory", lambda: calls.append(1) or release())
    trainer = MultiTurnGRPOTrainer(str(bc_model_dir), grpo_config(tmp_path, max_steps=2), envs=shared_place_envs)
    trainer.train()
    assert trainer.state.global_step == 2 and len(calls) == 2
