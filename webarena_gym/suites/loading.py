"""The tasks an env runs: those of a suite and split, or explicit ones, with their URLs resolved."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from ..errors import ConfigurationError
from ..tasks.task import Task
from ..webarena_sites import PLACEHOLDERS, SITE_VARIABLES
from . import check_split
from .embedded import all_families

#: The restrictions already announced in this process (one warning each, however many envs).
_announced_restrictions: set[tuple[str, ...]] = set()


def load_tasks(
    suite: str, split: str, *, site_urls: dict[str, str], tasks: list[Any] | None = None
) -> list[Task]:
    """Tasks of a suite and split with their URL placeholders resolved against ``site_urls``."""
    if suite == "embedded":
        all_families()  # registers the sites' func: helpers that the tasks name
    if tasks is not None:
        loaded = [t if isinstance(t, Task) else Task.from_dict(t) for t in tasks]
        return [t.resolve(site_urls) for t in loaded]
    if suite == "webarena-verified":
        from .verified import load_verified_tasks

        return load_verified_tasks(split, site_urls=site_urls)
    check_split(split)
    if suite == "embedded":
        from .embedded import embedded_tasks

        return [t.resolve(site_urls) for t in embedded_tasks(split)]
    from .official import load_official_tasks

    return load_official_tasks(split, site_urls=site_urls)


def drawable_tasks(tasks: list[Task], *, source: str, site_urls: Mapping[str, str]) -> list[Task]:
    """The tasks a reset may draw: those whose sites all have a URL in ``site_urls`` (and whose data
    names no other site without one).

    With only some real sites configured, the others' tasks cannot start (or would send the
    agent to a site it cannot reach); draws skip them, and a warning (once per process) says
    which sites are configured and how many tasks that leaves. A reset that names such a
    task still raises, with the variable to set.

    Args:
        tasks: The env's tasks, resolved against ``site_urls``.
        source: What they are, for the messages (``"webarena-lite test"``, ``"given"``).
        site_urls: The configured base URLs by site name.

    Raises:
        ConfigurationError: none of the tasks has all its sites configured.
    """
    unconfigured = [unconfigured_sites(task, site_urls) for task in tasks]
    drawable = [task for task, sites in zip(tasks, unconfigured, strict=True) if not sites]
    if len(drawable) == len(tasks):
        return tasks
    missing = set().union(*unconfigured)
    needed = [site for site in PLACEHOLDERS if site in missing]
    configured = ", ".join(f"{site} ({SITE_VARIABLES.get(site, site)})" for site in site_urls) or "no site"
    to_set = ", ".join(SITE_VARIABLES[site] for site in needed)
    if not drawable:
        raise ConfigurationError(
            f"None of the {len(tasks)} {source} tasks can run: each needs a site without a URL, and the "
            f"configured ones are {configured}. Set {to_set} to the sites' base URLs (`webarena-gym sites env` "
            "prints the exports of the sites that answer), pass site_urls with them, or pick tasks of the "
            "configured sites."
        )
    message = (
        f"Only some WebArena sites are configured: {configured}. reset() draws among the {len(drawable)} of "
        f"the {len(tasks)} {source} tasks whose sites all have a URL; the other {len(tasks) - len(drawable)} "
        f"need {to_set} (`webarena-gym sites env` prints the exports), and a reset that names one raises."
    )
    key = (source, *site_urls, str(len(drawable)), str(len(tasks)))
    if key not in _announced_restrictions:
        _announced_restrictions.add(key)
        warnings.warn(message, UserWarning, stacklevel=4)  # gym.make's caller, as the embedded notice says it
    return drawable


def unconfigured_sites(task: Task, site_urls: Mapping[str, str]) -> set[str]:
    """The WebArena sites a task visits or names in its data that have no URL in ``site_urls``
    (a site of the task's own, not one of WebArena's, is the task's business)."""
    placeholders = task.placeholders()
    named = {site for site, placeholder in PLACEHOLDERS.items() if placeholder in placeholders}
    return named | {site for site in task.sites if site in PLACEHOLDERS and site not in site_urls}
