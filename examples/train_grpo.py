"""Multi-turn GRPO of a web agent on the embedded sites (or the real WebArena sites).

Start from the BC model; every ``MultiTurnGRPOConfig`` / TRL ``GRPOConfig`` option is a flag:

    python examples/train_grpo.py --model runs/bc --output_dir runs/grpo \\
        --num_generations 8 --per_device_train_batch_size 32 --max_steps 100 \\
        --learning_rate 1e-6 --beta 0.001 --max_turns 15 --layout turn

``--layout trajectory`` trains one compressed sequence per trajectory (WebAgent-R1's
layout) instead of one exact row per turn; ``--thinking`` uses the
``<think>...</think><answer>...</answer>`` format; ``--lora_r 16`` trains a LoRA adapter;
``--max_turns`` sets the interaction limit; ``--bc_replay_coef 1 --bc_replay_demonstrations demos.jsonl``
keeps BC's loss on the demonstrations beside the policy gradient (``trainers/replay.py``). Metrics go to ``<output_dir>/metrics.jsonl``
(and tensorboard when installed); ``training_dynamics.png`` is drawn at the end.

``--save_strategy steps --save_steps 10`` checkpoints every 10 steps; ``--resume_from_checkpoint latest``
(or a ``checkpoint-N`` folder) goes on from the newest whole one in ``--output_dir`` as if never stopped.
On several GPUs, ``accelerate launch --num_processes 8 examples/train_grpo.py ...``: every
process plays its share of the rollouts in envs of its own, and groups that span processes
are normalised over the gathered rewards.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from trainers.checkpoint import ROLLOUT_STATE_FILE, latest_checkpoint
from trainers.config import MultiTurnGRPOConfig
from trainers.cpu import THREADS_HELP, set_cpu_threads
from trainers.grpo import train_grpo
from trainers.policy import check_pretrained
from trainers.script_arguments import parse_script_arguments, run_script


@dataclass
class ModelArguments:
    model: str = field(default="runs/bc", metadata={"help": "Starting policy: model directory or hub id."})
    threads: int = field(default=0, metadata={"help": THREADS_HELP})


def check(model_args: ModelArguments, config: MultiTurnGRPOConfig) -> None:
    set_cpu_threads(model_args.threads)
    if config.resume_from_checkpoint == "latest":  # the newest whole checkpoint of an earlier run into output_dir
        found = latest_checkpoint(config.output_dir)
        if found is None:
            raise ValueError(f"there is no whole checkpoint in {config.output_dir} to resume from")
        config.resume_from_checkpoint = str(found)
    elif config.resume_from_checkpoint and not (Path(config.resume_from_checkpoint) / ROLLOUT_STATE_FILE).is_file():
        raise ValueError(f"{config.resume_from_checkpoint} is not a whole GRPO checkpoint (no {ROLLOUT_STATE_FILE})")
    check_pretrained(model_args.model)


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    model_args, config = parse_script_arguments((ModelArguments, MultiTurnGRPOConfig), check=check)
    trainer = train_grpo(config, model_args.model, resume_from_checkpoint=config.resume_from_checkpoint)
    if not trainer.is_world_process_zero():
        return
    rewards = [log["rollout/reward"] for log in trainer.state.log_history if "rollout/reward" in log]
    if rewards:
        print(f"GRPO: {len(rewards)} steps, rollout reward {rewards[0]:.3f} -> {rewards[-1]:.3f}; "
              f"model saved to {config.output_dir}")


if __name__ == "__main__":
    run_script(main)
