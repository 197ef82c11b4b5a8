"""Replicas and leases on the real docker engine: every writing rollout gets a pristine copy.

The replicas are stand-in containers whose state is real (a notes store written inside
the container, tests/docker/docker_standin.py); the episodes are real envs on Chromium in
separate worker processes, talking to a real lease service over HTTP.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from webarena_gym.backends.site_leases import LeaseClient
from webarena_gym.docker_sites.lease_service import docker_lease_service
from webarena_gym.docker_sites.replicas import replica_status, replicas_down, replicas_up
from webarena_gym.errors import SiteUnavailableError

from .docker_standin import free_port
from .lease_episodes import NOTES_TASK, play_writing_episode

pytestmark = pytest.mark.docker

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def replicated(docker_client, make_stack):
    """``replicated(count, standby)`` -> (deployment, lease service) with ``count`` stand-in forum replicas."""
    made = []

    def make(count: int = 3, standby: int = 1):
        stack = make_stack(names=("reddit",))
        made.append(stack)
        replicas_up(docker_client, stack, {"reddit": count}, standby=standby, progress=False)
        service = docker_lease_service(stack, {"reddit": count}).start()
        made.append(service)
        return stack, service

    yield make
    for item in reversed(made):
        if hasattr(item, "close"):
            item.close()
        else:
            replicas_down(docker_client, item)


def notes(url: str) -> str:
    with urllib.request.urlopen(url + "/cgi-bin/notes", timeout=10) as response:
        return response.read().decode()


def wait_for(predicate, timeout: float = 120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"not true after {timeout} s: {predicate}")


def test_six_concurrent_writing_episodes_on_three_replicas_never_see_each_others_writes(docker_client, replicated):
    stack, service = replicated(count=3, standby=1)
    site_urls = LeaseClient(service.url).sites()
    tokens = [f"rollout{number}" for number in range(6)]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=6, mp_context=context) as pool:
        results = list(pool.map(play_writing_episode, [service.url] * 6, [site_urls] * 6, tokens))
    for result in results:
        assert "notes stored: 0" in result["first"], result  # a pristine replica: nobody's note
        assert f"note: {result['token']}" in result["after"] and "notes stored: 1" in result["after"]
        assert result["reward"] == 1.0 and result["terminated"]  # the evaluator read the leased replica
        assert result["final_replicas"] == {"reddit": result["replica"]}  # info names the replica
    used = {result["replica"] for result in results}
    assert used <= {"reddit-1", "reddit-2", "reddit-3"} and len(used) >= 2
    # three waited for recycled replicas: six episodes, three replicas, each written at most once per lease
    rows = wait_for(lambda: (rows := LeaseClient(service.url).status()) and all(r["state"] == "free" for r in rows) and rows)
    assert sum(row["recycled"] for row in rows) == 6
    for row in rows:  # every replica is pristine again for the next episodes
        assert "notes stored: 0" in notes(row["url"])


def test_reading_episodes_share_a_replica_and_writers_do_not(replicated):
    _, service = replicated(count=2, standby=0)
    client = LeaseClient(service.url, wait=0.5)
    first = client.acquire(["reddit"], writes=False)
    second = client.acquire(["reddit"], writes=False)
    assert first.replicas == second.replicas == {"reddit": "reddit-1"}
    writer = client.acquire(["reddit"], writes=True)
    assert writer.replicas == {"reddit": "reddit-2"}
    with pytest.raises(SiteUnavailableError) as raised:
        client.acquire(["reddit"], writes=True)
    message = str(raised.value)
    assert "No pristine replica of its own of reddit came free in 1 s" in message or "came free in 0 s" in message
    assert "reddit: 2 replicas (1 shared, 1 leased)" in message
    assert "--replicas SITE=N" in message and "webarena-gym sites status" in message
    for lease in (first, second):
        client.release(lease)
    assert {row["replica"]: row["state"] for row in client.status()}["reddit-1"] == "free"  # readers dirty nothing


def test_a_killed_workers_lease_expires_and_its_replica_is_recycled(replicated):
    _, service = replicated(count=1, standby=1)
    worker = subprocess.Popen([sys.executable, "-m", "tests.docker.lease_episodes", service.url], cwd=REPO,
                              stdout=subprocess.PIPE, text=True, env=os.environ | {"PYTHONPATH": str(REPO)})
    try:
        replica, url = worker.stdout.readline().split()
        assert replica == "reddit-1" and "note: orphan" in notes(url)
        [row] = LeaseClient(service.url).status()
        assert row["state"] == "leased" and row["holders"] == ["doomed-worker"]
    finally:
        worker.kill()
        worker.wait()
    row = wait_for(lambda: (rows := LeaseClient(service.url).status()) and rows[0]["recycled"] == 1 and rows[0])
    assert row["state"] == "free" and row["holders"] == []
    assert "notes stored: 0" in notes(url)  # the orphan's write is gone


def test_reset_names_an_unreachable_lease_service_and_the_status_command(replicated):
    from webarena_gym.env import WebArenaEnv

    _, service = replicated(count=1, standby=0)
    site_urls = LeaseClient(service.url).sites()
    nowhere = f"http://127.0.0.1:{free_port()}"
    env = WebArenaEnv(suite="webarena-lite", tasks=[NOTES_TASK], site_urls=site_urls, leases=nowhere, backend="playwright")
    try:
        with pytest.raises(SiteUnavailableError, match=rf"lease service at {nowhere} does not answer.*sites status"):
            env.reset(options={"task_id": "notes-write"})
    finally:
        env.close()
    with pytest.raises(SiteUnavailableError, match=r"has no replicas of shopping \(it serves reddit\).*--replicas"):
        LeaseClient(service.url).acquire(["shopping"], writes=False)


def test_replicas_run_on_their_own_ports_and_status_lists_them(docker_client, replicated):
    stack, service = replicated(count=2, standby=1)
    rows = replica_status(docker_client, stack)
    assert [index for index, _ in rows] == [1, 2]
    ports = {row.url for _, row in rows}
    assert ports == {stack.base_url("reddit").rsplit(":", 1)[0] + f":{stack.site('reddit').host_port + 1000 * i}"
                     for i in (1, 2)}
    assert all(row.healthy and row.standby == "1/1 ready" for _, row in rows)


def test_each_replica_is_logged_in_and_the_lease_carries_its_login_state(docker_client, make_stack, tmp_path,
                                                                        monkeypatch):
    from webarena_gym.env import WebArenaEnv

    stack = make_stack(names=("reddit",))
    try:
        replicas_up(docker_client, stack, {"reddit": 2}, progress=False, auth_dir=tmp_path)
        assert sorted(path.name for path in (tmp_path / "reddit-2").iterdir()) == ["reddit_state.json"]
        task = dict(NOTES_TASK, task_id="account", require_login=True, start_url="__REDDIT__/cgi-bin/account",
                    eval={"eval_types": ["url_match"], "reference_url": "__REDDIT__/cgi-bin/account"})
        monkeypatch.setenv("WA_AUTH_DIR", str(tmp_path / "elsewhere"))  # no state on the env's side
        with docker_lease_service(stack, {"reddit": 2}, auth_dir=str(tmp_path)) as service:
            env = WebArenaEnv(suite="webarena-lite", tasks=[task], site_urls=LeaseClient(service.url).sites(),
                              leases=service.url, backend="playwright")
            try:
                observation, info = env.reset(options={"task_id": "account"})
                # the account page shows to logged-in users only: the replica's state came with the lease
                assert "Welcome back, MarvelsGrantMan136" in observation
                assert info["replicas"] == {"reddit": "reddit-1"}
            finally:
                env.close()
    finally:
        replicas_down(docker_client, stack)


def test_cli_runs_replicas_serves_leases_and_status_shows_who_holds_them(docker_client, standin_image, capsys):
    from webarena_gym.docker_sites.cli import main

    common = ["--prefix", f"wagymrcli{os.getpid() % 10000}-", "--image", f"forum={standin_image}",
              "--port", f"forum={free_port()}", "--no-progress"]
    service = None
    try:
        assert main(["up", "reddit", "--replicas", "reddit=2", *common]) == 0
        out = capsys.readouterr().out
        assert "reddit-1: healthy and configured at http://127.0.0.1:" in out and "reddit-2:" in out
        service = subprocess.Popen(
            [sys.executable, "-m", "webarena_gym.docker_sites", "lease-service", "reddit", "--replicas", "reddit=2",
             "--standby", "0", "--listen", f"127.0.0.1:{free_port()}", *common],
            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        export = next(line for line in service.stdout if line.startswith("export WA_LEASES="))
        url = export.strip().split("=", 1)[1]
        lease = LeaseClient(url, holder="trainer-7").acquire(["reddit"], writes=True)
        assert main(["status", "reddit", "--leases", url, *common]) == 0
        table = capsys.readouterr().out.splitlines()
        held = next(line for line in table if line.startswith(lease.replicas["reddit"]))
        assert held.split()[1:3] == ["leased", "trainer-7"]
        free = next(line for line in table if line.startswith("reddit-2"))
        assert free.split()[1] == "free" and "ok" in free.split()
    finally:
        if service is not None:
            service.send_signal(signal.SIGINT)
            service.wait(timeout=300)  # a hang guard: stopping under load can take a while
        assert main(["down", "reddit", "--images", *common]) == 0
    assert "r1-forum" in capsys.readouterr().out


def test_a_process_vector_env_plays_isolated_episodes_and_names_their_replicas(replicated):
    from gymnasium.vector import AutoresetMode

    from webarena_gym.vector_workers import ProcessVectorEnv

    _, service = replicated(count=2, standby=1)
    envs = ProcessVectorEnv(2, workers=2, suite="webarena-lite", tasks=[NOTES_TASK], site_urls=LeaseClient(service.url).sites(),
                            leases=service.url, backend="playwright", max_steps=5, autoreset_mode=AutoresetMode.DISABLED)
    try:
        seen = []
        for _ in range(2):  # the second round leases the recycled replicas
            observations, infos = envs.reset(options={"task_id": "notes-write"})
            assert all("notes stored: 0" in observation for observation in observations)
            assert sorted(infos["replicas"]["reddit"]) == ["reddit-1", "reddit-2"]
            seen.append(list(infos["replicas"]["reddit"]))
            fields = [re.search(r'<input[^>]*id="(\d+)"', observation).group(1) for observation in observations]
            envs.step([f'do(action="Search", element="{field}", argument="mine")' for field in fields])
            _, rewards, terminated, _, infos = envs.step(['exit(message="done")'] * 2)
            assert list(rewards) == [1.0, 1.0] and all(terminated)
            assert list(infos["replicas"]["reddit"]) == seen[-1]
    finally:
        envs.close()
