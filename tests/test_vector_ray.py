"""Envs in Ray actors on a real two-node Ray cluster on loopback: the vector API, placement, faults, set-up errors.

The cluster (a head node, and a second node with its own custom resource ``browser``) is
started once for the module with ``ray start`` and always stopped (``ray stop --force``).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import webarena_gym
from tests.test_vector_workers import (
    test_errors_in_a_worker_come_back_as_the_same_exception as errors_contract,
)
from tests.test_vector_workers import (
    test_only_the_given_envs_step_and_ended_ones_wait_for_a_reset_mask as reset_mask_contract,
)
from webarena_gym.errors import ConfigurationError
from webarena_gym.oracle_runner import play
from webarena_gym.suites.embedded import embedded_tasks, family_of

pytest.importorskip("ray")
pytestmark = pytest.mark.slow

RAY = str(Path(sys.executable).with_name("ray"))
WAIT = 'do(action="Wait")'


def free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def node_ports() -> list[str]:
    grpc, metrics, listen, runtime_env, manager, objects = free_ports(6)
    base = 20000 + (os.getpid() % 400) * 100 + (manager % 2) * 50
    # fixed agent ports: with port 0 the raylet waits for the agent to write its port, which can time out on a
    # busy machine ("Timed out waiting for file .../metrics_agent_port")
    return [f"--dashboard-agent-grpc-port={grpc}", f"--metrics-export-port={metrics}",
            f"--dashboard-agent-listen-port={listen}", f"--runtime-env-agent-port={runtime_env}",
            f"--node-manager-port={manager}", f"--object-manager-port={objects}",
            f"--min-worker-port={base}", f"--max-worker-port={base + 40}"]


def start_cluster(head: list[str], second: list[str], env: dict[str, str], tries: int = 3) -> None:
    """``ray start`` both nodes; on a busy machine a node can miss Ray's 30 s start-up window: start again."""
    for _ in range(tries):
        subprocess.run([RAY, "stop", "--force"], capture_output=True, env=env)
        said = ""
        for command in (head, second):
            done = subprocess.run([*command, *node_ports()], capture_output=True, text=True, env=env, timeout=600)
            said = f"{' '.join(command)}:\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}"
            if done.returncode != 0:
                break
        else:
            return
    raise AssertionError(f"the Ray cluster did not start in {tries} tries; last: {said}")


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    """``(address, id of the node with the 'browser' resource)`` of a head node plus a second node, both 1 CPU."""
    ray = pytest.importorskip("ray")
    (port,) = free_ports(1)
    address = f"127.0.0.1:{port}"
    # A home of its own: a token that an earlier local `ray.init()` left in ~/.ray/auth_token made the second
    # node's `ray start` fail with "InvalidAuthToken".
    home, old_home = str(tmp_path_factory.mktemp("ray-home")), os.environ.get("HOME")
    os.environ["HOME"] = home
    request.addfinalizer(lambda: os.environ.__setitem__("HOME", old_home) if old_home else None)
    env = dict(os.environ, RAY_agent_register_timeout_ms="300000")
    common = ["--node-ip-address=127.0.0.1", "--num-cpus=1", "--object-store-memory=80000000",
              "--disable-usage-stats"]
    request.addfinalizer(lambda: subprocess.run([RAY, "stop", "--force"], capture_output=True, env=env))
    start_cluster([RAY, "start", "--head", f"--port={port}", "--include-dashboard=false", *common],
                  [RAY, "start", f"--address={address}", "--resources=" + json.dumps({"browser": 2}), *common], env)
    ray.init(address=address, log_to_driver=False)
    request.addfinalizer(ray.shutdown)
    nodes = [node for node in ray.nodes() if node["Alive"]]
    assert len(nodes) == 2
    return address, next(node["NodeID"] for node in nodes if "browser" in node["Resources"])


def oracle_actions(task):
    env = gym.make("WebArenaLite-v0", suite="embedded", max_steps=30)
    try:
        return play(env, task.task_id, family_of(task.task_id, "test").solve, task.to_dict()).actions
    finally:
        env.close()


