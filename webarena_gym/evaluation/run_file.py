"""Run files: an evaluation run as JSONL, appended one finished episode at a time.

Layout::

    {"schema": "webarena-gym/run-v1", "settings": {"model": "...", "suite": "embedded", ...},
     "code": {"version": "0.1.0", "commit": "5bd7c29...", "modified": false, "date": "2025-06-01T21:30:00+00:00"}}
    {"schema": "webarena-gym/episode-v1", "task_id": 3, "reward": 1.0, "turns": [...], ...}
    {"schema": "webarena-gym/resumed-v1", "code": {...}}
    ...

The first line (the header) holds the settings the run was made with and the code that made
it (:func:`code_version`: the package version, the git commit when it runs from a checkout
of this project, and the date); each time the run is resumed a ``resumed`` line records the
code again. Every other line is one :class:`~.results.EpisodeResult`. Each episode is written with one ``write`` and
flushed to disk before the next starts, so a killed run keeps every finished episode; at
worst its last line is cut short, and :class:`RunWriter` repairs that when the run
resumes. Files without a header (written by :func:`write_results` without settings, or
by older versions) read as well.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from ..errors import ConfigurationError, TrajectoryFileError
from .results import EpisodeResult

logger = logging.getLogger(__name__)

RUN_SCHEMA = "webarena-gym/run-v1"
#: Tag of the line a resumed run appends: the code that plays the episodes after it.
RESUMED_SCHEMA = "webarena-gym/resumed-v1"
#: Settings that say where a run was made, not what it measures: they may change when it resumes
#: (a server restarted on another port serves the same model).
INFORMATIONAL_SETTINGS = ("endpoint",)


@dataclass
class RunFile:
    """What :func:`read_run` found: the settings, the valid episodes (file order) and the bad lines.

    ``sessions`` holds the :func:`code_version` of each session that wrote the run: the one that
    started it, then one per resume (empty for files written before they were recorded).
    """

    path: Path
    settings: dict[str, Any] = field(default_factory=dict)
    episodes: list[EpisodeResult] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sessions: list[dict[str, Any]] = field(default_factory=list)

    @property
    def name(self) -> str:
        """A short label: the model's name if the run says it, else the file's stem."""
        return str(self.settings.get("model") or self.path.stem)


def _line(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False) + "\n"


def code_version() -> dict[str, Any]:
    """What made a run: ``version`` of the package, ``commit`` and ``modified`` (uncommitted changes to the
    package) when it runs from a git checkout of this project (None otherwise), and the ``date`` (UTC, ISO 8601)."""
    try:
        version = metadata.version("webarena-gym")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        version = None
    commit, modified = None, None
    package = Path(__file__).resolve().parent.parent
    try:
        top = _git(package, "rev-parse", "--show-toplevel")
        # Only this project's own checkout: an installed copy may sit inside some other repository.
        if top is not None and (Path(top) / package.name).resolve() == package:
            commit = _git(package, "rev-parse", "HEAD")
            changes = _git(package, "status", "--porcelain", "--untracked-files=no", "--", str(package))
            modified = None if changes is None else bool(changes)
    except OSError:  # no git
        pass
    return {"version": version, "commit": commit, "modified": modified,
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def _git(folder: Path, *args: str) -> str | None:
    result = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=30)
    return result.stdout.strip() if result.returncode == 0 else None


def read_run(path: str | Path, *, strict: bool = False) -> RunFile:
    """Read a run file (or an older trajectories file).

    Every valid line is kept; bad ones (a line cut short by a kill, wrong fields) are
    reported with their line numbers, as a warning or, with ``strict=True``, as one
    :class:`TrajectoryFileError`. A task id that appears twice keeps its last episode.
    """
    path = Path(path)
    if not path.is_file():
        raise TrajectoryFileError(f"No run file at {path}. Make one with `webarena-gym eval ... --out {path}`.")
    run = RunFile(path)
    by_task: dict[int, EpisodeResult] = {}
    with path.open(encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                if number == 1 and isinstance(data, dict) and data.get("schema") == RUN_SCHEMA:
                    run.settings = dict(data.get("settings") or {})
                    if isinstance(data.get("code"), dict):
                        run.sessions.append(data["code"])
                    continue
                if isinstance(data, dict) and data.get("schema") == RESUMED_SCHEMA:
                    if isinstance(data.get("code"), dict):
                        run.sessions.append(data["code"])
                    continue
                episode = EpisodeResult.from_dict(data)
            except json.JSONDecodeError as exc:
                run.errors.append(f"{path}:{number}: not valid JSON ({exc.msg} at column {exc.colno})")
                continue
            except (TypeError, ValueError) as exc:
                run.errors.append(f"{path}:{number}: {exc}")
                continue
            by_task.pop(episode.task_id, None)
            by_task[episode.task_id] = episode
    run.episodes = list(by_task.values())
    if run.errors:
        if strict:
            raise TrajectoryFileError(f"{len(run.errors)} bad line(s) in {path}:\n" + "\n".join(run.errors))
        logger.warning("Skipped %d bad line(s) in %s (kept %d episodes): %s", len(run.errors), path,
                       len(run.episodes), run.errors[:3])
    return run


def write_results(results: Iterable[EpisodeResult], path: str | Path, *, settings: dict[str, Any] | None = None) -> None:
    """Write a whole run file at once (a header first when ``settings`` are given)."""
    with Path(path).open("w", encoding="utf-8", errors="replace") as handle:
        if settings is not None:
            handle.write(_line({"schema": RUN_SCHEMA, "settings": settings, "code": code_version()}))
        for result in results:
            handle.write(_line(result.to_dict()))


class RunWriter:
    """Appends finished episodes to a run file, resuming the run already in it.

    Args:
        path: The run file (created with its folder when missing).
        settings: What the run is made with (model, suite, split, step limit, format, ...).
            Resuming a file made with other settings (other than
            :data:`INFORMATIONAL_SETTINGS`) is refused: its episodes would not be comparable
            with the new ones.
        resume: Keep the episodes already in the file (False starts the file afresh).

    Attributes:
        finished: The episodes already in the file, by task id.
    """

    def __init__(self, path: str | Path, settings: dict[str, Any], *, resume: bool = True):
        self.path = Path(path)
        self.settings = dict(settings)
        self.finished: dict[int, EpisodeResult] = {}
        if self.path.is_dir():
            raise ConfigurationError(f"{self.path} is a folder; the run file needs a file name (e.g. {self.path}/run.jsonl).")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            has_content = resume and self.path.is_file() and self._repair_tail()
            if has_content:
                run = read_run(self.path)
                self._check_settings(run.settings)
                self.finished = {episode.task_id: episode for episode in run.episodes}
            self._handle = self.path.open("a" if has_content else "w", encoding="utf-8", errors="replace")
            if has_content:
                self._write(_line({"schema": RESUMED_SCHEMA, "code": code_version()}))
            else:
                self._write(_line({"schema": RUN_SCHEMA, "settings": self.settings, "code": code_version()}))
        except OSError as exc:
            raise ConfigurationError(f"Cannot write the run file {self.path}: {exc.strerror or exc}.") from None

    def append(self, result: EpisodeResult) -> None:
        """Write one episode as one line, on disk before this returns."""
        self._write(_line(result.to_dict()))
        self.finished[result.task_id] = result

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> RunWriter:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def _write(self, text: str) -> None:
        self._handle.write(text)
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def _repair_tail(self) -> bool:
        """End the file at its last complete line; returns whether any content is left.

        A run killed while writing leaves its last line without a newline. If what is
        there is a whole episode, the newline is added; otherwise the fragment is cut off
        (that episode runs again).
        """
        with self.path.open("rb+") as handle:
            size = handle.seek(0, os.SEEK_END)
            if size == 0:
                return False
            handle.seek(size - 1)
            if handle.read(1) == b"\n":
                return True
            # Find the start of the unterminated last line, reading backwards in blocks.
            position, block = size, 1 << 16
            start = 0
            while position > 0:
                position = max(0, position - block)
                handle.seek(position)
                chunk = handle.read(min(block, size - position))
                newline = chunk.rfind(b"\n")
                if newline >= 0:
                    start = position + newline + 1
                    break
            handle.seek(start)
            fragment = handle.read()
            if _is_complete(fragment):
                handle.seek(0, os.SEEK_END)
                handle.write(b"\n")
            else:
                logger.warning("%s ended with a half-written line (%d bytes, from an interrupted run); removed it, "
                               "its episode runs again.", self.path, len(fragment))
                handle.truncate(start)
            return start > 0 or _is_complete(fragment)

    def _check_settings(self, found: dict[str, Any]) -> None:
        if not found:
            logger.warning("%s has no run header; resuming it without checking its settings.", self.path)
            return
        # A setting either side lacks counts as None: a run without an option never resumes one with it.
        differing = {k: (found.get(k), self.settings.get(k)) for k in {**self.settings, **found}
                     if found.get(k) != self.settings.get(k) and k not in INFORMATIONAL_SETTINGS}
        if differing:
            shown = ", ".join(f"{k}: {old!r} in the file, {new!r} now" for k, (old, new) in differing.items())
            raise ConfigurationError(
                f"{self.path} holds a run with other settings ({shown}). Resuming it would mix incomparable "
                "episodes: write to another file (--out), or start this one afresh (--fresh)."
            )


def _is_complete(fragment: bytes) -> bool:
    """Whether an unterminated last line is nevertheless a whole header or episode."""
    try:
        data = json.loads(fragment.decode("utf-8", errors="replace"))
    except json.JSONDecodeError:
        return False
    if isinstance(data, dict) and data.get("schema") in (RUN_SCHEMA, RESUMED_SCHEMA):
        return True
    try:
        EpisodeResult.from_dict(data)
    except (TypeError, ValueError):
        return False
    return True
