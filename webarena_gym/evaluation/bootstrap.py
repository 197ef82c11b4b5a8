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

#: Resamples behind an interval, and its coverage.
RESAMPLES = 10_000
LEVEL = 0.95


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


def format_difference(difference: Mapping[str, Any], units: Sequence[str]) -> str:
    """The mean difference in points and its intervals in ``units`` order (those it has).

    >>> format_difference({"points": 0.065, "tasks": {"low": -0.014, "high": 0.159}}, ["families", "tasks"])
    '+6.5 [-1.4, +15.9]'
    """
    intervals = " | ".join(f"[{100 * difference[u]['low']:+.1f}, {100 * difference[u]['high']:+.1f}]"
                           for u in units if u in difference)
    return f"{100 * difference['points']:+.1f} {intervals}".rstrip()
