"""The env contract: registration, check_env, rewards, termination, agent errors and config errors."""

from __future__ import annotations

import re
import warnings

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import webarena_gym
from webarena_gym import env as env_module
from webarena_gym.errors import ConfigurationError, UnknownTaskError
from webarena_gym.oracle_runner import play
from webarena_gym.suites.embedded import embedded_tasks, family_of

WA_VARIABLES = ["WA_SHOPPING", "WA_SHOPPING_ADMIN", "WA_REDDIT", "WA_GITLAB", "WA_MAP", "WA_WIKIPEDIA", "WA_HOMEPAGE",
                "SHOPPING", "SHOPPING_ADMIN", "REDDIT", "GITLAB", "MAP", "WIKIPEDIA", "HOMEPAGE"]


@pytest.fixture
def no_real_sites(monkeypatch):
    for name in WA_VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def env():
    e = gym.make("WebArenaLite-v0", suite="embedded", split="test", max_steps=5)
    yield e
    e.close()


def first_task_of(site: str):
    return next(t for t in embedded_tasks("test") if list(t.sites) == [site])


# WebArenaVerified-v0 needs sites (or stand-ins): tests/verified/test_suite.py checks it, and its error without any.
@pytest.mark.parametrize("env_id", sorted(set(webarena_gym.ENV_IDS) - {"WebArenaVerified-v0"}))
def test_check_env_passes_on_every_registered_id_with_default_arguments(env_id, no_real_sites):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the embedded default announced
        e = gym.make(env_id)  # was: "Deterministic step info are not equivalent" (wall-clock timings in info)
    try:
        check_env(e.unwrapped)
    finally:
        e.close()
    rendered = gym.make(env_id, suite="embedded", render_mode="ansi", max_steps=3)
    try:
        check_env(rendered.unwrapped)
    finally:
        rendered.close()


def test_bare_make_runs_embedded_suite_and_says_so_once(no_real_sites, monkeypatch):
    monkeypatch.setattr(env_module, "_embedded_default_announced", False)
    with pytest.warns(UserWarning, match="embedded offline sites"):
        e = gym.make("WebArenaLite-v0")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        second = gym.make("WebArenaLite-v0")  # no second warning
    try:
        _, info = e.reset(seed=0)
        assert info["suite"] == "embedded" and info["backend"] == "direct"
        assert info["intent"] and info["url"].startswith("http://127.0.0.1:")
        assert 'do(action="Click", element="12")' in info["action_description"]
    finally:
        e.close()
        second.close()


def test_reset_picks_requested_task_and_seeded_draws_repeat(env):
    task = embedded_tasks("test")[3]
    _, info = env.reset(options={"task_id": task.task_id})
    assert info["task_id"] == task.task_id and info["intent"] == task.intent
    assert info["intent_template_id"] == task.intent_template_id is not None  # what a comparison of runs groups by
    untemplated = {**task.to_dict(), "intent_template_id": None}  # a task given without one: no key
    plain = env_module.WebArenaEnv(suite="embedded", tasks=[untemplated])
    try:
        assert "intent_template_id" not in plain.reset(options={"task_id": task.task_id})[1]
    finally:
        plain.close()
    first = env.reset(seed=123)[1]["task_id"]
    assert env.reset(seed=123)[1]["task_id"] == first


def test_unknown_task_id_lists_valid_ids(env):
    with pytest.raises(UnknownTaskError, match="Unknown task id 99999.*valid ids: 0, 1, 2"):
        env.reset(options={"task_id": 99999})
    for odd in (True, [1], {"id": 1}, "1"):  # not task 1, and no TypeError from an unhashable id
        with pytest.raises(UnknownTaskError, match=f"Unknown task id {re.escape(repr(odd))}"):
            env.reset(options={"task_id": odd})
    with pytest.raises(UnknownTaskError):
        gym.make("WebArenaLite-v0", suite="embedded", task_ids=[0, 424242])
    with pytest.raises(UnknownTaskError, match=r"Unknown task id \[0\]"):
        gym.make("WebArenaLite-v0", suite="embedded", task_ids=[[0]])


