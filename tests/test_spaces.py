"""The action space's samples are actions of the grammar: a random agent is ``env.action_space.sample()``."""

from __future__ import annotations

import gymnasium as gym
import pytest

from webarena_gym.actions import ACTIONS, parse_action
from webarena_gym.errors import ConfigurationError
from webarena_gym.spaces import ActionText


def test_samples_parse_cover_the_grammar_and_repeat_with_the_seed():
    space = ActionText(max_length=1000, max_element=5, seed=7)
    samples = [space.sample() for _ in range(600)]
    parsed = [parse_action(sample, strict=True) for sample in samples]  # was: random characters that never parse
    assert {action.name for action in parsed} == {spec.name for spec in ACTIONS}
    assert {action.element for action in parsed if action.element is not None} == set(range(5))
    assert all(action.to_string() == sample for action, sample in zip(parsed, samples, strict=True))
    assert all(space.contains(sample) for sample in samples)
    space.seed(7)
    assert [space.sample() for _ in range(600)] == samples
    with pytest.raises(ConfigurationError, match="max_element must be a whole number of at least 1, got 0"):
        ActionText(max_element=0)


def test_a_random_agent_plays_the_env_with_action_space_sample():
    env = gym.make("WebArenaLite-v0", suite="embedded", max_steps=6)
    try:
        env.action_space.seed(0)
        names, steps = set(), 0
        for episode in range(6):
            env.reset(seed=episode)
            done = False
            while not done:
                action = env.action_space.sample()
                _observation, reward, terminated, truncated, info = env.step(action)  # never raises
                assert info["parsed_action"] == action and reward in (0.0, 1.0)  # the env read the action as drawn
                names.add(parse_action(action).name)
                steps += 1
                done = terminated or truncated
        assert steps > 6 and len(names) >= 5
    finally:
        env.close()