def test_importing_the_package_never_imports_ray_and_a_missing_ray_names_the_extra():
    code = ("import sys, webarena_gym; assert 'ray' not in sys.modules; sys.modules['ray'] = None\n"
            "try:\n    webarena_gym.make_vec(2, workers=1, executor='ray', suite='embedded')\n"
            "except Exception as exc:\n    print(type(exc).__name__, exc)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ConfigurationError") and 'pip install "webarena-gym[ray]"' in out.stdout


def test_no_cluster_at_the_address_is_a_clear_error_before_any_episode():
    (port,) = free_ports(1)
    with pytest.raises(ConfigurationError, match=rf"No Ray cluster at '127.0.0.1:{port}'.*ray start --head"):
        webarena_gym.make_vec(2, workers=1, executor="ray", ray_address=f"127.0.0.1:{port}", suite="embedded")
    with pytest.raises(ConfigurationError, match="executor must be one of"):
        webarena_gym.make_vec(2, workers=1, executor="dask", suite="embedded")


def test_resources_no_node_has_name_the_resource_and_what_the_cluster_has(cluster):
    address, _browser_node = cluster
    with pytest.raises(ConfigurationError, match=r"'gpu_free'.*browser=2"):
        webarena_gym.make_vec(2, workers=1, executor="ray", ray_address=address, ray_resources={"gpu_free": 1},
                              suite="embedded")
    with pytest.raises(ConfigurationError, match=r"3 of resource 'browser'"):
        webarena_gym.make_vec(2, workers=1, executor="ray", ray_address=address, ray_resources={"browser": 3},
                              suite="embedded")


def test_oracle_episodes_on_both_nodes_earn_one_and_a_custom_resource_picks_the_node(cluster):
    address, browser_node = cluster
    task = next(t for t in embedded_tasks("test") if list(t.sites) == ["shopping"])
    actions = oracle_actions(task)
    envs = gym.make_vec("WebArenaLite-v0", num_envs=2, workers=2, executor="ray", ray_address=address,
                        suite="embedded", max_steps=30, autoreset_mode=AutoresetMode.DISABLED)
    try:
        assert len(set(envs.worker_nodes)) == 2 and set(envs.env_nodes) == set(envs.worker_nodes)
        _, infos = envs.reset(options={"task_id": task.task_id})
        assert list(infos["task_id"]) == [task.task_id] * 2
        for action in actions:
            _, rewards, terminated, truncated, infos = envs.step([action, action])
        assert rewards.tolist() == [1.0, 1.0] and terminated.all() and not truncated.any()
    finally:
        envs.close()
    # actors asking for the custom resource run only on the node that has it (and need no CPU of their own)
    envs = webarena_gym.make_vec(2, workers=2, executor="ray", ray_address=address, ray_num_cpus=0,
                                 ray_resources={"browser": 1}, suite="embedded", max_steps=30)
    try:
        assert envs.env_nodes == [browser_node, browser_node]
        _, infos = envs.reset(options={"task_id": task.task_id})
        for action in actions:
            _, rewards, *_ = envs.step([action, WAIT])
        assert rewards.tolist() == [1.0, 0.0]
    finally:
        envs.close()


def test_playwright_oracle_episodes_on_both_nodes_earn_one(cluster):
    """Each actor runs its own embedded sites and its own Chromium: the oracle's actions earn 1.0 on both nodes."""
    address, _browser_node = cluster
    task = next(t for t in embedded_tasks("test") if list(t.sites) == ["shopping"])
    actions = oracle_actions(task)
    envs = webarena_gym.make_vec(2, workers=2, executor="ray", ray_address=address, ray_num_cpus=0.5,
                                 suite="embedded", backend="playwright", max_steps=30,
                                 autoreset_mode=AutoresetMode.DISABLED)
    try:
        assert len(set(envs.env_nodes)) == 2 and envs.call("backend_name") == ("playwright", "playwright")
        _, infos = envs.reset(options={"task_id": task.task_id})
        for action in actions:
            _, rewards, terminated, truncated, infos = envs.step([action, action])
        assert rewards.tolist() == [1.0, 1.0] and terminated.all() and not truncated.any()
    finally:
        envs.close()


