"""The webarena-verified suite: every task of the installed package, placed as the package places it."""

from __future__ import annotations

import json
import sys

import gymnasium as gym
import pytest
from webarena_verified.api import WebArenaVerified
from webarena_verified.types.config import EnvironmentConfig, WebArenaVerifiedConfig
from webarena_verified.types.task import WebArenaSite

import webarena_gym  # noqa: F401  (registers the envs)
from webarena_gym.errors import ConfigurationError, UnknownTaskError
from webarena_gym.suites.verified import load_verified_tasks
from webarena_gym.tasks.task import Task
from webarena_gym.wrappers import CompressedHistory

from .stub_sites import APPS, DIRECT_URLS

#: The WA_* bases of a real deployment (shopping_admin under /admin, as WebArena serves it).
SITE_URLS = {
    "shopping": "http://10.0.0.5:7770", "shopping_admin": "http://10.0.0.5:7780/admin",
    "reddit": "http://10.0.0.5:9999", "gitlab": "http://10.0.0.5:8023", "map": "http://10.0.0.5:3000",
    "wikipedia": "http://10.0.0.5:8888", "homepage": "http://10.0.0.5:4399",
}


@pytest.fixture(scope="module")
def all_tasks() -> list[Task]:
    return load_verified_tasks("all", site_urls=SITE_URLS)


def test_every_task_of_the_package_loads_with_its_sites_and_start_urls_rendered(all_tasks):
    package = WebArenaVerified(config=WebArenaVerifiedConfig(environments={
        WebArenaSite(site): EnvironmentConfig(urls=[url]) for site, url in SITE_URLS.items()}))
    expected = {task.task_id: task for task in package.get_tasks()}
    assert len(all_tasks) == len(expected) == 812
    for task in all_tasks:
        source = expected[task.task_id]
        assert task.sites == tuple(site.value for site in source.sites)
        assert task.intent == source.intent
        rendered = [package.config.render_url(url, source.sites) for url in source.start_urls]
        assert task.extra["start_urls"] == rendered and task.start_url == rendered[0]
        assert not task.placeholders(), task.task_id
        assert any(task.start_url.startswith(SITE_URLS[site]) for site in task.sites), task.start_url
        assert task.extra["task_type"] == str(source.expected_agent_response.task_type)
        assert Task.from_dict(task.to_dict()) == task  # the data contract holds (trajectories, workers)


def test_the_hard_and_lite_splits_are_the_packages_subset_and_the_lite_tasks(all_tasks):
    hard = load_verified_tasks("hard", site_urls=SITE_URLS)
    lite = load_verified_tasks("lite", site_urls=SITE_URLS)
    ids = {task.task_id for task in all_tasks}
    assert len(hard) == 258 and {t.task_id for t in hard} <= ids
    assert len(lite) == 165 and sorted(t.extra["lite_task_id"] for t in lite) == list(range(165))
    assert [t.task_id for t in load_verified_tasks("test", site_urls=SITE_URLS)] == [t.task_id for t in all_tasks]


def test_an_unconfigured_site_keeps_its_placeholder_and_the_env_names_the_variable():
    tasks = {t.task_id: t for t in load_verified_tasks("all", site_urls={"gitlab": SITE_URLS["gitlab"]})}
    assert tasks[0].start_url == "__SHOPPING_ADMIN__"  # task 0 is on shopping_admin
    assert tasks[448].start_url == SITE_URLS["gitlab"]
    with pytest.warns(UserWarning, match=r"Only some WebArena sites .* need WA_SHOPPING_ADMIN \("):
        env = gym.make("WebArenaVerified-v0", site_apps=APPS, site_urls={"gitlab": DIRECT_URLS["gitlab"]},
                       task_ids=[0, 448])
    try:
        with pytest.raises(ConfigurationError, match="WA_SHOPPING_ADMIN"):
            env.reset(options={"task_id": 0})
        _, info = env.reset(options={"task_id": 448})
        assert info["suite"] == "webarena-verified" and info["sites"] == ["gitlab"]
        assert '"task_type"' in info["answer_format"]  # the structured answer's format, for the prompt
        prompt, info = CompressedHistory(env).reset(options={"task_id": 448})
        task_message = info["messages"][1]["content"]
        assert task_message.startswith(f"Task: {info['intent']}\n\n{info['answer_format']}")
    finally:
        env.close()


def test_gym_make_registers_the_suite_and_an_unknown_task_id_says_the_valid_range():
    with pytest.warns(UserWarning, match="Only some WebArena sites"):
        env = gym.make("WebArenaVerified-v0", site_apps=APPS, site_urls=DIRECT_URLS)
    try:
        assert env.unwrapped.suite == "webarena-verified" and len(env.unwrapped.tasks) == 812
        with pytest.raises(UnknownTaskError, match=r"812 tasks; valid ids: 0, 1, .*811"):
            env.reset(options={"task_id": 812})
    finally:
        env.close()
    with pytest.raises(UnknownTaskError, match="811"):
        gym.make("WebArenaVerified-v0", site_apps=APPS, site_urls=DIRECT_URLS, task_ids=[5000])
    with pytest.raises(ConfigurationError, match="'all', 'hard', 'lite'"):
        gym.make("WebArenaVerified-v0", site_apps=APPS, site_urls=DIRECT_URLS, split="train")


def test_without_the_package_making_the_env_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "webarena_verified", None)  # what `import` sees when it is not installed
    with pytest.raises(ConfigurationError, match=r"webarena-gym\[verified\]"):
        gym.make("WebArenaVerified-v0", site_urls=SITE_URLS)


def test_without_any_site_the_suite_says_which_variables_to_set(monkeypatch):
    for name in list(__import__("os").environ):
        if name.startswith("WA_") or name in {"SHOPPING", "SHOPPING_ADMIN", "REDDIT", "GITLAB", "MAP", "WIKIPEDIA",
                                               "HOMEPAGE"}:
            monkeypatch.delenv(name)
    with pytest.raises(ConfigurationError, match="WA_GITLAB"):
        gym.make("WebArenaVerified-v0")


def test_the_task_keeps_the_packages_start_urls_when_it_has_several():
    several = [t for t in load_verified_tasks("all", site_urls=SITE_URLS) if len(t.extra["start_urls"]) > 1]
    shown = {t.task_id: t for t in load_verified_tasks("all", site_urls=SITE_URLS)}[448].eval.to_dict()["evaluators"]
    assert shown[1]["expected"]["url"] == f"{SITE_URLS['gitlab']}/-/profile"  # the package's evaluators, resolved
    assert several, "the package has tasks with several start URLs"
    assert all(t.start_url == t.extra["start_urls"][0] for t in several)
    json.dumps([t.to_dict() for t in several])  # serialisable as WebArena JSON


def test_gymnasiums_check_env_passes_on_stand_in_sites():
    from gymnasium.utils.env_checker import check_env

    env = gym.make("WebArenaVerified-v0", site_apps=APPS, site_urls=DIRECT_URLS, task_ids=[0, 156, 448])
    try:
        check_env(env.unwrapped)
    finally:
        env.close()


def test_tasks_list_prints_the_hard_subset(capsys):
    from webarena_gym.cli import main

    assert main(["tasks", "list", "--suite", "webarena-verified", "--split", "hard"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 258 and all(line.split("\t")[0].isdigit() for line in lines)
