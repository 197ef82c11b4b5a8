"""What a tiny model's tokenizer costs BC: each text learnt once vs every text as often as the model reads it.

Two tokenizers for the same tiny model, trained on the oracle's demonstrations of the
findings experiment's families (``examples/reproduce_findings.py``), side by side:

- baseline (``demonstration_texts``, merges up to 16 characters): the system prompt, each
  page and each action learnt once, as the main job builds it;
- as read (``build_tiny_policy`` of ``trainers.recipe``: :func:`trainers.chat.context_texts`,
  merges up to 32 characters, digit runs kept apart): every BC row's messages, so the system
  prompt and the sites' markup, read at every turn, become a few tokens, while numbers stay
  tokens a model can copy.

For each: tokens of the system prompt, mean and longest BC row (prompt + action), and the
seconds per BC optimizer step (batch 16, fp32, this machine's threads), with the ratio
against the baseline. Both rows run in this one process, one after the other.

Run: ``.venv/bin/python benchmarks/tokenizer_corpus.py [--steps 10] [--demos runs/findings/demos.jsonl]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import warnings
from pathlib import Path

import datasets
from transformers.utils import logging as transformers_logging

from trainers.bc import train_bc
from trainers.chat import demonstration_rows, prompt_ids, text_ids
from trainers.config import AgentArguments, BCConfig
from trainers.policy import load_tokenizer
from trainers.recipe import (
    FINDINGS_FAMILIES,
    MODEL_SIZES,
    agent_settings,
    build_tiny_policy,
    select_tasks,
    split_demonstrations,
)
from trainers.tiny import TinyModelSpec, build_tiny_model, demonstration_texts
from webarena_gym.demos import read_demonstrations
from webarena_gym.prompts import system_prompt

ROOT = Path(__file__).resolve().parents[1]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--demos", help="demonstrations JSONL (default: recorded here with the oracle)")
    parser.add_argument("--train-per-family", type=int, default=3)
    parser.add_argument("--steps", type=int, default=10, help="BC optimizer steps per row")
    return parser.parse_args(argv)


def row_lengths(model_dir: str, rows: list[dict]) -> list[int]:
    tokenizer = load_tokenizer(model_dir)
    return [len(prompt_ids(tokenizer, r["prompt"])) + len(text_ids(tokenizer, r["completion"][0]["content"]))
            for r in rows]


def bc_step_seconds(model_dir: str, demos: list, agent: AgentArguments, steps: int, output_dir: str) -> float:
    config = BCConfig(output_dir=output_dir, max_steps=steps, per_device_train_batch_size=16, learning_rate=1e-3,
                      save_strategy="no", disable_tqdm=True, report_to="none", logging_steps=steps, seed=0,
                      split="train", max_turns=agent.max_turns, max_chars=agent.max_chars)
    trainer = train_bc(config, model_dir, demonstrations=demos)
    return next(log["train_runtime"] for log in trainer.state.log_history if "train_runtime" in log) / steps


def main() -> None:
    args = parse_args()
    transformers_logging.disable_progress_bar()
    datasets.disable_progress_bars()
    warnings.filterwarnings("ignore", category=FutureWarning)
    # The findings experiment's settings, for build_tiny_policy and (as AgentArguments) for the BC rows.
    settings = argparse.Namespace(model_size="tiny", max_turns=3, max_chars=2000, thinking=False)
    agent = AgentArguments(split="train", **agent_settings(settings))
    if args.demos:
        _train, _test, demos = split_demonstrations(read_demonstrations(args.demos).demonstrations,
                                                    args.train_per_family)
    else:
        _train, _test, demos = select_tasks(list(FINDINGS_FAMILIES), agent.max_turns, args.train_per_family)
    rows = demonstration_rows(demos, agent)
    variants = {
        "baseline (each text once)": lambda path: build_tiny_model(path, texts=demonstration_texts(demos),
                                                                   spec=TinyModelSpec(**MODEL_SIZES["tiny"])),
        "as read (+digits apart)": lambda path: build_tiny_policy(path, demos, settings, seed=0),
    }
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for index, (name, build) in enumerate(variants.items()):
            print(f"measuring {name} ...", file=sys.stderr, flush=True)
            model_dir = str(build(Path(tmp) / f"model{index}"))
            lengths = row_lengths(model_dir, rows)
            system = len(text_ids(load_tokenizer(model_dir), system_prompt()))
            seconds = bc_step_seconds(model_dir, demos, agent, args.steps, f"{tmp}/bc{index}")
            results[name] = (system, statistics.fmean(lengths), max(lengths), seconds)
    print(f"{len(demos)} demonstrations, {len(rows)} BC rows; {args.steps} BC steps per row (batch 16, fp32)")
    print(f"{'tokenizer':<27} {'system':>7} {'row mean':>9} {'row max':>8} {'s/step':>7} {'speed-up':>9}")
    base = results[next(iter(results))][3]
    for name, (system, mean, longest, seconds) in results.items():
        print(f"{name:<27} {system:7d} {mean:9.0f} {longest:8d} {seconds:7.2f} {base / seconds:8.2f}x")


if __name__ == "__main__":
    main()
