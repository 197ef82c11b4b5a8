"""The report of examples/reproduce_findings.py: summary statistics, the terminal table, the targets and the PNG."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

#: The arms, in the order they are reported, and their labels.
ARMS = ("untrained", "grpo_zero", "bc", "bc_grpo")
LABELS = {"untrained": "untrained", "grpo_zero": "GRPO from untrained (R1-Zero)", "bc": "BC",
          "bc_grpo": "BC + GRPO (R1)"}


def spread(values: list[float]) -> dict[str, float]:
    """Mean, sample standard deviation (0 for one value), min and max."""
    return {"mean": statistics.fmean(values), "std": statistics.stdev(values) if len(values) > 1 else 0.0,
            "min": min(values), "max": max(values), "values": list(values)}


def summarize(seeds: dict[str, Any]) -> dict[str, Any]:
    """Per arm every seed ran and mode (greedy, sampled): spread over seeds; the scaling curve; the targets."""
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
    summary["targets"] = targets(summary["arms"])
    summary["seconds"] = round(sum(v or 0.0 for s in seeds.values() for v in s["timing_s"].values()), 1)
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
    for mode, checks in summary["targets"].items():
        for name, check in checks.items():
            numbers = ", ".join(f"{k} {100 * v:.1f}%" for k, v in check.items() if k != "met")
            lines.append(f"target ({mode}) {name.replace('_', ' ')}: {'met' if check['met'] else 'MISSED'} ({numbers})")
    return "\n".join(lines)


def plot_findings(findings: dict[str, Any], path: str | Path) -> Path:
    """Three panels: success per arm with spread, the scaling curve, GRPO reward and BC loss per step."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary = findings["summary"]
    figure, axes = plt.subplots(1, 4, figsize=(19, 4.2))
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
    axis.set_xticks(range(len(ARMS)), [LABELS[a].replace(" (", "\n(") for a in ARMS], fontsize=8)
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
        axis.set_xlabel("step")
        axis.set_title(title, fontsize=10)
        if axis.get_legend_handles_labels()[0]:  # an arm that did not run draws nothing
            axis.legend(fontsize=8)
    for axis in axes:
        axis.grid(alpha=0.3)
    figure.tight_layout()
    path = Path(path)
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path
