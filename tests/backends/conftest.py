"""Ad-hoc tasks for driving the backends through the env on real embedded pages."""

from __future__ import annotations

import pytest

from webarena_gym.env import WebArenaEnv
from webarena_gym.tasks.oracle import OracleContext


def adhoc_task(task_id: int, sites: list[str], start_url: str) -> dict:
    return {
        "task_id": task_id, "sites": sites, "start_url": start_url, "intent": "explore", "require_login": True,
        "eval": {"eval_types": ["string_match"], "reference_answers": {"exact_match": "never"}},
    }


TASKS = [
    adhoc_task(1, ["reddit"], "__REDDIT__/submit"),
    adhoc_task(2, ["shopping"], "__SHOPPING__/beauty-personal-care.html"),
    adhoc_task(3, ["reddit"], "__HOMEPAGE__/"),
    adhoc_task(4, ["shopping"], "__SHOPPING__/"),
    adhoc_task(5, ["shopping"], "__HOMEPAGE__/"),
]


class Driver:
    """An env plus an OracleContext, to act on pages by what they show."""

    def __init__(self, env: WebArenaEnv):
        self.env = env
        self.ctx = OracleContext({})
        self.info: dict = {}

    def reset(self, task_id: int) -> Driver:
        observation, self.info = self.env.reset(options={"task_id": task_id})
        self.ctx.update(observation, self.info, self.env.page)
        return self

    def do(self, action: str) -> dict:
        observation, _, _, _, self.info = self.env.step(action)
        self.ctx.update(observation, self.info, self.env.page)
        return self.info


@pytest.fixture(params=["direct", pytest.param("playwright", marks=pytest.mark.browser)])
def driver(request):
    env = WebArenaEnv(suite="embedded", backend=request.param, tasks=TASKS, max_steps=50)
    yield Driver(env)
    env.close()
