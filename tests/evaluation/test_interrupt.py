"""Ctrl-C on `webarena-gym eval`: it says what was saved and the command that resumes the run, which does."""

from __future__ import annotations

import ctypes
import os
import platform
import shlex
import signal
import subprocess
import sys
import threading
import time

import pytest

from webarena_gym.evaluation import read_run

from .chat_server import ChatServer, Reply

#: tgkill(2), which signals one thread of a process (Linux; Python has no wrapper for another process's thread).
TGKILL = {"x86_64": 234, "aarch64": 131}.get(platform.machine())


def signal_every_thread_but_the_main_one(pid: int) -> None:
    """SIGINT to each of the process's other threads, as the OS may deliver a terminal's Ctrl-C to any thread."""
    libc = ctypes.CDLL(None, use_errno=True)
    threads = [int(tid) for tid in os.listdir(f"/proc/{pid}/task") if int(tid) != pid]
    assert threads  # the requests' threads
    for tid in threads:
        libc.syscall(TGKILL, pid, tid, signal.SIGINT)


@pytest.mark.parametrize("delivery", ["process group", pytest.param("another thread", marks=pytest.mark.skipif(
    TGKILL is None or not os.path.isdir("/proc/self/task"), reason="needs Linux's tgkill on x86_64 or aarch64"))])
def test_an_interrupted_eval_says_what_it_saved_and_how_to_resume(tmp_path, delivery):
    hold = threading.Event()  # the model "thinks" about the second task until the test lets it answer

    def respond(request, number):
        return Reply('exit(message="N/A")', wait_for=None if number == 1 or hold.is_set() else hold)

    out = tmp_path / "my run.jsonl"
    with ChatServer(respond) as server:
        command = ["eval", "--endpoint", server.url, "--model", "slow-model", "--limit", "3", "--episodes-in-flight",
                   "1", "--env-workers", "2", "-o", str(out), "--no-progress", "--fresh"]
        # Its own process group, signalled as a terminal's Ctrl-C signals it: the env workers get SIGINT too.
        process = subprocess.Popen([sys.executable, "-m", "webarena_gym.cli", *command], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            deadline = time.monotonic() + 600  # a hang detector, not a speed test
            while len(server.requests) < 2 or not out.is_file() or not read_run(out).episodes:
                assert process.poll() is None and time.monotonic() < deadline, process.communicate()
                time.sleep(0.1)
            if delivery == "process group":
                os.killpg(process.pid, signal.SIGINT)
            else:  # the main thread waits on a request that is held: only its own wake-ups see the signal
                signal_every_thread_but_the_main_one(process.pid)
            said = []
            while not said or not said[-1].startswith("  webarena-gym "):  # said while a request is still held
                line = process.stderr.readline()
                assert line, "".join(said)
                said.append(line)
            hold.set()
            rest = process.communicate(timeout=600)[1]
        finally:
            if process.poll() is None:
                process.kill()
        assert process.returncode == 130
        message = "".join(said)
        assert f"Interrupted. 1 of 3 episodes are saved in {out} (1 from this session)" in message, message + rest
        resume = said[-1].strip()
        assert "--fresh" not in resume and shlex.split(resume)[1:] == command[:-1]  # all but --fresh, as given
        assert "Traceback" not in message + rest

        asked = len(server.requests)
        again = subprocess.run([sys.executable, "-m", "webarena_gym.cli", *shlex.split(resume)[1:]],
                               capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert f"Resuming {out}: 1 of 3 tasks already done." in again.stdout
    assert len(server.requests) - asked == 2  # the saved task was not played again
    assert len(read_run(out, strict=True).episodes) == 3
