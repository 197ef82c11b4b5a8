"""Fixtures for the docker tests: a real engine, the stand-in site image, isolated stacks.

Every stack gets its own name prefix and network, and everything it created is removed
afterwards, so the tests never touch a user's real WebArena containers.
"""

from __future__ import annotations

import itertools
import os
import subprocess
from pathlib import Path

import pytest

from webarena_gym.docker_sites import Deployment, connect, down
from webarena_gym.errors import DockerError

from .docker_standin import free_port, import_standin, standin_site

REPO = Path(__file__).resolve().parents[2]
_counter = itertools.count()


@pytest.fixture(scope="session")
def docker_client():
    """A client for a running engine; starts one with scripts/ensure_dockerd.sh when none answers."""
    try:
        return connect(timeout=60)
    except DockerError as first:
        script = REPO / "scripts" / "ensure_dockerd.sh"
        run = subprocess.run(["sh", str(script)], capture_output=True, text=True, timeout=240)
        try:
            return connect(timeout=60)
        except DockerError:
            said = (run.stdout + run.stderr).strip().splitlines() or ["nothing"]
            pytest.skip(f"no docker engine can start here: {str(first).split(': ')[0]}; {said[-1]}")


@pytest.fixture(scope="session")
def standin_image(docker_client):
    return import_standin(docker_client)


@pytest.fixture(scope="session")
def standin_volume_image(docker_client):
    return import_standin(docker_client, volume=True)


@pytest.fixture
def make_stack(docker_client, standin_image):
    """``make_stack(names=("alpha",), **site_overrides)`` -> a Deployment of stand-in sites."""
    made = []

    def make(names=("alpha",), image=None, **overrides):
        prefix = f"wagymtest{os.getpid() % 10000}-{next(_counter)}-"
        sites = {name: standin_site(name, image or standin_image, free_port(), **overrides) for name in names}
        deployment = Deployment(prefix=prefix, sites=sites, proxy_image=standin_image)
        made.append(deployment)
        return deployment

    yield make
    for deployment in made:
        down(docker_client, deployment, images=True)
