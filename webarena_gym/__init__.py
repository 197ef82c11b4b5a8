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
}

for _env_id, _kwargs in ENV_IDS.items():
    register(id=_env_id, entry_point="webarena_gym.env:WebArenaEnv", kwargs=_kwargs)


def make_vec(num_envs: int, *, workers: int | None = None, **kwargs):
    """A vector env of WebArena envs: :func:`webarena_gym.vector_workers.make_vec` (imported on first use)."""
    from .vector_workers import make_vec as make

    return make(num_envs, workers=workers, **kwargs)


__all__ = ["ENV_IDS", "__version__", "make_vec"]
