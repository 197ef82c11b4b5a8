"""Rollout throughput of the trainer: batched generation over live episodes vs one episode at a time.

Both rows play the same episodes (a tiny model sampling on the train tasks of a few
embedded families, fixed seed) through :func:`trainers.rollout.collect_rollouts`:

- one at a time: every episode alone (generation batch 1, one env),
- batched: all episodes at once, one ``generate`` call per turn over the live episodes,
  env steps in worker processes, one per core (what a GRPO step does).

Also reports the tokens of the two training layouts for the same trajectories (rows per
turn with exact contexts vs one compressed sequence per trajectory).

Run: ``.venv/bin/python benchmarks/trainer_rollouts.py [--episodes 32]``
"""

from __future__ import annotations

import argparse
import tempfile
import time

from transformers import set_seed

from trainers.config import AgentArguments
from trainers.layouts import trajectory_rows, turn_rows
from trainers.policy import Sampler, load_policy
from trainers.rollout import collect_rollouts, make_rollout_envs
from trainers.tiny import build_tiny_model, demonstration_texts
from webarena_gym.demos import record_oracle_demonstrations
from webarena_gym.suites.embedded import family_task_ids

FAMILIES = ("map.missing_information", "map.zip_code", "shopping_admin.preview_theme")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=32)
    args = parser.parse_args()
    ids = family_task_ids("train", FAMILIES)
    task_ids = (ids * (args.episodes // len(ids) + 1))[: args.episodes]
    demos = list(record_oracle_demonstrations("train", task_ids=ids, progress=False))
    agent = AgentArguments(split="train", task_ids=ids, max_turns=3, max_chars=3000)
    with tempfile.TemporaryDirectory() as tmp:
        model, tokenizer = load_policy(str(build_tiny_model(tmp, texts=demonstration_texts(demos))))
    sampler = Sampler(model, tokenizer, max_new_tokens=32, temperature=1.0, batch_size=args.episodes)

    timings = {}
    for name, batch, workers in (("one at a time", 1, 1), ("batched", args.episodes, None)):
        envs = make_rollout_envs(agent, batch, workers=workers)
        set_seed(0)
        started = time.perf_counter()
        trajectories = []
        for start in range(0, len(task_ids), batch):
            trajectories += collect_rollouts(envs, task_ids[start : start + batch], sampler, tokenizer)
        timings[name] = time.perf_counter() - started
        envs.close()

    turns = sum(len(t.turns) for t in trajectories)
    base = timings["one at a time"]
    print(f"{len(task_ids)} episodes, {turns} turns, tiny model on CPU")
    for name, seconds in timings.items():
        print(f"  {name:<14} {len(task_ids) / seconds:7.1f} episodes/s   {base / seconds:5.1f}x")
    for name, rows in (("turn", turn_rows(trajectories)), ("trajectory", trajectory_rows(trajectories, tokenizer))):
        tokens = sum(len(r.prompt_ids) + len(r.completion_ids) for r in rows)
        print(f"  layout {name:<10} {len(rows):4d} rows  {tokens:8d} tokens to score")


if __name__ == "__main__":
    main()
