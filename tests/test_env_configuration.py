"""The env's arguments are checked by type and range, and task ids follow one rule everywhere."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import webarena_gym
from webarena_gym.errors import ConfigurationError, UnknownTaskError


def make(**kwargs):
    return gym.make("WebArenaLite-v0", suite="embedded", **kwargs)


@pytest.fixture(scope="module")
def env():
    e = make(max_steps=3)
    yield e
    e.close()


@pytest.mark.parametrize("name", ["strict_actions", "record_screenshots", "record_timings"])
@pytest.mark.parametrize("value", ["yes", "no", 1, 0, None])
def test_every_flag_must_be_a_real_bool(name, value):
    with pytest.raises(ConfigurationError, match=rf"^{name} must be True or False, got {value!r}\.$"):
        make(**{name: value})


@pytest.mark.parametrize(
    "kwargs, message",
    [  # the message shows the bad value and the accepted range
        ({"max_steps": 10_001}, "max_steps must be a whole number from 1 to 10000, got 10001. WebAgent-R1 uses 15 "
                                "in training and 30 in evaluation."),
        ({"max_steps": 5.0}, "max_steps must be a whole number from 1 to 10000, got 5.0."),
        ({"max_steps": -1}, "max_steps must be a whole number from 1 to 10000, got -1."),
        ({"max_chars": 10_000_001}, "max_chars must be a whole number from 200 to 10000000, got 10000001."),
        ({"max_chars": 199}, "max_chars must be a whole number from 200 to 10000000, got 199."),
        ({"max_chars": True}, "max_chars must be a whole number from 200 to 10000000, got True."),
        ({"step_timeout": 3_601}, "step_timeout must be a finite number above 0 up to 3600, got 3601. It is in "
                                  "seconds (default 60)."),
        ({"step_timeout": float("inf")}, "step_timeout must be a finite number above 0 up to 3600, got inf."),
        ({"step_timeout": 0}, "step_timeout must be a finite number above 0 up to 3600, got 0."),
        ({"step_timeout": True}, "step_timeout must be a finite number above 0 up to 3600, got True."),
        ({"step_timeout": "60"}, "step_timeout must be a finite number above 0 up to 3600, got '60'."),
        ({"browser_endpoint": 9222, "backend": "playwright"}, "browser_endpoint must be a ws:// or http:// URL or "
                                                              "None, got 9222."),
    ],
)
def test_numbers_are_refused_past_their_range_with_the_range_shown(kwargs, message):
    with pytest.raises(ConfigurationError) as raised:
        make(**kwargs)
    assert str(raised.value).startswith(message)


def test_numbers_at_their_bounds_and_numpy_numbers_are_accepted():
    e = make(max_steps=np.int64(10_000), max_chars=200, step_timeout=np.float32(3_600))
    try:
        _, info = e.reset(options={"task_id": 0})
        assert info["max_steps"] == 10_000 and type(info["max_steps"]) is int
        *_, info = e.step('do(action="Wait")')
        assert not info["last_action_error"]
    finally:
        e.close()


def test_keep_task_must_be_a_real_bool(env):
    for value in ("yes", 1, None):  # was: "yes" kept the task (any truthy value did)
        with pytest.raises(ConfigurationError, match=rf"^options\['keep_task'\] must be True or False, got {value!r}"):
            env.reset(options={"task_id": 3, "keep_task": value})
    env.reset(options={"task_id": 3, "keep_task": np.bool_(True)})
    assert env.reset()[1]["task_id"] == 3  # kept
    env.reset(options={"task_id": 4, "keep_task": False})
    assert {env.reset(seed=s)[1]["task_id"] for s in range(6)} != {4}  # not kept: seeded draws


@pytest.mark.parametrize(
    "task_id, hint",
    [
        (0.0, "A task id is an int such as 7 (or a str, for tasks whose ids are strings), not a float. Pass 0."),
        (np.float64(2.0), "not a float64. Pass 2."),
        (True, "not a bool."),
        (np.True_, "not a bool."),
        ("0", "Ids are matched by type: pass the int 0, not the string '0'."),
        ([0], "not a list."),
    ],
)
def test_a_task_id_is_an_int_or_a_str_matched_by_type_in_reset_and_in_task_ids(env, task_id, hint):
    with pytest.raises(UnknownTaskError) as raised:  # was: 0.0 ran task 0, while "0" and True were refused
        env.reset(options={"task_id": task_id})
    assert str(raised.value).startswith(f"Unknown task id {task_id!r} in the embedded test split")
    assert hint in str(raised.value)
    with pytest.raises(UnknownTaskError) as raised:
        make(task_ids=[1, task_id])
    assert str(raised.value).startswith(f"Unknown task id {task_id!r} in the embedded test split")
    assert hint in str(raised.value)


def test_numpy_ints_name_tasks_and_str_ids_name_tasks_of_ones_own(env):
    assert env.reset(options={"task_id": np.int64(3)})[1]["task_id"] == 3
    e = make(task_ids=np.array([1, 2]))
    try:
        assert [t.task_id for t in e.unwrapped.tasks] == [1, 2]
    finally:
        e.close()
    task = {"task_id": "shop-1", "sites": ["shopping"], "start_url": "__SHOPPING__/", "intent": "explore",
            "require_login": False, "eval": {"eval_types": ["string_match"],
                                             "reference_answers": {"exact_match": "x"}}}
    own = make(tasks=[task])
    try:
        assert own.reset(options={"task_id": "shop-1"})[1]["task_id"] == "shop-1"
        with pytest.raises(UnknownTaskError, match=r"Unknown task id 1 .*valid ids: 'shop-1'"):
            own.reset(options={"task_id": 1})
    finally:
        own.close()


def test_vector_envs_apply_the_same_rules():
    with pytest.raises(ConfigurationError, match=r"^group must be True or False, got 'yes'\.$"):
        webarena_gym.make_vec(2, suite="embedded", group="yes")
    envs = webarena_gym.make_vec(2, suite="embedded")
    try:
        with pytest.raises(UnknownTaskError, match="Unknown task id 1.0 .*Pass 1."):
            envs.reset(options={"task_ids": [0, 1.0]})
        _, infos = envs.reset(options={"task_ids": np.array([0, 1])})
        assert infos["task_id"].tolist() == [0, 1]
    finally:
        envs.close()
