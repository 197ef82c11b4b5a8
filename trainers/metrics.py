"""Training dynamics: every logged step to ``metrics.jsonl``, and a PNG of the curves at the end.

The metrics flow through TRL's logging (``Trainer.log``), so tensorboard and any other
``report_to`` tracker receive the same numbers; this callback also keeps them as JSON
lines (readable without a tracker) and draws the WebAgent-R1 training-dynamics figure:
reward and success rate, tokens per trajectory, interactions per episode, KL and clip
fraction.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from transformers import TrainerCallback
from transformers.trainer_callback import ProgressCallback

logger = logging.getLogger(__name__)

#: Panels of the figure: (title, metric keys drawn in it). Keys not logged are skipped.
PANELS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Reward and success rate", ("rollout/reward", "rollout/success_rate")),
    ("Tokens per trajectory", ("rollout/tokens_per_trajectory",)),
    ("Interactions per episode", ("rollout/interactions",)),
    ("KL to the reference", ("kl",)),
    ("Clip fraction", ("clip_ratio/region_mean",)),
    ("Loss", ("loss",)),
    ("Action-token accuracy", ("mean_token_accuracy",)),
    ("Entropy", ("entropy",)),
    ("Rollout time (s)", ("time/generation_s", "time/env_s")),
)
METRICS_FILE = "metrics.jsonl"
FIGURE_FILE = "training_dynamics.png"


#: Logged numbers that are no longer finite once training has diverged (the Trainer logs a NaN loss as
#: the mean of earlier ones, or 0 at first, so the gradient norm is what shows it).
DIVERGENCE_KEYS = ("loss", "grad_norm")


class MetricsRecorder(TrainerCallback):
    """Appends each log to ``<output_dir>/metrics.jsonl``; plots them when training ends.

    A log whose loss or gradient norm is not finite stops training with ``FloatingPointError``
    (after it is written): from there on every update would turn the weights into NaN.
    """

    def __init__(self, *, plot: bool = True):
        self.plot = plot
        self.records: list[dict[str, Any]] = []

    def on_train_begin(self, args, state, control, **kwargs):
        # Resumed from a checkpoint: its log history is the run's so far (what an interrupted run logged after
        # the checkpoint is dropped: it is trained again).
        self.records = [_record(entry["step"], entry) for entry in state.log_history if "step" in entry]
        if state.is_world_process_zero:
            Path(args.output_dir).mkdir(parents=True, exist_ok=True)
            (Path(args.output_dir) / METRICS_FILE).write_text("".join(json.dumps(r) + "\n" for r in self.records),
                                                              encoding="utf-8")

    def on_log(self, args, state, control, logs=None, **kwargs):
        if not logs:
            return
        if state.is_world_process_zero:
            record = _record(state.global_step, logs)
            self.records.append(record)
            with (Path(args.output_dir) / METRICS_FILE).open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(record) + "\n")
        # Every process checks (the logged loss and gradient norm are the same on each): a stop on the first
        # process alone would leave the others waiting in their next collective.
        diverged = {k: logs[k] for k in DIVERGENCE_KEYS if k in logs and not math.isfinite(logs[k])}
        if diverged:
            raise FloatingPointError(
                f"training diverged at step {state.global_step}: {diverged} ({args.output_dir}); lower the learning "
                "rate, or check that the starting model's weights are finite")

    def on_train_end(self, args, state, control, **kwargs):
        if self.plot and state.is_world_process_zero and self.records:
            path = plot_training_dynamics(self.records, Path(args.output_dir) / FIGURE_FILE)
            if path is not None:
                logger.info("Training dynamics plotted to %s", path)


def _record(step: int, logs: dict[str, Any]) -> dict[str, Any]:
    """One line of ``metrics.jsonl``: the step and the log's numbers."""
    return {"step": step, **{k: v for k, v in logs.items() if k != "step" and isinstance(v, (int, float))}}


class CompactProgress(ProgressCallback):
    """The Trainer's progress bar, with the key numbers as its postfix instead of a printed dict per log."""

    #: Logged keys shown in the bar, and their short names.
    SHOWN = {"loss": "loss", "rollout/reward": "reward", "kl": "kl", "mean_token_accuracy": "acc"}

    def on_train_begin(self, args, state, control, **kwargs):
        self.latest: dict[str, str] = {}  # a step that does not log a key keeps its last value shown
        super().on_train_begin(args, state, control, **kwargs)

    def on_log(self, args, state, control, logs=None, **kwargs):
        if not state.is_world_process_zero or self.training_bar is None or not logs:
            return
        for key, short in self.SHOWN.items():
            if isinstance(logs.get(key), (int, float)):
                self.latest[short] = f"{logs[key]:.3g}"
        if self.latest:
            self.training_bar.set_postfix(self.latest, refresh=False)


def use_compact_progress(trainer: Any) -> None:
    """Swap the trainer's progress bar for :class:`CompactProgress` (when it shows one)."""
    if trainer.pop_callback(ProgressCallback) is not None:
        trainer.add_callback(CompactProgress())


def read_metrics(path: str | Path) -> list[dict[str, Any]]:
    """The records of a ``metrics.jsonl`` file (what :class:`MetricsRecorder` wrote)."""
    with Path(path).open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def plot_training_dynamics(records: Sequence[dict[str, Any]], path: str | Path) -> Path | None:
    """Draw one panel per metric group that was logged; returns the PNG path (None if nothing to draw)."""
    import matplotlib

    matplotlib.use("Agg")  # no display on training machines
    import matplotlib.pyplot as plt

    panels = [(title, keys) for title, keys in PANELS if any(k in r for r in records for k in keys)]
    if not panels:
        return None
    columns = min(3, len(panels))
    rows = -(-len(panels) // columns)
    figure, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.2 * rows), squeeze=False)
    for axis, (title, keys) in zip(axes.flat, panels, strict=False):
        for key in keys:
            points = [(r["step"], r[key]) for r in records if r.get(key) is not None]
            if points:
                steps, values = zip(*points, strict=True)
                axis.plot(steps, values, marker="o", markersize=3, label=key.split("/")[-1])
        axis.set_title(title, fontsize=10)
        axis.set_xlabel("step")
        axis.grid(alpha=0.3)
        if len(keys) > 1:
            axis.legend(fontsize=8)
    for axis in list(axes.flat)[len(panels) :]:
        axis.axis("off")
    figure.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
