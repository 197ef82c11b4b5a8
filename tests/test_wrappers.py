"""CompressedHistory: what a policy sees."""

from __future__ import annotations

import gymnasium as gym
import pytest

from webarena_gym.actions import describe_actions, parse_action
from webarena_gym.errors import ConfigurationError
from webarena_gym.prompts import OMITTED
from webarena_gym.suites.embedded import embedded_tasks
from webarena_gym.wrappers import CompressedHistory


@pytest.fixture
def task_id():
    return next(t.task_id for t in embedded_tasks("test") if list(t.sites) == ["reddit"])


def run_three_turns(env, task_id):
    prompt, info = env.reset(options={"task_id": task_id})
    infos = [info]
    page = env.unwrapped.page
    link = next(e for e in page.elements if e.tag == "a")
    for action in (f'do(action="Click", element="{link.id}")', 'do(action="Go Backward")', 'do(action="Scroll Down")'):
        prompt, _, _, _, info = env.step(action)
        infos.append(info)
    return prompt, infos


def test_past_observations_become_placeholders_and_actions_stay(task_id):
    env = CompressedHistory(gym.make("WebArenaLite-v0", suite="embedded"))
    try:
        prompt, infos = run_three_turns(env, task_id)
        messages = infos[-1]["messages"]
        assert [m["role"] for m in messages] == ["system"] + ["user", "assistant"] * 3 + ["user"]
        assert describe_actions() in messages[0]["content"]
        assert messages[1]["content"].startswith("Task: ")
        for message in messages[1:-1:2]:
            assert OMITTED.split("{url}")[0] in message["content"]
        assert [m["content"] for m in messages[2::2]] == [t.action for t in env.history]
        assert env.unwrapped.page.text[:200] in messages[-1]["content"] or "[Error" in messages[-1]["content"]
        assert prompt.startswith("SYSTEM: ") and prompt.count("ASSISTANT: ") == 3
        assert infos[-1]["context_chars"] == len(prompt)
        assert infos[-1]["turn_chars"] == [len(m["content"]) for m in messages]
        # compression keeps the context from growing with every page
        assert infos[-1]["context_chars"] < infos[0]["context_chars"] + 3 * 400
    finally:
        env.close()


def test_keep_last_keeps_recent_pages_in_full(task_id):
    env = CompressedHistory(gym.make("WebArenaLite-v0", suite="embedded"), keep_last=1)
    try:
        _, infos = run_three_turns(env, task_id)
        messages = infos[-1]["messages"]
        assert OMITTED.split("{url}")[0] in messages[3]["content"]
        assert OMITTED.split("{url}")[0] not in messages[5]["content"]
        assert infos[-1]["context_chars"] > infos[0]["context_chars"]
    finally:
        env.close()


def test_thinking_format_prompt_and_parse(task_id):
    env = CompressedHistory(gym.make("WebArenaLite-v0", suite="embedded"), thinking=True)
    try:
        _, info = env.reset(options={"task_id": task_id})
        assert "<think>" in info["messages"][0]["content"] and "<answer>" in info["messages"][0]["content"]
        output = '<think>Scroll to see more.</think><answer>do(action="Scroll Down")</answer>'
        assert parse_action(output).name == "Scroll Down"
        _, _, _, _, info = env.step(output)
        assert info["messages"][2]["content"] == output  # the whole output stays in the history
    finally:
        env.close()


def test_task_after_page_restates_the_task_last_in_every_user_message(task_id):
    env = CompressedHistory(gym.make("WebArenaLite-v0", suite="embedded"), task_after_page=True)
    try:
        _, infos = run_three_turns(env, task_id)
        intent = infos[0]["intent"]
        messages = infos[-1]["messages"]
        users = [m["content"] for m in messages if m["role"] == "user"]
        assert len(users) == 4
        for content in users:  # WebArena's order: the page (or its placeholder), then the objective
            assert content.startswith("Current page (step ") and content.endswith(f"\n\nTask: {intent}")
            assert content.count("Task: ") == 1
        assert OMITTED.split("{url}")[0] in users[0]
        assert env.unwrapped.page.text[:200] in users[-1] or "[Error" in users[-1]
    finally:
        env.close()


def test_bad_keep_last_is_a_configuration_error():
    with pytest.raises(ConfigurationError, match="keep_last"):
        CompressedHistory(gym.make("WebArenaLite-v0", suite="embedded"), keep_last=-1)


def test_constructor_arguments_are_recorded_and_make_rebuilds_the_wrapped_env(task_id):
    env = CompressedHistory(gym.make("WebArenaLite-v0", suite="embedded", max_steps=7), keep_last=2,
                            task_after_page=True)
    try:
        wrapper_spec = env.spec.additional_wrappers[-1]
        assert wrapper_spec.name == "CompressedHistory"
        assert wrapper_spec.entry_point == "webarena_gym.wrappers:CompressedHistory"
        assert wrapper_spec.kwargs == {"thinking": False, "keep_last": 2, "task_after_page": True}
        again = gym.make(env.spec)
        try:
            assert isinstance(again, CompressedHistory) and (again.keep_last, again.task_after_page) == (2, True)
            assert again.unwrapped.max_steps == 7
            assert again.reset(options={"task_id": task_id})[0] == env.reset(options={"task_id": task_id})[0]
        finally:
            again.close()
    finally:
        env.close()


class Forwarding(gym.Env):
    """An env that shows only the Gymnasium API (as a remote env's client does): no ``max_steps`` attribute."""

    def __init__(self, env):
        self.inner, self.observation_space, self.action_space = env, env.observation_space, env.action_space

    def reset(self, *, seed=None, options=None):
        return self.inner.reset(seed=seed, options=options)

    def step(self, action):
        return self.inner.step(action)

    def close(self):
        self.inner.close()


def test_the_step_budget_in_the_prompt_comes_from_info(task_id):
    env = CompressedHistory(Forwarding(gym.make("WebArenaLite-v0", suite="embedded", max_steps=4)))
    try:
        assert not hasattr(env.unwrapped, "max_steps")
        _, info = env.reset(options={"task_id": task_id})
        assert info["max_steps"] == 4 and "(step 1 of 4)" in info["messages"][-1]["content"]
        _, _, _, _, info = env.step('do(action="Wait")')
        assert "(step 2 of 4)" in info["messages"][-1]["content"]
    finally:
        env.close()
