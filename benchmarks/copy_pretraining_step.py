"""What a copy-pretraining step costs: the output layer on every position vs on the repeat's positions only.

Copy pretraining (``trainers/induction.py``) puts loss on a row's repeated span only. Two ways
to compute that loss on the same batches of the same tiny model (the main job's, with the
tokenizer learnt beside 3 entity swaps of the findings' demonstrations), side by side:

- baseline: ``model(**batch).loss``, the output layer over every position of every row;
- repeat only (:func:`trainers.induction.repeat_logits`, what ``copy_pretrain`` uses): the
  backbone over every position, the output layer over the repeat's positions.

For rows without a gap (``--copy-pretraining-gap 0``) and with gaps up to 384 tokens, it prints
seconds per step (forward and backward, batch 32, fp32, this machine's threads), the ratio
against the baseline, and the largest difference between the two losses. Both rows of a gap
run in this one process, one after the other, on the same batches.

Run: ``.venv/bin/python benchmarks/copy_pretraining_step.py [--steps 6]``
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

import torch

from trainers.augment import entity_swaps
from trainers.chat import context_texts
from trainers.config import AgentArguments
from trainers.induction import repeat_logits, repeated_spans, token_stream
from trainers.policy import load_policy
from trainers.recipe import FINDINGS_FAMILIES, agent_settings, build_tiny_policy, select_tasks
from trainers.recipe import main_job_arguments as main_job_args

ROOT = Path(__file__).resolve().parents[1]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=6, help="timed steps per row")
    parser.add_argument("--gaps", nargs="+", type=int, default=[0, 384], help="max_gap of the rows")
    return parser.parse_args(argv)


def timed(loss_of, model, batches: list[dict]) -> tuple[float, list[float]]:
    """Seconds per step of forward and backward with ``loss_of``, and the losses."""
    losses = []
    started = time.perf_counter()
    for batch in batches:
        loss = loss_of(model, batch)
        loss.backward()
        model.zero_grad()
        losses.append(loss.item())
    return (time.perf_counter() - started) / len(batches), losses


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    job = main_job_args(["--tokenizer-swaps", "3"])
    _train, _test, demos = select_tasks(list(FINDINGS_FAMILIES), job.max_turns, job.train_per_family)
    texts = context_texts([*demos, *entity_swaps(demos, 3, seed=0)],
                          AgentArguments(split="train", **agent_settings(job)))
    with tempfile.TemporaryDirectory() as tmp:
        model, tokenizer = load_policy(str(build_tiny_policy(Path(tmp) / "tiny", demos, job, 0, progress=False)))
    stream = token_stream(tokenizer, texts)
    ways = {"baseline (every position)": lambda m, b: m(**b).loss,
            "repeat only": lambda m, b: torch.nn.functional.cross_entropy(*repeat_logits(m, b))}
    print(f"{'gap':>5}  {'loss computed on':<28}{'s/step':>8}{'speed':>8}{'max |loss diff|':>17}")
    for gap in args.gaps:
        rng = random.Random(0)
        batches = [repeated_spans(stream, rng, 32, max_gap=gap) for _ in range(args.steps)]
        rows = {name: timed(loss_of, model, batches) for name, loss_of in ways.items()}
        base_seconds, base_losses = rows["baseline (every position)"]
        for name, (seconds, losses) in rows.items():
            diff = max(abs(a - b) for a, b in zip(losses, base_losses, strict=True))
            print(f"{gap:>5}  {name:<28}{seconds:>8.3f}{base_seconds / seconds:>7.2f}x{diff:>17.2e}")


if __name__ == "__main__":
    main()
