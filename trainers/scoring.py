"""The output layer on the positions that carry loss only, on a CPU too.

TRL's fused LM head (``fused_lm_head=True``: SFT's loss, GRPO's log-probs) runs the output layer
on the labelled positions only on Triton devices (CUDA, XPU), and on every position elsewhere:
a device that compiles per shape (Neuron) would compile again for every count of labels. A
CPU compiles nothing, so there scoring every position only costs time: a BC row of a pretrained
base is about 1,100 tokens of which about 20 are the action, and SmolLM2's output layer (49,152
tokens) on every position was a third of a BC step (``benchmarks/bc_step_time.py``). The
log-probs of the labelled positions are the same either way; the others are 0 either way.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import trl.trainer.utils as trl_utils

logger = logging.getLogger(__name__)

#: TRL's test, in the module of its fused LM head, for "score the labelled positions only".
_COMPACT_TEST = "_use_triton"


@contextmanager
def labelled_positions_scored(enabled: bool = True) -> Iterator[None]:
    """Within the block, TRL's fused LM head scores only the positions that carry loss on a CPU too.

    Args:
        enabled: False leaves TRL's own choice (every position off Triton devices), e.g. as a benchmark's baseline.
    """
    original = getattr(trl_utils, _COMPACT_TEST, None)
    if not enabled or original is None:
        if enabled:
            logger.warning("this TRL has no trl.trainer.utils.%s: its output layer scores every position on CPU",
                           _COMPACT_TEST)
        yield
        return

    def compact(device) -> bool:
        return device.type == "cpu" or original(device)

    setattr(trl_utils, _COMPACT_TEST, compact)
    try:
        yield
    finally:
        setattr(trl_utils, _COMPACT_TEST, original)
