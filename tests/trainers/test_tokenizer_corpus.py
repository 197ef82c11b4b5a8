"""A tiny model's tokenizer learnt from the text as the model reads it: shorter rows, copyable numbers."""

from __future__ import annotations

import re

import pytest

from trainers.chat import READ_ROLES, context_texts, demonstration_rows, prompt_ids, text_ids
from trainers.tiny import demonstration_texts, train_tokenizer
from webarena_gym.prompts import system_prompt

from .place_family import bc_config

pytestmark = pytest.mark.train


def test_the_corpus_holds_every_message_of_every_row_as_often_as_it_is_read(place_family, tmp_path):
    _tasks, demos = place_family
    args = bc_config(tmp_path)
    rows = demonstration_rows(demos, args)
    texts = context_texts(demos, args)
    assert texts == [m["content"] for r in rows for m in (*r["prompt"], *r["completion"])]
    assert texts.count(system_prompt()) == len(rows) == sum(len(d.turns) for d in demos)
    assert texts.count(system_prompt(thinking=True)) == 0
    assert context_texts(demos, bc_config(tmp_path, thinking=True)).count(system_prompt(thinking=True)) == len(rows)

    # What the agent reads, without what the expert wrote: no action, in a completion or in the history.
    read = context_texts(demos, args, roles=READ_ROLES)
    assert read == [m["content"] for r in rows for m in r["prompt"] if m["role"] != "assistant"]
    actions = {turn.action for d in demos for turn in d.turns}
    assert not actions & set(read) and actions <= set(texts)
    assert read.count(system_prompt()) == len(rows)


def test_learning_from_the_text_as_read_shortens_rows_and_keeps_numbers_apart(place_family, tmp_path):
    _tasks, demos = place_family
    args = bc_config(tmp_path)
    rows = demonstration_rows(demos, args)
    once = train_tokenizer(demonstration_texts(demos), 1500)
    as_read = train_tokenizer(context_texts(demos, args), 1500, max_token_length=32, split_digits=True)

    def mean_row(tokenizer) -> float:
        return sum(len(prompt_ids(tokenizer, r["prompt"])) for r in rows) / len(rows)

    # (On this small family; on the findings experiment's 24 families rows are 2.2x shorter:
    # benchmarks/tokenizer_corpus.py.)
    assert len(text_ids(as_read, system_prompt())) * 1.5 < len(text_ids(once, system_prompt()))
    assert mean_row(as_read) * 1.3 < mean_row(once)

    # An element id is the same tokens on the page and in the action that clicks it.
    click = rows[0]["completion"][0]["content"]
    element = re.search(r'element="(\d+)"', click).group(1)
    page = rows[0]["prompt"][-1]["content"]
    number = text_ids(as_read, element)
    assert _contains(text_ids(as_read, click), number)
    assert _contains(text_ids(as_read, page), number)
    # Without split_digits the merges swallow numbers into the markup around them (in some of the clicks at
    # least: which ones depends on the pages' text), never with them kept apart.
    swallowed = train_tokenizer(context_texts(demos, args), 1500, max_token_length=32)
    clicks = [(row["completion"][0]["content"], found.group(1)) for row in rows
              if (found := re.search(r'element="(\d+)"', row["completion"][0]["content"]))]
    assert all(_contains(text_ids(as_read, c), text_ids(as_read, e)) for c, e in clicks)
    assert any(not _contains(text_ids(swallowed, c), text_ids(swallowed, e)) for c, e in clicks)

    text = 'exit(message="ünïcode \ud7ff 42\x07")'
    assert as_read.decode(text_ids(as_read, text)) == text


def _contains(ids: list[int], part: list[int]) -> bool:
    return any(ids[i : i + len(part)] == part for i in range(len(ids) - len(part) + 1))
