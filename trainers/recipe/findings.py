"""The report of the findings experiment (``examples/reproduce_findings.py``): summary statistics, the terminal
table, the targets and the PNG; and a saved ``findings.json`` read back (:func:`report_file`, :func:`compare_runs`).
"""

from __future__ import annotations

import json
import statistics
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from webarena_gym.evaluation.bootstrap import format_difference, format_units, paired_difference

#: The arms, in the order they are reported, and their labels.
ARMS = ("untrained", "grpo_zero", "bc", "bc_grpo")
LABELS = {"untrained": "untrained", "grpo_zero": "GRPO from untrained (R1-Zero)", "bc": "BC",
          "bc_grpo": "BC + GRPO (R1)"}
#: The differences the targets are about: an arm, and the arm it is measured against.
GAINS = (("bc_grpo", "bc"), ("grpo_zero", "untrained"))


def spread(values: list[float]) -> dict[str, float]:
    """Mean, sample standard deviation (0 for one value), min and max."""
    return {"mean": statistics.fmean(values), "std": statistics.stdev(values) if len(values) > 1 else 0.0,
            "min": min(values), "max": max(values), "values": list(values)}


def summarize(seeds: dict[str, Any], tasks: dict[str, Any] | None = None) -> dict[str, Any]:
    """Per arm every seed ran and mode (greedy, sampled): spread over seeds; the scaling curve; the targets.

    With ``tasks`` (the held-out ``test_ids``, and their families as ``test_task_families``), also each
    gain of :data:`GAINS` with its bootstrap intervals (:func:`gains`).
    """
    summary: dict[str, Any] = {"arms": {}, "scaling": {}}
    for arm in (a for a in ARMS if all(a in s["arms"] for s in seeds.values())):
        summary["arms"][arm] = {
            mode: spread([s["arms"][arm][mode]["success"] for s in seeds.values()])
            for mode in ("greedy", "sampled") if all(mode in s["arms"][arm] for s in seeds.values())
        }
    summary["na_answers"] = {
        arm: spread([s["arms"][arm]["greedy"]["na_answers"] for s in seeds.values()])
        for arm in summary["arms"] if all("na_answers" in s["arms"][arm]["greedy"] for s in seeds.values())
    }  # evaluations cached before the share was recorded have none
    for turns in next(iter(seeds.values()))["scaling"]:
        summary["scaling"][turns] = spread([s["scaling"][turns] for s in seeds.values()])
    if along := along_training(seeds):
        summary["along_training"] = along
    summary["targets"] = targets(summary["arms"])
    if tasks:
        summary["gains"] = gains(seeds, tasks)
    summary["seconds"] = round(sum(v or 0.0 for s in seeds.values() for v in s["timing_s"].values()), 1)
    return summary


def along_training(seeds: dict[str, Any]) -> dict[str, dict[str, dict[str, float]]]:
    """Per GRPO arm, held-out greedy success by GRPO step (``--eval-every``): spread over seeds, at the steps
    every seed evaluated (runs without it, and older files, have none)."""
    curves = [s.get("along_training", {}) for s in seeds.values()]
    summary = {}
    for arm in (a for a in ARMS if all(a in c for c in curves)):
        steps = sorted(set.intersection(*(set(c[arm]) for c in curves)), key=int)
        summary[arm] = {step: spread([c[arm][step] for c in curves]) for step in steps}
    return summary


def targets(arms: dict[str, Any]) -> dict[str, Any]:
    """The issue's three targets, on mean held-out success, for greedy and sampled decoding (where their arms ran)."""
    checks: dict[str, Any] = {}
    for mode in ("greedy", "sampled"):
        mean = {arm: stats[mode]["mean"] for arm, stats in arms.items() if mode in stats}
        mode_checks = {}
        if {"bc", "untrained"} <= mean.keys():
            mode_checks["bc_at_least_3x_untrained"] = {
                "bc": mean["bc"], "3x untrained": 3 * mean["untrained"],
                "met": mean["bc"] >= 3 * mean["untrained"] and mean["bc"] > 0}
        if {"bc_grpo", "bc"} <= mean.keys():
            mode_checks["bc_grpo_at_least_bc_plus_10_points"] = {
                "bc_grpo": mean["bc_grpo"], "bc + 0.10": mean["bc"] + 0.10,
                "met": mean["bc_grpo"] >= mean["bc"] + 0.10 - 1e-9}
        if {"grpo_zero", "untrained"} <= mean.keys():
            mode_checks["grpo_zero_within_5_points_of_untrained"] = {
                "grpo_zero": mean["grpo_zero"], "untrained": mean["untrained"],
                "met": abs(mean["grpo_zero"] - mean["untrained"]) <= 0.05 + 1e-9}
        if mode_checks:
            checks[mode] = mode_checks
    return checks


