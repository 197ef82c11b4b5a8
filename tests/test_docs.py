"""The documentation a user reads works: the site builds strictly, and every snippet runs as written.

Every fenced ``python`` and ``bash`` block of README.md and docs/guide/ (recursively) is a test
of its own, named by file and line, run exactly as written from the repository root: python in
a fresh interpreter (this one, the venv's), bash with ``set -e`` and the venv's ``bin`` first on
``PATH`` (as an activated venv has it). Blocks in other languages (``text``, ``console``,
``json``, none) are output or reference, not code. An HTML comment on the line right before a
fence steers its block:

- ``<!-- snippet: skip REASON -->``: reported as skipped with REASON (it needs the real
  WebArena sites, a GPU, hours of training...);
- ``<!-- snippet: mark browser -->`` (any of the pytest markers, space-separated): runs under
  those markers. A python block that imports torch, trl or ``trainers`` is marked ``train``
  without saying so.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOC_FILES = (README, *sorted((ROOT / "docs" / "guide").rglob("*.md")))
#: Its blocks (and README copies of them) are run by tests/integrations/test_guide_snippets.py,
#: which also checks what each prints.
INTEGRATIONS_GUIDE = ROOT / "docs" / "guide" / "integrations.md"
LANGUAGES = {"python": "python", "py": "python", "bash": "bash", "sh": "bash", "shell": "bash"}
MARKERS = {"browser", "docker", "slow", "train"}
#: A busy shared machine runs a snippet many times slower than an idle one; this only catches hangs.
SNIPPET_TIMEOUT_S = 600
README_MAX_LINES = 450
FIRST_SCREEN_LINES = 60

_FENCE = re.compile(r"^(`{3,})\s*([\w+-]*)\s*$")
_DIRECTIVE = re.compile(r"^<!--\s*snippet:\s*(skip|mark)\b\s*(.*?)\s*-->\s*$")
_TRAINS = re.compile(r"^\s*(?:import|from)\s+(?:torch|trl|trainers)\b", re.MULTILINE)


def _shown(path: Path) -> str:
    """``path`` relative to the repository root where it lies inside it."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


@dataclass(frozen=True)
class Snippet:
    """One fenced code block: where it is, its language and code, and what its directive says."""

    path: Path
    line: int
    language: str
    code: str
    skip: str | None = None
    marks: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return f"{_shown(self.path)}:{self.line}"


