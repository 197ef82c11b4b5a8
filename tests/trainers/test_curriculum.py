"""The learnability curriculum: TRL's batch shape, tasks steered to families whose groups differ."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from trainers.curriculum import FamilyLearnability, LearnableTaskSampler

# Three families of four tasks each: dataset rows 0-3 are "a", 4-7 "b", 8-11 "c".
FAMILIES = ["a"] * 4 + ["b"] * 4 + ["c"] * 4


def _sampler(learnability=None, families=FAMILIES, **shape) -> LearnableTaskSampler:
    learnability = learnability or FamilyLearnability(families)
    shape = {"mini_repeat_count": 3, "batch_size": 2, "repeat_count": 2, "seed": 0, **shape}
    return LearnableTaskSampler(families, learnability, **shape)


def _batches(indices: list[int], sampler: LearnableTaskSampler) -> list[list[int]]:
    """The distinct tasks of each generation batch, checking the repeats TRL's RepeatSampler makes."""
    g, size, repeats = sampler.mini_repeat_count, sampler.batch_size, sampler.repeat_count
    width = g * size * repeats
    batches = []
    for start in range(0, len(indices), width):
        block = indices[start : start + width]
        once = block[: g * size]
        assert block == once * repeats
        tasks = once[::g]
        assert once == [i for i in tasks for _ in range(g)]
        assert len(set(tasks)) == size
        batches.append(tasks)
    return batches


def test_the_sampler_gives_trl_repeat_samplers_shape():
    sampler = _sampler()
    indices = list(sampler)
    assert len(indices) == len(sampler) == (12 // 2) * 2 * 3 * 2
    assert len(_batches(indices, sampler)) == 6


def test_families_with_informative_groups_are_drawn_more_and_flat_ones_less():
    learnability = FamilyLearnability(FAMILIES, memory=1.0)
    sampler = _sampler(learnability, repeat_count=1, mini_repeat_count=1, batch_size=1)
    drawn: Counter[str] = Counter()
    for _ in range(30):  # a policy that learns on "a" and nowhere else
        family = FAMILIES[next(iter(sampler))]
        drawn[family] += 1
        learnability.record([(family, [0.0, 1.0] if family == "a" else [0.0, 0.0])])
    assert learnability.rate("a") > 0.8 and learnability.rate("b") < 0.5 and learnability.rate("c") < 0.5
    assert drawn["a"] > 20 and drawn["b"] >= 1 and drawn["c"] >= 1, drawn  # still explored, rarely


def test_within_a_family_the_least_drawn_task_goes_first():
    sampler = _sampler(families=["a"] * 5, batch_size=2, repeat_count=1, mini_repeat_count=1)
    draws: Counter[int] = Counter()
    for _ in range(4):
        draws.update(list(sampler))
    assert sorted(draws.values()) == [3, 3, 3, 3, 4]  # 16 draws over 5 tasks, as even as they can be


def test_the_table_reports_each_family_most_learnable_first_with_its_draws():
    learnability = FamilyLearnability(FAMILIES, memory=1.0)
    sampler = _sampler(learnability, batch_size=3, repeat_count=1, mini_repeat_count=1)
    next(iter(sampler))  # one batch of three tasks drawn
    learnability.record([("b", [0.0, 1.0]), ("c", [0.0, 0.0])])
    rows = learnability.table(sampler.draws_by_family())
    assert [row["family"] for row in rows] == ["b", "a", "c"]
    assert rows[0] == {"family": "b", "informative": 1.0, "flat": 0.0, "rate": round(2 / 3, 3), "drawn": rows[0]["drawn"]}
    assert sum(row["drawn"] for row in rows) == 3


def test_counts_decay_so_a_family_that_stops_teaching_is_dropped():
    learnability = FamilyLearnability(["a", "b"], memory=0.8)
    learnability.record([("a", [1.0, 0.0])] * 5)
    assert learnability.rate("a") > 0.8
    for _ in range(20):
        learnability.record([("a", [1.0, 1.0])])  # mastered: every group succeeds
    assert learnability.rate("a") < 0.3
    assert learnability.rate("b") == 0.5  # never played: the prior
    learnability.record([("elsewhere", [0.0, 1.0])])  # a task from outside the sampled set is ignored
    assert set(learnability.informative) == {"a", "b"}


def test_every_process_draws_the_same_tasks_from_the_same_seed_and_counts():
    runs = []
    for _ in range(2):
        learnability = FamilyLearnability(FAMILIES)
        sampler = _sampler(learnability, seed=7)
        rng = random.Random(1)
        order = []
        for index in sampler:
            order.append(index)
            if len(order) % 12 == 0:
                learnability.record([(FAMILIES[index], [rng.random() < 0.5 for _ in range(3)])])
        runs.append(order)
    assert runs[0] == runs[1]


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="memory must be in"):
        FamilyLearnability(FAMILIES, memory=0.0)
    with pytest.raises(ValueError, match="needs at least that many tasks"):
        _sampler(families=["a", "b"], batch_size=3)