def gains(seeds: dict[str, Any], tasks: dict[str, Any]) -> dict[str, Any]:
    """Success of each arm of :data:`GAINS` minus its baseline's, mean over seeds and held-out tasks, per mode.

    The same seeds' results are compared task by task, and the interval says how far the mean would move on
    another draw of held-out tasks: a percentile bootstrap resampling whole families (tasks of one family
    succeed and fail together, so this is the honest unit for "tasks like these") and one resampling single
    tasks (other tasks of these same families). Greedy, and sampled where every pass lists the tasks it
    solved (evaluations cached before they did have greedy alone). Keys: ``<arm>_minus_<baseline>`` for
    greedy, ``<arm>_minus_<baseline>_sampled``.
    """
    test_ids = list(tasks["test_ids"])
    families = tasks.get("test_task_families")
    group_of = dict(zip(test_ids, families, strict=True)) if families and len(families) == len(test_ids) else None
    result: dict[str, Any] = {}
    for mode, suffix in (("greedy", ""), ("sampled", "_sampled")):
        for arm, baseline in GAINS:
            rates = [(_solved_rates(s["arms"][arm].get(mode)), _solved_rates(s["arms"][baseline].get(mode)))
                     for s in seeds.values() if arm in s["arms"] and baseline in s["arms"]]
            if not test_ids or len(rates) != len(seeds) or not all(a is not None and b is not None for a, b in rates):
                continue
            after, before = ({t: statistics.fmean(r[i].get(t, 0.0) for r in rates) for t in test_ids} for i in (0, 1))
            result[f"{arm}_minus_{baseline}{suffix}"] = paired_difference(after, before, test_ids, group_of=group_of,
                                                                          group_unit="families")
    return result


def _solved_rates(record: dict[str, Any] | None) -> dict[int, float] | None:
    """Per solved task, the share of an evaluation's passes that solved it (greedy: one pass); None without lists."""
    if not record:
        return None
    passes = [record["solved"]] if "solved" in record else record.get("solved_passes")
    if not passes:
        return None
    rates: dict[int, float] = {}
    for solved in passes:
        for task in solved:
            rates[task] = rates.get(task, 0.0) + 1 / len(passes)
    return rates


def _cell(stats: dict[str, float] | None) -> str:
    if not stats:
        return "-".rjust(22)
    values = " ".join(f"{100 * v:.0f}" for v in stats["values"])
    return f"{100 * stats['mean']:5.1f} ± {100 * stats['std']:4.1f} [{values}]".rjust(22)


def format_report(findings: dict[str, Any]) -> str:
    """The terminal table: success per arm (mean ± std over seeds, per-seed values), scaling, targets."""
    summary = findings["summary"]
    tasks = findings["tasks"]
    config = findings.get("config", {})
    model = config.get("base_model") or f"a {config.get('model_size', 'tiny')} model built from the demonstrations"
    lines = [f"Every arm starts from {model}.",
             f"Success on {len(tasks['test_ids'])} held-out test tasks ({', '.join(tasks['test_sites'])}), "
             f"% over seeds {list(findings['seeds'])}: mean ± std [per seed]",
             f"{'arm':<32}{'greedy':>22}{'sampled (T=1)':>22}"]
    lines.append("-" * len(lines[-1]))
    for arm in ARMS:
        stats = summary["arms"].get(arm, {})
        lines.append(f"{LABELS[arm]:<32}{_cell(stats.get('greedy'))}{_cell(stats.get('sampled'))}")
    if "floor" in findings:
        lines.append(f"{'answer N/A at once (no model)':<32}{100 * findings['floor']['success']:>7.1f}")
    if summary.get("na_answers"):
        lines.append("")
        lines.append("Greedy answers that are a bare N/A, % of held-out episodes:")
        lines.append("  " + "   ".join(f"{LABELS[arm]}: {_cell(stats).strip()}"
                                       for arm, stats in summary["na_answers"].items()))
    lines.append("")
    if summary["scaling"]:
        lines.append("Test-time scaling, BC + GRPO policy, greedy: allowed interactions -> success %")
        lines.append("  " + "   ".join(f"{t}: {_cell(s).strip()}" for t, s in summary["scaling"].items()))
        lines.append("")
    if summary.get("along_training"):
        lines.append("Held-out greedy success along GRPO: step -> success %")
        for arm, curve in summary["along_training"].items():
            lines.append(f"  {LABELS[arm]}: " + "   ".join(f"{step}: {_cell(s).strip()}" for step, s in curve.items()))
        lines.append("")
    if summary.get("gains"):
        lines.extend(_gain_lines(summary["gains"]))
        lines.append("")
    for mode, checks in summary["targets"].items():
        for name, check in checks.items():
            numbers = ", ".join(f"{k} {100 * v:.1f}%" for k, v in check.items() if k != "met")
            lines.append(f"target ({mode}) {name.replace('_', ' ')}: {'met' if check['met'] else 'MISSED'} ({numbers})")
    return "\n".join(lines)


