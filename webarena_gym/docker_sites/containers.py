"""Creating a site's containers and waiting for them: the building blocks of up, reset and standby.

Two topologies exist. ``direct`` (WebArena's own): the site's container publishes the
site's port. ``fronted`` (with a standby pool): a tiny TCP proxy container publishes the
port and forwards every connection to whichever container currently carries the site's
name, so a warm standby can take over by being renamed.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import docker
from docker.errors import APIError

from ..errors import DockerError
from .definitions import LABEL_FINGERPRINT, LABEL_STANDBY, LABEL_TOPOLOGY
from .deployment import Deployment
from .engine import (
    ensure_network,
    get_container,
    published_port,
    remove_container,
    require_free_port,
    require_image,
    tail_logs,
)
from .health import HealthTarget, wait_until_healthy

logger = logging.getLogger(__name__)

DIRECT = "direct"
FRONTED = "fronted"
FRONT = "front"


def configured_image(client: docker.DockerClient, deployment: Deployment, name: str) -> Any | None:
    """The image committed by ``configure`` for the current base image and URLs, or None."""
    site = deployment.site(name)
    base = require_image(client, site.image, site.obtain, site=name)
    tag = f"{deployment.configured_repository(name)}:{deployment.fingerprint(name, base.id)}"
    try:
        return client.images.get(tag)
    except docker.errors.ImageNotFound:
        return None


def best_image(client: docker.DockerClient, deployment: Deployment, name: str) -> Any:
    """The image to start a site from: the configured one when there is one, else WebArena's."""
    site = deployment.site(name)
    base = require_image(client, site.image, site.obtain, site=name)
    return configured_image(client, deployment, name) or base


def topology_of(container: Any | None) -> str | None:
    if container is None:
        return None
    return (container.labels or {}).get(LABEL_TOPOLOGY, DIRECT)


def create_site_container(
    client: docker.DockerClient,
    deployment: Deployment,
    name: str,
    *,
    container_name: str,
    topology: str,
    image: Any | None = None,
) -> Any:
    """Create and start one container of a site.

    In the direct topology it publishes the site's port (which must be free); in the
    fronted one it publishes the site's port on an ephemeral loopback port, which the
    health checks use, while the front proxy serves the real port.
    """
    site = deployment.site(name)
    image = image or best_image(client, deployment, name)
    require_data(deployment, name)
    ensure_network(client, deployment)
    ensure_companions(client, deployment, name)
    if topology == DIRECT:
        require_free_port(client, site.host_port, name)
        ports: dict[str, Any] = {f"{site.container_port}/tcp": site.host_port}
        if site.env_ctrl_port is not None and site.host_env_ctrl_port is not None:
            # WebArena-Verified's images: their env-control API, which the env resets writing tasks' sites through
            require_free_port(client, site.host_env_ctrl_port, name)
            ports[f"{site.env_ctrl_port}/tcp"] = site.host_env_ctrl_port
    else:
        ports = {f"{site.container_port}/tcp": ("127.0.0.1",)}
    labels = deployment.labels(name) | {LABEL_TOPOLOGY: topology}
    labels[LABEL_FINGERPRINT] = (image.labels or {}).get(LABEL_FINGERPRINT, "")
    return _run(
        client,
        image.id,
        name=container_name,
        command=list(site.command) if site.command else None,
        environment={key: value.replace("{base_url}", deployment.base_url(name)) for key, value in site.environment.items()},
        volumes={source: {"bind": target, "mode": "rw"} for source, target in site.volumes.items()},
        tmpfs={path: "" for path in site.tmpfs},
        ports=ports,
        labels=labels,
        network=deployment.network,
    )


def require_data(deployment: Deployment, name: str) -> None:
    """Fail early when a folder the site mounts is missing (docker would mount an empty one)."""
    site = deployment.site(name)
    for source in site.volumes:
        if source.startswith("/") and not Path(source).exists():
            raise DockerError(
                f"The {name} site needs {source}, which does not exist. {site.obtain} "
                "(Set --data-dir or $WEBARENA_DATA_DIR to the folder that holds it.)"
            )


def _run(client: docker.DockerClient, image: str, **kwargs: Any) -> Any:
    try:
        container = client.containers.create(image, detach=True, **kwargs)
    except APIError as exc:
        raise DockerError(f"Cannot create container {kwargs.get('name')!r} from {image}: {exc}") from exc
    try:
        container.start()
    except APIError as exc:
        logs = tail_logs(container)
        container.remove(force=True)
        hint = " Is the port taken?" if "address already in use" in str(exc) else ""
        raise DockerError(f"Container {kwargs.get('name')!r} did not start: {exc}.{hint}\n{logs}") from exc
    return container


