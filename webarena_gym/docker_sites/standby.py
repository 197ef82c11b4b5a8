"""Warm standby pools: resets in a second instead of minutes.

A cold start of WebArena's sites takes one minute (Magento) to five (GitLab). With a pool,
``N`` extra containers of a site are started ahead of time from its configured image. A
reset removes the used container and renames the warmest standby to the site's name; the
front proxy (see :mod:`.containers`) sends new connections to it at once. The pool is then
topped up in the background by the engine (the new standby boots while tasks run).

Costs: each standby needs the site's full memory (see docker/README.md).
"""

from __future__ import annotations

import logging
import re
from typing import Any

import docker

from ..errors import DockerError
from .configuration import ConfigureResult, configure_container
from .containers import (
    FRONT,
    FRONTED,
    best_image,
    create_site_container,
    probe_url,
    start_front,
    topology_of,
    wait_healthy,
)
from .definitions import LABEL_STANDBY
from .deployment import Deployment
from .engine import get_container, remove_container
from .health import is_healthy, probe

logger = logging.getLogger(__name__)


def standbys(client: docker.DockerClient, deployment: Deployment, name: str) -> list[Any]:
    """The site's standby containers, lowest index first."""
    stem = deployment.container_name(name, "standby-")
    pattern = re.compile(re.escape(stem) + r"(\d+)$")
    found = []
    for container in client.containers.list(all=True, filters={"name": stem}):
        match = pattern.match(container.name)
        if match:
            found.append((int(match.group(1)), container))
    return [container for _, container in sorted(found, key=lambda item: item[0])]


def pool_size(client: docker.DockerClient, deployment: Deployment, name: str) -> int:
    """The configured pool size (0 when the site runs without a front proxy)."""
    front = get_container(client, deployment.container_name(name, FRONT))
    if front is None:
        return 0
    return int((front.labels or {}).get(LABEL_STANDBY, "0"))


def fill_pool(client: docker.DockerClient, deployment: Deployment, name: str, size: int) -> list[Any]:
    """Start standbys until there are ``size`` of them (extra ones are removed); does not wait."""
    pool = standbys(client, deployment, name)
    for extra in pool[size:]:
        remove_container(client, extra.name)
    pool = pool[:size]
    taken = {container.name for container in pool}
    image = best_image(client, deployment, name) if len(pool) < size else None
    index = 1
    while len(pool) < size:
        container_name = deployment.container_name(name, f"standby-{index}")
        index += 1
        if container_name in taken:
            continue
        pool.append(
            create_site_container(
                client, deployment, name, container_name=container_name, topology=FRONTED, image=image
            )
        )
    return pool


def drain_pool(client: docker.DockerClient, deployment: Deployment, name: str) -> None:
    """Remove the site's standbys and its front proxy."""
    for container in standbys(client, deployment, name):
        remove_container(client, container.name)
    remove_container(client, deployment.container_name(name, FRONT))


def refresh_pool(client: docker.DockerClient, deployment: Deployment, name: str) -> None:
    """Replace the standbys (they may predate the configured image)."""
    size = pool_size(client, deployment, name)
    if size:
        for container in standbys(client, deployment, name):
            remove_container(client, container.name)
        fill_pool(client, deployment, name, size)


def use_pool(client: docker.DockerClient, deployment: Deployment, name: str, size: int) -> Any:
    """Run the site behind a front proxy with ``size`` standbys; returns the active container.

    Switching a directly published site to this topology recreates its container (which
    resets its data): the published port cannot be moved to the proxy otherwise.
    """
    if size < 1:
        raise DockerError(f"A standby pool needs at least one container; got {size}.")
    active_name = deployment.container_name(name)
    active = get_container(client, active_name)
    if active is not None and topology_of(active) != FRONTED:
        remove_container(client, active_name)
        active = None
    front = get_container(client, deployment.container_name(name, FRONT))
    if front is not None and (front.status != "running" or pool_size(client, deployment, name) != size):
        remove_container(client, front.name)
        front = None
    if active is None:
        active = create_site_container(client, deployment, name, container_name=active_name, topology=FRONTED)
    elif active.status != "running":
        active.start()
    if front is None:
        start_front(client, deployment, name, size)
    for container in standbys(client, deployment, name):
        if container.status != "running":
            container.start()
    fill_pool(client, deployment, name, size)
    return active


def promote(
    client: docker.DockerClient,
    deployment: Deployment,
    name: str,
    *,
    timeout: float | None = None,
    progress: bool = True,
) -> ConfigureResult | None:
    """Replace the site's container with its warmest standby; None when the pool is empty."""
    pool = standbys(client, deployment, name)
    if not pool:
        return None
    urls = {container.name: probe_url(deployment, name, container, FRONTED) for container in pool}
    ready = [container for container in pool if is_healthy(probe(urls[container.name], timeout=2.0))]
    chosen = (ready or pool)[0]
    wait_healthy(deployment, [(name, chosen, urls[chosen.name])], timeout=timeout, progress=progress, description="standby")
    # Images whose configuration lives in volumes are configured here, before the switch.
    result = configure_container(client, deployment, name, chosen, timeout=timeout, progress=progress, commit=False)
    active_name = deployment.container_name(name)
    remove_container(client, active_name)
    chosen.rename(active_name)
    logger.info("%s: standby %s took over", name, chosen.name)
    fill_pool(client, deployment, name, pool_size(client, deployment, name))
    return result