def test_the_vector_contract_holds_on_ray_actors(cluster):
    address, _browser_node = cluster
    envs = webarena_gym.make_vec(4, workers=2, executor="ray", ray_address=address, ray_num_cpus=0.5,
                                 suite="embedded", max_steps=3, autoreset_mode=AutoresetMode.DISABLED)
    try:
        assert envs.slices == [[0, 1], [2, 3]]
        reset_mask_contract(envs)
        errors_contract(envs)  # the process workers' two contract tests, as written
        assert envs.call("max_steps") == (3, 3, 3, 3)
    finally:
        envs.close()


def test_an_actor_killed_mid_episode_ends_its_episodes_with_an_infrastructure_error_and_is_replaced(cluster):
    address, _browser_node = cluster
    task = next(t for t in embedded_tasks("test") if list(t.sites) == ["shopping"])
    actions = oracle_actions(task)
    envs = webarena_gym.make_vec(4, workers=2, executor="ray", ray_address=address, ray_num_cpus=0.5,
                                 suite="embedded", max_steps=30, autoreset_mode=AutoresetMode.DISABLED)
    try:
        envs.reset(options={"task_id": task.task_id})
        envs.step([WAIT] * 4)
        old_pid = envs.worker_pids[0]
        os.kill(old_pid, signal.SIGKILL)  # both nodes are on this machine
        _, rewards, terminated, truncated, infos = envs.step([WAIT, None, WAIT, WAIT])
        assert truncated.tolist() == [True, False, False, False] and rewards.tolist() == [0.0] * 4
        assert "died" in infos["infrastructure_error"][0] and infos["episode_end_reason"][0].startswith("infra")
        assert infos["_infrastructure_error"].tolist() == [True, False, False, False]
        assert envs.replaced == 1 and envs.worker_pids[0] != old_pid
        # env 1 lived on the dead actor but was not stepped: its lost episode is reported at its next step
        _, _, _, truncated, infos = envs.step([None, WAIT, WAIT, WAIT])
        assert truncated.tolist() == [False, True, False, False] and "died" in infos["infrastructure_error"][1]
        _, infos = envs.reset(options={"reset_mask": np.array([True, True, False, False]), "task_id": task.task_id})
        assert list(infos["task_id"][:2]) == [task.task_id] * 2
        for action in actions:
            _, rewards, terminated, *_ = envs.step([action, action, None, None])
        assert rewards.tolist() == [1.0, 1.0, 0.0, 0.0] and terminated[:2].all()
    finally:
        envs.close()


def actor_pids() -> list[int]:
    """The pids of this test's live Ray env actors (Ray titles an actor's process ``ray::RayEnvHost...``)."""
    import psutil

    return sorted(p.pid for p in psutil.process_iter(["cmdline"])
                  if (p.info["cmdline"] or [""])[0].startswith("ray::RayEnvHost"))


def test_eval_runs_on_ray_actors_and_records_a_lost_episode_as_an_infrastructure_error(cluster, tmp_path):
    from webarena_gym.cli import main
    from webarena_gym.evaluation import read_run

    from .evaluation.chat_server import ChatServer, Reply

    address, _browser_node = cluster
    killed: list[int] = []

    def respond(request, number):
        if number == 3 and not killed:  # the first turns of both episodes are in: kill one actor mid-episode
            killed.append(actor_pids()[0])
            os.kill(killed[0], signal.SIGKILL)
        return Reply(WAIT if number <= 2 else 'exit(message="N/A")')

    out = tmp_path / "run.jsonl"
    with ChatServer(respond) as server:
        assert main(["eval", "--endpoint", server.url, "--model", "m", "--limit", "3", "--episodes-in-flight", "2",
                     "--env-workers", "2", "--env-executor", "ray", "--ray-address", address, "--ray-num-cpus", "0.5",
                     "-o", str(out), "--no-progress", "--fresh"]) == 0
    episodes = read_run(out).episodes
    reasons = sorted(episode.end_reason for episode in episodes)
    assert killed and len(episodes) == 3 and reasons == ["exit", "exit", "infrastructure_error"]
    lost = next(episode for episode in episodes if episode.end_reason == "infrastructure_error")
    assert "died" in lost.turns[-1].error and lost.reward == 0.0


