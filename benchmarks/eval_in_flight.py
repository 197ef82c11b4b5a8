"""Evaluation throughput against an endpoint: one episode at a time vs many in flight.

A chat-completions server on loopback stands in for a model server whose every answer
takes ``--latency`` seconds (generation time); it scrolls twice, then answers "N/A", so
every episode has three turns. The same tasks are evaluated through ``webarena-gym eval``'s
runner and the real ``openai`` client with 1 episode in flight (the baseline) and with
more, and the episodes per second are compared. The envs are the runner's vector env
(``make_agent_envs``: worker processes, ``--env-workers``), started before the clock starts.

Run from the checkout's root (it reuses the tests' chat server): ``.venv/bin/python -m benchmarks.eval_in_flight [--tasks 48 --latency 0.2]``
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

from tests.evaluation.chat_server import ChatServer, Reply
from webarena_gym.evaluation import RunWriter, make_agent_envs, run_evaluation
from webarena_gym.evaluation.chat_completions import ChatCompletionsPolicy


def slow_model(latency: float):
    def respond(request, number):
        time.sleep(latency)  # the model's generation time
        turns = sum(m["role"] == "assistant" for m in request["messages"])
        return Reply('do(action="Scroll Down")' if turns < 2 else 'exit(message="N/A")')

    return respond


def measure(url: str, task_ids: list[int], in_flight: int, folder: Path, workers: int | None) -> float:
    policy = ChatCompletionsPolicy("stand-in", base_url=url, concurrency=in_flight)
    with make_agent_envs(in_flight, workers=workers, suite="embedded", split="test", max_steps=30) as envs:
        started = time.perf_counter()  # the envs (and their worker processes) are ready: time the episodes only
        with RunWriter(folder / f"{in_flight}.jsonl", policy.describe()) as writer:
            results = run_evaluation(envs, policy, task_ids, writer=writer, progress=False)
        elapsed = time.perf_counter() - started
    policy.close()
    assert len(results) == len(task_ids)
    return len(task_ids) / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=48)
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per answer of the stand-in model")
    parser.add_argument("--in-flight", type=int, nargs="+", default=[1, 4, 8, 16])
    parser.add_argument("--env-workers", type=int, default=None,
                        help="env worker processes (default: one per core, at most one per episode; 0: this process)")
    args = parser.parse_args()
    task_ids = list(range(args.tasks))
    threading.excepthook = lambda hook_args: None  # the server's threads may outlive a closed connection
    with ChatServer(slow_model(args.latency)) as server, tempfile.TemporaryDirectory() as folder:
        rows = [(n, measure(server.url, task_ids, n, Path(folder), args.env_workers)) for n in args.in_flight]
    baseline = rows[0][1]
    print(f"{args.tasks} episodes of 3 turns, {args.latency:g} s per answer:")
    print(f"{'episodes in flight':>20}{'episodes/s':>12}{'vs 1':>8}")
    for n, rate in rows:
        print(f"{n:>20}{rate:>12.2f}{rate / baseline:>7.1f}x")


if __name__ == "__main__":
    main()
