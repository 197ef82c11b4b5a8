"""One lifecycle on every backend and vector env: close() is final and idempotent, and a closed env says so."""

from __future__ import annotations

import gymnasium as gym
import pytest

import webarena_gym
from webarena_gym.errors import EnvClosedError, WebArenaGymError

WAIT = 'do(action="Wait")'


@pytest.mark.parametrize("backend", ["direct", pytest.param("playwright", marks=pytest.mark.browser)])
def test_a_closed_env_refuses_every_episode_call_with_one_error(backend):
    env = gym.make("WebArenaLite-v0", suite="embedded", backend=backend, max_steps=3)
    env.reset(options={"task_id": 0})
    env.step(WAIT)
    env.close()
    env.close()  # a second close changes nothing
    assert env.unwrapped.closed
    # was: a normal observation (direct) or a bare AttributeError (playwright); on direct, `exit` scored 0 and
    # reset() brought the env back
    calls = {"step": lambda: env.step('exit(message="x")'), "reset": lambda: env.reset(options={"task_id": 0}),
             "end_episode": lambda: env.unwrapped.end_episode()}
    for name, call in calls.items():
        with pytest.raises(EnvClosedError) as raised:
            call()
        assert isinstance(raised.value, WebArenaGymError) and isinstance(raised.value, RuntimeError)
        assert str(raised.value) == (f"{name}() on a closed env: close() released its session and world for good. "
                                     "Make a new env with gym.make('WebArenaLite-v0', ...).")
    env.close()


def test_an_env_that_was_never_reset_can_be_closed_and_then_refuses_to_reset():
    env = gym.make("WebArenaLiteEmbedded-v0")
    env.close()
    with pytest.raises(EnvClosedError, match=r"Make a new env with gym.make\('WebArenaLiteEmbedded-v0', \.\.\.\)"):
        env.reset()


@pytest.mark.parametrize("workers", [0, 2], ids=["threads", "processes"])
def test_a_closed_vector_env_refuses_every_call_with_one_error(workers):
    envs = webarena_gym.make_vec(2, workers=workers, suite="embedded", max_steps=3)
    envs.reset(seed=0)
    envs.step([WAIT, WAIT])
    envs.close()
    envs.close()
    for call in (lambda: envs.step([WAIT, WAIT]), lambda: envs.reset(seed=0), lambda: envs.step_async([WAIT, WAIT]),
                 lambda: envs.step_wait(), lambda: envs.call("max_steps")):
        with pytest.raises(EnvClosedError, match=r"on a closed vector env: close\(\) shut its envs down for good\. "
                                                 r"Make a new one with webarena_gym\.make_vec"):
            call()


def test_gymnasiums_make_vec_gives_the_same_lifecycle():
    envs = gym.make_vec("WebArenaLite-v0", num_envs=2, suite="embedded")
    envs.reset(seed=0)
    envs.close()
    with pytest.raises(EnvClosedError):
        envs.step([WAIT, WAIT])
