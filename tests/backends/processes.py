"""Processes read from /proc: which Chromium descends from a process, which members of a process group live."""

from __future__ import annotations

import os
from typing import NamedTuple


class ProcessStat(NamedTuple):
    state: str
    ppid: int
    pgrp: int


def process_stats() -> dict[int, ProcessStat]:
    """State, parent and process group of every process (from ``/proc/<pid>/stat``)."""
    stats = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()  # after "pid (comm)": state, ppid, pgrp, ...
        except OSError:
            continue
        stats[int(pid)] = ProcessStat(fields[0], int(fields[1]), int(fields[2]))
    return stats


def chromium_descendants(root: int) -> list[int]:
    """Pids of the Chromium processes whose ancestors include process ``root``."""
    parent = {pid: stat.ppid for pid, stat in process_stats().items()}
    command = {}
    for pid in parent:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                command[pid] = f.read()
        except OSError:
            pass

    def descends(pid: int) -> bool:
        while pid in parent and pid > 1:
            pid = parent[pid]
            if pid == root:
                return True
        return False

    return [pid for pid, cmd in command.items() if b"chrom" in cmd and descends(pid)]


def live_group_members(group: int) -> list[int]:
    """Pids of the processes of process group ``group`` that are not zombies."""
    return [pid for pid, stat in process_stats().items() if stat.pgrp == group and stat.state != "Z"]
