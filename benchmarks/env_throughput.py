"""Env throughput: steps/s and reset latency per backend, beside a raw Playwright loop.

All rows replay the same scripted trajectories (the oracle's actions on embedded test
tasks, recorded once on the direct backend):

- direct and playwright backends at n=1 (one env) and n=8 (a vector env of 8); steps/s
  counts stepping time only, resets are reported apart,
- raw Playwright (the physical limit): for every step of the same trajectories, a
  ``goto`` of the page the env reached plus ``outerHTML`` in one page, no simplifying,
  no parsing, no evaluation,
- context size of a 15-step trajectory with and without history compression.

Run: ``.venv/bin/python benchmarks/env_throughput.py [--tasks 12]``
"""

from __future__ import annotations

import argparse
import statistics
import time

from webarena_gym.env import WebArenaEnv
from webarena_gym.oracle_runner import play
from webarena_gym.suites.embedded import embedded_tasks, family_of


def record_trajectories(count: int) -> list[tuple[int, list[str], list[str]]]:
    """(task id, actions, urls visited after each action) of the oracle on ``count`` test tasks, one per family first."""
    env = WebArenaEnv(suite="embedded", backend="direct", max_steps=30)
    seen, picked = set(), []
    for task in embedded_tasks("test"):
        name = family_of(task.task_id, "test").name
        if name not in seen and len(picked) < count:
            seen.add(name)
            picked.append(task)
    trajectories = []
    for task in picked:
        episode = play(env, task.task_id, family_of(task.task_id, "test").solve, env.tasks_by_id[task.task_id].to_dict())
        urls = episode.urls[1:] + [episode.info["url"]]
        trajectories.append((task.task_id, episode.actions, urls))
    env.close()
    return trajectories


def replay(backend: str, num_envs: int, trajectories) -> tuple[float, float]:
    """(steps per second, median reset seconds) replaying the trajectories on ``num_envs`` envs."""
    import webarena_gym

    if num_envs == 1:
        env = WebArenaEnv(suite="embedded", backend=backend, max_steps=30)
        env.reset(options={"task_id": trajectories[0][0]})  # warm-up: browser start, caches
        resets, steps, stepping = [], 0, 0.0
        for task_id, actions, _ in trajectories:
            t0 = time.perf_counter()
            env.reset(options={"task_id": task_id})
            resets.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            for action in actions:
                env.step(action)
                steps += 1
            stepping += time.perf_counter() - t0
        env.close()
        return steps / stepping, statistics.median(resets)
    envs = webarena_gym.make_vec(num_envs, workers=0, suite="embedded", backend=backend, max_steps=30)
    batches = [trajectories[(i * num_envs + k) % len(trajectories)] for i in range(len(trajectories)) for k in range(num_envs)]
    envs.reset(options={"task_ids": [t[0] for t in batches[:num_envs]]})
    resets, steps, stepping = [], 0, 0.0
    for start in range(0, len(batches), num_envs):
        group = batches[start : start + num_envs]
        if len(group) < num_envs:
            break
        t0 = time.perf_counter()
        envs.reset(options={"task_ids": [t[0] for t in group]})
        resets.append((time.perf_counter() - t0) / num_envs)
        t0 = time.perf_counter()
        # up to the shortest trajectory: envs that already exited would autoreset
        for step in range(min(len(t[1]) for t in group)):
            envs.step([t[1][step] for t in group])
            steps += num_envs
        stepping += time.perf_counter() - t0
    envs.close()
    return steps / stepping, statistics.median(resets)


