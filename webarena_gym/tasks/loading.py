"""The tasks an env runs: those of a suite and split, or explicit ones, with their URLs resolved."""

from __future__ import annotations

from typing import Any

from .embedded import all_families
from .suites import check_split
from .task import Task


def load_tasks(
    suite: str, split: str, *, site_urls: dict[str, str], tasks: list[Any] | None = None
) -> list[Task]:
    """Tasks of a suite and split with their URL placeholders resolved against ``site_urls``."""
    if suite == "embedded":
        all_families()  # the families register the func: helpers their tasks name
    if tasks is not None:
        loaded = [t if isinstance(t, Task) else Task.from_dict(t) for t in tasks]
        return [t.resolve(site_urls) for t in loaded]
    check_split(split)
    if suite == "embedded":
        from .embedded_suite import embedded_tasks

        return [t.resolve(site_urls) for t in embedded_tasks(split)]
    from .official import load_official_tasks

    return load_official_tasks(split, site_urls=site_urls)