def test_a_reset_option_the_env_does_not_read_is_warned_about_with_the_likely_key(env):
    with pytest.warns(UserWarning, match=r"reset option 'task-id' is not read by WebArenaEnv.*did you mean 'task_id'\?"):
        _, info = env.reset(seed=5, options={"task-id": 3})
    assert info["task_id"] != 3 and info["task_id"] == env.reset(seed=5)[1]["task_id"]  # a seeded draw, not 3
    with pytest.warns(UserWarning, match=r"reset options 'level', 7 are not read by WebArenaEnv, which reads "
                                         r"'task_id' and 'keep_task'\.$"):
        env.reset(options={"level": 1, 7: "x"})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(options={"task_id": 3, "keep_task": True})  # the keys it reads: no warning
        env.reset(options={})
    for odd in (["task_id"], "task_id", 3):
        with pytest.raises(ConfigurationError, match="options must be a dict such as {'task_id': 7} or None"):
            env.reset(options=odd)
    assert env.reset(options={"task_id": 3})[1]["task_id"] == 3  # and the env goes on


def test_a_first_reset_or_step_that_raises_loses_nothing():
    """A made env whose first reset names no task, or that steps before any reset, works once reset properly
    (gymnasium's passive checker wrapper, which broke it for good, is off for these ids)."""
    for mistake in (lambda e: e.reset(options={"task_id": "no such task"}), lambda e: e.step("stop [x]")):
        e = gym.make("WebArenaLite-v0", suite="embedded", max_steps=3)
        try:
            with pytest.raises((UnknownTaskError, gym.error.ResetNeeded)):
                mistake(e)
            _, info = e.reset(options={"task_id": 0})
            assert info["task_id"] == 0
            for _ in range(2):
                _, reward, terminated, truncated, _ = e.step('do(action="Scroll", argument="down")')
                assert reward == 0.0 and not terminated
        finally:
            e.close()
    checked = gym.make("WebArenaLite-v0", suite="embedded", disable_env_checker=False)
    try:
        assert "PassiveEnvChecker" in str(checked)  # still there for whoever asks for it
    finally:
        checked.close()


def test_agent_mistakes_never_raise_and_show_in_next_observation(env):
    observation, _ = env.reset(options={"task_id": first_task_of("reddit").task_id})
    for bad, fragment in [
        ("click the first link", "Cannot parse"),
        ('do(action="Click", element="9999")', "no element 9999"),
        ('do(action="Fly", element="1")', "Unknown action"),
    ]:
        new_observation, reward, terminated, truncated, info = env.step(bad)
        assert fragment in info["last_action_error"]
        assert new_observation.startswith("[Error: ") and fragment in new_observation.splitlines()[0]
        assert new_observation.split("\n", 1)[1] == observation  # the page stays
        assert reward == 0.0 and not terminated
    assert info["step"] == 3


def test_hostile_actions_are_agent_mistakes_that_never_raise(env):
    env.reset(options={"task_id": first_task_of("reddit").task_id})
    field = next(e for e in env.unwrapped.page.elements if e.is_text_field())
    for bad, fragment in [
        ('do(action="Click", element="\ud800")', "lone surrogate"),
        (f'do(action="Type", element="{field.id}", argument="PNC\x1b Park\x07")', "control character"),
        (f'do(action="Type", element="{field.id}", argument="a\x00b")', "NUL character"),
        ('do(action="Click", element=' + "1+" * 200_000 + "1)", "nested too deeply"),
        ('exit(message="\udfff")', "lone surrogate"),
    ]:
        _, reward, terminated, truncated, info = env.step(bad)
        assert fragment in info["last_action_error"], bad[:60]
        assert (reward, terminated) == (0.0, False)
    assert info["step"] == 5  # each counted (the fifth truncated the 5-step episode)


def test_a_long_answer_with_control_characters_is_scored(env):
    env.reset(options={"task_id": first_task_of("shopping").task_id})
    answer = ("It is 0. \x1b[0m " * 6_000)[:100_000]
    _, reward, terminated, _, info = env.step(f"exit(message={answer!r})")
    assert terminated and reward == 0.0 and info["last_action_error"] == ""
    assert info["answer"] == answer


