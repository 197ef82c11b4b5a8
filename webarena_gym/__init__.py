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
    """A vector env of ``num_envs`` WebArena envs stepped concurrently, behind one vector API.

    Without ``workers`` (or with ``workers=0``), the envs stay in this process and step on a
    thread pool (:class:`webarena_gym.vector.WebArenaVectorEnv`, whose ``envs`` are reachable
    directly); with ``workers=N``, they live in N worker processes, each hosting a slice of
    them (:class:`webarena_gym.vector_workers.ProcessVectorEnv`, which adds ``start_method``).
    Both take ``group``, ``wrap``, ``make_env``, ``autoreset_mode`` and the env's keyword arguments.
    """
    if workers is None or (type(workers) is int and workers == 0):
        from .vector import WebArenaVectorEnv

        return WebArenaVectorEnv(num_envs, **kwargs)
    from .vector_workers import ProcessVectorEnv

    return ProcessVectorEnv(num_envs, workers=workers, **kwargs)  # it validates ``workers``


__all__ = ["ENV_IDS", "__version__", "make_vec"]
