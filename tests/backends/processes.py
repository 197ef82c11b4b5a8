"""Which Chromium processes descend from a process (read from /proc), for tests of who launched a browser."""

from __future__ import annotations

import os


def chromium_descendants(root: int) -> list[int]:
    """Pids of the Chromium processes whose ancestors include process ``root``."""
    parent, command = {}, {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                parent[int(pid)] = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                command[int(pid)] = f.read()
        except OSError:
            pass

    def descends(pid: int) -> bool:
        while pid in parent and pid > 1:
            pid = parent[pid]
            if pid == root:
                return True
        return False

    return [pid for pid, cmd in command.items() if b"chrom" in cmd and descends(pid)]
