"""Envs in worker processes (and in this process): the Gymnasium vector API, partial steps, reset masks, errors."""

from __future__ import annotations

import functools
import multiprocessing as mp
import os
import signal
import subprocess
import sys

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import webarena_gym
from webarena_gym.errors import ConfigurationError, EnvWorkerError, UnknownTaskError
from webarena_gym.suites.embedded import embedded_tasks
from webarena_gym.vector_workers import ProcessVectorEnv
from webarena_gym.wrappers import CompressedHistory

WAIT = 'do(action="Wait")'


@pytest.fixture(scope="module")
def grouped():
    envs = webarena_gym.make_vec(4, workers=2, group=True, suite="embedded", max_steps=2,
                                 wrap=functools.partial(CompressedHistory, keep_last=0))
    yield envs
    envs.close()


@pytest.fixture(scope="module", params=[2, 0], ids=["processes", "threads"])
def manual(request):
    """4 envs with autoreset disabled, in 2 worker processes or in this process: one vector API."""
    envs = webarena_gym.make_vec(4, workers=request.param, suite="embedded", max_steps=3,
                                 autoreset_mode=AutoresetMode.DISABLED)
    yield envs
    envs.close()


def test_envs_live_in_separate_worker_processes_and_a_group_keeps_its_task(grouped):
    assert grouped.workers == 2 and grouped.slices == [[0, 1], [2, 3]]
    assert len(set(grouped.worker_pids)) == 2 and os.getpid() not in grouped.worker_pids
    prompts, infos = grouped.reset(seed=0)
    assert len(set(infos["task_id"])) == 1 and all("Task:" in p or "<" in p for p in prompts)
    assert all(messages[0]["role"] == "system" for messages in infos["messages"])  # the wrapper ran in the worker
    for _ in range(2):
        _, rewards, terminated, truncated, infos = grouped.step([WAIT] * 4)
    assert truncated.all() and not terminated.any()
    _, rewards, terminated, truncated, infos = grouped.step([WAIT] * 4)  # next-step autoreset
    assert (rewards == 0).all() and not truncated.any() and (infos["step"] == 0).all()
    assert len(set(infos["task_id"])) == 1 and grouped.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP


def test_a_result_that_cannot_leave_the_worker_is_an_error_not_a_dead_worker(grouped):
    with pytest.raises(EnvWorkerError, match="cannot be sent"):
        grouped.call("world")  # a World holds SQLite connections
    assert len(grouped.call("max_steps")) == 4


def test_only_the_given_envs_step_and_ended_ones_wait_for_a_reset_mask(manual):
    ids = [t.task_id for t in embedded_tasks("test")[:4]]
    _, infos = manual.reset(options={"task_ids": ids})
    assert list(infos["task_id"]) == ids
    manual.step_async(['exit(message="no")', None, WAIT, None])
    with pytest.raises(ConfigurationError, match="waits for its step_wait"):
        manual.reset()
    observations, rewards, terminated, truncated, infos = manual.step_wait()
    assert terminated.tolist() == [True, False, False, False]
    assert infos["_step"].tolist() == [True, False, True, False] and infos["step"][2] == 1
    with pytest.raises(ConfigurationError, match="reset_mask"):
        manual.step([WAIT, None, None, None])
    _, infos = manual.reset(options={"reset_mask": np.array([True, False, False, False]), "task_ids": [ids[3]] * 4})
    assert infos["_task_id"].tolist() == [True, False, False, False] and infos["task_id"][0] == ids[3]
    _, _, terminated, _, infos = manual.step([WAIT, WAIT, WAIT, None])
    assert not terminated.any() and infos["step"].tolist() == [1, 1, 2, 0]


def test_errors_in_a_worker_come_back_as_the_same_exception(manual):
    with pytest.raises(UnknownTaskError) as raised:
        manual.reset(options={"task_id": 10**9})
    if isinstance(manual, ProcessVectorEnv):
        assert any("env worker" in note for note in raised.value.__notes__)
    manual.reset()  # the workers are still usable
    with pytest.raises(ConfigurationError, match="reset_mask"):
        manual.reset(options={"reset_mask": [True] * 4})
    for seed in ("7", 1.5, -1, [0, 1, 2, "3"], True):
        with pytest.raises(ConfigurationError, match="seed must be a non-negative int"):
            manual.reset(seed=seed)
    with pytest.raises(ConfigurationError, match="Got 3 seeds for 4 envs"):
        manual.reset(seed=[0, 1, 2])
    for ids in ("abcd", 5, None):
        with pytest.raises(ConfigurationError, match=r"options\['task_ids'\] must be a list of 4 task ids"):
            manual.reset(options={"task_ids": ids})
    for options in ("task_ids", [("task_id", 3)]):
        with pytest.raises(ConfigurationError, match=r"options must be a dict such as \{'task_ids': \[...\]\} or None"):
            manual.reset(options=options)
    _, infos = manual.reset(seed=np.arange(4), options={"task_ids": np.array([3, 3, 3, 3])})  # numpy works too
    assert list(infos["task_id"]) == [3] * 4