def _gain_lines(gains_: dict[str, Any]) -> list[str]:
    first = next(iter(gains_.values()))
    lines = [f"Gain, points (mean over seeds and tasks) with its {100 * first['tasks']['level']:.0f}% bootstrap "
             f"interval resampling {format_units(first)}:"]
    for name, gain in gains_.items():
        arm, baseline, mode = _gain_parts(name)
        lines.append(f"  {mode:<8}{LABELS[arm]} - {LABELS[baseline]}: {format_difference(gain)}")
    return lines


def _gain_parts(name: str) -> tuple[str, str, str]:
    """``bc_grpo_minus_bc_sampled`` -> ``("bc_grpo", "bc", "sampled")``."""
    arm, baseline = name.split("_minus_")
    mode = "sampled" if baseline.endswith("_sampled") else "greedy"
    return arm, baseline.removesuffix("_sampled"), mode


def plot_findings(findings: dict[str, Any], path: str | Path) -> Path:
    """Success per arm with spread, the scaling curve, GRPO reward per step (with held-out success along GRPO,
    where the run evaluated it), BC loss per step, and the gains' intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary = findings["summary"]
    gains_ = summary.get("gains")
    figure, axes = plt.subplots(1, 5 if gains_ else 4, figsize=(24 if gains_ else 19, 4.2))
    axis = axes[0]
    width = 0.38
    for offset, mode in ((-width / 2, "greedy"), (width / 2, "sampled")):
        stats = [summary["arms"].get(arm, {}).get(mode) for arm in ARMS]
        xs = [i + offset for i in range(len(ARMS))]
        means = [100 * s["mean"] if s else 0 for s in stats]
        errors = [100 * s["std"] if s else 0 for s in stats]
        axis.bar(xs, means, width, yerr=errors, capsize=4, label=mode)
        for x, s in zip(xs, stats, strict=True):
            if s:
                axis.scatter([x] * len(s["values"]), [100 * v for v in s["values"]], color="black", s=8, zorder=3)
    if "floor" in findings:
        axis.axhline(100 * findings["floor"]["success"], color="gray", linestyle="--", linewidth=1,
                     label="answer N/A at once (no model)")
    axis.set_xticks(range(len(ARMS)), [textwrap.fill(LABELS[a], 12) for a in ARMS], fontsize=8)
    axis.set_ylabel(f"success on {len(findings['tasks']['test_ids'])} held-out tasks (%)")
    axis.set_title("Success per arm (mean ± std, dots: seeds)", fontsize=10)
    axis.set_ylim(0, 105)
    axis.legend(fontsize=8)

    axis = axes[1]
    turns = [int(t) for t in summary["scaling"]]
    means = [100 * s["mean"] for s in summary["scaling"].values()]
    errors = [100 * s["std"] for s in summary["scaling"].values()]
    axis.errorbar(turns, means, yerr=errors, marker="o", capsize=4)
    axis.set_xticks(turns)
    axis.set_xlabel("allowed interactions")
    axis.set_ylabel("success (%)")
    axis.set_title("Test-time scaling (BC + GRPO, greedy)", fontsize=10)
    axis.set_ylim(0, 105)

    for axis, arms, key, title in ((axes[2], ("grpo_zero", "bc_grpo"), "rollout/reward", "GRPO rollout reward (train tasks)"),
                                   (axes[3], ("bc",), "loss", "BC loss")):
        for arm in arms:
            for index, seed in enumerate(findings["seeds"].values()):
                points = [(r["step"], r[key]) for r in seed["dynamics"].get(arm, []) if key in r]
                if points:
                    steps, values = zip(*points, strict=True)
                    axis.plot(steps, values, color=f"C{ARMS.index(arm)}", alpha=0.8,
                              label=LABELS[arm] if index == 0 else None)
            if curve := summary.get("along_training", {}).get(arm) if key == "rollout/reward" else None:
                axis.errorbar([int(step) for step in curve], [s["mean"] for s in curve.values()],
                              yerr=[s["std"] for s in curve.values()], color=f"C{ARMS.index(arm)}", linestyle="--",
                              marker="o", capsize=3, label=f"{LABELS[arm]}: held-out greedy success")
        axis.set_xlabel("step")
        axis.set_title(title, fontsize=10)
        if axis.get_legend_handles_labels()[0]:  # an arm that did not run draws nothing
            axis.legend(fontsize=8)
    if gains_:
        _plot_gains(axes[4], gains_)
    for axis in axes:
        axis.grid(alpha=0.3)
    figure.tight_layout()
    path = Path(path)
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def _plot_gains(axis: Any, gains_: dict[str, Any]) -> None:
    """Each gain as a point with its intervals (families thick, tasks thin) beside the +10-point target."""
    names = list(gains_)
    for row, name in enumerate(names):
        gain = gains_[name]
        for unit, width, color in (("families", 2, "C0"), ("tasks", 6, "C1")):
            if unit in gain:
                axis.plot([100 * gain[unit]["low"], 100 * gain[unit]["high"]], [row, row], linewidth=width, color=color,
                          alpha=0.6, solid_capstyle="butt", label=f"95% interval, {unit}" if row == 0 else None)
        axis.plot([100 * gain["points"]], [row], "ko")
    axis.axvline(0, color="gray", linewidth=1)
    axis.axvline(10, color="gray", linestyle="--", linewidth=1, label="BC + GRPO target: +10")
    labels = [f"{LABELS[arm]} -\n{LABELS[baseline]}, {mode}" for arm, baseline, mode in map(_gain_parts, names)]
    axis.set_yticks(range(len(names)), labels, fontsize=8)
    axis.set_ylim(len(names) - 0.4, -0.6)  # the first gain on top
    axis.set_xlabel("gain (points)")
    axis.set_title("Gain, mean and 95% bootstrap intervals", fontsize=10)
    axis.legend(fontsize=7, loc="lower right")


def load_findings(path: str | Path) -> dict[str, Any]:
    """A saved ``findings.json``, its summary computed again (an older file's held-out families looked up)."""
    try:
        findings = json.loads(Path(path).read_text(encoding="utf-8"))
        tasks, seeds = findings["tasks"], findings["seeds"]
        if not isinstance(seeds, dict) or not seeds:
            raise ValueError("it holds no seed")
        if "test_task_families" not in tasks:  # written before the findings recorded them: the embedded suite's
            from webarena_gym.suites.embedded import family_of

            tasks["test_task_families"] = [family_of(i, "test").name for i in tasks["test_ids"]]
        findings["summary"] = summarize(seeds, tasks)
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise SystemExit(f"{path}: not a findings.json of examples/reproduce_findings.py ({type(error).__name__}: "
                         f"{error})") from None
    return findings


def report_file(path: str | Path, *, plot: bool = False) -> str:
    """The report of a saved ``findings.json``; with ``plot`` its PNG drawn again beside it (``NAME.json`` -> ``NAME.png``)."""
    findings = load_findings(path)
    if plot:
        plot_findings(findings, Path(path).with_suffix(".png"))
    return format_report(findings)


def compare_runs(paths: Sequence[str | Path]) -> str:
    """One row per saved run: greedy success per arm, BC+GRPO's gain over BC and its intervals; files that are not runs, named after."""
    arms = ("untrained", "R1-Zero", "BC", "BC+GRPO")
    width = max(len(str(path)) for path in [*paths, "run"]) + 2
    lines = [f"{'run':<{width}}{'seeds':>5}" + "".join(f"{a:>10}" for a in arms)
             + f"{'gain':>7}{'families':>17}{'tasks':>17}"]
    lines.append("-" * len(lines[0]))
    skipped = []
    for path in paths:
        try:
            findings = load_findings(path)
        except SystemExit as error:
            skipped.append(f"skipped: {error}")
            continue
        summary = findings["summary"]
        means = [summary["arms"].get(arm, {}).get("greedy") for arm in ARMS]
        gain = summary["gains"].get("bc_grpo_minus_bc")
        intervals = [f"{100 * gain[u]['low']:+.1f} to {100 * gain[u]['high']:+.1f}" if gain and u in gain else "-"
                     for u in ("families", "tasks")]
        lines.append(f"{str(path):<{width}}{len(findings['seeds']):>5}"
                     + "".join(f"{100 * m['mean']:>10.1f}" if m else f"{'-':>10}" for m in means)
                     + (f"{100 * gain['points']:>+7.1f}" if gain else f"{'-':>7}")
                     + "".join(f"{i:>17}" for i in intervals))
    return "\n".join([*lines, *skipped])
