"""Behaviour cloning of a web agent on expert demonstrations (TRL SFT, action tokens only).

Record demonstrations, then clone them into a model (a local directory or hub id; every
``BCConfig`` / TRL ``SFTConfig`` option is a flag):

    webarena-gym demos --split train --out runs/demos.jsonl
    python examples/train_bc.py --model Qwen/Qwen2.5-3B-Instruct --demonstrations runs/demos.jsonl \\
        --output_dir runs/bc --num_train_epochs 2 --learning_rate 1e-5 --lora_r 16

``--model tiny`` trains a tiny Qwen2-style model from scratch instead: its tokenizer is
learnt from the demonstrations' text (offline, seconds; for CPU demos and tests).
The agent settings (``--max_turns``, ``--max_chars``, ``--thinking``,
``--keep_last``) must match the later GRPO run and evaluation.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from trainers.bc import load_demonstrations, train_bc
from trainers.config import BCConfig
from trainers.cpu import THREADS_HELP, set_cpu_threads
from trainers.policy import check_pretrained
from trainers.script_arguments import parse_script_arguments, run_script
from trainers.tiny import TinyModelSpec, build_tiny_model, demonstration_texts


@dataclass
class ModelArguments:
    model: str = field(default="tiny", metadata={"help": "Model directory or hub id; 'tiny' builds one offline."})
    tiny_hidden_size: int = field(default=96, metadata={"help": "Width of the tiny model (with --model tiny)."})
    tiny_layers: int = field(default=2, metadata={"help": "Blocks of the tiny model (with --model tiny)."})
    threads: int = field(default=0, metadata={"help": THREADS_HELP})


def check(model_args: ModelArguments, config: BCConfig) -> None:
    set_cpu_threads(model_args.threads)
    if model_args.model != "tiny":
        check_pretrained(model_args.model)


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    model_args, config = parse_script_arguments((ModelArguments, BCConfig), check=check)
    demos = load_demonstrations(config)
    model = model_args.model
    if model == "tiny":
        spec = TinyModelSpec(hidden_size=model_args.tiny_hidden_size, intermediate_size=3 * model_args.tiny_hidden_size,
                             num_hidden_layers=model_args.tiny_layers, seed=config.seed)
        model = str(Path(config.output_dir) / "init")
        # Under `accelerate launch`, one process builds it while the others wait, then all load it.
        with config.main_process_first(local=False, desc="the tiny model"):
            if config.process_index == 0:
                build_tiny_model(model, texts=demonstration_texts(demos), spec=spec)
    trainer = train_bc(config, model, demonstrations=demos)
    if not trainer.is_world_process_zero():
        return
    losses = [log["loss"] for log in trainer.state.log_history if "loss" in log]
    print(f"BC: {len(losses)} logged steps, loss {losses[0]:.3f} -> {losses[-1]:.3f}; model saved to {config.output_dir}")


if __name__ == "__main__":
    run_script(main)