def test_bad_settings_are_refused_before_or_while_workers_start():
    with pytest.raises(ConfigurationError, match="pickle"):
        ProcessVectorEnv(2, workers=1, suite="embedded", wrap=lambda env: env)
    with pytest.raises(ConfigurationError, match="start_method"):
        ProcessVectorEnv(2, workers=1, suite="embedded", start_method="fork")
    with pytest.raises(ConfigurationError, match="backend"):
        ProcessVectorEnv(2, workers=1, suite="embedded", backend="nope")


def test_a_dead_worker_raises_instead_of_hanging():
    envs = ProcessVectorEnv(2, workers=2, suite="embedded", max_steps=3)
    pids = set(envs.worker_pids)
    try:
        envs.reset(seed=0)
        os.kill(envs.worker_pids[1], signal.SIGKILL)
        with pytest.raises(EnvWorkerError, match=r"worker 1 .* killed by signal 9"):
            envs.step([WAIT, WAIT])
        with pytest.raises(EnvWorkerError):
            envs.reset()
    finally:
        envs.close()
    assert not pids & {child.pid for child in mp.active_children()}  # the surviving worker was closed too


def test_the_evaluation_runner_refuses_envs_that_autoreset():
    from webarena_gym.evaluation import run_evaluation

    envs = webarena_gym.make_vec(1, workers=0, suite="embedded", max_steps=1)  # next-step autoreset
    try:
        with pytest.raises(ConfigurationError, match="autoreset disabled"):
            run_evaluation(envs, None, [envs.task_ids[0]], progress=False)  # refused before any policy call
    finally:
        envs.close()


PARENT_KILLED_MID_STEP = '''
import os, signal, time
import gymnasium as gym
import webarena_gym


class UntilParentGone(gym.Wrapper):
    """Steps only once this script's process is gone, so that the reply finds no one to read it."""

    def step(self, action):
        while True:
            try:
                os.kill(int(os.environ["PARENT_PID"]), 0)
            except ProcessLookupError:
                return self.env.step(action)
            time.sleep(0.05)


if __name__ == "__main__":
    os.environ["PARENT_PID"] = str(os.getpid())
    envs = webarena_gym.make_vec(2, workers=2, suite="embedded", wrap=UntilParentGone)
    envs.reset(seed=0)
    print(*envs.worker_pids, flush=True)
    envs.step_async(['do(action="Wait")'] * 2)
    os.kill(os.getpid(), signal.SIGKILL)
'''


def _exited(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"  # a zombie has exited, awaiting its reaper
    except FileNotFoundError:
        return True


def test_workers_exit_quietly_when_their_parent_is_killed(tmp_path):
    script = tmp_path / "parent.py"
    script.write_text(PARENT_KILLED_MID_STEP)
    parent = subprocess.Popen([sys.executable, str(script)], cwd=tmp_path, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pids = [int(pid) for pid in parent.stdout.readline().split()]
    parent.wait()  # reaped: the workers' step goes on, and its reply meets a closed pipe
    _, stderr = parent.communicate(timeout=600)  # a hang guard: stderr ends when every worker has exited
    assert parent.returncode == -signal.SIGKILL and len(pids) == 2
    assert all(_exited(pid) for pid in pids)
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr  # was: one traceback per worker


def test_a_script_without_the_main_guard_gets_one_error_naming_it(tmp_path):
    script = tmp_path / "unguarded.py"
    script.write_text('import webarena_gym\n\nenvs = webarena_gym.make_vec(2, workers=2, suite="embedded")\n'
                      'envs.close()\n')
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert run.returncode == 1
    # was: about 170 lines, a traceback per worker (multiprocessing's bootstrapping RuntimeError), then an
    # EnvWorkerError whose last hint was about memory
    assert run.stderr.count("Traceback") == 1 and "RuntimeError" not in run.stderr and "memory" not in run.stderr
    last = run.stderr[run.stderr.index("webarena_gym.errors.ConfigurationError: "):]
    assert last.startswith(f"webarena_gym.errors.ConfigurationError: Env worker processes could not start: each one "
                           f"imports {script} again")
    assert 'Put the code that makes them under `if __name__ == "__main__":`' in last
