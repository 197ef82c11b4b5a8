"""torch's CPU threads, and a warning when other work already holds the cores they would run on.

torch runs each CPU op on all its intra-op threads (by default one per core) and waits for the
slowest. When another process keeps one of those cores busy, every op waits for that thread's
turn on it: beside one busy core of 2, ``benchmarks/cpu_threads.py`` measured a tiny model's
train step 1.3-1.6x and its generation 2.8-2.9x slower on 2 threads than on 1, and 2 threads
the faster on the idle machine. The number of threads is therefore the user's choice
(``--threads``), never picked from the machine's load, so that the same command runs the
same way; :func:`set_cpu_threads` says when the default looks like the slow choice.
:func:`cpu_description` names the processor and the kernels torch picks on it, which a run's
record keeps: the same command on another CPU computes in another order (README, "Another CPU").
"""

from __future__ import annotations

import contextlib
import logging
import os
import platform
import subprocess
import sys
import time
from collections.abc import Iterator

import torch

logger = logging.getLogger(__name__)

#: The help of the scripts' ``--threads``.
THREADS_HELP = ("torch CPU threads (0: torch's default, one per core; fewer is faster on a machine whose cores "
                "other work keeps busy, see benchmarks/cpu_threads.py)")


def busy_cores(seconds: float = 0.25) -> float:
    """How many cores other processes keep busy: measured over ``seconds`` from ``/proc/stat``, else the load average.

    This process sleeps while it measures, so what is counted is the rest of the machine.
    """
    try:
        before = _cpu_times()
        time.sleep(seconds)
        after = _cpu_times()
    except (OSError, ValueError, IndexError):
        return os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    total, idle = (a - b for a, b in zip(after, before, strict=True))
    return (os.cpu_count() or 1) * (total - idle) / total if total > 0 else 0.0


def _cpu_times() -> tuple[int, int]:
    """All and idle (idle + iowait) jiffies of the machine, from the first line of ``/proc/stat``."""
    with open("/proc/stat", encoding="ascii") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    return sum(fields[:8]), fields[3] + fields[4]  # user..steal; guest time is already in user


def cpu_model_name() -> str:
    """The processor's name (``model name`` in ``/proc/cpuinfo``), else what :mod:`platform` says, else ``"unknown"``."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as cpuinfo:
            for line in cpuinfo:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and value.strip():
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def cpu_bf16_hardware() -> dict[str, bool]:
    """Whether this CPU has AVX512-BF16 and AMX, the two ways torch multiplies bf16 matrices natively on a CPU."""
    tests = {"avx512_bf16": getattr(torch.cpu, "_is_avx512_bf16_supported", None),
             "amx": getattr(torch.cpu, "_is_amx_tile_supported", None)}
    return {name: bool(test is not None and test()) for name, test in tests.items()}


def cpu_description() -> dict[str, object]:
    """The processor, torch's vector kernels on it (``DEFAULT``, ``AVX2``, ``AVX512``...) and its bf16 hardware.

    Float results depend on these: the same seed's training on another CPU drifts from the first
    differing rounding on (measured in the README, "Another CPU").
    """
    return {"model": cpu_model_name(), "torch_capability": torch.backends.cpu.get_cpu_capability(),
            **cpu_bf16_hardware()}


def set_cpu_threads(threads: int = 0) -> int:
    """Run torch's CPU ops on ``threads`` threads (0: torch's default), warn if the default meets busy cores; the count.

    The warning is for CPU training only: with CUDA the CPU threads do little.
    """
    if threads < 0:
        raise ValueError(f"threads must be 0 (torch's default) or more, got {threads}")
    if threads:
        torch.set_num_threads(threads)
    used = torch.get_num_threads()
    if not threads and used > 1 and not torch.cuda.is_available():
        cores = os.cpu_count() or used
        busy = busy_cores()
        if busy >= cores - used + 0.5:  # at least half of one of torch's cores is taken
            logger.warning(
                "Other processes keep %.1f of the %d cores busy, and torch runs each op on %d threads that wait "
                "for each other: --threads %d is likely faster here (benchmarks/cpu_threads.py measures it).",
                busy, cores, used, max(1, min(used - 1, round(cores - busy))))
    return used


@contextlib.contextmanager
def spinning_processes(count: int) -> Iterator[None]:
    """``count`` processes that each keep a core busy, all spinning before the block starts (for measuring).

    What ``benchmarks/cpu_threads.py`` runs torch beside, and what the tests show :func:`busy_cores` and
    the warning of :func:`set_cpu_threads` with.
    """
    spinners = [subprocess.Popen([sys.executable, "-c", "print(flush=True)\nwhile True: pass"], stdout=subprocess.PIPE)
                for _ in range(count)]
    try:
        for spinner in spinners:
            spinner.stdout.readline()  # the interpreter is up and about to spin
        time.sleep(0.2)  # let the scheduler place them
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
