"""What the embedded sites cost per step and per reset on the direct backend, this tree beside a baseline commit.

Busier pages (more markup, more data) cost time to render and to simplify; this script measures that
cost side by side. It exports the baseline commit (``git archive``) into a temporary folder, and in
alternating rounds runs the same measurement in a child process on each tree (``PYTHONPATH`` puts
that tree's ``webarena_gym`` first):

- the oracle's trajectories on one test task per family (up to ``--tasks``), recorded on that tree,
- their replay on one direct-backend env: median milliseconds per step and per reset, the mean
  observation length in characters and the mean number of numbered elements.

Each tree replays its own tasks (the suites differ between commits), so ms/step compares what a step
costs on each tree's pages. Ratios are this tree / baseline; rounds alternate so a busy machine slows
both sides alike.

Run: ``.venv/bin/python benchmarks/site_step_cost.py --baseline 2dd7c49 [--tasks 40] [--rounds 3]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]


def measure(tasks: int, replays: int) -> dict[str, float]:
    """The child's work on the tree its ``PYTHONPATH`` names (see the module docstring)."""
    from webarena_gym.env import WebArenaEnv
    from webarena_gym.oracle_runner import play
    from webarena_gym.suites.embedded import embedded_tasks, family_of

    env = WebArenaEnv(suite="embedded", backend="direct", max_steps=30)
    seen, trajectories = set(), []
    for task in embedded_tasks("test"):
        family = family_of(task.task_id, "test")
        if family.name in seen or len(trajectories) >= tasks:
            continue
        seen.add(family.name)
        episode = play(env, task.task_id, family.solve, env.tasks_by_id[task.task_id].to_dict())
        trajectories.append((task.task_id, episode.actions[:-1]))  # the final answer (an evaluation) is not timed
    steps, resets, chars, elements = [], [], [], []
    for _ in range(replays):
        for task_id, actions in trajectories:
            started = time.perf_counter()
            observation, _ = env.reset(options={"task_id": task_id})
            resets.append(time.perf_counter() - started)
            for action in actions:
                started = time.perf_counter()
                observation, *_ = env.step(action)
                steps.append(time.perf_counter() - started)
                chars.append(len(observation))
                elements.append(len(env.page.elements) if env.page is not None else 0)
    env.close()
    return {"ms_per_step": 1000 * statistics.median(steps), "ms_per_reset": 1000 * statistics.median(resets),
            "chars": statistics.fmean(chars), "elements": statistics.fmean(elements),
            "trajectories": len(trajectories), "steps": len(steps) // replays}


def export(commit: str, into: Path) -> Path:
    """The package folder of ``commit``, exported into ``into`` (raises when git cannot read the commit)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, "webarena_gym"],
                             capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"git archive {commit} failed: {archive.stderr.decode(errors='replace').strip()}")
    tar_path = into / "tree.tar"
    tar_path.write_bytes(archive.stdout)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into, filter="data")
    return into


def run_child(tree: Path, tasks: int, replays: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, __file__, "--child", "--tasks", str(tasks), "--replays", str(replays)],
                          capture_output=True, text=True, env=env, cwd=tree, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the measurement on {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", help="the commit to compare with (e.g. the one before a change)")
    parser.add_argument("--tasks", type=int, default=40, help="trajectories per tree (one test task per family)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (a child process per tree each)")
    parser.add_argument("--replays", type=int, default=2, help="replays of the trajectories in one child")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.tasks, args.replays)))
        return
    if not args.baseline:
        parser.error("--baseline COMMIT is required (the commit to compare this tree with)")
    with tempfile.TemporaryDirectory(prefix="site-step-cost-") as folder:
        trees = {"this tree": ROOT, f"baseline {args.baseline}": export(args.baseline, Path(folder))}
        results: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
        for _ in tqdm(range(args.rounds), desc="rounds"):
            for name, tree in trees.items():
                results[name].append(run_child(tree, args.tasks, args.replays))
    rows = {name: {key: statistics.median(r[key] for r in runs) for key in runs[0]} for name, runs in results.items()}
    print(f"\n{'tree':<22}{'ms/step':>9}{'ms/reset':>10}{'obs chars':>11}{'elements':>10}{'trajectories':>14}")
    for name, row in rows.items():
        print(f"{name:<22}{row['ms_per_step']:>9.2f}{row['ms_per_reset']:>10.2f}{row['chars']:>11.0f}"
              f"{row['elements']:>10.1f}{row['trajectories']:>14.0f}")
    ours, base = rows["this tree"], rows[f"baseline {args.baseline}"]
    print("\nthis tree / baseline")
    for key, target in (("ms_per_step", "target <= 1.5"), ("ms_per_reset", ""), ("chars", ""), ("elements", "")):
        print(f"  {key:<14}{ours[key] / base[key]:>7.2f}x  {target}")
    print("(ms/reset is the env's whole reset: the world, the start page and its observation; the world's own "
          "reset is benchmarks/world_reset.py's)")


if __name__ == "__main__":
    main()
