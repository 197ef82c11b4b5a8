"""Episodes of WebArena-Verified tasks against stand-in sites, on both backends, scored by the package.

For a retrieve (task 0), a mutate (448: the GitLab profile's website) and a navigate task
(156: the merge requests assigned to me), the expected response earns 1.0 and a wrong value,
a wrong status, a missing request or wrong parameters earn 0.0; every reward is the score
the package's own ``evaluate_task`` gives when called directly on the HAR file the episode
left in its run folder (read by the package's loader).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from webarena_verified.types.tracing import NetworkTrace

from webarena_gym.env import WebArenaEnv
from webarena_gym.errors import InfrastructureError
from webarena_gym.suites.verified import benchmark, evaluate_verified

from .stub_sites import APPS, BESTSELLER, DIRECT_URLS, served

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:url_normalize.*")  # the package's dependency


@pytest.fixture(scope="module", params=["direct", pytest.param("playwright", marks=pytest.mark.browser)])
def env(request, tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("verified-runs")
    if request.param == "direct":
        environment = WebArenaEnv(suite="webarena-verified", site_apps=APPS, site_urls=DIRECT_URLS,
                                  task_ids=[0, 156, 448], run_dir=run_dir)
        yield environment
        environment.close()
        return
    auth = tmp_path_factory.mktemp("no-login-states")  # the stand-ins need no login
    with served() as urls, pytest.MonkeyPatch.context() as patch:
        patch.setenv("WA_AUTH_DIR", str(auth))
        environment = WebArenaEnv(suite="webarena-verified", backend="playwright", site_urls=urls,
                                  task_ids=[0, 156, 448], run_dir=run_dir,
                                  reset_sites=False)  # the stand-ins have no env-control endpoint
        yield environment
        environment.close()


def answer(task_type: str, status: str = "SUCCESS", data=None) -> str:
    response = {"task_type": task_type, "status": status, "retrieved_data": data,
                "error_details": None if status == "SUCCESS" else "it failed"}
    return f"exit(message={json.dumps(response)!r})"


def element(env: WebArenaEnv, label: str) -> int:
    return next(e.id for e in env.page.elements if label in e.label)


def run(env: WebArenaEnv, task_id: int, actions: list[str], final: str) -> tuple[float, dict]:
    """One episode; checks the reward against the package called on the HAR file the episode wrote."""
    env.reset(options={"task_id": task_id})
    for action in actions:
        _, _, terminated, _, info = env.step(action)
        assert not terminated and info["last_action_error"] == ""
    _, reward, terminated, _, info = env.step(final)
    assert terminated and info["last_action_error"] == ""
    folder = Path(env.run_dir) / str(task_id)
    trace = NetworkTrace.from_content(folder / "network.har")  # the package's own HAR loader reads it
    assert len(trace.events) == len(json.loads((folder / "network.har").read_text())["log"]["entries"]) > 0
    direct = benchmark(env.backend.sites.urls).evaluate_task(
        task_id=task_id, agent_response=json.loads((folder / "agent_response.json").read_text()),
        network_trace=folder / "network.har")
    assert reward == direct.score
    assert info["reward_components"] == {r.evaluator_name: r.score for r in direct.evaluators_results}
    assert info["evaluation"]["score"] == reward
    return reward, info


def test_retrieve_task_scores_the_structured_answer(env):
    assert run(env, 0, [], answer("RETRIEVE", data=[BESTSELLER]))[0] == 1.0
    assert run(env, 0, [], answer("RETRIEVE", data=["Sprite Yoga Strap"]))[0] == 0.0  # wrong value
    assert run(env, 0, [], answer("RETRIEVE", status="NOT_FOUND_ERROR", data=[]))[0] == 0.0  # wrong status
    assert run(env, 0, [], answer("MUTATE"))[0] == 0.0  # wrong task type


def _set_website(env: WebArenaEnv, url: str) -> list[str]:
    return [f'do(action="Type", element="{element(env, "Website url")}", argument="{url}")',
            f'do(action="Click", element="{element(env, "Update profile")}")']


def test_mutate_task_scores_the_request_it_made(env):
    env.reset(options={"task_id": 448})
    reward, info = run(env, 448, _set_website(env, "https://egg.tart.com"), answer("MUTATE"))
    assert reward == 1.0 and info["reward_components"] == {"AgentResponseEvaluator": 1.0, "NetworkEventEvaluator": 1.0}
    reward, info = run(env, 448, _set_website(env, "https://egg.tart.org"), answer("MUTATE"))  # wrong parameter
    assert reward == 0.0 and info["reward_components"]["NetworkEventEvaluator"] == 0.0
    reward, info = run(env, 448, [], answer("MUTATE"))  # the request was never made
    assert reward == 0.0 and info["reward_components"] == {"AgentResponseEvaluator": 1.0, "NetworkEventEvaluator": 0.0}
    reward, info = run(env, 448, _set_website(env, "https://egg.tart.com"), answer("MUTATE", "PERMISSION_DENIED_ERROR"))
    assert reward == 0.0 and info["reward_components"]["AgentResponseEvaluator"] == 0.0  # wrong status
    assert info["evaluation"]["agent_response"]["status"] == "PERMISSION_DENIED_ERROR"


def test_navigate_task_scores_the_last_page_visited(env):
    env.reset(options={"task_id": 156})
    mine = f'do(action="Click", element="{element(env, "assigned to me")}")'
    colleague = f'do(action="Click", element="{element(env, "of a colleague")}")'
    assert run(env, 156, [mine], answer("NAVIGATE"))[0] == 1.0
    reward, info = run(env, 156, [colleague], answer("NAVIGATE"))  # wrong query parameter
    assert reward == 0.0 and info["reward_components"]["NetworkEventEvaluator"] == 0.0
    assert run(env, 156, [], answer("NAVIGATE"))[0] == 0.0  # never went there
    assert run(env, 156, [mine], answer("RETRIEVE", data=["x"]))[0] == 0.0  # wrong task type


def test_an_answer_outside_the_schema_is_an_agent_error_and_the_episode_goes_on(env):
    env.reset(options={"task_id": 0})
    _, reward, terminated, truncated, info = env.step('exit(message="Quest Lumaflex Band")')
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert "must be a JSON object" in info["last_action_error"] and '"task_type"' in info["last_action_error"]
    _, _, terminated, _, info = env.step("exit(message='{\"task_type\": \"FETCH\", \"status\": \"SUCCESS\"}')")
    assert not terminated and "task_type" in info["last_action_error"]
    _, reward, terminated, _, _ = env.step(answer("RETRIEVE", data=[BESTSELLER]))
    assert terminated and reward == 1.0


def test_an_empty_or_unreadable_trace_is_an_infrastructure_error_not_a_zero(env):
    task = env.tasks_by_id[448]
    response = {"task_type": "MUTATE", "status": "SUCCESS", "retrieved_data": None}
    with pytest.raises(InfrastructureError, match="network trace is empty"):
        evaluate_verified(task, response, [], site_urls=env.backend.sites.urls)
    with pytest.raises(InfrastructureError, match="not readable by webarena-verified"):
        evaluate_verified(task, response, [{"url": "http://x/"}], site_urls=env.backend.sites.urls)


def test_the_step_limit_scores_no_answer_even_after_the_right_request(env):
    env.reset(options={"task_id": 448})
    actions = _set_website(env, "https://egg.tart.com")
    env.max_steps = len(actions)
    try:
        env.step(actions[0])
        _, reward, terminated, truncated, info = env.step(actions[1])
    finally:
        env.max_steps = 30
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert info["reward_components"] == {"AgentResponseEvaluator": 0.0, "NetworkEventEvaluator": 1.0}
    assert info["evaluation"]["agent_response"] is None
