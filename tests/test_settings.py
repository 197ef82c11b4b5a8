"""One owner of the agent settings: the env, the context wrapper, the trainers' configs and ``eval`` take their
defaults and bounds from :class:`webarena_gym.settings.AgentSettings`, under the same names."""

from __future__ import annotations

import dataclasses
import json

import gymnasium as gym
import pytest

import webarena_gym
from webarena_gym.env import WebArenaEnv
from webarena_gym.errors import ConfigurationError
from webarena_gym.settings import AgentSettings
from webarena_gym.wrappers import CompressedHistory


def test_the_settings_are_frozen_and_refuse_what_no_env_accepts():
    settings = AgentSettings()
    assert settings.as_dict() == {"max_steps": 15, "max_chars": 16_000, "keep_last": 0, "thinking": False,
                                  "task_after_page": False}
    assert AgentSettings.evaluation().max_steps == 30
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.max_steps = 3
    for bad, named in (({"max_steps": 0}, "max_steps"), ({"max_chars": 199}, "max_chars"),
                       ({"keep_last": -1}, "keep_last"), ({"thinking": "yes"}, "thinking")):
        with pytest.raises(ConfigurationError, match=rf"^{named} must be"):
            AgentSettings(**bad)


def test_the_env_and_the_wrapper_default_to_the_settings():
    env = CompressedHistory(WebArenaEnv(suite="embedded", split="train"))
    try:
        default = AgentSettings()
        assert (env.unwrapped.max_steps, env.unwrapped.max_chars, env.keep_last) == (
            default.max_steps, default.max_chars, default.keep_last)
    finally:
        env.close()
    with pytest.raises(ConfigurationError, match="max_chars must be a whole number from 200"):
        WebArenaEnv(suite="embedded", max_chars=100)


def test_the_trainer_config_takes_the_env_names_and_warns_on_the_former_ones(tmp_path):
    from trainers.agent_record import AGENT_SETTINGS_FILE, agent_settings_of, recorded_agent_settings
    from trainers.config import AgentArguments

    agent = AgentArguments(max_turns=4, max_chars=900, keep_last=2)
    assert agent.env_kwargs()["max_chars"] == 900 and agent.context_kwargs()["keep_last"] == 2
    assert agent.agent_settings() == AgentSettings(max_steps=4, max_chars=900, keep_last=2)
    with pytest.warns(FutureWarning, match="is now called") as caught:
        old = AgentArguments(max_observation_chars=900, keep_last_observations=2, max_turns=4)
    assert [str(w.message).split(";")[0] for w in caught] == [
        "max_observation_chars is now called max_chars", "keep_last_observations is now called keep_last"]
    assert old.agent_settings() == agent.agent_settings()
    with pytest.raises(ValueError, match="give only max_chars"):
        AgentArguments(max_chars=900, max_observation_chars=1000)
    with pytest.raises(ValueError, match="max_turns must be a whole number from 1"):
        AgentArguments(max_turns=0)
    # A record saved under the former names reads as today's: its settings are still compared.
    (tmp_path / AGENT_SETTINGS_FILE).write_text(json.dumps(
        {"suite": "embedded", "max_turns": 4, "max_observation_chars": 900, "thinking": False,
         "keep_last_observations": 2, "task_after_page": False}))
    assert {k: recorded_agent_settings(tmp_path)[k] for k in agent_settings_of(agent)} == agent_settings_of(agent)


def test_the_eval_command_takes_the_new_flag_and_warns_on_the_former_one():
    import argparse

    from webarena_gym.eval_commands import add_eval_commands

    parser = argparse.ArgumentParser()
    add_eval_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["eval", "--model", "m"])
    assert (args.max_steps, args.max_observation_chars, args.keep_last) == (30, 16_000, 0)
    assert parser.parse_args(["eval", "--model", "m", "--max-chars", "900"]).max_observation_chars == 900
    with pytest.warns(FutureWarning, match="--max-observation-chars is now called --max-chars"):
        assert parser.parse_args(["eval", "--model", "m", "--max-observation-chars", "900"]).max_observation_chars == 900


def test_workers_none_means_one_rule_for_make_vec_the_evaluation_and_the_trainer_envs(monkeypatch):
    from trainers.config import AgentArguments
    from trainers.rollout import make_rollout_envs
    from webarena_gym.evaluation import make_agent_envs
    from webarena_gym.vector import WebArenaVectorEnv
    from webarena_gym.vector_workers import ProcessVectorEnv, default_worker_count, default_workers

    monkeypatch.delenv("LOCAL_WORLD_SIZE", raising=False)
    cores = default_worker_count()
    expected = min(cores, 2) if cores > 1 else 0
    assert default_workers(2, suite="embedded") == expected
    assert default_workers(1, suite="embedded") == 0  # one env gains nothing from a process
    assert default_workers(8, suite="embedded", backend="playwright") == 0  # one browser, in this process
    assert default_workers(8, suite="embedded", wrap=lambda env: env) == 0  # a lambda cannot reach a process
    monkeypatch.setenv("LOCAL_WORLD_SIZE", str(2 * cores))  # more training processes than cores: one each
    assert default_workers(8, suite="embedded") == (1 if cores > 1 else 0)
    monkeypatch.delenv("LOCAL_WORLD_SIZE")
    agent = AgentArguments(split="train", max_turns=2)
    for made in (webarena_gym.make_vec(2, suite="embedded", max_steps=2),
                 gym.make_vec("WebArenaLite-v0", num_envs=2, suite="embedded", max_steps=2),
                 make_agent_envs(2, suite="embedded", split="train", max_steps=2), make_rollout_envs(agent, 2)):
        try:
            if expected:
                assert isinstance(made, ProcessVectorEnv) and made.workers == expected
            else:
                assert isinstance(made, WebArenaVectorEnv)
        finally:
            made.close()
    single = make_rollout_envs(agent, 1)
    try:
        assert isinstance(single, WebArenaVectorEnv)
    finally:
        single.close()
