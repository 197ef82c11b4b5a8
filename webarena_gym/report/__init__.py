"""A run (or two, compared) as one self-contained HTML file: ``webarena-gym report RUN.jsonl -o report.html``.

The report shows the code version (package version, git commit) and date of each run;
success per site (and per task family on the embedded suite), interactions, agent mistakes
and tokens; then every episode with its answer beside the task's reference (answers, URL,
page checks) and, for each step, the page's URL, observation and screenshot (when recorded:
a thumbnail beside the step, a click enlarges it), the model's output, the parsed action and
the env's error; filters by site and outcome. A link to ``report.html#task-N`` (as in the
per-task table) opens that episode. With two runs (before and after training) a
per-task table says which tasks were fixed and which regressed, and each episode shows
both runs side by side. No network is needed to view it.

>>> from webarena_gym.evaluation import read_run                                  # doctest: +SKIP
>>> write_report([read_run("before.jsonl"), read_run("after.jsonl")], "compare.html")  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..errors import ConfigurationError
from ..evaluation import RunFile
from .html import render_report

__all__ = ["render_report", "write_report"]


def write_report(runs: Sequence[RunFile], path: str | Path, *, title: str | None = None,
                 observation_chars: int | None = None, labels: Sequence[str] | None = None) -> Path:
    """Render ``runs`` (one, or two to compare) to ``path``; returns the path.

    ``labels`` name the runs in the report (default: the model of each run, or its file name).
    """
    if not 1 <= len(runs) <= 2:
        raise ConfigurationError(f"A report shows one run or compares two; got {len(runs)}.")
    if not any(run.episodes for run in runs):
        raise ConfigurationError(f"No episodes in {', '.join(str(r.path) for r in runs)}: nothing to report.")
    if observation_chars is not None and observation_chars < 0:
        raise ConfigurationError(f"observation_chars must be >= 0 or None, got {observation_chars}.")
    if labels is not None and (len(labels) != len(runs) or len(set(labels)) != len(labels)):
        raise ConfigurationError(f"Give one distinct label per run: {len(runs)} run(s), labels {list(labels)!r}.")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_report(runs, title=title, observation_chars=observation_chars, labels=labels), encoding="utf-8",
                    errors="replace")
    return path
