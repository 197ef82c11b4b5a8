"""Talking to the docker engine, with errors that say what to do.

Every failure a person can fix (no engine, no permission, an image that is not loaded, a
port held by something else) becomes a :class:`~webarena_gym.errors.DockerError` whose
message names the fix.
"""

from __future__ import annotations

import logging
import os
import socket
from typing import Any

import docker
from docker.errors import APIError, DockerException, ImageNotFound, NotFound

from ..errors import DockerError
from .definitions import LABEL_DEPLOYMENT
from .deployment import Deployment

logger = logging.getLogger(__name__)

START_ENGINE_HINT = (
    "Start the docker engine (`sudo systemctl start docker`; on a CI machine or a container "
    "without systemd: `sudo scripts/ensure_dockerd.sh`), or point DOCKER_HOST at a running one."
)


def connect(base_url: str | None = None, *, timeout: int = 120) -> docker.DockerClient:
    """A client for the engine at ``base_url`` (default: ``$DOCKER_HOST`` or the local socket).

    Raises:
        DockerError: no engine answers, or this user may not use it.
    """
    where = base_url or os.environ.get("DOCKER_HOST") or "unix:///var/run/docker.sock"
    try:
        client = (
            docker.DockerClient(base_url=base_url, timeout=timeout)
            if base_url
            else docker.from_env(timeout=timeout)
        )
        client.ping()
    except PermissionError as exc:
        raise DockerError(_permission_message(where, exc)) from exc
    except DockerException as exc:
        if "Permission denied" in str(exc):
            raise DockerError(_permission_message(where, exc)) from exc
        raise DockerError(f"No docker engine answers at {where}: {exc}. {START_ENGINE_HINT}") from exc
    return client


def _permission_message(where: str, exc: Exception) -> str:
    return (
        f"The docker engine at {where} refused this user ({exc}). Run as root, or add yourself to "
        "the docker group: `sudo usermod -aG docker $USER`, then log in again."
    )


def require_image(client: docker.DockerClient, image: str, obtain: str, *, site: str = "") -> Any:
    """The local image ``image``; never pulls (WebArena's images are tens of GB, loaded by hand).

    Raises:
        DockerError: the image is not in the engine; the message says how to get it.
    """
    try:
        return client.images.get(image)
    except ImageNotFound:
        what = f"the {site} site" if site else "this container"
        raise DockerError(
            f"Image {image!r} for {what} is not in the docker engine. {obtain} "
            "(docker/README.md lists every image and where it comes from.)"
        ) from None
    except APIError as exc:
        raise DockerError(f"The docker engine failed to look up image {image!r}: {exc}") from exc


def image_volumes(image: Any) -> list[str]:
    """Paths the image declares as volumes (their content is not kept by ``docker commit``)."""
    return sorted((image.attrs.get("Config") or {}).get("Volumes") or {})


def ensure_network(client: docker.DockerClient, deployment: Deployment) -> Any:
    """The deployment's bridge network, created when missing."""
    try:
        return client.networks.get(deployment.network)
    except NotFound:
        pass
    try:
        return client.networks.create(
            deployment.network, driver="bridge", labels={LABEL_DEPLOYMENT: deployment.prefix or "default"}
        )
    except APIError as exc:
        raise DockerError(
            f"Cannot create the docker network {deployment.network!r}: {exc}. The engine needs bridge "
            "networking for published ports (dockerd must not run with --bridge=none *and* without "
            "kernel bridge support)."
        ) from exc


def get_container(client: docker.DockerClient, name: str) -> Any | None:
    """The container called ``name``, or None."""
    try:
        return client.containers.get(name)
    except NotFound:
        return None


def remove_container(client: docker.DockerClient, name: str) -> bool:
    """Remove a container (running or not) with its anonymous volumes; False if there was none."""
    container = get_container(client, name)
    if container is None:
        return False
    try:
        container.remove(force=True, v=True)
    except NotFound:
        return False
    except APIError as exc:
        raise DockerError(f"Cannot remove container {name!r}: {exc}") from exc
    return True


def published_port(container: Any, container_port: int) -> int | None:
    """The host port a container publishes ``container_port`` on, or None."""
    container.reload()
    bindings = ((container.attrs.get("NetworkSettings") or {}).get("Ports") or {}).get(f"{container_port}/tcp")
    for binding in bindings or ():
        if binding.get("HostPort"):
            return int(binding["HostPort"])
    return None


def port_is_free(port: int) -> bool:
    """True when nothing listens on ``port`` (docker publishes on every interface)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("0.0.0.0", port))
        except OSError:
            return False
    return True


def port_holder(client: docker.DockerClient, port: int) -> str:
    """Who holds ``port``: a container's name and image, or 'a process outside docker'."""
    for container in client.containers.list():
        ports = (container.attrs.get("NetworkSettings") or {}).get("Ports") or {}
        for bindings in ports.values():
            if any(str(binding.get("HostPort")) == str(port) for binding in bindings or ()):
                image = (container.attrs.get("Config") or {}).get("Image", "?")
                return f"container {container.name!r} (image {image})"
    return "a process outside docker"


def require_free_port(client: docker.DockerClient, port: int, site: str) -> None:
    """Raise a :class:`DockerError` naming the holder when ``port`` is taken."""
    if port_is_free(port):
        return
    holder = port_holder(client, port)
    fix = (
        f"`docker rm -f {holder.split(chr(39))[1]}`" if holder.startswith("container") else "stop that process"
    )
    raise DockerError(
        f"Port {port} for the {site} site is taken by {holder}. Free it ({fix}), or run the site on "
        f"another port (`webarena-gym sites --port {site}=PORT up {site}`)."
    )


def tail_logs(container: Any, lines: int = 20) -> str:
    """The last lines of a container's output, for error messages."""
    try:
        return container.logs(tail=lines).decode("utf-8", "replace").rstrip()
    except (APIError, NotFound):
        return "(no logs)"
