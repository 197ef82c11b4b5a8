"""torch's CPU threads on an idle machine and on one where another process keeps a core busy.

torch runs a CPU op on all its intra-op threads (by default one per core) and waits for the
slowest. When another process holds one of those cores, every op waits for the scheduler to
give that thread a turn, and a small model's many small ops stall. This measures it on the
workload the trainers run: the main job's tiny model (built here, offline), timed on

- train: forward, backward and an AdamW step on a batch of 8 rows of 256 tokens;
- generate: sampling 32 new tokens for 8 prompts of 256 tokens (the rollouts' and evaluation's path).

Rows, side by side, the first the baseline: torch's default threads and 1 thread, each on the
idle machine and beside ``--busy`` processes that spin on a core each (``python -c "while True: pass"``,
started for the row and stopped after it). Every row runs in this one process, one after the
other, on the same batches; a warm-up step precedes each row's timing.

Run: ``.venv/bin/python benchmarks/cpu_threads.py [--steps 10] [--busy 1]``
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time

import torch
from transformers.utils import logging as transformers_logging

from trainers.cpu import spinning_processes
from trainers.policy import load_policy
from trainers.tiny import TinyModelSpec, build_tiny_model, demonstration_texts
from webarena_gym.arguments import whole
from webarena_gym.demos import record_oracle_demonstrations
from webarena_gym.suites.embedded import family_task_ids

FAMILIES = ("map.missing_information", "map.zip_code", "shopping_admin.preview_theme")
ROWS, LENGTH, NEW_TOKENS = 8, 256, 32


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=whole(1), default=10, help="timed train steps and generations per row")
    parser.add_argument("--busy", type=whole(1), default=1, help="spinning processes beside the busy rows")
    return parser.parse_args(argv)


def measure(model, optimizer, batch: torch.Tensor, steps: int) -> dict[str, float]:
    """Seconds per train step and per generation, after one warm-up of each."""

    def train_step() -> None:
        model(input_ids=batch, labels=batch).loss.backward()
        optimizer.step()
        optimizer.zero_grad()

    def generate() -> None:
        with torch.no_grad():
            model.generate(batch, attention_mask=torch.ones_like(batch), max_new_tokens=NEW_TOKENS,
                           min_new_tokens=NEW_TOKENS, do_sample=True, pad_token_id=0)

    seconds = {}
    for name, work in (("train_s", train_step), ("generate_s", generate)):
        work()
        started = time.perf_counter()
        for _ in range(steps):
            work()
        seconds[name] = (time.perf_counter() - started) / steps
    return seconds


def main() -> None:
    args = parse_args()
    transformers_logging.disable_progress_bar()
    default_threads = torch.get_num_threads()
    with tempfile.TemporaryDirectory() as tmp:
        demos = list(record_oracle_demonstrations("train", task_ids=family_task_ids("train", FAMILIES), progress=False))
        path = build_tiny_model(tmp, texts=demonstration_texts(demos), spec=TinyModelSpec(split_digits=True))
        model, tokenizer = load_policy(str(path), device=torch.device("cpu"))
    tokens = tokenizer("\n".join(demonstration_texts(demos)))["input_ids"]
    batch = torch.tensor([tokens[i * LENGTH:(i + 1) * LENGTH] for i in range(ROWS)])
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    rows = []
    for busy in (0, args.busy):
        for threads in dict.fromkeys((default_threads, 1)):
            name = f"{threads} thread{'s' * (threads > 1)}, {f'{busy} core(s) busy' if busy else 'idle'}"
            print(f"measuring {name} ...", file=sys.stderr, flush=True)
            torch.set_num_threads(threads)
            with spinning_processes(busy) if busy else contextlib.nullcontext():
                torch.manual_seed(0)
                rows.append((name, measure(model, optimizer, batch, args.steps)))
    print(f"tiny model ({sum(p.numel() for p in model.parameters()):,} parameters), batch {ROWS} x {LENGTH} tokens, "
          f"{NEW_TOKENS} new tokens; {args.steps} timed steps per row; torch's default: {default_threads} threads")
    print(f"{'row':<28} {'train s/step':>12} {'vs first':>9} {'generate s':>11} {'vs first':>9}")
    base = rows[0][1]
    for name, r in rows:
        print(f"{name:<28} {r['train_s']:12.3f} {base['train_s'] / r['train_s']:8.2f}x "
              f"{r['generate_s']:11.3f} {base['generate_s'] / r['generate_s']:8.2f}x")


if __name__ == "__main__":
    main()
