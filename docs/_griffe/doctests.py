"""A Griffe extension for the docs site: ``>>>`` examples in docstrings render as code.

Google-style docstrings here show runnable examples outside an ``Examples:`` section (they
are checked by ``pytest --doctest-modules``). Left as prose, Markdown reads their output
(``[7, 7, None]``, ``info["messages"][0]``) as reference links. This wraps every run of
``>>>``/``...`` lines and the output lines after them in a ``pycon`` fence.
"""

from __future__ import annotations

import griffe


def fence_doctests(text: str) -> str:
    """``text`` with each doctest block (prompt lines and their output) fenced as ``pycon``."""
    lines = text.split("\n")
    out: list[str] = []
    index = 0
    fenced = False
    while index < len(lines):
        line = lines[index]
        stripped = line.lstrip()
        if stripped.startswith("```"):
            fenced = not fenced
        if fenced or not stripped.startswith(">>>"):
            out.append(line)
            index += 1
            continue
        indent = line[: len(line) - len(stripped)]
        block = []
        while index < len(lines) and lines[index].strip() and lines[index].startswith(indent):
            block.append(lines[index][len(indent):])
            index += 1
        out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
    return "\n".join(out)


class FenceDoctests(griffe.Extension):
    """Fences the doctest blocks of every docstring once the package is loaded."""

    def on_package(self, *, pkg: griffe.Module, **kwargs) -> None:
        self._fence(pkg, set())

    def _fence(self, obj: griffe.Object, seen: set[str]) -> None:
        if obj.path in seen:
            return
        seen.add(obj.path)
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
        for member in obj.members.values():
            if not member.is_alias:
                self._fence(member, seen)
