"""docs/guide/integrations.md: every runnable block (TRL, OpenEnv, SkyRL, verifiers) runs exactly as written.

The snippet convention of the docs: a ```python block runs in a fresh interpreter of the
project's venv, a ```bash block with bash, both from the repository root; a block whose
line right before the fence is ``<!-- snippet: skip REASON -->`` is skipped with REASON,
and ``<!-- snippet: mark NAME -->`` puts the pytest marker NAME on it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guide" / "integrations.md"
PYTHON = ROOT / ".venv" / "bin" / "python"
VERIFIERS_VENV = ROOT / ".venv-verifiers"
RUNNABLE = ("python", "bash")
DIRECTIVE = re.compile(r"<!--\s*snippet:\s*(skip|mark)\s+(.*?)\s*-->")


def guide_blocks(path: Path) -> list[tuple[str, str, str, str | None]]:
    """(section, language, code, directive line) of each runnable fenced block, in page order."""
    blocks, section, lines = [], "intro", path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("## "):
            section = line[3:].strip()
        if line.startswith("```"):
            language = line[3:].strip()
            end = next(i for i in range(index + 1, len(lines)) if lines[i].startswith("```"))
            if language in RUNNABLE:
                before = lines[index - 1] if index else ""
                blocks.append((section, language, "\n".join(lines[index + 1:end]) + "\n",
                               before if DIRECTIVE.search(before) else None))
            index = end
        index += 1
    return blocks


def as_params(blocks):
    params = []
    for section, language, code, directive in blocks:
        marks = [pytest.mark.slow]
        if directive:
            kind, value = DIRECTIVE.search(directive).groups()
            marks.append(pytest.mark.skip(reason=value) if kind == "skip" else getattr(pytest.mark, value))
        if section == "verifiers":
            marks.append(pytest.mark.skipif(
                not (VERIFIERS_VENV / "bin" / "vf-eval").exists(),
                reason=f"verifiers is not installed at {VERIFIERS_VENV} (scripts/setup.sh makes it; it cannot share "
                       "a venv with openenv)"))
        params.append(pytest.param(language, code, id=f"{section}-{language}".replace(" ", "_"), marks=marks))
    return params


def test_the_guide_has_one_runnable_script_per_library():
    sections = [section for section, *_ in guide_blocks(GUIDE)]
    assert sections == ["TRL", "OpenEnv", "SkyRL-gym", "verifiers"]


@pytest.mark.parametrize(("language", "code"), as_params(guide_blocks(GUIDE)))
def test_guide_snippet_runs_as_written(language, code):
    python = str(PYTHON if PYTHON.exists() else sys.executable)
    command = [python, "-c", code] if language == "python" else ["bash", "-e", "-c", code]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=1200,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    output = result.stdout
    # What each snippet says it shows a user.
    if "GRPOTrainer" in code:  # the env's get_reward() scored the step's rollouts
        assert "'rewards/WebArenaToolEnv/mean': " in output
    elif "GenericEnvClient" in code:
        assert output.splitlines()[-1] == "1.0 True" and "Search for \"monitor headphones\"" in output
    elif "skyrl_gym" in code:
        assert output.splitlines()[-1].startswith("1.0 True {'steps': 2, 'success': 1.0")
    elif "vf-eval" in code:
        newest = max((ROOT / "runs" / "guide" / "verifiers").glob("*/traces.jsonl"), key=os.path.getmtime)
        traces = [trace for line in newest.read_text().splitlines() for trace in json.loads(line)["traces"]]
        assert traces and all(t["rewards"]["webarena_reward"]["score"] == 1.0 for t in traces), output[-3000:]
