"""What a BC step costs: TRL's output layer on every position vs on the action's positions only, fp32 vs bf16.

BC (``trainers/bc.py``) puts loss on a row's action tokens only: about 20 of a pretrained base's
1,100 tokens a row. Rows, side by side, each the same BC steps on the same demonstration rows
(the findings' short families, 3 train tasks each), the first row the baseline:

- ``fp32, every position``: TRL's own fused LM head off CUDA (``score_every_position=True``),
  the output layer over every position of every row;
- ``fp32, labelled positions``: what BC does (``trainers/scoring.py``): the output layer over the
  positions that carry loss only;
- ``bf16, labelled positions``: the same under bf16 autocast (float32 weights), where this
  machine multiplies bf16 natively (CUDA, or a CPU with AVX512-BF16 or AMX).

It prints seconds per optimizer step (``--micro-batch`` rows per pass, ``--accumulation`` passes),
the speed against the baseline, and each row's logged losses (the two fp32 rows compute the same
loss; bf16 rounds differently).

Run: ``.venv/bin/python benchmarks/bc_step_time.py [--model runs/smollm2-hf] [--steps 2]``
(default model: a tiny one built here; for a pretrained base convert one first, e.g.
``python -c "from trainers.gguf import gguf_model_directory as g; g('models/SmolLM2-135M-Instruct.Q4_1.gguf', 'runs/smollm2-hf')"``
after ``bash scripts/fetch_smollm2.sh``).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import warnings
from pathlib import Path

import torch
from transformers.utils import logging as transformers_logging

from trainers.bc import train_bc
from trainers.config import BCConfig, native_bf16_available
from trainers.recipe import FINDINGS_FAMILIES, select_tasks
from trainers.tiny import TinyModelSpec, build_tiny_model, demonstration_texts

ROOT = Path(__file__).resolve().parents[1]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", help="a local model directory (default: a tiny model built here)")
    parser.add_argument("--steps", type=int, default=2, help="optimizer steps per row")
    parser.add_argument("--micro-batch", type=int, default=1, help="rows per forward pass")
    parser.add_argument("--accumulation", type=int, default=4, help="forward passes per optimizer step")
    parser.add_argument("--families", type=int, default=6, help="how many of the findings' families give rows")
    return parser.parse_args(argv)


def measure(model: str, demos: list, train_ids: list[int], args: argparse.Namespace, *, bf16: bool,
            every_position: bool, output_dir: str) -> tuple[float, list[float]]:
    """Seconds per BC step and the logged losses of ``args.steps`` steps."""
    config = BCConfig(output_dir=output_dir, max_steps=args.steps, per_device_train_batch_size=args.micro_batch,
                      gradient_accumulation_steps=args.accumulation, learning_rate=3e-4, save_strategy="no", seed=0,
                      logging_steps=1, split="train", task_ids=train_ids, bf16=bf16, score_every_position=every_position,
                      max_turns=3, max_chars=2000, report_to="none", disable_tqdm=True)
    with contextlib.redirect_stdout(sys.stderr):  # the trainer prints each log: stdout keeps only the table
        trainer = train_bc(config, model, demonstrations=demos)
    logs = trainer.state.log_history
    runtime = next(log["train_runtime"] for log in logs if "train_runtime" in log)
    return runtime / args.steps, [log["loss"] for log in logs if "loss" in log]


def main() -> None:
    args = parse_args()
    transformers_logging.disable_progress_bar()
    transformers_logging.set_verbosity_error()
    warnings.filterwarnings("ignore")
    train_ids, _test_ids, demos = select_tasks(list(FINDINGS_FAMILIES[: args.families]), 3, per_family=3)
    rows = [("fp32, every position", False, True), ("fp32, labelled positions", False, False)]
    if native_bf16_available():
        rows.append(("bf16, labelled positions", True, False))
    device = torch.cuda.get_device_name() if torch.cuda.is_available() else f"CPU, {torch.get_num_threads()} threads"
    with tempfile.TemporaryDirectory() as tmp:
        model = args.model
        if model is None:
            model = str(build_tiny_model(f"{tmp}/model", texts=demonstration_texts(demos), spec=TinyModelSpec()))
        results = []
        for name, bf16, every in rows:
            print(f"measuring {name} ...", file=sys.stderr, flush=True)
            results.append((name, *measure(model, demos, train_ids, args, bf16=bf16, every_position=every,
                                           output_dir=f"{tmp}/bc")))
    print(f"{args.steps} BC steps per row of {args.micro_batch} x {args.accumulation} rows, "
          f"{Path(args.model).name if args.model else 'a tiny model'}, on {device}")
    print(f"{'row':<26} {'s/step':>8} {'vs first':>9}  losses")
    base = results[0][1]
    for name, seconds, losses in results:
        print(f"{name:<26} {seconds:8.2f} {base / seconds:8.2f}x  {' '.join(f'{loss:.4f}' for loss in losses)}")


if __name__ == "__main__":
    main()
