"""The bootstrap behind every gain's interval: paired differences, groups that succeed together, refusals."""

from __future__ import annotations

import pytest

from webarena_gym.evaluation import (
    EpisodeResult,
    bootstrap_interval,
    episode_difference,
    format_difference,
    format_units,
    paired_difference,
)
from webarena_gym.evaluation.bootstrap import RESAMPLES


def test_families_that_succeed_together_widen_the_interval():
    # 24 families of 2 tasks; the whole gain sits in 3 of them: resampling families sees that, single tasks less so.
    per_family = [[1.0, 1.0]] * 3 + [[0.0, 0.0]] * 21
    families = bootstrap_interval(per_family)
    tasks = bootstrap_interval([[v] for group in per_family for v in group])
    assert families["low"] < tasks["low"] < 0.125 < tasks["high"] < families["high"]
    assert (families["groups"], tasks["groups"]) == (24, 48)
    assert bootstrap_interval(per_family) == families  # seeded: the same numbers, the same interval
    assert bootstrap_interval(per_family, seed=1) != families
    narrower = bootstrap_interval(per_family, level=0.5)
    assert families["low"] < narrower["low"] <= narrower["high"] < families["high"]
    assert bootstrap_interval([[0.25], [0.25]]) | {"level": 0} == {
        "low": 0.25, "high": 0.25, "level": 0, "resamples": RESAMPLES, "groups": 2}


def test_a_paired_difference_compares_task_by_task_and_groups_when_every_task_has_one():
    after = {1: 1.0, 2: 1.0, 3: 0.5, 9: 1.0}  # task 9 is not compared
    before = {1: 1.0, 4: 1.0}  # a task missing from a side counts 0
    tasks = [1, 2, 3, 4]
    difference = paired_difference(after, before, tasks, group_of={1: "a", 2: "a", 3: "b", 4: "c"},
                                   group_unit="families")
    assert difference["points"] == pytest.approx((0 + 1 + 0.5 - 1) / 4)
    assert difference["tasks"]["groups"] == 4 and difference["families"]["groups"] == 3
    for interval in (difference["tasks"], difference["families"]):
        assert -1.0 <= interval["low"] <= difference["points"] <= interval["high"] <= 1.0
    # A task without a group: single tasks only, never a partial grouping.
    assert set(paired_difference(after, before, tasks, group_of={1: "a", 2: "a", 3: "b"})) == {"points", "tasks"}
    assert paired_difference(after, after, tasks)["tasks"] | {"level": 0.95} == {
        "low": 0.0, "high": 0.0, "level": 0.95, "resamples": RESAMPLES, "groups": 4}


@pytest.mark.parametrize("groups, options", [([], {}), ([[1.0], []], {}), ([[1.0]], {"level": 1.0}),
                                             ([[1.0]], {"resamples": 0})])
def test_a_bootstrap_without_data_or_with_a_bad_level_is_refused(groups, options):
    with pytest.raises(ValueError, match="bootstrap needs|level must"):
        bootstrap_interval(groups, **options)
    with pytest.raises(ValueError, match="at least one task"):
        paired_difference({1: 1.0}, {}, [])


def test_two_runs_episodes_are_compared_on_shared_tasks_grouped_by_template_else_family():
    def run(successes: dict[int, bool], template: bool = True, family: bool = True) -> list[EpisodeResult]:
        return [EpisodeResult(t, ["map"], float(ok), 1, None, template=t // 10 if template else None,
                              family=f"f{t // 20}" if family else None) for t, ok in successes.items()]

    before = run({10: False, 11: False, 20: True, 30: False, 99: True})
    after = run({10: True, 11: True, 20: True, 30: False, 40: True})  # 99 and 40 are in one run only
    difference = episode_difference(after, before)
    assert difference["points"] == pytest.approx(2 / 4) and difference["tasks"]["groups"] == 4
    assert list(difference) == ["points", "tasks", "templates"] and difference["templates"]["groups"] == 3
    assert format_units(difference) == "the 3 templates | the 4 tasks"
    assert format_difference(difference).startswith("+50.0 [")
    # Without templates, the families; where a run lacks both, single tasks alone.
    assert episode_difference(run({10: True, 20: True}, template=False), run({10: False, 20: False}))["families"]
    alone = episode_difference(run({10: True}, template=False, family=False), run({10: False}))
    assert list(alone) == ["points", "tasks"] and format_units(alone) == "the 1 tasks"
    assert episode_difference(after, before, groupings=[("families", "family")])["families"]["groups"] == 2
    assert episode_difference(run({1: True}), run({2: True})) is None  # no task in common
