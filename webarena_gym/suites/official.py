"""The official WebArena-Lite tasks, read from the PyPI packages that ship them.

- test split: WebArena-Lite's 165 tasks, from ``browsergym-webarenalite``
  (``browsergym/webarenalite/test_webarena_lite.raw.json``). Their ``task_id`` is the
  Lite id (0-164); ``old_task_id`` points back to WebArena.
- train split: the other 647 of WebArena's 812 tasks, from ``libwebarena``
  (``webarena/test.raw.json``), with WebArena's ids.

The JSON files are located through the installed distributions' file lists, never by
importing the packages (their ``__init__`` pulls in a browser stack we do not need).
Site URLs come from the ``WA_*`` environment variables BrowserGym uses.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import logging
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from ..errors import ConfigurationError, TaskDataError
from ..tasks.task import Task
from ..webarena_sites import site_urls_from_environment
from . import check_split

logger = logging.getLogger(__name__)

#: which -> (distribution, file inside it, top-level package, pip command). Installed without their
#: dependencies: those pin old versions (playwright 1.44, transformers 4) that would replace this project's.
OFFICIAL_DATA = {
    "webarena-lite": (
        "browsergym-webarenalite",
        "browsergym/webarenalite/test_webarena_lite.raw.json",
        "browsergym",
        "pip install --no-deps browsergym-webarenalite==0.14.3",
    ),
    "webarena": ("libwebarena", "webarena/test.raw.json", "webarena", "pip install --no-deps libwebarena==0.0.5"),
}
#: The sizes the official files must give (a different count means a different data release).
SPLIT_SIZES = {"test": 165, "train": 647}


def official_data_path(which: str) -> Path:
    """Path of an official task file: ``"webarena-lite"`` (165 tasks) or ``"webarena"`` (812).

    Raises:
        TaskDataError: the package that ships it is not installed (the message names the
            pip command), or the installed package lacks the file.
    """
    if which not in OFFICIAL_DATA:
        raise ConfigurationError(
            f"Unknown official task file {which!r}; expected one of {sorted(OFFICIAL_DATA)}."
        )
    dist_name, relative, top_level, pip_command = OFFICIAL_DATA[which]
    candidates: list[Path] = []
    try:
        candidates.append(Path(str(importlib.metadata.distribution(dist_name).locate_file(relative))))
    except importlib.metadata.PackageNotFoundError:
        pass
    # Source checkouts on sys.path have no distribution metadata: look next to the package.
    try:
        spec = importlib.util.find_spec(top_level)
    except (ImportError, ValueError):
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        candidates.append(Path(location).parent / relative)
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    if not candidates:
        raise TaskDataError(
            f"The official {which} tasks come from the {dist_name!r} package, which is not installed. "
            f"Install it with `{pip_command}` (without its dependencies: they would replace this project's versions), "
            "or pass path= to the JSON file."
        )
    raise TaskDataError(
        f"The installed {dist_name!r} package has no {relative} (looked at {[str(c) for c in candidates]}). "
        f"Reinstall it with `{pip_command} --force-reinstall`, or pass path= to the JSON file."
    )


def load_official_tasks(
    split: str = "test",
    *,
    path: str | os.PathLike[str] | None = None,
    lite_path: str | os.PathLike[str] | None = None,
    site_urls: Mapping[str, str] | None = None,
) -> list[Task]:
    """The official tasks of a split, placeholders resolved.

    Args:
        split: ``"test"`` (WebArena-Lite, 165 tasks) or ``"train"`` (the 647 other WebArena tasks).
        path: The JSON file the split comes from (Lite's for test, WebArena's for train)
            instead of the installed package's.
        lite_path: For train: WebArena-Lite's JSON, whose tasks are left out (default: installed).
        site_urls: Base URLs by site name; default :func:`site_urls_from_environment`. Sites
            without a URL keep their ``__SITE__`` placeholder.

    >>> tasks = load_official_tasks("test", site_urls={})
    >>> len(tasks), tasks[0].task_id, tasks[0].old_task_id
    (165, 0, 4)
    """
    check_split(split)
    lite_file = Path(
        path if split == "test" and path is not None else lite_path or official_data_path("webarena-lite")
    )
    lite = _read_tasks(lite_file)
    if split == "test":
        tasks = list(lite)
    else:
        full = _read_tasks(Path(path) if path is not None else official_data_path("webarena"))
        in_lite = set()
        for task in lite:
            if task.old_task_id is None:
                raise TaskDataError(
                    f"Task {task.task_id!r} in {lite_file} has no old_task_id; is this WebArena-Lite's file?"
                )
            in_lite.add(task.old_task_id)
        tasks = [t for t in full if t.task_id not in in_lite]
    if path is None and lite_path is None and len(tasks) != SPLIT_SIZES[split]:
        logger.warning(
            "The installed official %s split has %d tasks, not %d: a different data release?",
            split,
            len(tasks),
            SPLIT_SIZES[split],
        )
    urls = site_urls_from_environment() if site_urls is None else site_urls
    return [t.resolve(urls) for t in tasks] if urls else tasks


def _read_tasks(path: Path) -> tuple[Task, ...]:
    try:
        stat = path.stat()
    except OSError as exc:
        raise TaskDataError(f"Cannot read the task file {path}: {exc.strerror or exc}.") from exc
    return _parse_tasks(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=8)
def _parse_tasks(path: str, _mtime_ns: int, _size: int) -> tuple[Task, ...]:
    """Parse a task file once per content version (the arguments after path key the cache)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TaskDataError(f"The task file {path} is not readable JSON: {exc}.") from exc
    if not isinstance(data, list):
        raise TaskDataError(
            f"The task file {path} must hold a JSON list of tasks, got {type(data).__name__}."
        )
    tasks = []
    for index, raw in enumerate(data):
        try:
            tasks.append(Task.from_dict(raw))
        except TaskDataError as exc:
            raise TaskDataError(f"{path}, entry {index}: {exc}") from exc
    ids = [t.task_id for t in tasks]
    if len(set(ids)) != len(ids):
        repeated = sorted({i for i in ids if ids.count(i) > 1}, key=str)
        raise TaskDataError(f"The task file {path} repeats task ids {repeated[:10]}.")
    return tuple(tasks)