def raw_playwright(trajectories) -> float:
    """Steps per second of goto + outerHTML over the same pages (one browser, one page)."""
    from playwright.sync_api import sync_playwright

    from webarena_gym.backends.chromium import launch_chromium
    from webarena_gym.sites.server import SiteServer
    from webarena_gym.sites.webapp import WORLD_COOKIE, login_cookie
    from webarena_gym.sites.world import World

    direct_urls = WebArenaEnv(suite="embedded", backend="direct").backend.sites.urls
    with SiteServer(ephemeral=True) as server, sync_playwright() as p:
        world = World()
        server.pool.add(world)
        browser = launch_chromium(p)
        context = browser.new_context()
        cookies = [{"name": WORLD_COOKIE, "value": world.token, "domain": "127.0.0.1", "path": "/"}]
        for site, user in (("shopping", "emma.lopez@hotmail.com"), ("shopping_admin", "admin"),
                           ("reddit", "MarvelsGrantMan136"), ("gitlab", "byteblaze")):
            name, value = login_cookie(site, user)
            cookies.append({"name": name, "value": value, "domain": "127.0.0.1", "path": "/"})
        context.add_cookies(cookies)
        page = context.new_page()

        def served(url: str) -> str:
            for site, base in direct_urls.items():
                if url.startswith(base):
                    return server.base_urls[site] + url[len(base):]
            return url

        pages = [served(u) for _, _, urls in trajectories for u in urls]
        page.goto(pages[0])
        started = time.perf_counter()
        for url in pages:
            page.goto(url, wait_until="load")
            page.evaluate("() => document.documentElement.outerHTML")
        elapsed = time.perf_counter() - started
        browser.close()
    return len(pages) / elapsed


def context_sizes(trajectories) -> tuple[float, float, str]:
    """Mean context size of 15-step trajectories with and without compression (tokens, or chars / 4)."""
    import gymnasium as gym

    from webarena_gym.wrappers import CompressedHistory

    count = _token_counter()
    sizes = {True: [], False: []}
    for compressed in (True, False):
        env = CompressedHistory(gym.make("WebArenaLite-v0", suite="embedded", max_steps=15), keep_last=0 if compressed else 15)
        for task_id, actions, _ in trajectories:
            prompt, _ = env.reset(options={"task_id": task_id})
            padded = [a for a in actions if not a.startswith("exit")]
            padded = (padded + ['do(action="Scroll Down")', 'do(action="Scroll Up")'] * 15)[:14]
            for action in padded:
                prompt, *_ = env.step(action)
            sizes[compressed].append(count[0](prompt))
        env.close()
    return statistics.mean(sizes[True]), statistics.mean(sizes[False]), count[1]


def _token_counter():
    try:
        from trainers.tiny_model import build_tokenizer

        tokenizer = build_tokenizer()
        return (lambda text: len(tokenizer(text)["input_ids"])), "tokens (tiny BPE tokenizer)"
    except Exception:  # trainers not installed: a common rule of thumb
        return (lambda text: len(text) / 4), "tokens (chars / 4)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=12, help="trajectories to replay (one per task family)")
    args = parser.parse_args()
    trajectories = record_trajectories(args.tasks)
    total_steps = sum(len(t[1]) for t in trajectories)
    print(f"{len(trajectories)} oracle trajectories, {total_steps} steps\n")
    raw = raw_playwright(trajectories)
    rows = {}
    for backend in ("playwright", "direct"):
        for n in (1, 8):
            rows[(backend, n)] = replay(backend, n, trajectories)
    print(f"{'row':<28}{'steps/s':>10}{'reset (ms)':>12}{'vs raw limit':>14}{'vs playwright n=1':>20}")
    print(f"{'raw playwright goto+HTML':<28}{raw:>10.1f}{'':>12}{1.0:>13.2f}x")
    base = rows[("playwright", 1)][0]
    for (backend, n), (rate, reset) in rows.items():
        print(f"{f'{backend} n={n}':<28}{rate:>10.1f}{reset * 1e3:>12.1f}{rate / raw:>13.2f}x{rate / base:>19.1f}x")
    compressed, full, unit = context_sizes(trajectories)
    print(f"\ncontext after 15 steps, {unit}: compressed {compressed:,.0f}, full history {full:,.0f} "
          f"-> {full / compressed:.1f}x fewer with compression")
    print("(BrowserGym comparison row: install browsergym-core to add it; not installed here)")


if __name__ == "__main__":
    main()
