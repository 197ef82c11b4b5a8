"""Training rows from trajectories, in the two layouts, with their loss masks.

A row is ``prompt_ids`` (context, never trained) + ``completion_ids`` with an
``action_mask`` over the completion: 1 for tokens the policy sampled, 0 for tokens the
environment or the chat template put there. Every row carries the index of its
trajectory, whose group-relative advantage all its action tokens share.

- ``turn``: one row per turn; the prompt is the exact token context the action was
  sampled from and the completion is exactly the sampled tokens (all of them action
  tokens). The gradient is exactly on-policy.
- ``trajectory``: one row per trajectory, as WebAgent-R1 trains: the context of the last
  turn (every past observation compressed to a placeholder, the last page in full) with
  all the sampled actions in place; user messages between actions are masked out. Only
  the last action's context is the one it was sampled from; earlier actions were sampled
  with their own page in full, so their gradient is an approximation (cheaper: one
  sequence instead of one per turn).

>>> rows = turn_rows([_example()])
>>> [(r.completion_ids, r.action_mask, r.trajectory) for r in rows]
[([7, 8, 2], [1, 1, 1], 0), ([9, 2], [1, 1], 0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .chat import render, text_ids
from .rollout import Trajectory, TurnSample


@dataclass
class TokenRow:
    """One training row; ``trajectory`` is -1 for padding rows (no loss)."""

    prompt_ids: list[int]
    completion_ids: list[int]
    action_mask: list[int]
    trajectory: int


def turn_rows(trajectories: Sequence[Trajectory]) -> list[TokenRow]:
    """One row per turn: exact context, exact sampled tokens, every completion token trained."""
    return [
        TokenRow(list(turn.prompt_ids), list(turn.completion_ids), [1] * len(turn.completion_ids), index)
        for index, trajectory in enumerate(trajectories)
        for turn in trajectory.turns
    ]


def trajectory_rows(trajectories: Sequence[Trajectory], tokenizer: Any) -> list[TokenRow]:
    """One row per trajectory: compressed context, sampled actions in place, environment tokens masked."""
    return [_trajectory_row(t, index, tokenizer) for index, t in enumerate(trajectories)]


def _trajectory_row(trajectory: Trajectory, index: int, tokenizer: Any) -> TokenRow:
    # The last turn's context holds the whole compressed conversation up to the last action:
    # [system, user_0, assistant_0, user_1, ..., user_K]. Assistant messages are the decoded
    # actions; they are replaced by the sampled ids so the policy is scored on what it wrote.
    last: TurnSample = trajectory.turns[-1]
    messages = list(last.messages)
    eos_id, eos_text = tokenizer.eos_token_id, tokenizer.eos_token
    prompt = text_ids(tokenizer, render(tokenizer, messages[:2], add_generation_prompt=True))
    completion: list[int] = []
    mask: list[int] = []
    for k, turn in enumerate(trajectory.turns):
        sampled = list(turn.completion_ids)
        completion += sampled
        mask += [1] * len(sampled)
        if not sampled or sampled[-1] != eos_id:
            # Cut at the token limit: the chat still closes the turn; that token is not the policy's.
            completion.append(eos_id)
            mask.append(0)
        if k + 1 < len(trajectory.turns):
            suffix = _next_user_ids(tokenizer, messages, 2 + 2 * k, eos_text)
            completion += suffix
            mask += [0] * len(suffix)
    return TokenRow(prompt, completion, mask, index)


def _next_user_ids(tokenizer: Any, messages: list[dict[str, str]], assistant_index: int, eos_text: str) -> list[int]:
    """Tokens between the end (EOS) of assistant message ``assistant_index`` and the next action.

    Rendered from the real conversation, so templates that number or date turns stay exact.
    """
    through_action = render(tokenizer, messages[: assistant_index + 1], add_generation_prompt=False)
    to_next_action = render(tokenizer, messages[: assistant_index + 2], add_generation_prompt=True)
    # Chat templates close a turn with EOS and then add separators ("<|im_end|>\n"); the
    # sampled ids stop at EOS, so the environment's part starts right after it.
    end = through_action.rfind(eos_text)
    if end < 0 or not to_next_action.startswith(through_action[: end + len(eos_text)]):
        raise ValueError(
            "The chat template does not render a conversation as a prefix of its continuation (or does not end "
            "assistant turns with the EOS token), so environment tokens cannot be placed between actions. Use "
            "layout='turn', which needs no such property."
        )
    return text_ids(tokenizer, to_next_action[end + len(eos_text) :])


def pad_row_count(rows: list[TokenRow], multiple: int, pad_id: int) -> list[TokenRow]:
    """Add filler rows (no loss) so the count divides into ``multiple`` equal slices.

    TRL splits a generation batch into ``steps_per_generation`` equal slices and would
    silently drop the remainder. A filler row holds one attended pad token on each side
    (a row with nothing to attend to would give NaN logits) and no action token.
    """
    missing = (-len(rows)) % multiple
    return rows + [TokenRow([pad_id], [pad_id], [0], -1) for _ in range(missing)]


def _example() -> Trajectory:
    """A hand-built two-turn trajectory (used by the doctest)."""
    turns = [TurnSample([], [1, 5], [7, 8, 2], "a"), TurnSample([], [1, 5, 7, 8, 2, 6], [9, 2], "b")]
    return Trajectory(1, "intent", ["map"], turns, reward=1.0, terminated=True)
