"""What ``accelerate launch`` runs in every process of ``test_multiprocess.py``: GRPO in both layouts, then BC.

    accelerate launch --config_file CONFIG -m tests.trainers.multiprocess_run OUT MODEL

Each process writes ``OUT/rank<k>.json`` with what it saw: the task ids and rewards of its
rollouts, the advantages it trained with, the pids of its env workers, whether it saved
the model, its losses and how many batches its share of the BC data made.

The GRPO runs are scripted so that a group's rewards differ by process: the model samples
each turn through TRL's own generation path (under DDP), then process 0 plays the right
answer ("N/A": the map does not know the place's website) and process 1 a wrong one. A
group that spans both processes therefore has rewards 1 and 0, and its advantages are
non-zero only if they were normalised over the gathered rewards. The trajectory-layout run
draws its tasks with the learnable curriculum, whose counts must agree across processes.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

#: The embedded family whose right answer is known ("N/A"), and how many of its tasks to train on.
FAMILY = "map.missing_information"
TASKS = 2
ANSWERS = ('exit(message="N/A")', 'exit(message="no idea")')  # process 0 is right, process 1 wrong
LAYOUTS = ("turn", "trajectory")


def recording_trainer(base: type) -> type:
    """``base`` (MultiTurnGRPOTrainer) that plays the scripted answers and records what it trains on."""
    from trainers.chat import text_ids

    class RecordingTrainer(base):
        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self.seen: dict[str, list] = {"task_ids": [], "rewards": [], "gathered": [], "advantages": []}

        def _generate_single_turn(self, prompt_ids, images, multimodal_fields, num_generations, has_tool_images=False):
            super()._generate_single_turn(prompt_ids, images, multimodal_fields, num_generations, has_tool_images)
            tokenizer = self.processing_class
            answer = text_ids(tokenizer, ANSWERS[self.accelerator.process_index % 2]) + [tokenizer.eos_token_id]
            return [list(answer) for _ in prompt_ids], None

        def _play(self, task_ids):
            trajectories = super()._play(task_ids)
            self.seen["task_ids"].append(list(task_ids))
            self.seen["rewards"].append([t.reward for t in trajectories])
            return trajectories

        def _advantages(self, trajectories, group_size):  # the turn layout's own normalisation
            rewards, advantages = super()._advantages(trajectories, group_size)
            self.seen["gathered"].append(rewards.tolist())
            self.seen["advantages"].append(advantages.tolist())
            return rewards, advantages

        def _generate_and_score_completions(self, inputs):
            batch = super()._generate_and_score_completions(inputs)
            if self.args.layout == "trajectory":  # TRL's own normalisation (rollout_func path)
                self.seen["advantages"].append(batch["advantages"].tolist())
            return batch

    return RecordingTrainer


def run_grpo(layout: str, output_dir: Path, model: str) -> dict[str, Any]:
    from trainers.config import MultiTurnGRPOConfig
    from trainers.grpo import MultiTurnGRPOTrainer
    from trainers.policy import save_policy
    from webarena_gym.suites.embedded import family_task_ids

    config = MultiTurnGRPOConfig(
        output_dir=str(output_dir), layout=layout, suite="embedded", split="train",
        task_ids=family_task_ids("train", [FAMILY])[:TASKS], max_turns=1, max_chars=1000,
        num_generations=4, per_device_train_batch_size=2, max_steps=1, max_completion_length=8,
        learning_rate=1e-3, beta=0.0, save_strategy="no", report_to="none", disable_tqdm=True, plot_metrics=False,
        seed=0, task_sampling="learnable" if layout == "trajectory" else "uniform",
    )
    trainer = recording_trainer(MultiTurnGRPOTrainer)(model, config)
    try:
        pids = trainer.envs.worker_pids
        trainer.train()
    finally:
        trainer.envs.close()
    saved = save_policy(trainer, str(output_dir / "policy"))
    losses = [log["loss"] for log in trainer.state.log_history if "loss" in log]
    curriculum = None if trainer._task_sampler is None else trainer._task_sampler.learnability
    counts = None if curriculum is None else {
        str(family): [curriculum.informative[family], curriculum.uninformative[family]] for family in curriculum.informative}
    return {**trainer.seen, "worker_pids": pids, "saved": saved, "losses": losses, "curriculum": counts}


def run_bc(output_dir: Path, model: str) -> dict[str, Any]:
    from trainers.bc import train_bc

    from .place_family import bc_config, build_place_family

    _tasks, demos = build_place_family()
    config = bc_config(output_dir, max_steps=2, per_device_train_batch_size=2, report_to="none")
    trainer = train_bc(config, model, demonstrations=demos)
    return {
        "rows": len(trainer.train_dataset),
        "batches": len(trainer.get_train_dataloader()),
        "losses": [log["loss"] for log in trainer.state.log_history if "loss" in log],
    }


def main(out: Path, model: str) -> None:
    # The trainers set up torch.distributed themselves (a state made here first would be reset by them).
    grpo = {layout: run_grpo(layout, out / layout, model) for layout in LAYOUTS}
    bc = run_bc(out / "bc", model)
    import torch.distributed as dist

    rank = dist.get_rank()
    record = {"rank": rank, "processes": dist.get_world_size(), "backend": dist.get_backend(), "pid": os.getpid(),
              "grpo": grpo, "bc": bc}
    (out / f"rank{rank}.json").write_text(json.dumps(record), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
