"""webarena-gym: Gymnasium environments for web agents on WebArena-Lite and embedded offline sites.

>>> import gymnasium as gym
>>> import webarena_gym  # registers the envs
>>> "WebArenaLite-v0" in gym.registry
True
"""

from __future__ import annotations

from gymnasium.envs.registration import register

__version__ = "0.1.0"

#: Registered env ids -> fixed keyword arguments.
ENV_IDS = {
    "WebArenaLite-v0": {},
    "WebArenaLiteEmbedded-v0": {"suite": "embedded"},
    "WebArenaVerified-v0": {"suite": "webarena-verified"},
}

# Without gymnasium's passive env checker (gym.make(..., disable_env_checker=False) adds it back): once the
# first reset or step raises (an unknown task id, a step before reset) its wrapper breaks the env for good
# (gymnasium 1.4: TypeError from env_data_reuse_passive_checker at the next step). The env passes check_env
# (tests/test_env.py).
# gym.make_vec(id, num_envs) builds this package's own vector env (threads, or worker processes with
# workers=W: see make_vec below); vectorization_mode="sync" or "async" still gives Gymnasium's own.
for _env_id, _kwargs in ENV_IDS.items():
    register(id=_env_id, entry_point="webarena_gym.env:WebArenaEnv", vector_entry_point="webarena_gym:make_vec",
             kwargs=_kwargs, disable_env_checker=True)


def make_vec(num_envs: int, *, workers: int | None = None, **kwargs):
    """A vector env of WebArena envs: :func:`webarena_gym.vector_workers.make_vec` (imported on first use)."""
    from .vector_workers import make_vec as make

    return make(num_envs, workers=workers, **kwargs)


__all__ = ["ENV_IDS", "__version__", "make_vec"]
