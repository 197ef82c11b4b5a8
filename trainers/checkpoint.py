"""Resuming GRPO from a checkpoint: what the Trainer's own checkpoint lacks, and which checkpoint to take.

TRL's checkpoint (``checkpoint-N/``) holds the weights, optimizer, schedule, random states and log history.
Multi-turn GRPO also draws from its own random generators: the curriculum's (:mod:`.curriculum`) and the
demonstration replay's (:mod:`.replay`). Their states go beside it in ``rollout_state.json``, written last,
so a checkpoint that has it is whole; a run stopped while saving leaves one without it, which is passed over.
"""

from __future__ import annotations

import random
from pathlib import Path

from transformers.trainer_utils import PREFIX_CHECKPOINT_DIR

#: The rollout side's state in a checkpoint folder; its presence marks the checkpoint as whole.
ROLLOUT_STATE_FILE = "rollout_state.json"


def random_state(rng: random.Random) -> list:
    """``rng``'s state as JSON."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def set_random_state(rng: random.Random, state: list) -> None:
    """Put ``rng`` back in the state :func:`random_state` recorded."""
    version, internal, gauss = state
    rng.setstate((version, tuple(internal), gauss))


def checkpoint_folders(output_dir: str | Path) -> list[Path]:
    """Every ``checkpoint-N`` folder in ``output_dir``, whole or not, oldest (fewest steps) first."""
    found = [(int(path.name.rsplit("-", 1)[1]), path) for path in Path(output_dir).glob(f"{PREFIX_CHECKPOINT_DIR}-*")
             if path.name.rsplit("-", 1)[1].isdigit()]
    return [path for _step, path in sorted(found)]


def checkpoints(output_dir: str | Path) -> list[Path]:
    """The whole checkpoints in ``output_dir``, oldest (fewest steps) first."""
    return [path for path in checkpoint_folders(output_dir) if (path / ROLLOUT_STATE_FILE).is_file()]


def latest_checkpoint(output_dir: str | Path) -> Path | None:
    """The whole checkpoint with the most steps in ``output_dir`` (None where there is none)."""
    found = checkpoints(output_dir)
    return found[-1] if found else None
