"""The verifiers taskset id ``webarena-gym-verifiers``: ``vf-eval webarena-gym-verifiers ...``.

verifiers resolves a taskset id to a top-level module; this one re-exports
:mod:`webarena_gym.integrations.verifiers` (install the ``[verifiers]`` extra).
"""

from __future__ import annotations

from webarena_gym.integrations.verifiers import (
    WebArenaTask,
    WebArenaTaskData,
    WebArenaTaskset,
    WebArenaTasksetConfig,
    WebArenaVerifiersEnv,
)

__all__ = ["WebArenaTask", "WebArenaTaskData", "WebArenaTaskset", "WebArenaTasksetConfig", "WebArenaVerifiersEnv"]
