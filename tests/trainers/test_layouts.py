"""Exact masks and advantages on hand-built trajectories, with a real (tiny) tokenizer."""

from __future__ import annotations

import pytest
import torch

from trainers.chat import prompt_ids, render
from trainers.layouts import pad_row_count, trajectory_rows, turn_rows
from trainers.objective import collate_rows, group_advantages, row_advantages
from webarena_gym.prompts import OMITTED

from .place_family import ACTIONS, PAGES, hand_built

pytestmark = pytest.mark.train

def test_turn_rows_train_exactly_the_sampled_tokens_on_their_own_context(tiny_tokenizer):
    trajectory = hand_built(tiny_tokenizer)
    rows = turn_rows([trajectory, trajectory])
    assert len(rows) == 4 and [r.trajectory for r in rows] == [0, 0, 1, 1]
    for row, turn in zip(rows, trajectory.turns, strict=False):
        assert row.prompt_ids == prompt_ids(tiny_tokenizer, turn.messages)
        assert row.completion_ids == turn.completion_ids
        assert row.action_mask == [1] * len(turn.completion_ids)
    # The second context shows the first page only as a placeholder, and the first action in full.
    second = tiny_tokenizer.decode(rows[1].prompt_ids)
    assert OMITTED.format(url=PAGES[0][1]) in second and ACTIONS[0] in second and "<h1>Home</h1>" not in second


def test_trajectory_row_masks_exactly_the_environment_tokens(tiny_tokenizer):
    tok = tiny_tokenizer
    trajectory = hand_built(tok)
    (row,) = trajectory_rows([trajectory], tok)
    first, second = (turn.completion_ids for turn in trajectory.turns)
    completion, mask = row.completion_ids, row.action_mask
    # action 1 (trained) | next user message and assistant header (masked) | action 2 (trained)
    assert completion[: len(first)] == first and completion[-len(second) :] == second
    between = completion[len(first) : -len(second)]
    assert mask == [1] * len(first) + [0] * len(between) + [1] * len(second)
    assert tok.decode(between) == "\n<|im_start|>user\n" + trajectory.turns[1].messages[-1]["content"] + \
        "<|im_end|>\n<|im_start|>assistant\n"
    # The sequence is the chat template's rendering of the compressed conversation ...
    conversation = trajectory.turns[1].messages + [{"role": "assistant", "content": ACTIONS[1]}]
    rendered = render(tok, conversation, add_generation_prompt=False)
    assert tok.decode(row.prompt_ids + completion) == rendered.rstrip("\n")
    # ... and the last action sits on exactly the context it was sampled from.
    assert row.prompt_ids + completion[: -len(second)] == trajectory.turns[1].prompt_ids


def test_an_action_cut_by_the_token_limit_is_closed_with_an_untrained_eos(tiny_tokenizer):
    (row,) = trajectory_rows([hand_built(tiny_tokenizer, cut_last=True)], tiny_tokenizer)
    assert row.completion_ids[-1] == tiny_tokenizer.eos_token_id and row.action_mask[-1] == 0
    assert row.action_mask[-2] == 1


def test_group_advantages_match_the_grpo_formula():
    rewards = torch.tensor([1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0])
    advantages = group_advantages(rewards, 4)
    std = torch.tensor([1.0, 0.0, 0.0, 0.0]).std()  # Bessel-corrected: sqrt(0.25)
    expected = (torch.tensor([0.75, -0.25, -0.25, -0.25]) / (std + 1e-4)).tolist()
    assert advantages[:4].tolist() == pytest.approx(expected)
    assert advantages[4:].tolist() == [0.0] * 4  # a group that always succeeds teaches nothing
    assert group_advantages(rewards, 4, "none")[:4].tolist() == pytest.approx([0.75, -0.25, -0.25, -0.25])
    with pytest.raises(ValueError, match="groups of 3"):
        group_advantages(rewards, 3)


def test_every_token_of_a_trajectory_shares_its_advantage(tiny_tokenizer):
    winner, loser = hand_built(tiny_tokenizer, reward=1.0), hand_built(tiny_tokenizer, reward=0.0)
    advantages = group_advantages(torch.tensor([winner.reward, loser.reward]), 2)
    rows = pad_row_count(turn_rows([winner, loser]), 3, tiny_tokenizer.pad_token_id)
    assert len(rows) == 6 and rows[-1].trajectory == -1
    win, loss = advantages.tolist()
    assert row_advantages(rows, advantages).tolist() == pytest.approx([win, win, loss, loss, 0.0, 0.0])
    assert win > 0 > loss


def test_collated_batch_pads_prompts_left_and_completions_right(tiny_tokenizer):
    trajectory = hand_built(tiny_tokenizer)
    rows = pad_row_count(trajectory_rows([trajectory], tiny_tokenizer) + turn_rows([trajectory]), 2,
                         tiny_tokenizer.pad_token_id)
    batch = collate_rows(rows, tiny_tokenizer.pad_token_id)
    for i, row in enumerate(rows):
        n, m = len(row.prompt_ids), len(row.completion_ids)
        assert batch["prompt_mask"][i].tolist() == [0] * (batch["prompt_ids"].size(1) - n) + [1] * n
        assert batch["prompt_ids"][i, -n:].tolist() == row.prompt_ids
        assert batch["completion_ids"][i, :m].tolist() == row.completion_ids
        assert batch["tool_mask"][i].tolist() == row.action_mask + [0] * (batch["tool_mask"].size(1) - m)
    assert batch["tool_mask"][-1].sum() == 0  # filler row: attended, never trained
