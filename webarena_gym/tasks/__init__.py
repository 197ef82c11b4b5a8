"""The task data contract: the :class:`~.task.Task` type (WebArena's JSON schema), the base of task
families (:mod:`.families`) and what an oracle sees (:mod:`.oracle`).

The families themselves live with their sites (``webarena_gym/sites/<name>/families``); the suites
that load them, the official data and the splits live in :mod:`webarena_gym.suites`.
"""

from __future__ import annotations
