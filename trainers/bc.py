"""Behaviour cloning: TRL's SFTTrainer on demonstrations in the compressed-history chat format.

Every demonstration turn is one prompt-completion row (see
:func:`trainers.chat.demonstration_rows`): the prompt is exactly what the agent sees at
that turn, the completion the expert's action, and only the completion's tokens carry
loss (``completion_only_loss``). The saved model is what GRPO starts from and what its
KL term keeps it close to.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from datasets import Dataset
from transformers import set_seed
from trl import SFTTrainer

from webarena_gym.demos import Demonstration, read_demonstrations
from webarena_gym.errors import ConfigurationError

from .agent_record import agent_settings_of, warn_about_agent_settings
from .augment import entity_swaps
from .chat import demonstration_rows, require_chat_template
from .config import BCConfig
from .metrics import MetricsRecorder, use_compact_progress
from .policy import load_tokenizer, save_policy
from .scoring import labelled_positions_scored

logger = logging.getLogger(__name__)


def load_demonstrations(args: BCConfig) -> list[Demonstration]:
    """The demonstrations of ``args.demonstrations`` that BC should imitate (successful, on the chosen tasks)."""
    if not args.demonstrations:
        raise ConfigurationError(
            "BCConfig.demonstrations is not set. Record expert episodes with "
            "`webarena-gym demos --split train --out demos.jsonl` and pass demonstrations='demos.jsonl'."
        )
    demos = read_demonstrations(args.demonstrations).demonstrations
    wanted = set(args.task_ids) if args.task_ids is not None else None
    kept = [d for d in demos if d.reward >= args.min_demo_reward and (wanted is None or d.task_id in wanted)]
    if not kept:
        raise ConfigurationError(
            f"No demonstration in {args.demonstrations} has reward >= {args.min_demo_reward}"
            + (f" on task ids {sorted(wanted)[:10]}" if wanted else "")
            + f" ({len(demos)} read)."
        )
    return kept


def bc_dataset(demos: Sequence[Demonstration], args: BCConfig) -> Dataset:
    """Prompt-completion rows, one per demonstration turn."""
    rows = demonstration_rows(demos, args)
    return Dataset.from_list([{"prompt": r["prompt"], "completion": r["completion"]} for r in rows])


def train_bc(
    args: BCConfig,
    model: Any,
    *,
    processing_class: Any = None,
    demonstrations: Sequence[Demonstration] | None = None,
    callbacks: Sequence[Any] = (),
) -> SFTTrainer:
    """Clone the demonstrations into ``model`` and save the result to ``args.output_dir``.

    Args:
        args: Settings; the agent fields must match the later GRPO run and evaluation.
        model: A model directory, hub id, or loaded model.
        processing_class: The tokenizer (default: loaded with the model). It needs a chat template.
        demonstrations: Episodes to imitate (default: read from ``args.demonstrations``).
        callbacks: Extra ``TrainerCallback`` s (a :class:`~trainers.metrics.MetricsRecorder` is always added).
    """
    set_seed(args.seed)
    if isinstance(model, str):  # more BC on a model BC or GRPO saved: it says how it was prompted
        warn_about_agent_settings(model, agent_settings_of(args))
        if processing_class is None:
            processing_class = load_tokenizer(model)
    demos = list(demonstrations) if demonstrations is not None else load_demonstrations(args)
    demos += entity_swaps(demos, args.entity_swaps, seed=args.seed)
    dataset = bc_dataset(demos, args)
    logger.info("BC on %d turns from %d demonstrations (swapped copies included)", len(dataset), len(demos))
    trainer = SFTTrainer(
        model=model,
        args=args,
        train_dataset=dataset,
        processing_class=processing_class,
        peft_config=args.peft_config(),
        callbacks=[*callbacks, MetricsRecorder(plot=True)],
    )
    require_chat_template(trainer.processing_class)
    use_compact_progress(trainer)
    with labelled_positions_scored(not args.score_every_position):
        trainer.train()
    save_policy(trainer, args.output_dir)
    return trainer
