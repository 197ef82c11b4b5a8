"""Vector envs: concurrency, group mode, autoreset, and Gymnasium's own vector envs."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest

import webarena_gym
from webarena_gym.oracle_runner import play
from webarena_gym.suites.embedded import embedded_tasks, family_of


def reddit_task():
    return next(t.task_id for t in embedded_tasks("test") if list(t.sites) == ["reddit"])


def test_group_mode_runs_one_task_in_separate_worlds():
    envs = webarena_gym.make_vec(3, workers=0, group=True, suite="embedded", max_steps=2)
    try:
        _, infos = envs.reset(seed=0)
        assert len(set(infos["task_id"])) == 1
        worlds = {id(env.unwrapped.world) for env in envs.envs}
        assert len(worlds) == 3
        observations, rewards, terminated, truncated, infos = envs.step(['do(action="Wait")'] * 3)
        assert len(observations) == 3 and rewards.shape == (3,)
        observations, rewards, terminated, truncated, infos = envs.step(['do(action="Wait")'] * 3)
        assert truncated.all() and not terminated.any()
        # next-step autoreset: the group restarts on the same task
        observations, rewards, terminated, truncated, infos = envs.step(['do(action="Wait")'] * 3)
        assert (rewards == 0).all() and not truncated.any() and (infos["step"] == 0).all()
        assert len(set(infos["task_id"])) == 1
    finally:
        envs.close()


def test_per_env_task_ids_and_mixed_endings():
    ids = [t.task_id for t in embedded_tasks("test")[:2]]
    envs = webarena_gym.make_vec(2, suite="embedded", max_steps=5)
    try:
        _, infos = envs.reset(options={"task_ids": ids})
        assert list(infos["task_id"]) == ids
        _, rewards, terminated, truncated, infos = envs.step(['exit(message="no")', 'do(action="Wait")'])
        assert terminated.tolist() == [True, False]
    finally:
        envs.close()


def test_gym_make_vec_builds_this_packages_vector_env_and_still_gymnasiums_on_request():
    from webarena_gym.errors import ConfigurationError
    from webarena_gym.vector import WebArenaVectorEnv

    envs = gym.make_vec("WebArenaLiteEmbedded-v0", num_envs=3, workers=0, group=True, max_steps=2)
    try:
        assert isinstance(envs, WebArenaVectorEnv) and envs.spec.id == "WebArenaLiteEmbedded-v0"
        _, infos = envs.reset(seed=1)
        assert len(set(infos["task_id"])) == 1  # group= reaches the vector env
        assert all(env.unwrapped.max_steps == 2 for env in envs.envs)  # env keyword arguments reach each env
    finally:
        envs.close()
    envs = gym.make_vec("WebArenaLite-v0", num_envs=2, vectorization_mode="sync", suite="embedded")
    try:
        assert isinstance(envs, gym.vector.SyncVectorEnv)
    finally:
        envs.close()
    with pytest.raises(ConfigurationError, match="num_envs must be a positive integer, got 0"):
        gym.make_vec("WebArenaLite-v0", num_envs=0, suite="embedded")


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasiums_vector_modes_work_as_written_and_oracles_earn_one(mode):
    task = next(t for t in embedded_tasks("test") if list(t.sites) == ["shopping"])
    single = gym.make("WebArenaLite-v0", suite="embedded", max_steps=30)
    try:
        actions = play(single, task.task_id, family_of(task.task_id, "test").solve, task.to_dict()).actions
        first_page, _ = single.reset(options={"task_id": task.task_id})
    finally:
        single.close()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the embedded default announced
        # was, for "async": every worker crashed with KeyError: '\n' (shared memory laid out by the Text charset)
        envs = gym.make_vec("WebArenaLite-v0", num_envs=2, vectorization_mode=mode)
    try:
        assert isinstance(envs, gym.vector.AsyncVectorEnv if mode == "async" else gym.vector.SyncVectorEnv)
        observations, infos = envs.reset(seed=0, options={"task_id": task.task_id})
        assert list(infos["task_id"]) == [task.task_id] * 2 and list(observations) == [first_page] * 2
        for action in actions:
            observations, rewards, terminated, truncated, infos = envs.step([action, 'do(action="Wait")'])
        assert rewards.tolist() == [1.0, 0.0] and terminated.tolist() == [True, False] and not truncated.any()
        assert all(isinstance(o, str) and "<" in o for o in observations)
    finally:
        envs.close()


@pytest.mark.parametrize("vector_class", ["sync", "async"])
def test_works_under_gymnasium_vector_envs(vector_class):
    task_id = reddit_task()
    makers = [lambda: gym.make("WebArenaLite-v0", suite="embedded", task_ids=[task_id], max_steps=3)] * 2
    envs = gym.vector.SyncVectorEnv(makers) if vector_class == "sync" else gym.vector.AsyncVectorEnv(makers, shared_memory=False)
    try:
        observations, infos = envs.reset(seed=0)
        assert all(isinstance(o, str) and "<title>" in o for o in observations)
        observations, rewards, *_ = envs.step(('do(action="Wait")', 'do(action="Scroll Down")'))
        assert all("<" in o for o in observations) and np.all(rewards == 0)
    finally:
        envs.close()


def test_gymnasium_async_vector_env_keeps_the_task_across_autoresets():
    task_id = embedded_tasks("test")[3].task_id
    makers = [lambda: gym.make("WebArenaLite-v0", suite="embedded", max_steps=1)] * 2
    envs = gym.vector.AsyncVectorEnv(makers, shared_memory=False)
    try:
        _, infos = envs.reset(seed=0, options={"task_id": task_id, "keep_task": True})
        _, _, _, truncated, _ = envs.step(['do(action="Wait")'] * 2)
        assert truncated.all()
        _, _, _, truncated, infos = envs.step(['do(action="Wait")'] * 2)  # next-step autoreset
        assert not truncated.any() and list(infos["task_id"]) == [task_id, task_id]
        _, infos = envs.reset(seed=1, options={"task_id": task_id})  # without keep_task: forgotten
        envs.step(['do(action="Wait")'] * 2)
        seen = set()
        for _ in range(3):
            envs.step(['do(action="Wait")'] * 2)
            _, _, _, _, infos = envs.step(['do(action="Wait")'] * 2)
            seen.update(infos["task_id"].tolist())
        assert seen - {task_id}
    finally:
        envs.close()


def test_make_vec_keeps_per_env_tasks_when_asked():
    ids = [t.task_id for t in embedded_tasks("test")[:2]]
    envs = webarena_gym.make_vec(2, suite="embedded", max_steps=1)
    try:
        envs.reset(seed=0, options={"task_ids": ids, "keep_task": True})
        envs.step(['do(action="Wait")'] * 2)
        _, _, _, _, infos = envs.step(['do(action="Wait")'] * 2)
        assert list(infos["task_id"]) == ids
    finally:
        envs.close()


def test_stepping_a_finished_env_never_returns_a_shared_info(recwarn):
    env = gym.make("WebArenaLite-v0", suite="embedded", max_steps=1)
    try:
        env.reset(seed=0)
        infos = [env.step('do(action="Wait")')[-1] for _ in range(3)]  # the last two: the episode is over
        assert infos[1]["reward_components"] is not infos[2]["reward_components"]
        assert infos[1]["last_action_error"] == "The episode is over; call reset()."
        assert not [w for w in recwarn if "share an object" in str(w.message)]
    finally:
        env.close()


def test_gymnasium_async_vector_env_with_autoreset_disabled():
    from gymnasium.vector import AutoresetMode

    makers = [lambda: gym.make("WebArenaLite-v0", suite="embedded", max_steps=1)] * 2
    envs = gym.vector.AsyncVectorEnv(makers, shared_memory=False, autoreset_mode=AutoresetMode.DISABLED)
    try:
        envs.reset(seed=0)
        _, _, _, truncated, first = envs.step(['do(action="Wait")'] * 2)
        _, rewards, _, truncated_again, second = envs.step(['do(action="Wait")'] * 2)
        assert truncated.all() and truncated_again.all() and (rewards == 0).all()
        assert list(second["last_action_error"]) == ["The episode is over; call reset()."] * 2
        envs.reset(options={"task_id": int(first["task_id"][0])})
    finally:
        envs.close()


def test_unicode_text_travels_through_shared_memory_as_written():
    import copy

    from gymnasium.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory

    from webarena_gym.spaces import UnicodeText

    space = UnicodeText(max_length=12)
    memory = create_shared_memory(space, n=3)
    view = read_from_shared_memory(space, memory, n=3)  # read once, as AsyncVectorEnv does: a live view
    texts = ['<a id="0">é\n', "", "\ud800 — 12 chars"[:12]]
    for i, text in enumerate(texts):
        write_to_shared_memory(space, i, text, memory)
    assert list(view) == texts and copy.deepcopy(view) == tuple(texts) and type(copy.deepcopy(view)) is tuple
    write_to_shared_memory(space, 0, "next", memory)
    assert view[0] == "next"
    with pytest.raises(ValueError, match="at most 12 characters"):
        write_to_shared_memory(space, 1, "x" * 13, memory)
