"""SkyRL-gym: the registered "webarena" env driven the way SkyRL's generator drives it (make, init, step, close)."""

from __future__ import annotations

import pytest

skyrl_gym = pytest.importorskip("skyrl_gym")

from omegaconf import OmegaConf  # noqa: E402

from webarena_gym.errors import ConfigurationError  # noqa: E402
from webarena_gym.integrations.skyrl import ENV_ID, dataset_rows  # noqa: E402


def make(task_id: int, max_turns: int):
    row = dataset_rows([task_id])[0]
    env_config = OmegaConf.create({"suite": "embedded", "split": "train"})  # SkyRL passes a DictConfig
    extras = {"extra_info": row["extra_info"], "max_turns": max_turns}  # the generator adds its turn limit
    return skyrl_gym.make(row["env_class"], env_config=env_config, extras=extras), row["prompt"]


def test_oracle_episodes_through_skyrl_earn_one(family_demos):
    assert ENV_ID in skyrl_gym.registry
    for demo in family_demos[:3]:
        env, prompt = make(demo.task_id, max_turns=15)
        conversation, _ = env.init(prompt)
        assert [m["role"] for m in conversation] == ["system", "user"]
        assert conversation[1]["content"].startswith(f"Task: {demo.intent}")
        assert conversation[1]["content"].endswith(demo.turns[0].observation)
        for index, turn in enumerate(demo.turns):
            output = env.step(turn.action)
            if index + 1 < len(demo.turns):
                assert not output["done"] and output["reward"] == 0.0
                assert output["observations"][0]["content"].endswith(demo.turns[index + 1].observation)
        assert output["done"] and output["reward"] == 1.0 and output["observations"] == []
        assert env.get_metrics()["success"] == 1.0
        env.close()


def test_the_step_limit_follows_max_turns_and_a_stopped_trajectory_is_scored(family_demos):
    demo = family_demos[0]
    env, prompt = make(demo.task_id, max_turns=2)
    env.init(prompt)
    assert "step 2 of 2" in env.step('do(action="Wait")')["observations"][0]["content"]
    output = env.step('do(action="Wait")')
    assert output["done"] and output["reward"] == 0.0
    env.close()

    env, prompt = make(demo.task_id, max_turns=15)
    env.init(prompt)
    env.step(demo.turns[0].action)
    env.close()  # the generator hit its context limit: ended, scored, no answer
    metrics = env.get_metrics()
    assert metrics["ended_from_outside"] == 1.0 and metrics["success"] == 0.0


def test_a_row_names_its_split_and_the_env_plays_it_there(family_demos):
    demo = family_demos[0]  # a train task; the env's own default split is test
    row = dataset_rows([demo.task_id], split="train", suite="embedded")[0]
    env = skyrl_gym.make(row["env_class"], env_config={}, extras={**row, "max_turns": 15})
    conversation, _ = env.init(row["prompt"])
    assert conversation[1]["content"].startswith(f"Task: {demo.intent}")
    for turn in demo.turns:
        output = env.step(turn.action)
    assert output["done"] and output["reward"] == 1.0
    env.close()
    assert env.get_metrics()["success"] == 1.0  # still readable after close

    clash = skyrl_gym.make(ENV_ID, env_config={"split": "test"}, extras={**row, "max_turns": 15})
    with pytest.raises(ConfigurationError, match="row's task is from split='train', but this env was built with "
                                                 "split='test'"):
        clash.init(row["prompt"])
    clash.close()


@pytest.mark.parametrize(("env_config", "extras", "named"), [
    ({"suite": "embedded"}, {"extra_info": {"task_id": "twelve"}}, "The row's task_id must be an integer, got 'twelve'"),
    ({"suite": "embedded"}, {"task_id": True}, "The row's task_id must be an integer, got True"),
    ({"suite": "embedded"}, {"task_id": 1.5}, "The row's task_id must be an integer, got 1.5"),
    ({"suite": "embedded"}, {"task_id": 1, "max_turns": "many"}, "max_turns must be an integer, got 'many'"),
    ({"suite": "embedded"}, {"task_id": 1, "max_turns": -2}, "max_turns must be a positive integer"),
    ({"suite": "embedded", "max_char": 100}, {"task_id": 1}, "Unknown key(s) ['max_char'] in skyrl_gym_cfg.webarena"),
    (["suite", "embedded"], {"task_id": 1}, "must be a mapping"),
])
def test_a_bad_row_or_config_is_refused_by_name(env_config, extras, named):
    with pytest.raises(ConfigurationError) as raised:
        skyrl_gym.make(ENV_ID, env_config=env_config, extras=extras)
    assert named in str(raised.value)


def test_rows_written_by_parquet_read_as_given_and_a_bad_prompt_is_refused():
    env = skyrl_gym.make(ENV_ID, env_config={"suite": "embedded"}, extras={"task_id": "3", "max_turns": 4.0})
    try:
        assert (env.task_id, env.max_turns) == (3, 4)
        for prompt in ("Buy tea", [{"role": "user", "content": "x"}, "y"], {"role": "user"}):
            with pytest.raises(ConfigurationError, match="must be a list of chat messages"):
                env.init(prompt)
        conversation, info = env.init(None)
        assert [m["role"] for m in conversation] == ["system", "user"] and info == {"task_id": 3}
    finally:
        env.close()
