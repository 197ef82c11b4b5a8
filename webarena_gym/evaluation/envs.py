"""A group of envs reset and stepped concurrently by a thread pool (evaluation runs and trainer rollouts).

Not a Gymnasium vector env: those step every env each call and autoreset finished ones,
while an evaluation or a rollout batch steps only its live episodes and starts new ones
in the slots that are free.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any


class EnvGroup:
    """Envs created on demand by ``make_env``, reset and stepped concurrently by a thread pool.

    Every env owns its world, so episodes of the same task never see each other's writes.
    """

    def __init__(self, make_env: Callable[[], Any], *, workers: int = 4):
        self.make_env = make_env
        self.envs: list[Any] = []
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="webarena-env")

    def ensure(self, count: int) -> None:
        while len(self.envs) < count:
            self.envs.append(self.make_env())

    def reset(self, task_ids: Sequence[int]) -> list[tuple[str, dict[str, Any]]]:
        """Reset env ``i`` on ``task_ids[i]``."""
        return self.reset_at(range(len(task_ids)), task_ids)

    def reset_at(self, indices: Sequence[int], task_ids: Sequence[int]) -> list[tuple[str, dict[str, Any]]]:
        """Reset env ``indices[k]`` on ``task_ids[k]``; results in the same order."""
        self.ensure(max(indices, default=-1) + 1)
        return self._gather([self.pool.submit(self.envs[i].reset, options={"task_id": t})
                             for i, t in zip(indices, task_ids, strict=True)])

    def step(self, indices: Sequence[int], actions: Sequence[str]) -> list[tuple[Any, ...]]:
        """Step env ``indices[k]`` with ``actions[k]``; results in the same order."""
        return self._gather([self.pool.submit(self.envs[i].step, a) for i, a in zip(indices, actions, strict=True)])

    @staticmethod
    def _gather(jobs: list[Future]) -> list[Any]:
        # Let every env finish before an error propagates: closing envs while other threads
        # still use their worlds would crash inside SQLite.
        wait(jobs)
        return [job.result() for job in jobs]

    def close(self) -> None:
        self.pool.shutdown(wait=True)
        for env in self.envs:
            env.close()
        self.envs = []

    def __enter__(self) -> EnvGroup:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()
