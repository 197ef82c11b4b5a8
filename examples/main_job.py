"""The main job: behaviour cloning, then multi-turn GRPO, on the embedded sites with a tiny model on CPU.

Everything is offline unless ``--base-model`` names a hub id (bf16 on CUDA where there is one);
about half an hour on 2 CPU cores:

1. record the oracle's demonstrations on the train tasks of the task families (by default
   3 train tasks of each of the 21 ``FINDINGS_FAMILIES`` whose oracle finishes within 3
   interactions, 63; their 26 test tasks are held out);
2. build a tiny Qwen2-style model whose tokenizer is learnt from those pages and actions;
3. measure its greedy success on the train tasks and the held-out test tasks (untrained);
4. BC on the demonstrations (TRL SFT, action tokens only), measure again;
5. multi-turn GRPO on the train tasks (G rollouts per task, each in its own world), measure again.

    python examples/main_job.py                      # 21 families on five sites, 26 held-out tasks
    python examples/main_job.py --families map.zip_code reddit.bigger_forum --train-per-family 0
    python examples/main_job.py --base-model Qwen/Qwen2.5-0.5B-Instruct --max-new-tokens 96   # pretrained (a GPU)

Its defaults are one seed of examples/reproduce_findings.py's BC and BC+GRPO arms, which runs
them over seeds beside the untrained model and GRPO from the untrained model, with test-time scaling.

Prints success per site before and after, beside answering N/A at once (no model: the floor a stage
must beat to have learnt something it carries), and leaves everything under ``--output``:
``demos.jsonl``, ``bc/`` and ``grpo/`` (models, ``metrics.jsonl``, ``training_dynamics.png``)
and ``trajectories_<split>_<stage>.jsonl``. A tiny model learns the action format, the sites'
layout and its train tasks; transfer to unseen entities needs a real model (see train_bc.py).
"""

from __future__ import annotations

import argparse
import logging
import time
import warnings
from collections import Counter
from pathlib import Path

from transformers import set_seed
from transformers.utils import logging as transformers_logging

from trainers.bc import train_bc
from trainers.config import AgentArguments
from trainers.cpu import set_cpu_threads
from trainers.evaluation import evaluate_model, success_rate
from trainers.grpo import train_grpo
from trainers.memory import release_freed_memory
from trainers.policy import load_policy
from trainers.recipe import (  # the recipe; the names beside main's are those users of this script imported
    FINDINGS_FAMILIES,  # noqa: F401
    TINY_MODEL_OPTIONS,  # noqa: F401
    agent_settings,
    answer_na_results,
    bc_config,
    build_tiny_policy,
    checked_base_model,
    grpo_config,
    grpo_task_ids,
    main_job_arguments,
    select_tasks,  # noqa: F401
    solvable_demonstrations,
    split_demonstrations,
    stage_gains,
)
from trainers.script_arguments import run_script
from webarena_gym.demos import write_demonstrations
from webarena_gym.evaluation import format_success_table, write_results
from webarena_gym.suites.embedded import family_of


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The main job's options (:func:`trainers.recipe.main_job_arguments`)."""
    return main_job_arguments(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    transformers_logging.disable_progress_bar()  # the bars that matter are ours and the Trainer's
    warnings.filterwarnings("ignore", message=".*is_gradient_checkpointing.*", category=FutureWarning)  # TRL's call
    set_seed(args.seed)
    set_cpu_threads(args.threads)
    base = checked_base_model(args)  # before anything is written, and minutes of demonstrations
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    agent = agent_settings(args)

    # The oracle is expected to miss the interaction limit on the longer families; those are skipped.
    logging.getLogger("webarena_gym.demos").setLevel(logging.ERROR)
    print(f"[1/5] Oracle demonstrations on the train tasks of {len(args.families)} task families")
    solvable = solvable_demonstrations(args.families, args.max_turns)
    train_ids, test_ids, demos = split_demonstrations(solvable, args.train_per_family)
    write_demonstrations(demos, out / "demos.jsonl")
    families = Counter(family_of(i, "train").name for i in train_ids)
    print(f"      {len(demos)} demonstrations ({sum(len(d.turns) for d in demos)} turns) from {len(families)} "
          f"families; {len(test_ids)} held-out test tasks")

    if base:
        print(f"[2/5] Pretrained base: {base}")
        start = base
    else:
        print("[2/5] Tiny model: tokenizer learnt from the demonstrations as BC reads them, Qwen2 weights from a config")
        start = str(build_tiny_policy(out / "tiny", demos, args, args.seed))

    splits = {"train": AgentArguments(split="train", task_ids=train_ids, **agent),
              "test": AgentArguments(split="test", task_ids=test_ids, **agent)}
    columns: dict[str, dict] = {"train": {}, "test": {}}

    def measure(stage: str, path: str | Path) -> str:
        """Greedy success on the train tasks (seen in training) and the held-out test tasks."""
        model, tokenizer = load_policy(str(path))
        for split, settings in splits.items():
            results = evaluate_model(model, tokenizer, settings, settings.task_ids,
                                     max_new_tokens=args.max_new_tokens,
                                     desc=f"{split}: {stage}")
            write_results(results, out / f"trajectories_{split}_{stage.replace(' ', '_').replace('+', '')}.jsonl",
                          settings={"model": stage, "split": split, **agent})
            columns[split][stage] = results
        return ", ".join(f"{success_rate(columns[s][stage]):.1%} on {s} tasks" for s in splits)

    print(f"      untrained: {measure('untrained', start)}")

    print(f"[3/5] Behaviour cloning ({args.bc_epochs:g} epochs)")
    train_bc(bc_config(args, out / "bc", train_ids, args.seed), start, demonstrations=demos)
    release_freed_memory()  # the dropped BC trainer's, before GRPO
    print(f"      after BC: {measure('after BC', out / 'bc')}")

    print(f"[4/5] Multi-turn GRPO ({args.grpo_steps} steps; {args.grpo_tasks_per_step} tasks x "
          f"G={args.num_generations} rollouts per batch, {args.grpo_iterations} clipped update(s) each; "
          f"{args.layout} layout)")
    trainer = train_grpo(grpo_config(args, out / "grpo", grpo_task_ids(args, train_ids, solvable), args.seed),
                         str(out / "bc"), demonstrations=demos)
    rewards = [log["rollout/reward"] for log in trainer.state.log_history if "rollout/reward" in log]
    head, tail = rewards[: max(len(rewards) // 5, 1)], rewards[-max(len(rewards) // 5, 1) :]
    print(f"      rollout reward on train tasks: {sum(head) / len(head):.3f} (first steps) -> "
          f"{sum(tail) / len(tail):.3f} (last steps)")
    print(f"      after BC + GRPO: {measure('after BC+GRPO', out / 'grpo')}")

    for split, settings in splits.items():  # the floor beside the stages
        columns[split]["answer N/A, no model"] = answer_na_results(split, settings.task_ids, args.max_turns)
    for split, caption in (("train", "train tasks (BC and GRPO trained on them)"), ("test", "held-out test tasks")):
        print(f"[5/5] Success rate on the {caption}, greedy, at most {args.max_turns} interactions:")
        print(format_success_table(columns[split]))
        print("\n".join(stage_gains(columns[split])))
    print(f"Done in {time.perf_counter() - started:.0f} s. Models, metrics.jsonl, training_dynamics.png and "
          f"trajectories are in {out}/")


if __name__ == "__main__":
    run_script(main)
