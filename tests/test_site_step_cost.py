"""benchmarks/site_step_cost.py measures this tree beside a baseline commit (no timing is asserted)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "site_step_cost.py"


def test_it_prints_both_trees_and_the_ratios():
    done = subprocess.run([sys.executable, str(SCRIPT), "--baseline", "HEAD", "--tasks", "2", "--rounds", "1",
                           "--replays", "1"], capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = re.findall(r"^(this tree|baseline HEAD)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+([\d.]+)\s+2$", done.stdout, re.M)
    assert [r[0] for r in rows] == ["this tree", "baseline HEAD"], done.stdout
    assert all(float(value) > 0 for row in rows for value in row[1:]), rows
    assert re.search(r"ms_per_step\s+[\d.]+x\s+target <= 1.5", done.stdout)


@pytest.mark.parametrize("arguments, said", [([], "--baseline COMMIT is required"),
                                             (["--baseline", "no-such-commit"], "git archive no-such-commit failed")])
def test_a_missing_or_unknown_baseline_is_a_clear_error(arguments, said):
    done = subprocess.run([sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode != 0 and said in done.stderr + done.stdout
