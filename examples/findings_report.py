"""The report of examples/reproduce_findings.py: summary statistics, the terminal table, the targets and the PNG.

Run on its own, it reports a saved ``findings.json`` again (summary recomputed, gains' intervals
included), without training or evaluating anything:

    python examples/findings_report.py docs/findings/findings.json           # the table, gains' intervals included
    python examples/findings_report.py docs/findings/findings.json --plot    # and docs/findings/findings.png drawn again
    python examples/findings_report.py docs/findings/findings*.json --compare  # one row per run, side by side
"""

from __future__ import annotations

import argparse

from trainers.recipe.findings import (  # the report; the names beside main's are those users of this script imported
    ARMS,  # noqa: F401
    compare_runs,
    format_report,  # noqa: F401
    load_findings,  # noqa: F401
    plot_findings,  # noqa: F401
    report_file,
    summarize,  # noqa: F401
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Report saved findings.json files again, gains' intervals included.")
    parser.add_argument("findings", nargs="+", help="findings.json files of examples/reproduce_findings.py")
    parser.add_argument("--plot", action="store_true", help="draw each file's PNG again beside it (NAME.json -> NAME.png)")
    parser.add_argument("--compare", action="store_true",
                        help="one row per file (greedy success per arm, BC+GRPO's gain and its intervals), not its report")
    args = parser.parse_args(argv)
    if args.compare:
        print(compare_runs(args.findings))
        return
    for path in args.findings:
        print(f"== {path}\n{report_file(path, plot=args.plot)}\n")


if __name__ == "__main__":
    main()
