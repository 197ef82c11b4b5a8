"""How far a difference in success between two agents would move on another draw of tasks.

Two agents (two models, or one before and after training) are compared task by task on the tasks
both played, and a seeded percentile bootstrap gives an interval for the mean difference. Tasks of
one family (one intent template) succeed and fail together, so the interval that resamples whole
groups is the honest one for "tasks like these"; the one that resamples single tasks says how far the
mean would move on other tasks of the same groups.

>>> paired_difference({1: 1.0, 2: 1.0}, {1: 0.0, 2: 1.0}, [1, 2])["points"]
0.5
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from .results import EpisodeResult

#: Resamples behind an interval, and its coverage.
RESAMPLES = 10_000
LEVEL = 0.95
#: What a comparison of two runs' episodes resamples, most specific first: (unit, episode attribute).
GROUPINGS = (("templates", "template"), ("families", "family"))


def bootstrap_interval(groups: Sequence[Sequence[float]], *, resamples: int = RESAMPLES, level: float = LEVEL,
                       seed: int = 0) -> dict[str, Any]:
    """Percentile-bootstrap interval of the mean of all values, drawing ``len(groups)`` groups with replacement.

    Seeded, so the same numbers give the same interval on every run.

    >>> bootstrap_interval([[1.0], [1.0], [1.0]])
    {'low': 1.0, 'high': 1.0, 'level': 0.95, 'resamples': 10000, 'groups': 3}
    """
    if not groups or not all(groups):
        raise ValueError("a bootstrap needs at least one group, and no group may be empty")
    if not 0 < level < 1 or resamples < 1:
        raise ValueError(f"level must lie in (0, 1) and resamples be positive, got {level!r} and {resamples!r}")
    totals = [(sum(g), len(g)) for g in groups]
    rng = random.Random(seed)
    means = sorted(sum(t for t, _ in draw) / sum(n for _, n in draw)
                   for draw in (rng.choices(totals, k=len(totals)) for _ in range(resamples)))
    tail = int(resamples * (1 - level) / 2)
    return {"low": means[tail], "high": means[resamples - 1 - tail], "level": level, "resamples": resamples,
            "groups": len(groups)}


def paired_difference(after: Mapping[int, float], before: Mapping[int, float], task_ids: Sequence[int], *,
                      group_of: Mapping[int, Hashable] | None = None, group_unit: str = "groups") -> dict[str, Any]:
    """Mean over ``task_ids`` of ``after[t] - before[t]`` (a task missing from either counts 0) and its intervals.

    ``after`` and ``before`` map a task to its success (1.0 or 0.0, or a rate over several passes or seeds).
    The result holds ``points`` (the mean difference), ``tasks`` (the interval resampling single tasks) and,
    when ``group_of`` names a group for every task, ``group_unit`` (the interval resampling whole groups).
    """
    if not task_ids:
        raise ValueError("a difference needs at least one task")
    differences = [after.get(t, 0.0) - before.get(t, 0.0) for t in task_ids]
    result = {"points": sum(differences) / len(differences), "tasks": bootstrap_interval([[d] for d in differences])}
    if group_of is not None and all(group_of.get(t) is not None for t in task_ids):
        by_group: dict[Hashable, list[float]] = {}
        for task, difference in zip(task_ids, differences, strict=True):
            by_group.setdefault(group_of[task], []).append(difference)
        result[group_unit] = bootstrap_interval(list(by_group.values()))
    return result


def episode_difference(after: Sequence[EpisodeResult], before: Sequence[EpisodeResult], *,
                       groupings: Sequence[tuple[str, str]] = GROUPINGS) -> dict[str, Any] | None:
    """:func:`paired_difference` of two runs' episodes on the tasks both hold; None where they share none.

    The groups are those of the first of ``groupings`` (unit, episode attribute) that every shared task has,
    the same in both runs: intent templates, else embedded families, else single tasks alone.
    """
    before_by_task, after_by_task = ({e.task_id: e for e in run} for run in (before, after))
    shared = sorted(before_by_task.keys() & after_by_task.keys())
    if not shared:
        return None
    unit, group_of = "groups", None
    for name, attribute in groupings:
        groups = {t: getattr(before_by_task[t], attribute) for t in shared}
        if all(g is not None and g == getattr(after_by_task[t], attribute) for t, g in groups.items()):
            unit, group_of = name, groups
            break
    return paired_difference({t: float(after_by_task[t].success) for t in shared},
                             {t: float(before_by_task[t].success) for t in shared},
                             shared, group_of=group_of, group_unit=unit)


def interval_units(difference: Mapping[str, Any]) -> list[str]:
    """What ``difference``'s intervals resample: its groups first (if any), then ``tasks``."""
    return [u for u in difference if u not in ("points", "tasks")] + ["tasks"]


def format_units(difference: Mapping[str, Any]) -> str:
    """``the 24 families | the 46 tasks``: how many of each unit the intervals resample, in :func:`interval_units` order."""
    return " | ".join(f"the {difference[u]['groups']} {u}" for u in interval_units(difference))


def format_difference(difference: Mapping[str, Any]) -> str:
    """The mean difference in points and its intervals, in :func:`interval_units` order.

    >>> format_difference({"points": 0.065, "families": {"low": -0.056, "high": 0.203},
    ...                    "tasks": {"low": -0.014, "high": 0.159}})
    '+6.5 [-5.6, +20.3] | [-1.4, +15.9]'
    """
    intervals = " | ".join(f"[{100 * difference[u]['low']:+.1f}, {100 * difference[u]['high']:+.1f}]"
                           for u in interval_units(difference))
    return f"{100 * difference['points']:+.1f} {intervals}"
