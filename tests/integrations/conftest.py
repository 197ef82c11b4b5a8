"""Shared fixtures for the integration tests: oracle demonstrations of a short embedded family."""

from __future__ import annotations

import pytest

from webarena_gym.demos import record_oracle_demonstrations
from webarena_gym.suites.embedded import family_task_ids

#: Three-turn oracle episodes on small map pages (search, open the place, answer).
FAMILY = "map.missing_information"


@pytest.fixture(scope="session")
def family_demos():
    return list(record_oracle_demonstrations("train", task_ids=family_task_ids("train", [FAMILY]), progress=False))
