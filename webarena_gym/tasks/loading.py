"""Which tasks an env runs: the suite (embedded or official WebArena-Lite) and split."""

from __future__ import annotations

from typing import Any

from ..errors import ConfigurationError
from ..webarena_sites import site_urls_from_environment
from .task import Task

SUITES = ("embedded", "webarena-lite")
SPLITS = ("test", "train")


def resolve_suite(suite: str | None) -> str:
    """The suite to run: explicit, else webarena-lite when real sites are configured, else embedded."""
    if suite is None:
        return "webarena-lite" if site_urls_from_environment() else "embedded"
    if suite not in SUITES:
        raise ConfigurationError(f"suite must be one of {SUITES}, got {suite!r}.")
    return suite


def load_tasks(
    suite: str, split: str, *, site_urls: dict[str, str], tasks: list[Any] | None = None
) -> list[Task]:
    """Tasks of a suite and split with their URL placeholders resolved against ``site_urls``."""
    if tasks is not None:
        loaded = [t if isinstance(t, Task) else Task.from_dict(t) for t in tasks]
        return [t.resolve(site_urls) for t in loaded]
    if split not in SPLITS:
        raise ConfigurationError(f"split must be one of {SPLITS}, got {split!r}.")
    if suite == "embedded":
        from .embedded_suite import embedded_tasks

        return [t.resolve(site_urls) for t in embedded_tasks(split)]
    from .official import load_official_tasks

    return load_official_tasks(split, site_urls=site_urls)
