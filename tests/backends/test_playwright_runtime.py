"""The Playwright backend's runtime: one browser for many envs, crash recovery, clean shutdown."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import gymnasium as gym
import pytest

import webarena_gym
from webarena_gym.backends.playwright import PlaywrightBackend
from webarena_gym.env import WebArenaEnv
from webarena_gym.sites.world import World
from webarena_gym.suites.embedded import embedded_tasks

pytestmark = pytest.mark.browser


def reddit_task_id() -> int:
    return next(t.task_id for t in embedded_tasks("test") if list(t.sites) == ["reddit"])


def test_vector_env_shares_one_browser_and_isolates_contexts():
    envs = webarena_gym.make_vec(3, group=True, suite="embedded", backend="playwright", max_steps=5)
    try:
        _, infos = envs.reset(options={"task_id": reddit_task_id()})
        backends = [env.unwrapped.backend for env in envs.envs]
        assert len({id(b._browser.browser) for b in backends}) == 1
        assert len({id(b._context) for b in backends}) == 3
        assert len({b.world.token for b in backends}) == 3
    finally:
        envs.close()


def test_a_crashed_page_ends_its_episode_and_is_recreated():
    envs = webarena_gym.make_vec(2, suite="embedded", backend="playwright", max_steps=5)
    try:
        envs.reset(options={"task_id": reddit_task_id()})
        broken = envs.envs[0].unwrapped.backend
        broken._browser.run(broken._page.close())
        _, _, terminated, truncated, infos = envs.step(['do(action="Wait")', 'do(action="Wait")'])
        assert truncated.tolist() == [True, False] and not terminated.any()
        assert infos["episode_end_reason"][0].startswith("crash:")
        observations, rewards, _, truncated, infos = envs.step(['do(action="Wait")', 'do(action="Wait")'])
        assert "<title>" in observations[0] and infos["step"][0] == 0  # a fresh session on the next episode
    finally:
        envs.close()


#: The step budget of the timeout tests, set after reset so that opening the start page is
#: never what runs out of time; the slow things below never finish, so any budget works.
STEP_BUDGET_S = 10


async def _never_answer(route) -> None:
    await asyncio.Event().wait()  # a request the server never answers


async def _forums_page_that_never_loads(route) -> None:
    await route.fulfill(content_type="text/html",
                        body='<title>Forums</title><h1>Forums</h1><img src="/never-loads.png" alt="banner">')


def test_an_action_that_outlasts_the_step_timeout_is_an_agent_error():
    env = gym.make("WebArenaLiteEmbedded-v0", backend="playwright", max_steps=5)
    try:
        observation, _ = env.reset(options={"task_id": reddit_task_id()})
        forums = re.search(r'<a id="(\d+)">Forums</a>', observation).group(1)
        backend = env.unwrapped.backend
        # The link to /forums leads to a page whose image never arrives, so its load event
        # never fires: the click waits for it far longer than the step budget.
        backend._browser.run(backend._context.route("**/never-loads.png", _never_answer))
        backend._browser.run(backend._context.route("**/forums", _forums_page_that_never_loads))
        backend.step_timeout = STEP_BUDGET_S
        observation, _, terminated, truncated, info = env.step(f'do(action="Click", element="{forums}")')
        assert info["last_action_error"] == f"The page did not respond within {STEP_BUDGET_S} s."
        assert not (terminated or truncated) and "<h1>Forums</h1>" in observation  # the page is still readable
        observation, _, terminated, truncated, info = env.step('do(action="Go Backward")')  # the episode goes on
        assert info["last_action_error"] == "" and "<title>Hot posts - Postmill</title>" in observation
        assert info["step"] == 2 and not (terminated or truncated)
    finally:
        env.close()


def test_a_hung_page_ends_its_episode_and_never_hangs_the_vector_env():
    envs = webarena_gym.make_vec(2, suite="embedded", backend="playwright", max_steps=5)
    try:
        envs.reset(options={"task_id": reddit_task_id()})
        for env in envs.envs:
            env.unwrapped.backend.step_timeout = STEP_BUDGET_S
        hung = envs.envs[0].unwrapped.backend
        hung._browser.run(hung._page.evaluate("setTimeout(() => { while (true) {} }, 0)"))  # a script gone wild
        _, _, terminated, truncated, infos = envs.step(['do(action="Scroll Down")'] * 2)
        assert truncated.tolist() == [True, False] and not terminated.any()
        assert infos["episode_end_reason"][0].startswith("crash: The page stopped responding")
        observations, _, _, _, infos = envs.step(['do(action="Scroll Down")'] * 2)
        assert "<title>" in observations[0] and infos["step"][0] == 0  # a fresh context on the next episode
    finally:
        envs.close()


SCRIPT = textwrap.dedent(
    """
    import os, webarena_gym
    from webarena_gym.backends.playwright import BrowserLoop
    from webarena_gym.suites.embedded import embedded_tasks
    from tests.backends.processes import chromium_descendants

    task = next(t.task_id for t in embedded_tasks("test") if list(t.sites) == ["reddit"])
    envs = webarena_gym.make_vec(4, suite="embedded", backend="playwright", max_steps=3)
    envs.reset(options={"task_id": task})
    envs.step(['do(action="Wait")'] * 4)
    running = len(chromium_descendants(os.getpid()))
    envs.close()
    BrowserLoop.shutdown()
    print(running, len(chromium_descendants(os.getpid())))
    """
)


def test_clean_shutdown_leaves_no_chromium_processes():
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300, cwd=root)
    assert result.returncode == 0, result.stderr[-2000:]
    running, left = map(int, result.stdout.split()[-2:])
    assert running >= 2 and left == 0


@pytest.mark.parametrize("caller", ["plain", "in a running event loop"])
def test_closing_the_browser_loop_ends_every_task_left_on_it(caller):
    """A task still pending when the loop stops is destroyed later with an asyncio error in the log
    (a Playwright route handler waiting for its request, in CI): close cancels and awaits them, also
    when called from a thread that runs an event loop of its own (a Jupyter cell's ``env.close()``)."""
    from webarena_gym.backends.browser_loop import BrowserLoop

    browser_loop = BrowserLoop()
    try:
        async def leave_a_task_behind() -> None:
            asyncio.get_running_loop().create_task(asyncio.sleep(3600), name="left-behind")

        browser_loop.run(leave_a_task_behind(), timeout=30)
        assert "left-behind" in {t.get_name() for t in asyncio.all_tasks(browser_loop.loop)}
    finally:
        if caller == "plain":
            browser_loop.close()
        else:
            async def close_from_a_running_loop() -> None:
                browser_loop.close()

            # On a fresh thread: the test's own may already run a loop (an xdist worker's does).
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                pool.submit(asyncio.run, close_from_a_running_loop()).result()
    assert not browser_loop.thread.is_alive()
    assert not asyncio.all_tasks(browser_loop.loop)


def test_a_route_stalled_by_a_closed_context_is_not_reported_as_an_error_but_other_lost_tasks_are(caplog):
    """Playwright never ends the route dispatch of a request whose context closed while it was
    routed; collected later, asyncio logged it at ERROR in the middle of an unrelated test (CI)."""
    import gc

    from webarena_gym.backends.browser_loop import BrowserLoop

    from .real_markup_site import served

    async def close_a_context_while_a_request_is_routed(url: str) -> None:
        context = await browser_loop.browser.new_context()
        routed = asyncio.Event()
        await context.route("**/*", lambda route: routed.set())  # never continued: held in the route
        page = await context.new_page()
        navigation = asyncio.ensure_future(page.goto(url))
        await routed.wait()
        await context.unroute_all(behavior="ignoreErrors")
        await context.close()
        navigation.cancel()

    async def lose_a_task() -> None:
        async def wait_forever() -> None:
            await asyncio.get_running_loop().create_future()

        asyncio.get_running_loop().create_task(wait_forever(), name="lost")

    browser_loop = BrowserLoop()
    try:
        with served() as url, caplog.at_level("DEBUG", logger="webarena_gym.backends.browser_loop"):
            browser_loop.run(close_a_context_while_a_request_is_routed(url), timeout=60)
            browser_loop.run(lose_a_task(), timeout=30)
            gc.collect()
    finally:
        browser_loop.close()
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and "Task was destroyed" in errors[0] and "name='lost'" in errors[0]
    assert any("stalled Playwright route" in r.getMessage() and "_on_route" in r.getMessage()
               for r in caplog.records if r.name == "webarena_gym.backends.browser_loop")


def test_the_network_trace_is_recorded_where_an_evaluator_reads_it_and_not_elsewhere():
    """Only WebArena-Verified scores from the trace (tests/verified checks its episodes' HAR files);
    an embedded episode reads nothing back from the browser, while the backend on its own still records."""
    env = WebArenaEnv(suite="embedded", backend="playwright", max_steps=3)
    try:
        env.reset(options={"task_id": reddit_task_id()})
        env.step('do(action="Scroll Down")')
        assert env.backend.record_network is False and env.backend.settle_network_trace() == []
    finally:
        env.close()
    backend = PlaywrightBackend(world=World())
    try:
        start = env.tasks_by_id[reddit_task_id()].start_url
        backend.start(start, allowed_sites=("reddit",))
        assert [entry["request"]["url"].rstrip("/") for entry in backend.settle_network_trace()][:1] == [start.rstrip("/")]
    finally:
        backend.close()
