"""Template coverage: how many of WebArena-Lite's test templates the embedded families share.

Two templates are the same when they are equal after lowercasing, collapsing every run of
characters other than letters and digits to one space, and treating every ``{{placeholder}}``
alike (so ``{{product}}`` and ``{{item}}`` match). The table counts, per site group of the
Lite tasks (``shopping``, ``gitlab+reddit``, ...), the Lite templates, how many of them an
embedded family shares, the families that do, and the share; then it lists every Lite
template with the family that covers it, or ``none``. The target is 60% overall.

Run: ``.venv/bin/python benchmarks/template_coverage.py [--markdown PATH]`` (exits 0 always).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from webarena_gym.suites.embedded import all_families
from webarena_gym.suites.official import official_data_path

#: Share of Lite test templates the embedded suite should cover (issue #81).
TARGET_SHARE = 0.60
PLACEHOLDER = re.compile(r"\{\{[^}]*\}\}")
NOT_WORD = re.compile(r"[^a-z0-9]+")


def normalize_template(template: str) -> str:
    """The form two templates share when they are the same template.

    >>> normalize_template("What is the price of {{product}}?") == normalize_template("what is the PRICE of {{item}}")
    True
    """
    marked = PLACEHOLDER.sub(" placeholderslot ", template.lower())
    return NOT_WORD.sub(" ", marked).strip()


@dataclass
class TemplateRow:
    """One Lite test template: its text, site group, task count and covering families."""

    template: str
    group: str
    tasks: int
    families: list[str] = field(default_factory=list)


@dataclass
class Coverage:
    """The coverage table: one row per Lite template, in the order of their first task."""

    rows: list[TemplateRow]

    @property
    def covered(self) -> int:
        return sum(1 for row in self.rows if row.families)

    @property
    def share(self) -> float:
        return self.covered / len(self.rows) if self.rows else 0.0

    def by_group(self) -> dict[str, tuple[int, int, int]]:
        """Site group -> (Lite templates, covered templates, covering families)."""
        groups: dict[str, list[TemplateRow]] = defaultdict(list)
        for row in self.rows:
            groups[row.group].append(row)
        return {
            group: (len(rows), sum(1 for r in rows if r.families), len({f for r in rows for f in r.families}))
            for group, rows in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
        }


def compute_coverage(lite_tasks: list[dict] | None = None, families: list | None = None) -> Coverage:
    """Match Lite's test templates against the embedded families' intent templates."""
    if lite_tasks is None:
        lite_tasks = json.loads(official_data_path("webarena-lite").read_text())
    if families is None:
        families = all_families()
    by_form: dict[str, list[str]] = defaultdict(list)
    for family in families:
        by_form[normalize_template(family.intent_template)].append(family.name)
    rows: dict[str, TemplateRow] = {}
    for task in lite_tasks:
        template = task["intent_template"]
        if template not in rows:
            rows[template] = TemplateRow(template, "+".join(task["sites"]), 0,
                                         sorted(by_form.get(normalize_template(template), [])))
        rows[template].tasks += 1
    return Coverage(list(rows.values()))


def markdown_report(coverage: Coverage) -> str:
    """The coverage as markdown: the per-group table, the overall line, the template list."""
    lines = ["| site group | Lite templates | same-template | families | share |", "|---|---:|---:|---:|---:|"]
    for group, (templates, covered, families) in coverage.by_group().items():
        lines.append(f"| {group} | {templates} | {covered} | {families} | {covered / templates:.0%} |")
    total_families = len({f for row in coverage.rows for f in row.families})
    lines.append(f"| **all** | {len(coverage.rows)} | {coverage.covered} | {total_families} | {coverage.share:.0%} |")
    verdict = "meets" if coverage.share >= TARGET_SHARE else "does not meet"
    lines += ["", f"Overall: {coverage.covered}/{len(coverage.rows)} Lite test templates ({coverage.share:.1%}) "
              f"have an embedded family with the same template; this {verdict} the {TARGET_SHARE:.0%} target.", "",
              "| site group | tasks | Lite template | family |", "|---|---:|---|---|"]
    for row in sorted(coverage.rows, key=lambda r: (r.group, r.template.lower())):
        template = row.template.replace("|", "\\|")
        lines.append(f"| {row.group} | {row.tasks} | {template} | {', '.join(row.families) or 'none'} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> Coverage:
    """Print the coverage table (and write it with ``--markdown PATH``); returns the coverage."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", type=Path, help="also write the markdown table to this file")
    args = parser.parse_args(argv)
    coverage = compute_coverage()
    text = markdown_report(coverage)
    print(text, end="")
    if args.markdown:
        args.markdown.write_text(text)
    return coverage


if __name__ == "__main__":
    main()
    sys.exit(0)