def ensure_companions(client: docker.DockerClient, deployment: Deployment, name: str) -> None:
    """Start the site's helper containers (the map's database) when they are not running."""
    site = deployment.site(name)
    for companion in site.companions:
        container_name = deployment.container_name(name, companion.suffix)
        container = get_container(client, container_name)
        if container is not None:
            if container.status != "running":
                container.start()
            continue
        image = require_image(client, companion.image, companion.obtain, site=name)
        endpoint = client.api.create_endpoint_config(aliases=list(companion.aliases)) if companion.aliases else None
        _run(
            client,
            image.id,
            name=container_name,
            command=list(companion.command) if companion.command else None,
            environment=dict(companion.environment),
            volumes={source: {"bind": target, "mode": "rw"} for source, target in companion.volumes.items()},
            labels=deployment.labels(name) | {LABEL_TOPOLOGY: "companion"},
            network=deployment.network,
            networking_config={deployment.network: endpoint} if endpoint else None,
        )


def start_front(client: docker.DockerClient, deployment: Deployment, name: str, standby: int) -> Any:
    """The TCP proxy that publishes the site's port and forwards to the container named like the site.

    Busybox ``nc -ll`` forks one relay per connection, and each relay resolves the site's
    name through docker's DNS, so renaming a standby container redirects new connections.
    """
    site = deployment.site(name)
    image = require_image(
        client,
        deployment.proxy_image,
        f"`docker pull {deployment.proxy_image}` (any image whose `nc` is busybox's).",
        site=name,
    )
    ensure_network(client, deployment)
    require_free_port(client, site.host_port, name)
    port = str(site.container_port)
    return _run(
        client,
        image.id,
        name=deployment.container_name(name, FRONT),
        command=["nc", "-ll", "-p", port, "-e", "nc", deployment.container_name(name), port],
        ports={f"{site.container_port}/tcp": site.host_port},
        labels=deployment.labels(name) | {LABEL_TOPOLOGY: FRONT, LABEL_STANDBY: str(standby)},
        network=deployment.network,
    )


def probe_url(deployment: Deployment, name: str, container: Any, topology: str) -> str:
    """Where to check a container's health from this machine."""
    site = deployment.site(name)
    if topology == DIRECT:
        port = site.host_port
    else:
        port = published_port(container, site.container_port)
        if port is None:
            raise DockerError(f"Container {container.name!r} publishes no port for its health check.")
    return f"http://{deployment.probe_host}:{port}{site.health_path}"


def health_target(
    deployment: Deployment, name: str, container: Any, *, url: str, timeout: float | None = None
) -> HealthTarget:
    """A :class:`HealthTarget` that also gives up as soon as the container stops."""

    def failure() -> str | None:
        try:
            container.reload()
        except docker.errors.NotFound:
            return f"{name}: container {container.name!r} disappeared"
        if container.status in ("exited", "dead"):
            code = container.attrs.get("State", {}).get("ExitCode")
            return f"{name}: container {container.name!r} stopped (exit code {code})"
        return None

    return HealthTarget(
        name=name,
        url=url,
        timeout=timeout if timeout is not None else deployment.site(name).start_timeout,
        failure=failure,
        diagnostics=lambda: tail_logs(container),
    )


def wait_healthy(
    deployment: Deployment,
    items: list[tuple[str, Any, str]],
    *,
    timeout: float | None = None,
    progress: bool = True,
    description: str = "healthy",
) -> dict[str, float]:
    """Wait for ``(site name, container, probe url)`` items; returns seconds per site."""
    targets = [health_target(deployment, name, container, url=url, timeout=timeout) for name, container, url in items]
    return wait_until_healthy(targets, progress=progress, description=description)


def remove_site_containers(client: docker.DockerClient, deployment: Deployment, name: str) -> list[str]:
    """Remove every container of a site (active, front, standbys, companions); returns their names."""
    removed = []
    filters = {"label": [f"{key}={value}" for key, value in deployment.labels(name).items()]}
    labelled = {container.name for container in client.containers.list(all=True, filters=filters)}
    named = {deployment.container_name(name), deployment.container_name(name, FRONT)}
    named |= {deployment.container_name(name, companion.suffix) for companion in deployment.site(name).companions}
    for container_name in sorted(labelled | named):
        if remove_container(client, container_name):
            removed.append(container_name)
    return removed