@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory):
    pytest.importorskip("trl")
    from tests.trainers.place_family import build_place_family
    from trainers.tiny import TinyModelSpec, build_tiny_model, demonstration_texts

    _tasks, demos = build_place_family()
    return build_tiny_model(tmp_path_factory.mktemp("tiny"), texts=demonstration_texts(demos) * 4,
                            spec=TinyModelSpec(vocab_size=3000, hidden_size=64, intermediate_size=192))


@pytest.mark.train
def test_two_grpo_steps_on_ray_actors_built_from_the_config(cluster, tiny_model_dir, tmp_path):
    from tests.trainers.place_family import grpo_config
    from trainers.grpo import MultiTurnGRPOTrainer

    address, _browser_node = cluster
    args = grpo_config(tmp_path, max_steps=2, rollout_workers=2, rollout_envs=8, env_executor="ray",
                       ray_address=address, ray_num_cpus=0.5, logging_steps=1)
    trainer = MultiTurnGRPOTrainer(str(tiny_model_dir), args)
    try:
        assert type(trainer.envs).__name__ == "RayVectorEnv" and trainer.envs.workers == 2
        trainer.train()
    finally:
        trainer.envs.close()
    logs = [log for log in trainer.state.log_history if "rollout/rerun_lost" in log]
    assert trainer.state.global_step == 2 and len(logs) == 2 and all(log["rollout/rerun_lost"] == 0 for log in logs)


@pytest.mark.train
def test_a_rollout_lost_with_its_actor_is_played_again(cluster, tiny_model_dir):
    from tests.trainers.place_family import MAX_CHARS, MAX_TURNS, build_place_family
    from trainers.policy import load_tokenizer
    from trainers.rollout import collect_rollouts_rerunning_lost

    address, _browser_node = cluster
    tasks, _demos = build_place_family()
    tokenizer = load_tokenizer(str(tiny_model_dir))
    from trainers.config import AgentArguments
    from trainers.rollout import make_rollout_envs

    envs = make_rollout_envs(AgentArguments(max_turns=MAX_TURNS, max_chars=MAX_CHARS), 4, workers=2, tasks=tasks, executor="ray",
                             ray_address=address, ray_num_cpus=0.5)
    wait_ids = tokenizer.encode(WAIT, add_special_tokens=False)
    calls = []

    def generate(batch):
        calls.append(len(batch))
        if len(calls) == 2:  # mid-episode: the first turn was played
            os.kill(envs.worker_pids[1], signal.SIGKILL)
        return [list(wait_ids) for _ in batch]

    try:
        ids = [envs.task_ids[0]] * 4
        trajectories, rerun = collect_rollouts_rerunning_lost(envs, ids, generate, tokenizer)
    finally:
        envs.close()
    assert rerun == 2 and envs.replaced == 1  # the two episodes of the killed actor, played again
    assert all(t.truncated and not t.infrastructure_error for t in trajectories)


class HangOnScrollUp(gym.Wrapper):
    """An env whose page hangs for good on ``Scroll Up`` (as a wedged browser would)."""

    def step(self, action):
        if "Scroll Up" in action:
            import time

            time.sleep(10**6)
        return self.env.step(action)


def test_a_worker_that_hangs_past_its_budget_is_replaced_and_its_episodes_end_with_an_infrastructure_error(cluster):
    address, _browser_node = cluster
    envs = webarena_gym.make_vec(2, workers=2, executor="ray", ray_address=address, ray_num_cpus=0.5,
                                 wrap=HangOnScrollUp, worker_timeout_s=30, suite="embedded", max_steps=5,
                                 autoreset_mode=AutoresetMode.DISABLED)
    try:
        envs.reset(seed=0)
        old_pid = envs.worker_pids[1]
        _, rewards, _, truncated, infos = envs.step([WAIT, 'do(action="Scroll Up")'])
        assert truncated.tolist() == [False, True] and "worker_timeout_s=30" in infos["infrastructure_error"][1]
        assert envs.replaced == 1 and envs.worker_pids[1] != old_pid
        _, infos = envs.reset(options={"reset_mask": np.array([False, True])})
        _, _, _, truncated, infos = envs.step([WAIT, WAIT])
        assert not truncated.any() and infos["step"].tolist() == [2, 1]
    finally:
        envs.close()