def test_lenient_evaluation_is_one_explicit_option():
    task = next(
        t
        for t in embedded_tasks("test")
        if t.eval.eval_types == ("string_match",) and t.eval.reference_answers.exact_match
    )
    answer = f'exit(message=" {task.eval.reference_answers.exact_match} ")'
    rewards = {}
    for evaluation in ("vab", "lenient"):
        e = gym.make("WebArenaLite-v0", suite="embedded", evaluation=evaluation)
        try:
            e.reset(options={"task_id": task.task_id})
            rewards[evaluation] = e.step(answer)[1]
        finally:
            e.close()
    # VisualAgentBench strips nothing, so the spaces break exact_match; lenient mode strips them
    assert rewards == {"vab": 0.0, "lenient": 1.0}


def test_typing_into_a_link_is_an_agent_error(env):
    env.reset(options={"task_id": first_task_of("reddit").task_id})
    page = env.unwrapped.page
    link = next(e for e in page.elements if e.tag == "a")
    *_, info = env.step(f'do(action="Type", element="{link.id}", argument="x")')
    assert info["last_action_error"] == f"Element {link.id} (<a>) is not a text field; Type needs one."


@pytest.mark.parametrize("backend", ["direct", pytest.param("playwright", marks=pytest.mark.browser)])
def test_press_enter_with_nothing_focused_is_the_same_agent_error_on_both_backends(backend):
    e = gym.make("WebArenaLite-v0", suite="embedded", backend=backend, max_steps=5)
    try:
        _, info = e.reset(options={"task_id": first_task_of("shopping").task_id})
        start = info["url"]
        observation, reward, terminated, _, info = e.step('do(action="Press Enter")')
        # was, on playwright: no error (Chromium pressed Enter on the page body, which does nothing)
        assert info["last_action_error"] == "Press Enter needs a field to be in focus: Type into it or Click it first."
        assert observation.startswith(f"[Error: {info['last_action_error']}]") and info["url"] == start
        search = next(el for el in e.unwrapped.page.elements if el.is_text_field() and el.input_type == "text")
        e.step(f'do(action="Type", element="{search.id}", argument="shoes")')
        *_, info = e.step('do(action="Press Enter")')  # a focused field: Enter submits its form
        assert not info["last_action_error"] and "shoes" in info["url"] and info["url"] != start
    finally:
        e.close()


def test_oracle_earns_one_and_wrong_answer_or_stalling_earns_zero():
    task = first_task_of("shopping")
    e = gym.make("WebArenaLite-v0", suite="embedded", max_steps=30)
    try:
        episode = play(e, task.task_id, family_of(task.task_id, "test").solve, task.to_dict())
        assert episode.reward == 1.0 and episode.terminated
        assert set(episode.info["reward_components"].values()) == {1.0}
        e.reset(options={"task_id": task.task_id})
        _, reward, terminated, truncated, info = e.step('exit(message="certainly not the answer 0xdeadbeef")')
        assert (reward, terminated, truncated) == (0.0, True, False)
        assert info["answer"] == "certainly not the answer 0xdeadbeef"
    finally:
        e.close()
    short = gym.make("WebArenaLite-v0", suite="embedded", max_steps=2)
    try:
        short.reset(options={"task_id": task.task_id})
        short.step('do(action="Wait")')
        _, reward, terminated, truncated, info = short.step('do(action="Wait")')
        assert (reward, terminated, truncated) == (0.0, False, True)
        *_, after = short.step('do(action="Wait")')
        assert "episode is over" in after["last_action_error"]
    finally:
        short.close()


