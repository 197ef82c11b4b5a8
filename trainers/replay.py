"""Demonstration replay during GRPO: the BC loss on the demonstrations, kept beside the policy gradient.

InstructGPT's PPO-ptx mixes the pretraining loss into RL so that RL does not unlearn what came before it.
Here the earlier data is BC's: every GRPO step adds ``coef`` times the mean negative log-likelihood of the
expert's action tokens in a batch of BC rows (the same rows BC trained on, :func:`trainers.chat.demonstration_rows`).
Not part of WebAgent-R1's recipe: an option (``bc_replay_coef``, 0 by default) against the forgetting
measured when GRPO's reward comes from a few families (README, "What BC and GRPO each add").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import torch
import torch.nn.functional as F

from .chat import demonstration_rows, render, text_ids
from .checkpoint import random_state, set_random_state
from .config import AgentArguments

#: Label of the tokens that carry no loss (the prompt, padding), as transformers' causal-LM loss ignores.
IGNORE_INDEX = -100


def replay_rows(demos: Sequence[Any], args: AgentArguments, tokenizer: Any) -> list[tuple[list[int], int]]:
    """Every demonstration turn as token ids of context and action, with the context's length.

    The action's tokens are those the chat template writes after the context's assistant header
    (the end-of-turn token included), as BC's ``completion_only_loss`` trains them.
    """
    rows = []
    for row in demonstration_rows(demos, args):
        context = render(tokenizer, row["prompt"], add_generation_prompt=True)
        whole = render(tokenizer, [*row["prompt"], *row["completion"]], add_generation_prompt=False)
        if not whole.startswith(context):
            raise ValueError("The chat template renders a context differently once its answer follows; "
                             "demonstration replay needs the context as a prefix of the whole row.")
        context_ids = text_ids(tokenizer, context)
        rows.append((context_ids + text_ids(tokenizer, whole[len(context):]), len(context_ids)))
    return rows


class DemonstrationReplay:
    """Batches of BC rows, drawn without replacement (a new shuffle after every pass), and their loss.

    Args:
        demos: The demonstrations to replay (BC's).
        args: The agent's settings, for contexts identical to BC's and the rollouts'.
        tokenizer: The policy's tokenizer (with a chat template).
        batch_size: Rows per batch.
        seed: Seed of the draw order.
    """

    def __init__(self, demos: Sequence[Any], args: AgentArguments, tokenizer: Any, *, batch_size: int, seed: int):
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size!r}.")
        self.rows = replay_rows(demos, args, tokenizer)
        if not self.rows:
            raise ValueError("Demonstration replay needs at least one demonstration turn; none was given.")
        self.batch_size = min(batch_size, len(self.rows))
        self.pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        self._random = random.Random(seed)
        self._order: list[int] = []

    def next_batch(self) -> dict[str, torch.Tensor]:
        """The next rows, padded on the right: ``input_ids``, ``attention_mask`` and ``labels`` (actions only)."""
        if len(self._order) < self.batch_size:
            fresh = list(range(len(self.rows)))
            self._random.shuffle(fresh)
            self._order += fresh
        picked = [self.rows[i] for i in self._order[: self.batch_size]]
        del self._order[: self.batch_size]
        width = max(len(ids) for ids, _ in picked)
        input_ids = torch.full((len(picked), width), self.pad_id, dtype=torch.long)
        labels = torch.full((len(picked), width), IGNORE_INDEX, dtype=torch.long)
        attention_mask = torch.zeros((len(picked), width), dtype=torch.long)
        for i, (ids, context_length) in enumerate(picked):
            row = torch.tensor(ids, dtype=torch.long)
            input_ids[i, : len(ids)] = row
            labels[i, context_length : len(ids)] = row[context_length:]
            attention_mask[i, : len(ids)] = 1
        return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}

    def state_dict(self) -> dict:
        """The draw order's state, as JSON (for a checkpoint)."""
        return {"rng": random_state(self._random), "order": list(self._order)}

    def load_state_dict(self, state: dict) -> None:
        """Continue the draw order of :meth:`state_dict`'s record."""
        if any(not 0 <= i < len(self.rows) for i in state["order"]):
            raise ValueError("the checkpoint's replay order covers other demonstrations than this run's.")
        set_random_state(self._random, state["rng"])
        self._order = list(state["order"])

    def loss(self, model: Any, device: torch.device | str = "cpu") -> torch.Tensor:
        """Mean negative log-likelihood of the action tokens of the next batch under ``model`` (with gradient).

        The causal LM's own loss (labels shifted by one, ``IGNORE_INDEX`` skipped), with the output layer
        run only on the positions that predict an action token (transformers' boolean ``logits_to_keep``),
        as BC's loss does (:mod:`.scoring`): a pretrained base's vocabulary over every position was a
        third of a BC step.
        """
        batch = {key: value.to(device) for key, value in self.next_batch().items()}
        targets = batch.pop("labels")[:, 1:]
        labelled = targets != IGNORE_INDEX
        predicting = torch.zeros_like(batch["input_ids"], dtype=torch.bool)
        predicting[:, :-1] = labelled
        logits = model(**batch, logits_to_keep=predicting).logits
        return F.cross_entropy(logits.float(), targets[labelled])