def test_distinct_families_give_each_family_one_slot_of_a_batch_while_there_are_enough():
    learnability = FamilyLearnability(FAMILIES, memory=1.0)
    learnability.record([("a", [0.0, 1.0])] * 20 + [("b", [0.0, 0.0])] * 20 + [("c", [0.0, 0.0])] * 20)
    per_task, distinct = (_sampler(learnability, batch_size=3, repeat_count=1, mini_repeat_count=1,
                                   distinct_families=flag) for flag in (False, True))
    for _ in range(5):
        # "a" is far the most learnable: drawn per task it takes (nearly) every slot ...
        assert [FAMILIES[i] for i in per_task._draw_batch()].count("a") >= 2
        # ... drawn per family it takes one, and the rest go to the next families.
        assert sorted(FAMILIES[i] for i in distinct._draw_batch()) == ["a", "b", "c"]
    wide = _sampler(learnability, batch_size=5, repeat_count=1, mini_repeat_count=1, distinct_families=True)
    batch = [FAMILIES[i] for i in wide._draw_batch()]  # more tasks than families: a second round
    assert sorted(set(batch)) == ["a", "b", "c"] and len(set(wide._draw_batch())) == 5


def test_the_per_task_draw_consumes_randomness_as_before_so_earlier_runs_reproduce():
    """One Beta draw per open family per slot, the highest taken: what the findings' curriculum run used."""
    learnability = FamilyLearnability(FAMILIES)
    sampler = _sampler(learnability, batch_size=2, repeat_count=1, mini_repeat_count=1, seed=2)
    rng = random.Random(2)  # a seed whose batch takes two tasks of one family
    expected: list[int] = []
    for _ in range(2):
        open_families = ["a", "b", "c"]  # 4 tasks each: never exhausted by a batch of 2
        family = max(open_families, key=lambda f: rng.betavariate(1.0, 1.0))
        expected.append(rng.choice([i for i, f in enumerate(FAMILIES) if f == family and i not in expected]))
    assert sampler._draw_batch() == expected


def test_a_sampler_resumed_from_its_state_draws_what_the_uninterrupted_one_draws():
    """The Trainer's loader draws a batch before the one ahead of it is trained. The state taken when batches
    0-2 are trained (and 3 drawn) resumes with placeholders for 0-2 (the Trainer skips them), the batch drawn
    ahead, then the draws the uninterrupted run makes."""
    families = FAMILIES * 2  # 12 batches per pass: the resume falls mid-pass

    def play(sampler, *, skipped=0, batches=8):
        width = sampler.mini_repeat_count * sampler.batch_size * sampler.repeat_count
        indices = iter(sampler)

        def draw():
            return [next(indices) for _ in range(width)][:: sampler.mini_repeat_count][: sampler.batch_size]

        placeholders = [draw() for _ in range(skipped)]
        played, states, current = [], {}, draw()
        for number in range(skipped, batches):
            ahead = draw() if number + 1 < batches else None
            sampler.learnability.record([(families[i], [float(number % 2), 0.0]) for i in current])  # trained
            states[number + 1] = json.loads(json.dumps(sampler.state_dict(number + 1)))  # it travels as JSON
            played.append(current)
            current = ahead
        return placeholders, played, states

    whole = _sampler(families=families)
    _, played, states = play(whole)
    resumed = _sampler(families=families)
    resumed.load_state_dict(states[3])
    placeholders, played_again, _ = play(resumed, skipped=3)
    assert placeholders == [[0, 0]] * 3
    assert played_again == played[3:]
    assert resumed.draws == whole.draws and resumed.learnability.table() == whole.learnability.table()


def test_a_state_for_other_tasks_or_an_old_batch_is_refused():
    sampler = _sampler()
    list(zip(range(30), sampler, strict=False))
    with pytest.raises(ValueError, match="not among the recent ones"):
        sampler.state_dict(sampler.batches_begun + 1)
    with pytest.raises(ValueError, match="other tasks"):
        _sampler(families=FAMILIES[:6]).load_state_dict(sampler.state_dict(sampler.batches_begun))
