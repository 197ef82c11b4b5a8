"""The embedded task suite: the sites' task families, and the test and train splits built from them.

Every family lists all the instances the seeded data supports. The test split takes
WebArena-Lite's site mix (shopping 45, shopping_admin 35, gitlab 30, map 26, reddit 19,
multi-site 10 = 165 tasks), drawn round-robin over each site's families from a
deterministic shuffle of their instances; everything else is the train split. Test
and train never share an instantiation. Test ids are 0..164, train ids start at 1000.
"""

from __future__ import annotations

import importlib
import random
import zlib
from collections import defaultdict
from collections.abc import Iterable
from functools import cache
from typing import Any

from ..evaluators.functions import register_functions
from ..sites.spec import SITE_MODULES
from ..tasks.families import TaskFamily
from ..tasks.task import Task
from ..webarena_sites import MULTISITE, site_group

#: Test tasks per site group, as in WebArena-Lite.
TEST_QUOTA = {"shopping": 45, "shopping_admin": 35, "gitlab": 30, "map": 26, "reddit": 19, MULTISITE: 10}
TRAIN_FIRST_ID = 1000


#: The families that span sites (they live here, not in one site's folder), after every site's own.
MULTISITE_FAMILIES = f"{__package__}.multisite"


def family_modules() -> list[str]:
    """The modules whose ``FAMILIES`` make the suite, in suite order: ``webarena_gym.sites.<name>.families``
    of each embedded site that has one (registry order), then the multi-site families."""
    return [*(f"{module}.families" for module in SITE_MODULES.values()), MULTISITE_FAMILIES]


def all_families() -> list[TaskFamily]:
    """Every task family, in a fixed order (see :func:`family_modules`).

    Loading them registers the sites' ``func:`` helpers (each families module's ``FUNCTIONS``) with the
    evaluators, so that the suite's program_html checks can call them.

    Raises:
        ValueError: two families share a name.
    """
    families: list[TaskFamily] = []
    for name in family_modules():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue  # a site without task families (the homepage)
        register_functions(getattr(module, "FUNCTIONS", {}))
        families.extend(module.FAMILIES)
    names = [f.name for f in families]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise ValueError(f"Task family names must be unique; repeated: {sorted(duplicates)}")
    return families


def _pristine(site: str):
    from ..sites.world import pristine_database

    return pristine_database(site)


@cache
def family_instances() -> dict[str, list[dict[str, Any]]]:
    """Every family's instances, shuffled deterministically (keyed by family name)."""
    instances = {}
    for family in all_families():
        items = [dict(item) for item in family.instantiate(_pristine)]
        random.Random(zlib.crc32(family.name.encode())).shuffle(items)
        instances[family.name] = items
    return instances


@cache
def _splits() -> dict[str, list[tuple[TaskFamily, dict[str, Any]]]]:
    families = all_families()
    instances = family_instances()
    by_group: dict[str, list[TaskFamily]] = defaultdict(list)
    for family in families:
        by_group[site_group(family.sites)].append(family)
    taken: dict[str, int] = defaultdict(int)
    test: list[tuple[TaskFamily, dict[str, Any]]] = []
    for group, quota in TEST_QUOTA.items():
        members = by_group.get(group, [])
        while quota > 0 and any(taken[f.name] < len(instances[f.name]) - 1 for f in members):
            for family in members:
                # keep at least one instance of every family for training
                if quota > 0 and taken[family.name] < len(instances[family.name]) - 1:
                    test.append((family, instances[family.name][taken[family.name]]))
                    taken[family.name] += 1
                    quota -= 1
    train = [(f, item) for f in families for item in instances[f.name][taken[f.name] :]]
    return {"test": test, "train": train}


def _to_task(family: TaskFamily, template_id: int, item: dict[str, Any], task_id: int) -> Task:
    data = dict(item)
    data.update(
        task_id=task_id,
        intent_template=family.intent_template,
        intent_template_id=template_id,
        sites=list(data.get("sites") or family.sites),
    )
    data.setdefault("require_login", True)
    data.setdefault("storage_state", None)
    data.setdefault("geolocation", None)
    data.setdefault("instantiation_dict", {})
    return Task.from_dict(data)


@cache
def embedded_tasks(split: str) -> tuple[Task, ...]:
    """The embedded suite's tasks of one split, URLs still as placeholders."""
    template_ids = {f.name: i for i, f in enumerate(all_families())}
    first = 0 if split == "test" else TRAIN_FIRST_ID
    return tuple(
        _to_task(family, template_ids[family.name], item, first + i) for i, (family, item) in enumerate(_splits()[split])
    )


def family_of(task_id: int, split: str) -> TaskFamily:
    """The family that produced an embedded task (its oracle solves the task)."""
    family = _families_by_id(split).get(task_id)
    if family is None:
        raise KeyError(f"No embedded {split} task {task_id}")
    return family


def family_task_ids(split: str, families: Iterable[str]) -> list[int]:
    """Ids of the ``split`` tasks produced by the named families, in suite order."""
    wanted = set(families)
    return [task_id for task_id, family in _families_by_id(split).items() if family.name in wanted]


@cache
def _families_by_id(split: str) -> dict[int, TaskFamily]:
    return {task.task_id: family for task, (family, _item) in zip(embedded_tasks(split), _splits()[split], strict=True)}
