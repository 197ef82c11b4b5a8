"""docs/guide/integrations.md: every runnable block (TRL, OpenEnv, SkyRL, verifiers) runs exactly as written,
and shows what it says it shows.

The blocks are found and run by ``tests/test_docs.py``'s collector and runner (the docs' snippet
convention); that module leaves this page's blocks, and README copies of them, to this one, which
also checks each script's output.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.test_docs import INTEGRATIONS_GUIDE, ROOT, Snippet, fenced_blocks, run_snippet, snippet_param

VERIFIERS_VENV = ROOT / ".venv-verifiers"


def _section(snippet: Snippet) -> str:
    """The ``## `` heading a block sits under."""
    lines = snippet.path.read_text(encoding="utf-8").splitlines()[: snippet.line]
    return next((line[3:].strip() for line in reversed(lines) if line.startswith("## ")), "intro")


BLOCKS = fenced_blocks(INTEGRATIONS_GUIDE)


def test_the_guide_has_one_runnable_script_per_library():
    assert [_section(block) for block in BLOCKS] == ["TRL", "OpenEnv", "SkyRL-gym", "verifiers"]


def _param(snippet: Snippet):
    extra = [pytest.mark.slow]
    if _section(snippet) == "verifiers":
        extra.append(pytest.mark.skipif(
            not (VERIFIERS_VENV / "bin" / "vf-eval").exists(),
            reason=f"verifiers is not installed at {VERIFIERS_VENV} (scripts/setup.sh makes it; it cannot share "
                   "a venv with openenv)"))
    return snippet_param(snippet, extra)


@pytest.mark.parametrize("snippet", [_param(block) for block in BLOCKS])
def test_guide_snippet_runs_as_written_and_shows_what_it_says(snippet: Snippet, tmp_path: Path):
    output = run_snippet(snippet, tmp_path).stdout
    code = snippet.code
    if "GRPOTrainer" in code:  # the env's get_reward() scored the step's rollouts
        assert "'rewards/WebArenaToolEnv/mean': " in output
    elif "GenericEnvClient" in code:
        assert output.splitlines()[-1] == "1.0 True" and "Search for \"battery pack\"" in output
    elif "skyrl_gym" in code:
        assert output.splitlines()[-1].startswith("1.0 True {'steps': 2, 'success': 1.0")
    elif "vf-eval" in code:
        newest = max((ROOT / "runs" / "guide" / "verifiers").glob("*/traces.jsonl"), key=os.path.getmtime)
        traces = [trace for line in newest.read_text().splitlines() for trace in json.loads(line)["traces"]]
        assert traces and all(t["rewards"]["webarena_reward"]["score"] == 1.0 for t in traces), output[-3000:]
    else:
        raise AssertionError(f"{snippet.name}: a block this test does not know what to check of")
