"""The baselines on the real embedded sites: the fixed N/A answer and the ``baseline`` command."""

from __future__ import annotations

import pytest

from webarena_gym.actions import parse_action
from webarena_gym.cli import main
from webarena_gym.env import WebArenaEnv
from webarena_gym.errors import InvalidActionError
from webarena_gym.evaluation import AnswerAtOnce, run_policy

from ..references import reference_is_na


def test_answering_na_at_once_solves_exactly_the_tasks_whose_reference_is_na():
    env = WebArenaEnv(suite="embedded", split="test", max_steps=3)
    try:
        ids = [t.task_id for t in env.tasks]
        results = run_policy(env, AnswerAtOnce("N/A"), ids, progress=False)
        expected = {t.task_id for t in env.tasks if reference_is_na(t)}
    finally:
        env.close()
    assert len(expected) == 10  # the embedded test split's unachievable tasks
    assert {r.task_id for r in results if r.success} == expected
    assert all(r.steps == 1 and r.answer == "N/A" and r.end_reason == "exit" for r in results)


def test_a_fixed_answer_is_one_exit_action_that_reads_back_as_that_answer():
    answer = 'say "hi"\nand «ünïcode»'
    policy = AnswerAtOnce(answer)
    action = policy("<page>", {})
    assert action == policy("<other page>", {"step": 2})
    parsed = parse_action(action)
    assert parsed.name == "exit" and parsed.message == answer
    # A lone surrogate cannot be typed: the action is written, and parsing it (as the env does) says why.
    with pytest.raises(InvalidActionError, match="lone surrogate"):
        parse_action(AnswerAtOnce("N/A\udcff")("<page>", {}))


def test_baseline_command_prints_oracle_random_and_na_columns(capsys):
    assert main(["baseline", "--split", "test"]) == 0
    out = capsys.readouterr().out
    header, _rule, *rows = out.strip().splitlines()
    assert header.split() == ["site", "oracle", "random", "agent", "answer", "N/A"]
    last = rows[-1].split()
    assert last[0] == "all" and last[1] == "100.0%" and "10/165" in rows[-1].replace(" ", "")
