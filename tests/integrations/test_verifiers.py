"""verifiers 0.4: `vf-eval webarena-gym-verifiers` end to end, from the verifiers venv.

verifiers pins mcp==2.0.0 and OpenEnv needs mcp<2, so verifiers lives in its own venv
(`scripts/setup.sh` makes `.venv-verifiers`). The model is an OpenAI-compatible endpoint
on loopback replaying the oracle's actions (replay_endpoint.py); verifiers' real CLI,
interception proxy, null harness (its chat program, run by uv) and our env loop do the rest.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
from pathlib import Path

import pytest

from webarena_gym.demos import write_demonstrations

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(os.environ.get("WEBARENA_GYM_VERIFIERS_VENV", ROOT / ".venv-verifiers"))
VF_EVAL = VENV / "bin" / "vf-eval"

pytestmark = pytest.mark.skipif(
    not VF_EVAL.exists(),
    reason=f"verifiers is not installed at {VENV}: it cannot share a venv with openenv (mcp==2 vs mcp<2); "
           "scripts/setup.sh creates .venv-verifiers (Python 3.11+), or set WEBARENA_GYM_VERIFIERS_VENV",
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
def test_vf_eval_runs_the_taskset_and_oracle_replies_earn_one(family_demos, tmp_path):
    demos = family_demos[:2]
    write_demonstrations(demos, tmp_path / "demos.jsonl")
    port = free_port()
    environment = dict(os.environ, PYTHONPATH=str(ROOT), PATH=f"{VENV / 'bin'}{os.pathsep}{os.environ['PATH']}",
                       OPENAI_API_KEY="unused")
    endpoint = subprocess.Popen([str(VENV / "bin" / "python"), str(Path(__file__).with_name("replay_endpoint.py")),
                                 str(tmp_path / "demos.jsonl"), str(port)],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment)
    try:
        assert endpoint.stdout.readline().strip() == "ready", endpoint.stdout.read()
        result = subprocess.run(
            [str(VF_EVAL), "webarena-gym-verifiers", "--env.taskset.split", "train",
             "--env.taskset.task-ids", json.dumps([d.task_id for d in demos]),
             "--env.player.harness.id", "null", "--env.player.runtime.type", "subprocess",
             "-m", "oracle-replay", "--client.base-url", f"http://127.0.0.1:{port}/v1",
             "--client.api-key-var", "OPENAI_API_KEY", "-o", str(tmp_path / "out"), "-r", "1"],
            capture_output=True, text=True, env=environment, timeout=900, cwd=tmp_path,
        )
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    finally:
        endpoint.terminate()
        endpoint.wait(timeout=30)
    traces = [trace for line in next((tmp_path / "out").glob("*/traces.jsonl")).read_text().splitlines()
              for trace in json.loads(line)["traces"]]
    assert sorted(t["task"]["data"]["name"] for t in traces) == sorted(f"webarena-embedded-{d.task_id}" for d in demos)
    for trace in traces:
        assert trace["rewards"]["webarena_reward"]["score"] == 1.0, trace.get("errors")
        assert trace["info"]["webarena_steps"] == 3


def test_the_taskset_module_resolves_through_verifiers_own_loader():
    script = (
        "from verifiers.v1.utils.loaders import environment_class, load_taskset, taskset_config_type\n"
        "name = 'webarena-gym-verifiers'\n"
        "tasks = list(load_taskset(taskset_config_type(name)(id=name, split='test', task_ids=[1, 2])))\n"
        "print(environment_class(name).__name__, [t.data.task_id for t in tasks], tasks[0].data.prompt)\n"
    )
    result = subprocess.run([str(VENV / "bin" / "python"), "-c", script], capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == ["WebArenaVerifiersEnv", "[1,", "2]", "None"]

