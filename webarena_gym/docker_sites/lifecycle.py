"""Start, inspect, reset and remove the real sites: what ``webarena-gym sites ...`` runs.

Every function converges on a state rather than performing an action, so running it
twice is harmless: ``up`` leaves a healthy site alone, ``down`` of a missing site does
nothing, ``reset`` always ends with a pristine, configured, healthy site.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

import docker
from docker.errors import APIError, NotFound

from ..errors import DockerError
from .configuration import ConfigureResult, configure_container, is_done
from .containers import (
    DIRECT,
    FRONT,
    FRONTED,
    configured_image,
    create_site_container,
    probe_url,
    remove_site_containers,
    require_data,
    topology_of,
    wait_healthy,
)
from .deployment import Deployment
from .engine import get_container, image_volumes, remove_container, require_image
from .health import is_healthy, probe
from .standby import drain_pool, pool_size, promote, refresh_pool, standbys, use_pool

logger = logging.getLogger(__name__)


@dataclass
class SiteStatus:
    """One row of ``webarena-gym sites status``."""

    site: str
    container: str
    state: str
    url: str
    image: str = ""
    topology: str = ""
    configured: str = "-"
    http_status: int | None = None
    standby: str = ""

    @property
    def healthy(self) -> bool:
        return is_healthy(self.http_status)


def _check_images(client: docker.DockerClient, deployment: Deployment, names: list[str], proxy: bool) -> None:
    """Fail before starting anything when an image or data folder is missing (the message says how to get it)."""
    for name in names:
        site = deployment.site(name)
        require_image(client, site.image, site.obtain, site=name)
        require_data(deployment, name)
        for companion in site.companions:
            require_image(client, companion.image, companion.obtain, site=name)
    if proxy:
        require_image(client, deployment.proxy_image, f"`docker pull {deployment.proxy_image}`.")


def up(
    client: docker.DockerClient,
    deployment: Deployment,
    names: list[str] | None = None,
    *,
    standby: int | None = None,
    timeout: float | None = None,
    wait: bool = True,
    progress: bool = True,
) -> dict[str, float]:
    """Start the sites (from their configured images when they exist) and wait until they answer.

    Args:
        standby: Size of a warm standby pool per site; 0 removes pools; None keeps what runs.
        timeout: Seconds to wait per site (default: each site's own start timeout).
        wait: Wait for the health URLs.

    Returns:
        Seconds each site took to become healthy (empty when ``wait`` is False).
    """
    selected = deployment.names(names)
    _check_images(client, deployment, selected, proxy=bool(standby))
    waiting = []
    for name in selected:
        size = standby if standby is not None else pool_size(client, deployment, name)
        if size:
            container = use_pool(client, deployment, name, size)
        else:
            container = _ensure_direct(client, deployment, name)
        waiting.append((name, container, probe_url(deployment, name, container, topology_of(container) or DIRECT)))
    if not wait:
        return {}
    return wait_healthy(deployment, waiting, timeout=timeout, progress=progress)


def _ensure_direct(client: docker.DockerClient, deployment: Deployment, name: str) -> Any:
    drain_pool(client, deployment, name)
    active_name = deployment.container_name(name)
    active = get_container(client, active_name)
    if active is not None and topology_of(active) != DIRECT:
        remove_container(client, active_name)
        active = None
    if active is None:
        return create_site_container(client, deployment, name, container_name=active_name, topology=DIRECT)
    if active.status != "running":
        try:
            active.start()
        except APIError as exc:
            raise DockerError(
                f"Cannot start the existing {name} container {active_name!r}: {exc}. "
                f"Remove it (`webarena-gym sites down {name}`) and try again."
            ) from exc
    return active


def reset(
    client: docker.DockerClient,
    deployment: Deployment,
    names: list[str] | None = None,
    *,
    timeout: float | None = None,
    progress: bool = True,
) -> dict[str, float]:
    """Bring the sites back to their pristine, configured state; returns seconds per site.

    A site with a standby pool swaps in a warm standby. Others are recreated from the
    configured image (WebArena's image when ``configure`` never ran), waited for, and
    configured (a no-op when the image already holds the configuration).
    """
    selected = deployment.names(names)
    _check_images(client, deployment, selected, proxy=False)
    took: dict[str, float] = {}
    recreated = []
    for name in selected:
        started = time.monotonic()
        if pool_size(client, deployment, name) and promote(client, deployment, name, timeout=timeout, progress=progress):
            took[name] = time.monotonic() - started
            continue
        topology = FRONTED if get_container(client, deployment.container_name(name, FRONT)) else DIRECT
        active_name = deployment.container_name(name)
        remove_container(client, active_name)
        container = create_site_container(client, deployment, name, container_name=active_name, topology=topology)
        recreated.append((name, container, probe_url(deployment, name, container, topology), started))
    if recreated:
        wait_healthy(deployment, [item[:3] for item in recreated], timeout=timeout, progress=progress, description="reset")
        for name, container, _, started in recreated:
            configure_container(client, deployment, name, container, timeout=timeout, progress=progress)
            took[name] = time.monotonic() - started
    return {name: took[name] for name in selected}


def configuration_state(client: docker.DockerClient, deployment: Deployment, name: str, container: Any) -> str:
    """``yes`` / ``no`` / ``-`` (nothing to configure) for a site's running container."""
    steps = deployment.steps(name)
    if not steps:
        return "-"
    site = deployment.site(name)
    base = require_image(client, site.image, site.obtain, site=name)
    if not image_volumes(base):
        image = configured_image(client, deployment, name)
        return "yes" if image is not None and container.image.id == image.id else "no"
    if container.status != "running":
        return "no"
    checks = [step for step in steps if step.check is not None]
    return "yes" if all(is_done(container, step) for step in checks) else "no"


def status(client: docker.DockerClient, deployment: Deployment, names: list[str] | None = None) -> list[SiteStatus]:
    """The state, health and configuration of each site."""
    rows = []
    for name in deployment.names(names):
        container_name = deployment.container_name(name)
        row = SiteStatus(site=name, container=container_name, state="missing", url=deployment.site_url(name))
        container = get_container(client, container_name)
        if container is not None:
            row.state = container.status
            row.topology = topology_of(container) or DIRECT
            try:
                row.image = (container.image.tags or [container.image.short_id])[0]
                row.configured = configuration_state(client, deployment, name, container)
            except (DockerError, NotFound):
                row.configured = "?"
            if container.status == "running":
                row.http_status = probe(probe_url(deployment, name, container, row.topology), timeout=5.0)
        pool = standbys(client, deployment, name)
        if pool or pool_size(client, deployment, name):
            ready = sum(
                1
                for standby in pool
                if standby.status == "running"
                and is_healthy(probe(probe_url(deployment, name, standby, FRONTED), timeout=2.0))
            )
            row.standby = f"{ready}/{pool_size(client, deployment, name)} ready"
        rows.append(row)
    return rows


def down(
    client: docker.DockerClient, deployment: Deployment, names: list[str] | None = None, *, images: bool = False
) -> list[str]:
    """Remove the sites' containers (and with ``images``, their configured images); returns what went."""
    removed = []
    for name in deployment.names(names):
        removed += remove_site_containers(client, deployment, name)
        if images:
            for image in client.images.list(name=deployment.configured_repository(name)):
                for tag in image.tags:
                    client.images.remove(tag, force=True)
                    removed.append(tag)
    try:
        network = client.networks.get(deployment.network)
        network.reload()
        if not network.attrs.get("Containers"):
            network.remove()
    except (NotFound, APIError):
        pass  # another stack may still use it; leaving an empty network is harmless
    return removed


def configure(
    client: docker.DockerClient,
    deployment: Deployment,
    names: list[str] | None = None,
    *,
    timeout: float | None = None,
    progress: bool = True,
) -> list[ConfigureResult]:
    """Configure the running sites (``webarena-gym sites configure``); idempotent.

    Raises:
        DockerError: a site is not running (run ``sites up`` first) or a step failed.
    """
    results = []
    for name in deployment.names(names):
        container = get_container(client, deployment.container_name(name))
        if container is None or container.status != "running":
            raise DockerError(
                f"The {name} site is not running; start it first: `webarena-gym sites up {name}`."
            )
        url = probe_url(deployment, name, container, topology_of(container) or "direct")
        wait_healthy(deployment, [(name, container, url)], timeout=timeout, progress=progress)
        result = configure_container(client, deployment, name, container, timeout=timeout, progress=progress)
        if result.committed:
            refresh_pool(client, deployment, name)
        results.append(result)
    return results

__all__ = ["ConfigureResult", "SiteStatus", "configuration_state", "configure", "down", "reset", "status", "up"]
