"""Env steps per second and per-step overhead of Ray actors vs worker processes, on the same episodes.

Direct backend, embedded sites. For 8, 64 and 256 concurrent episodes, the same envs are
hosted by ``--workers`` worker processes (``make_vec(n, workers=W)``) and by ``--workers``
Ray actors (``make_vec(n, workers=W, executor="ray")``); both replay the same actions
(env ``i`` plays the oracle's actions of test task ``i mod k``, its ``exit`` dropped,
cycled; :func:`vector_throughput.replay`, one untimed warm-up pass). Reported per row:
env steps/s of each, their ratio (target: Ray within 10% of processes at 64 episodes),
and the per-vector-step overhead of Ray, ``1/rate_ray - 1/rate_process`` times the
number of envs, in milliseconds (what one ``step`` costs more on actors).

The Ray side joins ``--ray-address`` or starts a local Ray with ``--workers`` CPUs (each
actor asks for one CPU, as a process worker has one core).

Run: ``.venv/bin/python benchmarks/ray_overhead.py [--sizes 8 64 256] [--workers 2] [--rounds 10]``
(needs the ``ray`` extra).
"""

from __future__ import annotations

import argparse
import logging

from vector_throughput import oracle_scripts, replay

import webarena_gym
from webarena_gym.vector_workers import default_worker_count


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 64, 256], help="concurrent episodes per row")
    parser.add_argument("--workers", type=int, default=default_worker_count(), help="processes / Ray actors")
    parser.add_argument("--rounds", type=int, default=10, help="vector steps per row (after a warm-up pass)")
    parser.add_argument("--ray-address", default=None, help="Ray cluster to join (default: start a local one)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    import ray

    logging.basicConfig(level=logging.WARNING)
    if args.ray_address:
        ray.init(address=args.ray_address, log_to_driver=False)
    else:
        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
    scripts = oracle_scripts(8)
    print(f"env steps/s, direct backend, {args.rounds} steps per env, {args.workers} workers "
          f"on {default_worker_count()} cores; overhead = extra ms per vector step on Ray actors")
    print(f"{'episodes':>8} {'processes':>10} {'ray':>9} {'ratio':>6} {'overhead ms':>12}")
    for size in args.sizes:
        common = dict(suite="embedded", backend="direct", max_steps=args.rounds + 1, workers=args.workers)
        rates = {}
        for executor in ("process", "ray"):
            envs = webarena_gym.make_vec(size, executor=executor, **common)
            try:
                rates[executor], _cores = replay(envs, scripts, args.rounds, [])
            finally:
                envs.close()
        overhead_ms = (1 / rates["ray"] - 1 / rates["process"]) * size * 1000
        print(f"{size:>8} {rates['process']:10.1f} {rates['ray']:9.1f} {rates['ray'] / rates['process']:5.2f}x "
              f"{overhead_ms:12.2f}", flush=True)
    ray.shutdown()


if __name__ == "__main__":
    main()
