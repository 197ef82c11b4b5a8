"""Where a multi-turn GRPO step's time goes, and how fast and big it is, per precision and layout.

Runs a few GRPO steps per row on the train tasks of a few embedded families (direct
backend) and prints, side by side with the first row as the baseline:

- seconds per optimizer step, and its split: generation / env / update (update = the rest:
  log-probs, loss, backward, optimizer);
- sampled tokens per second of generation;
- peak memory (CUDA: ``torch.cuda.max_memory_allocated`` per row; CPU: the process's peak RSS).

Rows: fp32 and, where this machine multiplies bf16 natively (CUDA, or a CPU with AVX512-BF16
or AMX), bf16 autocast; each in the ``turn`` and ``trajectory`` layouts. ``--every-position``
adds, first, the fp32 rows with TRL's own output layer off CUDA, over every position of every
row (``score_every_position=True``) instead of the completion's positions only (``trainers/scoring.py``). The model is a tiny one built offline by default; ``--hidden-size`` and
``--layers`` give it a realistic shape (random weights sample long, invalid actions, which
is the worst case for generation), and ``--model`` takes any local model directory (its observations as long
as it was trained with, unless ``--max-observation-chars`` says otherwise).

Run: ``.venv/bin/python benchmarks/trainer_step_time.py [--steps 6] [--hidden-size 896 --layers 24]``
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402
from transformers.trainer_callback import PrinterCallback  # noqa: E402
from transformers.utils import logging as transformers_logging  # noqa: E402

from trainers.agent_record import recorded_agent_settings  # noqa: E402
from trainers.config import MultiTurnGRPOConfig, native_bf16_available  # noqa: E402
from trainers.grpo import MultiTurnGRPOTrainer  # noqa: E402
from trainers.tiny import TinyModelSpec, build_tiny_model, demonstration_texts  # noqa: E402
from webarena_gym.demos import record_oracle_demonstrations  # noqa: E402
from webarena_gym.tasks.embedded_suite import family_task_ids  # noqa: E402

FAMILIES = ("map.missing_information", "map.zip_code", "shopping_admin.preview_theme")
DEFAULT_OBSERVATION_CHARS = 3000


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", help="a local model directory (default: a tiny model built here)")
    parser.add_argument("--hidden-size", type=int, default=96, help="shape of the built model")
    parser.add_argument("--layers", type=int, default=2, help="shape of the built model")
    parser.add_argument("--steps", type=int, default=6, help="optimizer steps per row")
    parser.add_argument("--tasks-per-step", type=int, default=8)
    parser.add_argument("--num-generations", type=int, default=4)
    parser.add_argument("--max-completion-length", type=int, default=48)
    parser.add_argument("--layouts", nargs="+", default=["turn", "trajectory"], choices=["turn", "trajectory"])
    parser.add_argument("--every-position", action="store_true",
                        help="first, fp32 rows with the output layer over every position (TRL's own off CUDA)")
    parser.add_argument("--micro-batch", type=int, help="rollouts per forward pass (default: all of a step's)")
    parser.add_argument("--max-observation-chars", type=int,
                        help=f"page characters per observation (default: what --model was trained with, else "
                             f"{DEFAULT_OBSERVATION_CHARS})")
    args = parser.parse_args(argv)
    if args.max_observation_chars is None:  # the length --model learnt its prompts with, else the default
        recorded = recorded_agent_settings(args.model) if args.model else {}
        args.max_observation_chars = recorded.get("max_observation_chars", DEFAULT_OBSERVATION_CHARS)
    return args


def build_model(args: argparse.Namespace, task_ids: list[int], directory: str) -> str:
    """The model to train: ``--model``, or a tiny one with a tokenizer learnt from the oracle's pages."""
    if args.model:
        return args.model
    demos = list(record_oracle_demonstrations("train", task_ids=task_ids, progress=False))
    heads = max(args.hidden_size // 64, 2)
    spec = TinyModelSpec(hidden_size=args.hidden_size, intermediate_size=int(args.hidden_size * 8 / 3) // 8 * 8,
                         num_hidden_layers=args.layers, num_attention_heads=heads,
                         num_key_value_heads=2 if heads % 2 == 0 else 1)
    return str(build_tiny_model(directory, texts=demonstration_texts(demos), spec=spec))


def measure(model: str, task_ids: list[int], args: argparse.Namespace, *, layout: str, bf16: bool,
            output_dir: str, **config: object) -> dict[str, float]:
    """Run ``args.steps`` GRPO steps; the step-time split, generation speed and peak memory.

    ``config`` overrides fields of the :class:`MultiTurnGRPOConfig` (e.g. ``rollout_overlap``).
    """
    rows = args.tasks_per_step * args.num_generations
    micro = args.micro_batch or rows
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
    settings = dict(
        output_dir=output_dir, split="train", task_ids=task_ids, layout=layout, bf16=bf16,
        num_generations=args.num_generations, per_device_train_batch_size=micro,
        gradient_accumulation_steps=rows // micro, steps_per_generation=rows // micro,
        max_steps=args.steps, num_iterations=1, learning_rate=1e-5, max_completion_length=args.max_completion_length,
        max_turns=3, max_observation_chars=args.max_observation_chars, save_strategy="no", disable_tqdm=True, report_to="none",
        plot_metrics=False, seed=0,
    )
    trainer = MultiTurnGRPOTrainer(model, MultiTurnGRPOConfig(**{**settings, **config}))
    trainer.pop_callback(PrinterCallback)  # the table is the output
    try:
        trainer.train()
    finally:
        trainer.envs.close()
    logs = trainer.state.log_history
    batches = [log for log in logs if "time/generation_s" in log]
    total = next(log["train_runtime"] for log in logs if "train_runtime" in log)
    generation = sum(log["time/generation_s"] for log in batches)
    env = sum(log["time/env_s"] for log in batches)
    tokens = sum(log["time/generation_s"] * log["time/generated_tokens_per_s"] for log in batches)
    if torch.cuda.is_available():
        peak = torch.cuda.max_memory_allocated() / 2**30
    else:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux
    return {"step_s": total / args.steps, "generation": generation / total, "env": env / total,
            "update": max(total - generation - env, 0.0) / total, "tokens_per_s": tokens / max(generation, 1e-9),
            "peak_gib": peak}


def main() -> None:
    args = parse_args()
    transformers_logging.disable_progress_bar()
    warnings.filterwarnings("ignore", category=FutureWarning)
    warnings.filterwarnings("ignore", message=".*rollout_func.*")
    task_ids = family_task_ids("train", FAMILIES)
    precisions = [(False, True)] if args.every_position else []
    precisions += [(False, False), (True, False)] if native_bf16_available() else [(False, False)]
    device = torch.cuda.get_device_name() if torch.cuda.is_available() else "CPU"
    with tempfile.TemporaryDirectory() as tmp:
        model = build_model(args, task_ids, f"{tmp}/model")
        rows = []
        for bf16, every_position in precisions:
            for layout in args.layouts:
                name = f"{'bf16' if bf16 else 'fp32'} {layout}{', every pos.' if every_position else ''}"
                print(f"measuring {name} ...", file=sys.stderr, flush=True)
                rows.append((name, measure(model, task_ids, args, layout=layout, bf16=bf16, output_dir=f"{tmp}/run",
                                           score_every_position=every_position)))
    memory = "peak CUDA memory" if torch.cuda.is_available() else "peak RSS (process)"
    print(f"{args.steps} GRPO steps per row, {args.tasks_per_step} tasks x G={args.num_generations}, "
          f"{args.max_observation_chars:,}-character observations, on {device}")
    print(f"{'row':<28} {'s/step':>7} {'gen':>5} {'env':>5} {'update':>6} {'gen tok/s':>10} {memory:>19} {'vs first':>9}")
    base = rows[0][1]["step_s"]
    for name, r in rows:
        print(f"{name:<28} {r['step_s']:7.2f} {r['generation']:5.0%} {r['env']:5.0%} {r['update']:6.0%} "
              f"{r['tokens_per_s']:10.0f} {r['peak_gib']:15.2f} GiB {base / r['step_s']:8.2f}x")


if __name__ == "__main__":
    main()