def test_scrolling_moves_a_window_over_long_pages():
    e = gym.make("WebArenaLite-v0", suite="embedded", max_chars=600, max_steps=250)
    try:
        first, _ = e.reset(options={"task_id": first_task_of("reddit").task_id})
        assert "more characters below; use Scroll Down" in first
        second, *_, info = e.step('do(action="Scroll Down")')
        assert info["last_action_error"] == "" and second != first and "characters above" in second
        back, *_ = e.step('do(action="Scroll Up")')
        assert back == first
        *_, info = e.step('do(action="Scroll Up")')
        assert "top of the page" in info["last_action_error"]
        for _ in range(200):
            last, *_, info = e.step('do(action="Scroll Down")')
            if info["last_action_error"]:
                break
        assert "bottom of the page" in info["last_action_error"] and "more characters below" not in last
    finally:
        e.close()


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"suite": "embedded", "backend": "selenium"}, "backend must be one of"),
        ({"suite": "nope"}, "suite must be one of"),
        ({"suite": "embedded", "split": "validation"}, "split must be one of"),
        ({"suite": "embedded", "max_steps": 0}, "max_steps must be a whole number from 1 to 10000, got 0"),
        ({"suite": "embedded", "max_steps": True}, "max_steps must be a whole number from 1 to 10000, got True"),
        ({"suite": "embedded", "record_timings": "no"}, "record_timings must be True or False, got 'no'"),  # not true
        ({"suite": "embedded", "strict_actions": 1.0}, "strict_actions must be True or False"),
        ({"suite": "embedded", "record_screenshots": None}, "record_screenshots must be True or False"),
        ({"suite": "webarena-lite", "backend": "direct", "site_urls": {"shopping": "http://x:1"}}, "direct backend only"),
        ({"suite": "webarena-lite"}, "WA_SHOPPING"),
        ({"suite": "embedded", "evaluation": "strict"}, "not an evaluation mode"),
        ({"suite": "embedded", "step_timeout": float("nan")}, "step_timeout must be a finite number above 0 up to 3600"),
        ({"suite": "embedded", "judge": "gpt-4"}, "judge must be a function"),
        ({"suite": "embedded", "task_ids": "12"}, "task_ids must be a list of task ids"),  # not tasks 1 and 2
        ({"suite": "embedded", "site_urls": "http://x:1"}, "site_urls must map site names to base URLs"),
        ({"suite": "webarena-lite", "site_urls": {"shopping": "x:7770"}}, r"site_urls\['shopping'\] must be the site's http"),
    ],
)
def test_configuration_errors_say_how_to_fix(kwargs, fragment, no_real_sites):
    with pytest.raises(ConfigurationError, match=fragment):
        gym.make("WebArenaLite-v0", **kwargs)


def test_a_task_on_a_site_without_a_url_is_refused_by_name(no_real_sites):
    env = gym.make("WebArenaLite-v0", suite="webarena-lite", site_urls={"shopping": "http://127.0.0.1:9"})
    try:
        admin = next(t for t in env.unwrapped.tasks if list(t.sites) == ["shopping_admin"])
        with pytest.raises(ConfigurationError) as raised:  # was: a browser error about the URL __SHOPPING_ADMIN__
            env.reset(options={"task_id": admin.task_id})
        assert str(raised.value).startswith(f"Task {admin.task_id} needs the shopping_admin site(s), which have no URL: "
                                            "set WA_SHOPPING_ADMIN")
    finally:
        env.close()


def test_info_carries_reward_components_and_timings_when_asked(env):
    _, info = env.reset(options={"task_id": first_task_of("map").task_id})
    assert "timings" not in info  # off by default: two runs of one seed give equal infos
    *_, info = env.step('exit(message="")')
    assert info["reward_components"] and all(v in (0.0, 1.0) for v in info["reward_components"].values())
    timed = gym.make("WebArenaLite-v0", suite="embedded", record_timings=True)
    try:
        _, info = timed.reset(options={"task_id": first_task_of("map").task_id})
        assert info["timings"]["reset_s"] >= 0
        *_, info = timed.step('exit(message="")')
        assert set(info["timings"]) >= {"action_s", "observation_s", "evaluation_s"}
    finally:
        timed.close()


def test_an_episode_ended_from_outside_is_scored_without_an_answer():
    task = next(t for t in embedded_tasks("test") if list(t.eval.eval_types) == ["url_match"])
    e = gym.make("WebArenaLite-v0", suite="embedded", max_steps=30)
    try:
        actions = play(e, task.task_id, family_of(task.task_id, "test").solve, task.to_dict()).actions
        assert actions[-1].startswith("exit(")
        e.reset(options={"task_id": task.task_id})
        for action in actions[:-1]:  # the right page reached, but no exit: the library stops the episode
            e.step(action)
        assert not e.unwrapped.episode_over
        reward, info = e.unwrapped.end_episode("turn limit of the library")
        assert reward == 1.0 and info["answer"] is None
        assert info["episode_end_reason"] == "turn limit of the library"
        assert e.unwrapped.end_episode()[0] == 1.0  # idempotent
        *_, after = e.step('do(action="Wait")')
        assert "episode is over" in after["last_action_error"]
        e.reset(options={"task_id": first_task_of("shopping").task_id})
        assert e.unwrapped.end_episode()[0] == 0.0  # an answer was needed and none was given
    finally:
        e.close()
