"""Task families of the embedded suite, one module per site plus multi-site families."""

from __future__ import annotations

import importlib

from ..families import TaskFamily

FAMILY_MODULES = ("shopping", "shopping_admin", "reddit", "gitlab", "map", "multisite")


def all_families() -> list[TaskFamily]:
    """Every task family, in a fixed order (site modules in FAMILY_MODULES order)."""
    families: list[TaskFamily] = []
    for name in FAMILY_MODULES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            continue
        families.extend(module.FAMILIES)
    names = [f.name for f in families]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise ValueError(f"Task family names must be unique; repeated: {sorted(duplicates)}")
    return families
