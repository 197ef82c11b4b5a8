"""The suite's parallel workers: tests on a machine-wide resource stay in one serial group (tests/conftest.py)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import SERIAL_GROUPS, serial_group

ROOT = Path(__file__).resolve().parents[1]
# What a test file does that another worker's test must not meet halfway: a Docker engine's images and
# containers, a Ray cluster that `ray stop --force` tears down.
SHARED = {"docker": re.compile(r"\bdocker_client\b|\bmake_stack\b|pytest\.mark\.docker"),
          "ray": re.compile(r"\bray start\b|\"start\", \"--head\"|ray_address")}


def test_every_serial_group_names_files_that_exist():
    for prefix in SERIAL_GROUPS:
        assert (ROOT / prefix).exists(), f"SERIAL_GROUPS names {prefix}, which is gone: its tests would run in parallel"


def test_tests_on_a_shared_resource_run_in_its_group_and_the_others_alone():
    checked = 0
    for path in sorted(set((ROOT / "tests").rglob("test_*.py")) - {Path(__file__).resolve()}):
        nodeid = f"{path.relative_to(ROOT).as_posix()}::test_x"
        text = path.read_text(encoding="utf-8")
        for group, uses in SHARED.items():
            if uses.search(text):
                assert serial_group(nodeid) == group, f"{nodeid} uses the {group} resource outside its serial group"
                checked += 1
    assert checked >= 6  # the docker files and the Ray file were found
    assert serial_group("tests/docker/test_leases.py::test_a[x]") == "docker"
    assert serial_group("tests/test_vector_ray.py::test_b") == "ray"
    assert serial_group("tests/test_env.py::test_c") == "tests/test_env.py::test_c"