def fenced_blocks(path: Path) -> list[Snippet]:
    """The fenced blocks of a Markdown file in python or bash (``line`` is the opening fence's, 1-based)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    snippets = []
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        fence, language = opening.groups()
        end = next((j for j in range(index + 1, len(lines)) if lines[j].strip() == fence), None)
        if end is None:
            raise AssertionError(f"{_shown(path)}:{index + 1}: a code fence that is never closed")
        if language.lower() in LANGUAGES:
            directive = _DIRECTIVE.match(lines[index - 1].strip()) if index else None
            skip, marks = None, ()
            if directive and directive.group(1) == "skip":
                skip = directive.group(2)
                assert skip, f"{_shown(path)}:{index + 1}: a skipped snippet must say why"
            elif directive:
                marks = tuple(directive.group(2).split())
                unknown = set(marks) - MARKERS
                assert not unknown, f"{_shown(path)}:{index + 1}: unknown markers {sorted(unknown)}"
            code = "\n".join(lines[index + 1:end]) + "\n"
            kind = LANGUAGES[language.lower()]
            if kind == "python" and _TRAINS.search(code) and "train" not in marks:
                marks += ("train",)
            snippets.append(Snippet(path, index + 1, kind, code, skip, marks))
        index = end + 1
    return snippets


def snippet_param(snippet: Snippet, extra_marks: list | None = None):
    """``snippet`` as a pytest param: its id is ``file:line``; its markers and skip come from its directive."""
    marks = [getattr(pytest.mark, name) for name in snippet.marks] + list(extra_marks or [])
    if snippet.skip:
        marks.append(pytest.mark.skip(reason=f"{snippet.name}: {snippet.skip}"))
    return pytest.param(snippet, id=snippet.name, marks=marks)


def run_snippet(snippet: Snippet, tmp_path: Path) -> subprocess.CompletedProcess:
    """Run ``snippet`` as written from the repository root; assert it exits 0 and return what it printed."""
    environment = dict(os.environ, PYTHONUNBUFFERED="1")
    environment["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environment.get('PATH', '')}"
    if snippet.language == "python":
        script = tmp_path / "snippet.py"  # a file, so that worker processes can import __main__
        command = [sys.executable, str(script)]
    else:
        script = tmp_path / "snippet.sh"
        command = ["bash", "-e", str(script)]
    script.write_text(snippet.code, encoding="utf-8")
    result = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True,
                            timeout=SNIPPET_TIMEOUT_S, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, (
        f"{snippet.name} ({snippet.language}) exited with {result.returncode}\n--- code ---\n{snippet.code}"
        f"--- stdout ---\n{result.stdout[-4000:]}\n--- stderr ---\n{result.stderr[-4000:]}"
    )
    return result


_CHECKED_ELSEWHERE = {s.code: s.name for s in fenced_blocks(INTEGRATIONS_GUIDE)} if INTEGRATIONS_GUIDE.exists() else {}
SNIPPETS = [snippet for path in DOC_FILES for snippet in fenced_blocks(path)]


def _generic_param(snippet: Snippet):
    copy_of = _CHECKED_ELSEWHERE.get(snippet.code)
    if copy_of and not snippet.skip:
        snippet = Snippet(snippet.path, snippet.line, snippet.language, snippet.code,
                          f"the same code as {copy_of}, run with its output checked by "
                          "tests/integrations/test_guide_snippets.py", snippet.marks)
    return snippet_param(snippet)


@pytest.mark.parametrize("snippet", [_generic_param(s) for s in SNIPPETS])
def test_snippet_runs_as_written(snippet: Snippet, tmp_path: Path):
    run_snippet(snippet, tmp_path)


def test_the_docs_site_builds_strictly(tmp_path: Path):
    pytest.importorskip("mkdocs", reason="mkdocs is not installed: pip install -e '.[docs]' builds the site")
    pytest.importorskip("material", reason="mkdocs-material is not installed: pip install -e '.[docs]'")
    pytest.importorskip("mkdocstrings", reason="mkdocstrings is not installed: pip install -e '.[docs]'")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
         "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=SNIPPET_TIMEOUT_S,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
    )
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout[-4000:]}\n{result.stderr[-8000:]}"
    assert (tmp_path / "site" / "reference" / "env" / "index.html").exists()
    assert "WebArenaEnv" in (tmp_path / "site" / "reference" / "env" / "index.html").read_text(encoding="utf-8")


def test_the_readme_is_a_short_manual_with_install_and_gym_make_on_its_first_screen():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; move detail to docs/ (at most {README_MAX_LINES})"
    first_screen = "\n".join(lines[:FIRST_SCREEN_LINES])
    assert "pip install" in first_screen, "README.md: install within the first 60 lines"
    assert 'gym.make("WebArenaLite-v0"' in first_screen, "README.md: gym.make within the first 60 lines"


def test_the_snippet_collector_sees_fences_directives_and_markers(tmp_path: Path):
    page = tmp_path / "page.md"
    page.write_text(
        "```python\nprint(1)\n```\n\n<!-- snippet: skip needs the real sites -->\n```bash\nexit 1\n```\n\n"
        "<!-- snippet: mark browser -->\n```python\nimport trainers\n```\n\n```text\nnot code\n```\n"
        "````python\n```\nnested\n```\n````\n",
        encoding="utf-8",
    )
    found = fenced_blocks(page)
    assert [(s.line, s.language, s.skip, s.marks) for s in found] == [
        (1, "python", None, ()),
        (6, "bash", "needs the real sites", ()),
        (11, "python", None, ("browser", "train")),
        (18, "python", None, ()),
    ]
    assert found[3].code == "```\nnested\n```\n"
    assert len([s for s in SNIPPETS if s.path == README]) >= 3, "README.md's snippets were not found"
