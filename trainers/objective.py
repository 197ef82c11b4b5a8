"""The math of multi-turn GRPO that lives outside TRL's loss: advantages and batch tensors.

The clipped, token-level objective itself is TRL's (``GRPOTrainer._compute_loss``): it
multiplies the per-token loss by ``completion_mask * tool_mask``, so the environment
mask built here is what keeps pages and template tokens out of the gradient.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from .layouts import TokenRow

#: Added to the group's standard deviation, as TRL does, so identical rewards give 0, not NaN.
STD_EPSILON = 1e-4


def group_advantages(rewards: torch.Tensor, group_size: int, scale: str = "group") -> torch.Tensor:
    """Group-relative advantages: ``(r - mean of its group) / (std of its group + 1e-4)``.

    Rewards come in consecutive groups of ``group_size`` rollouts of the same task (the
    order TRL's sampler produces). ``scale`` follows TRL's ``scale_rewards``: ``"group"``
    divides by the group's standard deviation (Bessel-corrected), ``"batch"`` by the whole
    batch's, ``"none"`` not at all.

    >>> group_advantages(torch.tensor([1.0, 0.0, 0.0, 1.0, 1.0, 1.0]), 3).tolist()
    [1.154..., -0.577..., -0.577..., 0.0, 0.0, 0.0]
    """
    if rewards.ndim != 1 or rewards.numel() % group_size:
        raise ValueError(f"expected a flat tensor of groups of {group_size} rewards, got shape {tuple(rewards.shape)}")
    if scale not in ("group", "batch", "none"):
        raise ValueError(f"scale must be 'group', 'batch' or 'none', got {scale!r}")
    grouped = rewards.view(-1, group_size)
    centred = (grouped - grouped.mean(dim=1, keepdim=True)).view(-1)
    if scale == "none":
        return centred
    if scale == "group" and group_size > 1:
        std = grouped.std(dim=1, keepdim=True).expand_as(grouped).reshape(-1)
    elif scale == "batch" and rewards.numel() > 1:
        std = rewards.std().expand_as(rewards)
    else:  # a single sample has no spread
        std = torch.zeros_like(rewards)
    return centred / (std + STD_EPSILON)


def row_advantages(rows: Sequence[TokenRow], trajectory_advantages: torch.Tensor) -> torch.Tensor:
    """Each row's advantage: its trajectory's (0 for filler rows)."""
    return torch.tensor(
        [float(trajectory_advantages[r.trajectory]) if r.trajectory >= 0 else 0.0 for r in rows],
        dtype=torch.float32,
    )


def collate_rows(rows: Sequence[TokenRow], pad_id: int) -> dict[str, torch.Tensor]:
    """Padded tensors in TRL's layout: prompts padded on the left, completions on the right.

    ``completion_mask`` marks real completion tokens (attention); ``tool_mask`` marks the
    policy's own tokens (TRL's name for the environment mask: 0 = not trained).
    """
    prompt_width = max(len(r.prompt_ids) for r in rows)
    completion_width = max(max(len(r.completion_ids) for r in rows), 1)
    shape_p, shape_c = (len(rows), prompt_width), (len(rows), completion_width)
    prompt_ids = torch.full(shape_p, pad_id, dtype=torch.long)
    prompt_mask = torch.zeros(shape_p, dtype=torch.long)
    completion_ids = torch.full(shape_c, pad_id, dtype=torch.long)
    completion_mask = torch.zeros(shape_c, dtype=torch.long)
    tool_mask = torch.zeros(shape_c, dtype=torch.long)
    for i, row in enumerate(rows):
        n, m = len(row.prompt_ids), len(row.completion_ids)
        if n:
            prompt_ids[i, prompt_width - n :] = torch.tensor(row.prompt_ids)
            prompt_mask[i, prompt_width - n :] = 1
        if m:
            completion_ids[i, :m] = torch.tensor(row.completion_ids)
            completion_mask[i, :m] = 1
            tool_mask[i, :m] = torch.tensor(row.action_mask)
    return {
        "prompt_ids": prompt_ids,
        "prompt_mask": prompt_mask,
        "completion_ids": completion_ids,
        "completion_mask": completion_mask,
        "tool_mask": tool_mask,
    }
