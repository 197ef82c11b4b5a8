"""The same trajectory gives identical observations and rewards on the direct and Playwright backends."""

from __future__ import annotations

import pytest

from webarena_gym.env import WebArenaEnv
from webarena_gym.oracle_runner import play
from webarena_gym.suites.embedded import embedded_tasks, family_of

pytestmark = pytest.mark.browser


def one_task_per_family(split: str = "test"):
    seen, picked = set(), []
    for task in embedded_tasks(split):
        family = family_of(task.task_id, split)
        if family.name not in seen:
            seen.add(family.name)
            picked.append(task.task_id)
    return picked


def placeholders(text: str, env: WebArenaEnv) -> str:
    for site, base in sorted(env.backend.sites.urls.items(), key=lambda kv: -len(kv[1])):
        text = text.replace(base, f"__{site.upper()}__")
    return text


@pytest.fixture(scope="module")
def envs():
    direct = WebArenaEnv(suite="embedded", backend="direct", max_steps=30)
    browser = WebArenaEnv(suite="embedded", backend="playwright", max_steps=30)
    yield direct, browser
    direct.close()
    browser.close()


@pytest.mark.parametrize("task_id", one_task_per_family())
def test_oracle_trajectory_is_identical_on_both_backends(envs, task_id):
    direct, browser = envs
    solve = family_of(task_id, "test").solve
    on_direct = play(direct, task_id, solve, direct.tasks_by_id[task_id].to_dict())
    on_browser = play(browser, task_id, solve, browser.tasks_by_id[task_id].to_dict())
    assert [placeholders(a, direct) for a in on_direct.actions] == [placeholders(a, browser) for a in on_browser.actions]
    # pages may print their own address (clone URLs); only the sites' base URLs may differ
    for step, (a, b) in enumerate(zip(on_direct.observations, on_browser.observations, strict=True)):
        assert placeholders(a, direct) == placeholders(b, browser), f"observation {step} differs for task {task_id}"
    assert on_direct.reward == on_browser.reward == 1.0
