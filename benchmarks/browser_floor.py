"""Steps at the browser's floor and the CPU's: the Playwright backend beside raw Playwright, and
the direct backend with and without the observation cache.

Playwright part, all on the same steps (the oracle's trajectories on embedded test tasks,
recorded once on the direct backend), interleaved trajectory by trajectory so that a busy
machine slows every configuration alike:

- ours: ``env.step`` on the Playwright backend (the final ``exit`` step, an evaluation, is not timed), with the per-phase split of a step (the
  action and its settling, the page snapshot in the browser, simplifying, the env's own work)
  and the reset time; the navigation check runs beside the action (its question leaves first and
  its answer is read after), so its time is shown apart and is not a part of the step's sum;
- raw Playwright, forced clicks (the floor): the same action on the same element (found by
  its position in document order) with ``force=True``, ``wait_for_load_state("load")`` and
  the page's ``outerHTML``; nothing else;
- raw Playwright with Playwright's actionability waits (``force=False``).

The ratio that matters is ours / raw forced-click floor in steps/s (median step times).

Direct part: steps/s replaying the trajectories with the observation cache off and on, with 1
and 4 rollouts per task (GRPO's groups replay a task's pages), and the cache's hit rate; also
per CPU second of this process (the sites run in it), which a busy machine does not skew.

Wall-clock numbers need a quiet machine: on a shared one, run it twice and compare the
ratios (both sides of each ratio are measured interleaved), not the absolute numbers.

Run: ``.venv/bin/python benchmarks/browser_floor.py [--tasks 22] [--rounds 1] [--skip-browser]``
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
from collections import defaultdict
from typing import Any

from env_throughput import record_trajectories
from tqdm import tqdm

from webarena_gym.actions import ActionName, parse_action
from webarena_gym.env import WebArenaEnv
from webarena_gym.observation import configure_observation_cache, observation_cache
from webarena_gym.observation.cache import DEFAULT_CACHE_MB

PHASES = ("perform+settle", "snapshot (browser)", "simplify", "env + hops")
#: Timed, but in flight beside "perform+settle" rather than a part of the step of its own.
OVERLAPPED = ("navigation check (beside the action)",)


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1e3 if values else float("nan")


# -- ours, with the phases timed ---------------------------------------------------------------

class PhaseTimer:
    """Wraps the backend's methods to time each phase of a step (adds well under a millisecond)."""

    def __init__(self, backend: Any):
        self.backend = backend
        self.current: dict[str, float] = defaultdict(float)
        execute, observe = backend.execute, backend.observe
        snapshot, will_navigate = backend._snapshot, backend._will_navigate

        def timed_execute(*args: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return execute(*args)
            finally:
                self.current["execute"] += time.perf_counter() - t0

        def timed_observe() -> Any:
            t0 = time.perf_counter()
            try:
                return observe()
            finally:
                self.current["observe"] += time.perf_counter() - t0

        async def timed_snapshot() -> str:
            t0 = time.perf_counter()
            try:
                return await snapshot()
            finally:
                self.current["snapshot"] += time.perf_counter() - t0

        async def timed_will_navigate(*args: Any) -> bool:
            t0 = time.perf_counter()
            try:
                return await will_navigate(*args)
            finally:
                self.current["will_navigate"] += time.perf_counter() - t0

        backend.execute, backend.observe = timed_execute, timed_observe
        backend._snapshot, backend._will_navigate = timed_snapshot, timed_will_navigate

    def split(self, step_seconds: float) -> dict[str, float]:
        c, self.current = self.current, defaultdict(float)
        return {
            "perform+settle": c["execute"],
            "navigation check (beside the action)": c["will_navigate"],
            "snapshot (browser)": c["snapshot"],
            "simplify": c["observe"] - c["snapshot"],
            "env + hops": step_seconds - c["execute"] - c["observe"],
        }


def run_ours(env: WebArenaEnv, timer: PhaseTimer, task_id: int, actions: list[str], out: dict) -> list[tuple]:
    """Step the trajectory on our env; returns each step's (action, element index, argument) for the raw replays."""
    t0 = time.perf_counter()
    env.reset(options={"task_id": task_id})
    out["reset"].append(time.perf_counter() - t0)
    timer.split(0.0)
    steps = []
    for text in actions:
        action = parse_action(text)
        element = env.page.element(action.element) if action.element is not None and env.page else None
        t0 = time.perf_counter()
        env.step(text)
        seconds = time.perf_counter() - t0
        if action.name is ActionName.EXIT:  # the evaluation, not browsing: neither side times it
            timer.split(0.0)
            continue
        steps.append((action.name, int(element.key) if element is not None else None, action.argument, element))
        out["step"].append(seconds)
        for phase, value in timer.split(seconds).items():
            out[phase].append(value)
    return steps


# -- raw Playwright ------------------------------------------------------------------------------

async def raw_trajectory(browser: Any, state: dict, start_url: str, steps: list[tuple], force: bool, out: dict) -> None:
    t0 = time.perf_counter()
    context = await browser.new_context(storage_state=state)
    page = await context.new_page()
    await page.goto(start_url, wait_until="load")
    await page.evaluate("document.documentElement.outerHTML")
    out["reset"].append(time.perf_counter() - t0)
    try:
        for name, index, argument, element in steps:
            t0 = time.perf_counter()
            await raw_action(page, name, index, argument, element, force)
            await page.wait_for_load_state("load")
            t1 = time.perf_counter()
            await page.evaluate("document.documentElement.outerHTML")
            out["step"].append(time.perf_counter() - t0)
            out["outerHTML"].append(time.perf_counter() - t1)
    finally:
        await context.close()


async def raw_action(page: Any, name: ActionName, index: int | None, argument: str | None, element: Any,
                     force: bool) -> None:
    if name is ActionName.WAIT:
        await page.wait_for_timeout(1000)
    elif name is ActionName.GO_BACKWARD:
        await page.go_back(wait_until="load")
    elif name is ActionName.GO_FORWARD:
        await page.go_forward(wait_until="load")
    elif name is ActionName.PRESS_ENTER:
        await page.keyboard.press("Enter")
    elif name in (ActionName.SCROLL_DOWN, ActionName.SCROLL_UP):
        await page.mouse.wheel(0, 600 if name is ActionName.SCROLL_DOWN else -600)
    else:
        locator = page.locator(f"xpath=(//*)[{index + 1}]")  # document order, as the snapshot numbers elements
        if element is not None and element.tag == "tr":
            locator = locator.locator(":scope > td, :scope > th").first
        if name is ActionName.CLICK:
            await locator.click(force=force)
        elif name is ActionName.HOVER:
            await locator.hover(force=force)
        elif name in (ActionName.TYPE, ActionName.SEARCH):
            await locator.fill(argument or "")
            if name is ActionName.SEARCH:
                await locator.press("Enter")
        elif name is ActionName.SELECT_DROPDOWN_OPTION:
            await locator.select_option(label=argument or "", force=force)


def raw_runs(env: WebArenaEnv, state: dict, start_url: str, steps: list[tuple], results: dict) -> None:
    """Raw Playwright with forced clicks, then with its waits, on one trajectory's steps, each from a pristine world."""
    for name, force in (("raw forced", True), ("raw", False)):
        env.world.reset()  # the pristine world the env's episode started from
        env.backend._run(raw_trajectory(env.backend._browser.browser, state, start_url, steps, force, results[name]))


def browser_part(trajectories: list, rounds: int = 1) -> dict[str, dict[str, list[float]]]:
    """Each configuration on every trajectory, ``rounds`` times, pooled; odd rounds run raw Playwright
    first, so neither side always meets a page (or the machine) right after the other."""
    env = WebArenaEnv(suite="embedded", backend="playwright", max_steps=30)
    backend = env.backend
    env.reset(options={"task_id": trajectories[0][0]})  # warm-up: the browser and the site server start
    timer = PhaseTimer(backend)
    results: dict[str, dict[str, list[float]]] = {name: defaultdict(list) for name in ("ours", "raw forced", "raw")}
    steps_of: dict[int, list[tuple]] = {}
    for round_index in tqdm(range(rounds), desc="rounds", disable=rounds == 1):
        configure_observation_cache(DEFAULT_CACHE_MB << 20)  # every round starts with an empty cache
        for task_id, actions, _ in trajectories:
            task = env.tasks_by_id[task_id]
            state = backend.browsed_sites.storage_state(tuple(task.sites) if task.require_login else (), None)

            if round_index % 2 and task_id in steps_of:
                raw_runs(env, state, task.start_url, steps_of[task_id], results)
                run_ours(env, timer, task_id, actions, results["ours"])
            else:
                steps_of[task_id] = run_ours(env, timer, task_id, actions, results["ours"])
                raw_runs(env, state, task.start_url, steps_of[task_id], results)
    env.close()
    return results


def print_browser_part(results: dict) -> dict[str, float]:
    ours, forced, raw = results["ours"], results["raw forced"], results["raw"]
    print(f"\nPlaywright backend beside raw Playwright ({len(ours['step'])} steps per configuration, medians)")
    print(f"{'configuration':<28}{'ms/step':>10}{'steps/s':>10}{'reset ms':>10}")
    for label, data in (("raw, forced clicks (floor)", forced), ("raw, actionability waits", raw), ("ours", ours)):
        ms = median_ms(data["step"])
        print(f"{label:<28}{ms:>10.1f}{1e3 / ms:>10.1f}{median_ms(data['reset']):>10.1f}")
    print(f"raw forced clicks' outerHTML read: {median_ms(forced['outerHTML']):.2f} ms (median), beside our snapshot below")
    print("\nours, per phase (median of each phase; mean share of the step)")
    total = sum(ours["step"])
    for phase in PHASES + OVERLAPPED:
        print(f"  {phase:<38}{median_ms(ours[phase]):>8.2f} ms{100 * sum(ours[phase]) / total:>8.1f} %")
    stats = observation_cache().stats()
    print(f"  observation cache: {stats['hits']} hits, {stats['misses']} misses")
    return {
        "ours / raw forced-click floor (steps/s)": median_ms(forced["step"]) / median_ms(ours["step"]),
        "ours / raw Playwright (steps/s)": median_ms(raw["step"]) / median_ms(ours["step"]),
        "ours / raw forced-click reset time": median_ms(ours["reset"]) / median_ms(forced["reset"]),
    }


# -- direct backend ------------------------------------------------------------------------------

def direct_part(trajectories: list, repeats: int = 3) -> dict[tuple[int, bool], tuple[float, float, float]]:
    """(rollouts per task, cache on) -> (steps/s, steps per CPU second, hit rate), best of ``repeats`` runs.

    The site runs in this process, so CPU seconds count all of a step's work, and read the
    same on a machine that other jobs keep busy (wall-clock steps/s do not).
    """
    found = {}
    env = WebArenaEnv(suite="embedded", backend="direct", max_steps=30)
    env.reset(options={"task_id": trajectories[0][0]})
    for rollouts in (1, 4):
        for cached in (False, True):
            best, best_cpu, rate = 0.0, 0.0, 0.0
            for _ in range(repeats):
                cache = configure_observation_cache((DEFAULT_CACHE_MB << 20) if cached else 0)
                steps, stepping, cpu = 0, 0.0, 0.0
                for task_id, actions, _ in trajectories:
                    for _ in range(rollouts):
                        env.reset(options={"task_id": task_id})
                        t0, c0 = time.perf_counter(), time.process_time()
                        for action in actions:
                            env.step(action)
                        stepping += time.perf_counter() - t0
                        cpu += time.process_time() - c0
                        steps += len(actions)
                stats = cache.stats()
                best, best_cpu = max(best, steps / stepping), max(best_cpu, steps / cpu)
                rate = stats["hits"] / max(1, stats["hits"] + stats["misses"])
            found[(rollouts, cached)] = (best, best_cpu, rate)
    env.close()
    configure_observation_cache(DEFAULT_CACHE_MB << 20)
    return found


def print_direct_part(found: dict) -> dict[str, float]:
    print("\nDirect backend (best of 3; steps per wall second and per CPU second; the hit rate counts resets' pages)")
    print(f"{'rollouts per task':<20}{'no cache':>10}{'cache':>10}{'speed-up':>10}"
          f"{'CPU: no cache':>15}{'cache':>8}{'speed-up':>10}{'hit rate':>10}")
    ratios = {}
    for rollouts in (1, 4):
        off, off_cpu, _ = found[(rollouts, False)]
        on, on_cpu, rate = found[(rollouts, True)]
        print(f"{rollouts:<20}{off:>10.0f}{on:>10.0f}{on / off:>9.2f}x{off_cpu:>15.0f}{on_cpu:>8.0f}"
              f"{on_cpu / off_cpu:>9.2f}x{100 * rate:>9.0f}%")
        ratios[f"direct, cache / no cache, {rollouts} rollout(s) per task (steps/s)"] = on / off
        ratios[f"direct, cache / no cache, {rollouts} rollout(s) per task (steps per CPU s)"] = on_cpu / off_cpu
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=22, help="trajectories (one task per family first)")
    parser.add_argument("--skip-browser", action="store_true", help="only the direct backend")
    parser.add_argument("--rounds", type=int, default=1, help="passes over the trajectories in the browser part, "
                                                                "pooled (a shared machine's drift evens out)")
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # the site server's access log
    trajectories = record_trajectories(args.tasks)
    print(f"{len(trajectories)} oracle trajectories, {sum(len(t[1]) for t in trajectories)} steps")
    ratios = {}
    if not args.skip_browser:
        ratios.update(print_browser_part(browser_part(trajectories, args.rounds)))
    ratios.update(print_direct_part(direct_part(trajectories)))
    print("\nHeadline ratios")
    for name, value in ratios.items():
        print(f"  {name:<66}{value:>6.3f}")


if __name__ == "__main__":
    main()
