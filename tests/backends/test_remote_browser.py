"""A browser running elsewhere: Playwright's own browser server on loopback, reached by endpoint or WA_BROWSER_WS.

The server is Playwright's ``launchServer``, started the way a user starts it on the
browser machine: ``python -m playwright launch-server --browser chromium --config server.json``
(the Python package's bundled Node driver; Python's API has no ``launch_server``).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time

import pytest

import webarena_gym
from webarena_gym.backends.chromium import CHROMIUM_ARGS, find_chromium
from webarena_gym.env import WebArenaEnv
from webarena_gym.errors import BrowserUnavailableError, ConfigurationError
from webarena_gym.suites.embedded import embedded_tasks

from .processes import chromium_descendants, live_group_members

pytestmark = pytest.mark.browser


def chromium_children(root: int) -> int:
    return len(chromium_descendants(root))


def start_browser_server(directory) -> tuple[subprocess.Popen, str]:
    """A Playwright browser server on loopback, as a user starts one, and its ws endpoint."""
    config = {"host": "127.0.0.1", "port": 0, "headless": True, "args": list(CHROMIUM_ARGS)}
    executable = find_chromium()
    if executable:
        config["executablePath"] = executable
    path = directory / "server.json"
    path.write_text(json.dumps(config))
    # Its own process group: the Python wrapper runs the Node driver as a child, which a signal
    # to the wrapper alone would leave running (with its Chromium) after the tests.
    server = subprocess.Popen([sys.executable, "-m", "playwright", "launch-server", "--browser", "chromium",
                               "--config", str(path)], stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        ready, _, _ = select.select([server.stdout], [], [], 120)  # a bound on a broken server, not a speed requirement
        assert ready, "the Playwright browser server printed no endpoint"
        endpoint = server.stdout.readline().strip()
        assert endpoint.startswith("ws://127.0.0.1:"), endpoint
    except BaseException:
        stop_process_group(server)
        raise
    return server, endpoint


def stop_process_group(server: subprocess.Popen) -> None:
    """SIGTERM to the server's whole group (wrapper, Node driver, Chromium); SIGKILL what is left after 30 s."""
    os.killpg(server.pid, signal.SIGTERM)
    deadline = time.monotonic() + 30  # a bound on a stuck process, not a speed requirement
    # The wrapper counts as live until it exits (a zombie is not), so one wait covers the whole group.
    while live_group_members(server.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    if live_group_members(server.pid):
        with contextlib.suppress(ProcessLookupError):  # the last one may exit in between
            os.killpg(server.pid, signal.SIGKILL)
    server.wait(timeout=30)
    server.stdout.close()


@pytest.fixture(scope="module")
def browser_server(tmp_path_factory):
    """(process, ws endpoint) of a Playwright browser server on loopback."""
    server, endpoint = start_browser_server(tmp_path_factory.mktemp("server"))
    try:
        yield server, endpoint
    finally:
        stop_process_group(server)


def test_stopping_the_server_leaves_none_of_its_processes(tmp_path):
    server, _endpoint = start_browser_server(tmp_path)
    assert chromium_children(server.pid) > 0
    node = [pid for pid in live_group_members(server.pid) if pid != server.pid]
    assert node, "the wrapper runs the Node driver as a child in its group"
    stop_process_group(server)
    assert live_group_members(server.pid) == []


def reddit_task() -> int:
    return next(t.task_id for t in embedded_tasks("test") if list(t.sites) == ["reddit"])


def test_an_env_browses_in_the_remote_browser(browser_server):
    server, endpoint = browser_server
    env = WebArenaEnv(suite="embedded", backend="playwright", browser_endpoint=endpoint, max_steps=3)
    try:
        observation, info = env.reset(options={"task_id": reddit_task()})
        assert "<title>" in observation and info["url"].startswith("http://127.0.0.1:")
        observation, _, _, _, info = env.step('do(action="Wait")')
        assert not info["last_action_error"]
        # Counting this process's Chromium would race with browsers earlier tests left running;
        # the env's browser loop is the one connected to the server, and the pages live there.
        assert env.backend._browser.endpoint == endpoint
        assert chromium_children(server.pid) > 0
    finally:
        env.close()


def test_worker_processes_reach_the_remote_browser_through_the_variable(browser_server, monkeypatch):
    _server, endpoint = browser_server
    monkeypatch.setenv("WA_BROWSER_WS", endpoint)
    envs = webarena_gym.make_vec(2, workers=2, suite="embedded", backend="playwright", max_steps=3)
    try:
        observations, infos = envs.reset(options={"task_id": reddit_task()})
        assert all("<title>" in o for o in observations)
        _, _, _, _, infos = envs.step(['do(action="Wait")'] * 2)
        assert not any(infos["last_action_error"])
        assert all(chromium_children(pid) == 0 for pid in envs.worker_pids)  # no worker launched its own Chromium
    finally:
        envs.close()


def test_a_bad_or_unreachable_endpoint_is_a_clear_error():
    with pytest.raises(ConfigurationError, match="ws:// URL"):
        WebArenaEnv(suite="embedded", backend="playwright", browser_endpoint="127.0.0.1:3000")
    with pytest.raises(ConfigurationError, match="needs backend='playwright'"):
        WebArenaEnv(suite="embedded", backend="direct", browser_endpoint="ws://127.0.0.1:9/")
    with pytest.raises(BrowserUnavailableError, match="ws://127.0.0.1:9/"):
        WebArenaEnv(suite="embedded", backend="playwright", browser_endpoint="ws://127.0.0.1:9/")
