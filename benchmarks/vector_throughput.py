"""Env steps per second with threads vs worker processes, a GRPO step with and without overlap, worker memory.

Three measurements in one run (direct backend, embedded sites):

1. Env steps/s for 8, 64 and 256 concurrent episodes (and the CPU cores each row got, and
   steps per CPU-second, so that a loaded machine's figures can be read): the thread vector env
   (``webarena_gym.make_vec(n)``, every env in this process, steps serialized on the GIL)
   vs the process vector env (``make_vec(n, workers=W)``, W = the cores this process may
   use unless ``--workers``). Both replay the same actions: env ``i`` plays the oracle's
   actions of test task ``i mod k`` (its ``exit`` dropped, cycled), ``--rounds`` steps per env.
2. Peak memory (RSS high-water mark, ``VmHWM``) of each worker process after the 256-env
   row, beside this process's.
3. Seconds per multi-turn GRPO step of a tiny model with ``rollout_overlap`` off and on
   (same steps, same seed; :func:`trainer_step_time.measure`).

Run: ``.venv/bin/python benchmarks/vector_throughput.py [--sizes 8 64 256] [--workers 2] [--grpo-steps 3]``
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import warnings
from pathlib import Path

import webarena_gym
from webarena_gym.env import WebArenaEnv
from webarena_gym.oracle_runner import play
from webarena_gym.suites.embedded import embedded_tasks, family_of
from webarena_gym.vector_workers import default_worker_count


def oracle_scripts(count: int) -> list[tuple[int, list[str]]]:
    """(task id, the oracle's actions without its exit) for ``count`` test tasks of different families."""
    env = WebArenaEnv(suite="embedded", backend="direct", max_steps=30)
    seen, scripts = set(), []
    try:
        for task in embedded_tasks("test"):
            family = family_of(task.task_id, "test")
            if family.name in seen or len(scripts) == count:
                continue
            seen.add(family.name)
            episode = play(env, task.task_id, family.solve, env.tasks_by_id[task.task_id].to_dict())
            actions = [a for a in episode.actions if not a.startswith("exit(")] or ['do(action="Scroll Down")']
            scripts.append((task.task_id, actions))
    finally:
        env.close()
    return scripts


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes (all their threads), from /proc."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def replay(envs, scripts, rounds: int, pids: list[int]) -> tuple[float, float]:
    """(env steps per wall second, CPU cores the processes ``pids`` used) over ``rounds`` vector steps.

    One untimed pass first: fresh workers compile templates and warm caches on their first pages.
    """
    n = envs.num_envs
    for _pass in ("warm-up", "timed"):
        envs.reset(options={"task_ids": [scripts[i % len(scripts)][0] for i in range(n)]})
        started, cpu = time.perf_counter(), cpu_seconds(pids)
        for r in range(rounds):
            actions = []
            for i in range(n):
                script = scripts[i % len(scripts)][1]
                actions.append(script[r % len(script)])
            envs.step(actions)
        wall = time.perf_counter() - started
    return n * rounds / wall, (cpu_seconds(pids) - cpu) / wall


def peak_rss_mib(pid: int | str = "self") -> float:
    """The high-water mark of a process's resident memory, in MiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure_envs(args: argparse.Namespace, scripts) -> list[float]:
    """Print the threads-vs-processes table; return the peak RSS of each worker of the largest row."""
    print(f"env steps/s, direct backend, {args.rounds} steps per env; processes: {args.workers} workers "
          f"on {default_worker_count()} cores; 'cores' = CPU the row's processes got (a loaded machine gives less)")
    print(f"{'episodes':>8} {'threads':>9} {'processes':>10} {'ratio':>6} {'cores t/p':>11} "
          f"{'steps/CPU-s t/p':>16}")
    worker_peaks: list[float] = []
    for size in args.sizes:
        common = dict(suite="embedded", backend="direct", max_steps=args.rounds + 1)
        threads = webarena_gym.make_vec(size, workers=0, **common)
        try:
            thread_rate, thread_cores = replay(threads, scripts, args.rounds, [os.getpid()])
        finally:
            threads.close()
        processes = webarena_gym.make_vec(size, workers=args.workers, **common)
        try:
            process_rate, process_cores = replay(processes, scripts, args.rounds,
                                                 [os.getpid(), *processes.worker_pids])
            worker_peaks = [peak_rss_mib(pid) for pid in processes.worker_pids]
        finally:
            processes.close()
        print(f"{size:>8} {thread_rate:9.1f} {process_rate:10.1f} {process_rate / thread_rate:5.2f}x "
              f"{thread_cores:5.2f}/{process_cores:<5.2f} {thread_rate / thread_cores:8.0f}/{process_rate / process_cores:<7.0f}",
              flush=True)
    return worker_peaks


def measure_overlap(args: argparse.Namespace) -> None:
    """Print seconds per GRPO step with overlap off and on."""
    import trainer_step_time
    from transformers.utils import logging as transformers_logging

    from webarena_gym.suites.embedded import family_task_ids

    transformers_logging.disable_progress_bar()
    warnings.filterwarnings("ignore", category=FutureWarning)
    warnings.filterwarnings("ignore", message=".*rollout_func.*")
    settings = trainer_step_time.parse_args([
        "--steps", str(args.grpo_steps), "--hidden-size", str(args.hidden_size), "--layers", str(args.layers)])
    task_ids = family_task_ids("train", trainer_step_time.FAMILIES)
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        model = trainer_step_time.build_model(settings, task_ids, f"{tmp}/model")
        for overlap in (False, True):
            rows[overlap] = trainer_step_time.measure(
                model, task_ids, settings, layout="trajectory", bf16=False, output_dir=f"{tmp}/run",
                rollout_overlap=overlap, rollout_workers=args.workers)
    base = rows[False]["step_s"]
    print(f"GRPO step, trajectory layout, {settings.tasks_per_step} tasks x G={settings.num_generations}, "
          f"hidden size {args.hidden_size}, {args.layers} layers, {args.workers} env workers")
    for overlap, row in rows.items():
        print(f"  overlap {'on ' if overlap else 'off'}  {row['step_s']:6.2f} s/step  generation {row['generation']:4.0%}"
              f"  env wait {row['env']:4.0%}  {base / row['step_s']:5.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 64, 256])
    parser.add_argument("--workers", type=int, default=default_worker_count())
    parser.add_argument("--rounds", type=int, default=6, help="steps per env in each row")
    parser.add_argument("--tasks", type=int, default=12, help="distinct oracle scripts replayed")
    parser.add_argument("--grpo-steps", type=int, default=3, help="GRPO steps per overlap row (0 skips them)")
    parser.add_argument("--hidden-size", type=int, default=96)
    parser.add_argument("--layers", type=int, default=2)
    args = parser.parse_args()
    scripts = oracle_scripts(args.tasks)
    worker_peaks = measure_envs(args, scripts)
    print(f"peak RSS per worker at {args.sizes[-1]} episodes: "
          + ", ".join(f"{peak:.0f} MiB" for peak in worker_peaks)
          + f" ({args.sizes[-1] / len(worker_peaks):.0f} envs each); this process: {peak_rss_mib():.0f} MiB "
          "(it also held the thread rows' envs)")
    if args.grpo_steps:
        measure_overlap(args)


if __name__ == "__main__":
    main()
