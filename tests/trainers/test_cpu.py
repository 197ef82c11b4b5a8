"""torch's CPU threads: set by the user, and a warning when the default meets cores other processes keep busy;
the processor a run records."""

from __future__ import annotations

import logging
import os

import pytest
import torch

from trainers.config import cpu_bf16_native
from trainers.cpu import busy_cores, cpu_description, cpu_model_name, set_cpu_threads, spinning_processes


@pytest.fixture(autouse=True)
def restore_threads():
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)


def test_threads_are_set_and_their_count_returned():
    assert set_cpu_threads(1) == 1 == torch.get_num_threads()
    torch.set_num_threads(2)
    assert set_cpu_threads(0) == 2  # 0 keeps what torch has


def test_a_negative_count_is_refused():
    with pytest.raises(ValueError, match="threads must be 0"):
        set_cpu_threads(-1)


def test_spinning_processes_count_as_busy_cores():
    cores = os.cpu_count() or 1
    with spinning_processes(cores):
        busy = busy_cores()
    assert cores / 2 <= busy <= cores + 1e-9


@pytest.mark.skipif(torch.cuda.is_available(), reason="the warning is for CPU training")
def test_the_default_threads_beside_busy_cores_warn_and_an_explicit_count_does_not(caplog, messages_of):
    torch.set_num_threads(2)
    with spinning_processes(os.cpu_count() or 1), caplog.at_level(logging.WARNING, logger="trainers.cpu"):
        set_cpu_threads(0)
        assert "--threads 1 is likely faster here" in caplog.text
        assert "torch runs each op on 2 threads" in caplog.text
        caplog.clear()
        set_cpu_threads(2)
    assert messages_of("trainers.cpu") == []


def test_the_processor_is_described_by_its_name_kernels_and_bf16_hardware():
    described = cpu_description()
    assert set(described) == {"model", "torch_capability", "avx512_bf16", "amx"}
    assert described["model"] == cpu_model_name() and described["model"].strip()
    if os.path.exists("/proc/cpuinfo"):  # Linux: the name is the one the kernel reports
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as cpuinfo:
            names = {line.partition(":")[2].strip() for line in cpuinfo if line.startswith("model name")}
        assert described["model"] in names or not names
    assert described["torch_capability"] == torch.backends.cpu.get_cpu_capability()
    assert isinstance(described["avx512_bf16"], bool) and isinstance(described["amx"], bool)
    assert cpu_bf16_native() == (described["avx512_bf16"] or described["amx"])
