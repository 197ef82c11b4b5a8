"""The WebAgent-R1 recipe on the embedded sites, as a library: what the example scripts run.

- :mod:`trainers.recipe.job`: task selection (the findings' families, the oracle's demonstrations
  within the interaction limit, train/held-out split), the tiny policy built from them, the BC and
  GRPO configs made from the scripts' options, and those options (``examples/main_job.py``);
- :mod:`trainers.recipe.experiment`: the four arms over seeds, resumable (``examples/reproduce_findings.py``);
- :mod:`trainers.recipe.findings`: their report (``examples/findings_report.py``).

The scripts in ``examples/`` only parse, print and call these; nothing needs ``examples/`` on ``sys.path``.
"""

from __future__ import annotations

from .job import (
    BC_BATCH,
    BC_MICRO_BATCHES,
    COPY_TEXTS,
    FINDINGS_FAMILIES,
    MODEL_SIZES,
    STAGE_GAINS,
    TINY_MODEL_OPTIONS,
    add_threads_argument,
    add_training_arguments,
    agent_settings,
    answer_na_results,
    bc_config,
    build_tiny_policy,
    check_training_arguments,
    checked_base_model,
    grpo_config,
    grpo_micro_batch,
    grpo_task_ids,
    main_job_arguments,
    resolve_base_model,
    select_tasks,
    solvable_demonstrations,
    split_demonstrations,
    stage_gains,
)

__all__ = [
    "BC_BATCH", "BC_MICRO_BATCHES", "COPY_TEXTS", "FINDINGS_FAMILIES", "MODEL_SIZES", "STAGE_GAINS",
    "TINY_MODEL_OPTIONS", "add_threads_argument", "add_training_arguments", "agent_settings", "answer_na_results",
    "bc_config", "build_tiny_policy", "check_training_arguments", "checked_base_model", "grpo_config",
    "grpo_micro_batch", "grpo_task_ids", "main_job_arguments", "resolve_base_model", "select_tasks",
    "solvable_demonstrations", "split_demonstrations", "stage_gains",
]
