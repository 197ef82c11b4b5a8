"""Trainers for web agents on webarena-gym: behaviour cloning, then multi-turn GRPO (WebAgent-R1).

A thin layer over TRL: :func:`train_bc` runs TRL's ``SFTTrainer`` on demonstrations in
the compressed-history chat format; :class:`MultiTurnGRPOTrainer` is TRL's ``GRPOTrainer``
with multi-turn rollouts in the embedded (or real) web environments.

Modules, in the order data flows through them: ``config`` (settings), ``tiny`` (offline
models), ``induction`` (copy pretraining of a tiny model), ``augment`` (entity-swapped copies
of demonstrations), ``chat`` (contexts and BC
rows), ``rollout`` (episodes), ``layouts`` (training rows and masks), ``objective``
(advantages), ``checkpoint`` (what resuming GRPO needs beside TRL's checkpoint), ``curriculum``
(which tasks GRPO practises), ``replay`` (BC's loss kept during GRPO), ``bc`` and ``grpo``
(training), ``metrics`` (training-dynamics log and plot), ``evaluation`` (success rates of a model).

Names are imported lazily: ``import trainers`` does not load torch.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "AgentArguments": "config",
    "BCConfig": "config",
    "MultiTurnGRPOConfig": "config",
    "TinyModelSpec": "tiny",
    "build_tiny_model": "tiny",
    "train_tokenizer": "tiny",
    "copy_pretrain": "induction",
    "entity_swaps": "augment",
    "demonstration_rows": "chat",
    "Trajectory": "rollout",
    "TurnSample": "rollout",
    "make_rollout_envs": "rollout",
    "collect_rollouts": "rollout",
    "group_advantages": "objective",
    "latest_checkpoint": "checkpoint",
    "FamilyLearnability": "curriculum",
    "LearnableTaskSampler": "curriculum",
    "DemonstrationReplay": "replay",
    "train_bc": "bc",
    "MultiTurnGRPOTrainer": "grpo",
    "train_grpo": "grpo",
    "MetricsRecorder": "metrics",
    "plot_training_dynamics": "metrics",
    "Sampler": "policy",
    "load_policy": "policy",
    "LocalModelPolicy": "policy",
    "evaluate_model": "evaluation",
}


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'trainers' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)


__all__ = sorted(_EXPORTS)
