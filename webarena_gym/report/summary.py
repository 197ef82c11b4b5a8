"""The numbers of a report: success per site and family, interactions, tokens, and per-task comparison."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..evaluation import EpisodeResult, RunFile, episode_difference, success_by, success_by_site

#: Outcome of a task in a comparison of two runs (before, after).
VERDICTS = {
    (False, True): "fixed",
    (True, False): "regressed",
    (True, True): "both",
    (False, False): "neither",
}


@dataclass(frozen=True)
class RunStats:
    """Aggregates of one run."""

    episodes: int
    successes: int
    mean_steps: float
    steps_with_error: int
    steps: int
    prompt_tokens: int | None
    completion_tokens: int | None
    end_reasons: dict[str, int]

    @property
    def success_rate(self) -> float:
        return self.successes / self.episodes if self.episodes else 0.0


def run_stats(episodes: Sequence[EpisodeResult]) -> RunStats:
    """Success, interactions, agent mistakes and tokens over ``episodes``.

    Token counts are None when no step of the run reported them.
    """
    steps = sum(len(e.turns) for e in episodes)
    reported = any(t.prompt_tokens is not None or t.completion_tokens is not None for e in episodes for t in e.turns)
    prompt = sum(e.tokens[0] for e in episodes)
    completion = sum(e.tokens[1] for e in episodes)
    return RunStats(
        episodes=len(episodes),
        successes=sum(e.success for e in episodes),
        mean_steps=steps / len(episodes) if episodes else 0.0,
        steps_with_error=sum(bool(t.error) for e in episodes for t in e.turns),
        steps=steps,
        prompt_tokens=prompt if reported else None,
        completion_tokens=completion if reported else None,
        end_reasons=dict(Counter(e.end_reason or "unknown" for e in episodes).most_common()),
    )


def site_table(runs: Sequence[RunFile]) -> dict[str, list[tuple[int, int]]]:
    """{site group: [(successes, episodes) per run]}, ``"all"`` last."""
    return _merge([success_by_site(run.episodes) for run in runs])


def family_table(runs: Sequence[RunFile]) -> dict[str, list[tuple[int, int]]]:
    """{task family: [(successes, episodes) per run]}; empty when no episode names its family."""
    if not any(e.family for run in runs for e in run.episodes):
        return {}
    return _merge([success_by(run.episodes, lambda e: e.family or "(other)") for run in runs])


def _merge(tables: list[dict[str, tuple[int, int]]]) -> dict[str, list[tuple[int, int]]]:
    keys = sorted({k for table in tables for k in table}, key=lambda k: (k == "all", k))
    return {k: [table.get(k, (0, 0)) for table in tables] for k in keys}


@dataclass(frozen=True)
class TaskRow:
    """One task across the runs: its episode in each run (None where a run lacks it)."""

    task_id: int
    site_group: str
    intent: str
    episodes: tuple[EpisodeResult | None, ...]

    @property
    def outcome(self) -> str:
        """``success``/``failure`` for one run; for two, ``fixed``, ``regressed``, ``both``, ``neither``
        or ``missing`` (a run lacks the task)."""
        if len(self.episodes) == 1:
            return "success" if self.episodes[0].success else "failure"
        if any(e is None for e in self.episodes):
            return "missing"
        return VERDICTS[tuple(e.success for e in self.episodes)]


def task_rows(runs: Sequence[RunFile]) -> list[TaskRow]:
    """Every task of the runs, in task-id order."""
    by_run = [{e.task_id: e for e in run.episodes} for run in runs]
    rows = []
    for task_id in sorted({t for episodes in by_run for t in episodes}):
        episodes = tuple(episodes.get(task_id) for episodes in by_run)
        first = next(e for e in episodes if e is not None)
        rows.append(TaskRow(task_id, first.site_group, first.intent, episodes))
    return rows


def run_differences(runs: Sequence[RunFile]) -> list[tuple[int, dict]]:
    """Each run after the first against the first (its index, :func:`episode_difference`), where they share a task."""
    found = [(index, episode_difference(run.episodes, runs[0].episodes)) for index, run in enumerate(runs[1:], start=1)]
    return [(index, difference) for index, difference in found if difference is not None]


def run_labels(runs: Sequence[RunFile]) -> list[str]:
    """A distinct label per run: the model's name, or the file's name where two runs share a model."""
    names = [run.name for run in runs]
    return [run.path.name if names.count(run.name) > 1 else run.name for run in runs]
