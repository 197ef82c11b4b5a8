"""OpenEnv: `webarena-gym serve-env` on loopback, driven by OpenEnv's own client and by plain HTTP."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import uuid
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("openenv")

import httpx  # noqa: E402
from openenv import GenericEnvClient  # noqa: E402

from webarena_gym.demos import record_oracle_demonstrations  # noqa: E402
from webarena_gym.suites.embedded import embedded_tasks, family_of  # noqa: E402


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "webarena_gym.cli", "serve-env", "--port", str(port), "--max-sessions", "8",
         "--split", "test", "--max-steps", "30"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180  # readiness, not a speed check: the server imports and binds
        while True:
            assert process.poll() is None, process.stdout.read()
            try:
                if httpx.get(f"{url}/health", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "serve-env did not come up"
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=60)


@pytest.fixture(scope="module")
def eight_demos():
    """Oracle episodes on 8 test tasks of 8 families (three of them change the site's data)."""
    by_family: OrderedDict[str, int] = OrderedDict()
    writes = 0
    for task in embedded_tasks("test"):
        family = family_of(task.task_id, "test").name
        changes = "program_html" in task.eval.eval_types
        if family in by_family or (not changes and len(by_family) - writes >= 5) or (changes and writes >= 3):
            continue
        by_family[family] = task.task_id
        writes += changes
        if len(by_family) == 8:
            break
    demos = list(record_oracle_demonstrations("test", task_ids=list(by_family.values()), progress=False))
    assert len(demos) == 8 and all(d.reward == 1.0 for d in demos)
    return demos


async def play_session(url: str, demo) -> tuple[list[bool], float, bool]:
    """Replay one oracle episode in its own session; whether each page matched the recording, the reward, done."""
    async with GenericEnvClient(base_url=url) as client:
        result = await client.reset(task_id=demo.task_id)
        matches = [result.observation["page"] == demo.turns[0].observation]
        for index, turn in enumerate(demo.turns):
            result = await client.step({"action": turn.action})
            if index + 1 < len(demo.turns):
                matches.append(result.observation["page"] == demo.turns[index + 1].observation)
        return matches, result.reward, result.done


def run_async(main):
    """Run a coroutine function to completion on a thread of its own: the session's sync
    Playwright (the `chromium` fixture) may already run an event loop on the main thread."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, main()).result()


def test_eight_concurrent_sessions_each_in_its_own_world_earn_one(server, eight_demos):
    async def main():
        return await asyncio.gather(*(play_session(server, demo) for demo in eight_demos))

    for matches, reward, done in run_async(main):
        assert all(matches) and reward == 1.0 and done


def test_compressed_context_over_a_session(server, eight_demos):
    demo = next(d for d in eight_demos if len(d.turns) >= 2)

    async def main():
        async with GenericEnvClient(base_url=server) as client:
            first = await client.reset(task_id=demo.task_id, compressed_context=True)
            second = await client.step({"action": demo.turns[0].action})
            return first.observation, second.observation

    first, second = run_async(main)
    assert first["messages"][0]["role"] == "system" and first["messages"][-1]["content"].endswith(first["page"])
    assert "[Observation omitted" in second["messages"][1]["content"]  # the first page, compressed
    assert second["messages"][2] == {"role": "assistant", "content": demo.turns[0].action}
    assert second["messages"][-1]["content"].endswith(second["page"])


def test_plain_http_reset_then_step_keeps_the_episode(server, eight_demos):
    demo = eight_demos[0]
    with httpx.Client(base_url=server, timeout=120) as http:
        started = http.post("/reset", json={"task_id": demo.task_id}).json()
        assert started["observation"]["page"] == demo.turns[0].observation
        episode = started["metadata"]["episode_id"]
        step = http.post("/step", json={"action": {"action": demo.turns[0].action}})  # no id: the one open episode
        assert step.status_code == 200 and step.json()["observation"]["step"] == 1
        other = http.post("/reset", json={"task_id": eight_demos[1].task_id}).json()["metadata"]["episode_id"]
        ambiguous = http.post("/step", json={"action": {"action": 'do(action="Wait")'}})
        assert ambiguous.status_code == 400 and "pass the episode_id" in ambiguous.json()["detail"]
        for turn in demo.turns[1:]:
            result = http.post("/step", json={"action": {"action": turn.action}, "episode_id": episode}).json()
        assert result["reward"] == 1.0 and result["done"]
        assert http.get("/state", params={"episode_id": episode}).json()["reward"] == 1.0
        assert http.get("/state", params={"episode_id": other}).json()["step_count"] == 0
        assert http.get("/state", params={"episode_id": "nope"}).status_code == 404
        bad = http.post("/step", json={"action": {"click": 3}, "episode_id": episode})
        assert bad.status_code == 422


@pytest.mark.parametrize(("request_body", "status", "detail"), [
    ({"task_id": 10**9}, 404, "Unknown task id 1000000000"),
    ({"task_id": "\ud800"}, 404, "Unknown task id '\\ud800'"),
    ({"task_id": [1]}, 404, "Unknown task id [1]"),
    ({"task_id": True}, 404, "Unknown task id True"),
    ({"seed": -1}, 422, "greater than or equal to 0"),
])
def test_a_plain_http_reset_with_a_bad_task_is_a_client_error_and_leaves_no_episode_open(server, request_body, status,
                                                                                         detail):
    episode = f"refused-{uuid.uuid4().hex}"
    with httpx.Client(base_url=server, timeout=120) as http:
        # json.dumps escapes a lone surrogate as JSON allows ("\\ud800"); httpx's json= cannot encode one
        failed = http.post("/reset", content=json.dumps({**request_body, "episode_id": episode}),
                           headers={"content-type": "application/json"})
        assert failed.status_code == status and detail in str(failed.json()["detail"])
        assert http.get("/state", params={"episode_id": episode}).status_code == 404
        assert http.post("/reset", json={"episode_id": episode}).status_code == 200  # the id is free again
        wrong_id = http.post("/step", json={"action": {"action": 'do(action="Wait")'}, "episode_id": [episode]})
        assert wrong_id.status_code == 400 and "episode_id must be the string" in wrong_id.json()["detail"]
