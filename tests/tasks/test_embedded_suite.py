"""The embedded suite: WebArena-Lite's mix, disjoint splits, and every task solvable (and failable)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from webarena_gym.env import WebArenaEnv
from webarena_gym.oracle_runner import play
from webarena_gym.suites.embedded import (
    TEST_QUOTA,
    all_families,
    embedded_tasks,
    family_of,
    family_task_ids,
)
from webarena_gym.tasks.oracle import OracleError
from webarena_gym.webarena_sites import site_group


def group_of(task, split):
    return site_group(family_of(task.task_id, split).sites)


def test_test_split_has_webarena_lite_site_mix():
    tasks = embedded_tasks("test")
    assert len(tasks) == sum(TEST_QUOTA.values()) == 165
    assert Counter(group_of(t, "test") for t in tasks) == Counter(TEST_QUOTA)
    assert [t.task_id for t in tasks] == list(range(165))


def test_train_split_is_large_and_shares_no_instantiation_with_test():
    train = embedded_tasks("train")
    assert len(train) >= 650
    assert min(t.task_id for t in train) >= 1000
    key = lambda t: (t.intent_template, json.dumps(dict(t.instantiation_dict), sort_keys=True), t.intent)  # noqa: E731
    assert not {key(t) for t in embedded_tasks("test")} & {key(t) for t in train}
    assert len({key(t) for t in train}) == len(train)
    assert set(TEST_QUOTA) <= {group_of(t, "train") for t in train}


def test_every_eval_type_and_reference_kind_is_used():
    tasks = embedded_tasks("test") + embedded_tasks("train")
    types = Counter(kind for t in tasks for kind in t.eval.eval_types)
    assert set(types) == {"string_match", "url_match", "program_html"}
    answers = [t.eval.reference_answers for t in tasks if t.eval.reference_answers is not None]
    assert any(a.exact_match for a in answers) and any(a.must_include for a in answers)
    assert any(a.fuzzy_match and a.fuzzy_match != "N/A" for a in answers)
    assert any(a.fuzzy_match == "N/A" for a in answers)
    assert any(" |OR| " in item for a in answers for item in (a.must_include or ()))
    notes = {t.eval.url_note for t in tasks if "url_match" in t.eval.eval_types}
    assert {"GOLD in PRED", "EXACT"} <= {n or "EXACT" for n in notes}
    urls = [target.url for t in tasks for target in t.eval.program_html]
    assert "last" in urls and any(u.startswith("func:") for u in urls) and any(u.startswith("__") for u in urls)
    locators = [target.locator for t in tasks for target in t.eval.program_html]
    assert "" in locators and any(loc.startswith("func:") for loc in locators)
    assert any(loc.startswith("document.querySelector") for loc in locators)


def test_families_are_distinct_and_cover_every_kind():
    families = all_families()
    assert len({f.name for f in families}) == len(families)
    assert {f.kind for f in families} == {"information", "navigation", "content"}
    assert any(len(f.sites) > 1 for f in families)


def play_all(env, split, ids):
    failures = []
    for task_id in ids:
        task = env.tasks_by_id[task_id]
        try:
            episode = play(env, task_id, family_of(task_id, split).solve, task.to_dict())
            if episode.reward != 1.0:
                failures.append((task_id, episode.info.get("reward_components")))
        except OracleError as exc:
            failures.append((task_id, str(exc)[:300]))
    return failures


# The two splits together are every instance of every family: these sweeps are where each instance is
# solved (direct backend) and each family in Chromium; the per-site files check their first instances.
@pytest.mark.parametrize("split", ["test", pytest.param("train", marks=pytest.mark.slow)])
def test_oracle_solves_every_task_on_the_direct_backend(split):
    env = WebArenaEnv(suite="embedded", split=split, backend="direct", max_steps=30)
    try:
        assert play_all(env, split, [t.task_id for t in env.tasks]) == []
    finally:
        env.close()


def test_every_task_fails_a_wrong_answer_and_stalling():
    env = WebArenaEnv(suite="embedded", split="test", backend="direct", max_steps=1)
    try:
        for task in env.tasks:
            env.reset(options={"task_id": task.task_id})
            *_, wrong = env.step('exit(message="zzz not it")')
            assert wrong["reward_components"] and not all(v == 1.0 for v in wrong["reward_components"].values()), task.task_id
            env.reset(options={"task_id": task.task_id})
            _, reward, terminated, truncated, _ = env.step('do(action="Wait")')
            assert (reward, terminated, truncated) == (0.0, False, True), task.task_id
    finally:
        env.close()


@pytest.mark.browser
@pytest.mark.slow
def test_oracle_solves_every_test_task_on_the_playwright_backend():
    env = WebArenaEnv(suite="embedded", split="test", backend="playwright", max_steps=30)
    try:
        assert play_all(env, "test", [t.task_id for t in env.tasks]) == []
    finally:
        env.close()


@pytest.mark.browser
@pytest.mark.slow
def test_oracle_solves_one_train_task_of_each_family_the_test_split_lacks_on_the_playwright_backend():
    """With the test sweep above, every family runs in Chromium (the test split has 157 of the 186)."""
    env = WebArenaEnv(suite="embedded", split="train", backend="playwright", max_steps=30)
    seen = {family_of(task.task_id, "test").name for task in embedded_tasks("test")}
    ids = []
    for task in env.tasks:
        name = family_of(task.task_id, "train").name
        if name not in seen:
            seen.add(name)
            ids.append(task.task_id)
    assert ids and seen == {f.name for f in all_families()}
    try:
        assert play_all(env, "train", ids) == []
    finally:
        env.close()


def test_family_task_ids_are_the_tasks_each_named_family_produced():
    names = ["map.zip_code", "shopping_admin.preview_theme"]
    for split in ("test", "train"):
        ids = family_task_ids(split, names)
        expected = [t.task_id for t in embedded_tasks(split) if family_of(t.task_id, split).name in names]
        assert ids == expected and len(ids) >= 2
    assert family_task_ids("train", ["no.such_family"]) == []
