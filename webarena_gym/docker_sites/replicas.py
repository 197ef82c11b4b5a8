"""Several independent copies of a site, for rollouts that must not see each other's writes.

Replica ``i`` (from 1) of a site is the site run as a deployment of its own: its
containers are named with the prefix ``<prefix>r<i>-``, it publishes the site's port plus
``i * port_step`` (forum: 10999, 11999, ...; every WebArena port differs modulo 1000, so
the default step of 1000 never collides), and it is configured for that URL (Magento and
GitLab keep their own URL inside). Each replica may keep warm standbys (the standby
pools of :mod:`.standby`, configured for the replica's URL): recycling a dirty replica
then swaps in a standby in about a second and boots a new one in the background; without
standbys it is recreated from its configured image (a cold start).

Docker's copy-on-write layers make a replica cost only what it writes on disk, plus its
configured image's layer; its memory is the site's full memory (docker/README.md).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import docker

from ..errors import ConfigurationError
from .deployment import Deployment
from .lifecycle import SiteStatus, configure, down, reset, status, up

logger = logging.getLogger(__name__)

#: Port distance between replicas of one site (WebArena's ports all differ modulo 1000).
PORT_STEP = 1000


def replica_deployment(deployment: Deployment, name: str, index: int, *, port_step: int = PORT_STEP) -> Deployment:
    """The deployment that runs replica ``index`` (1, 2, ...) of site ``name``."""
    if not isinstance(index, int) or index < 1:
        raise ConfigurationError(f"Replica numbers start at 1; got {index!r}.")
    port = deployment.site(name).host_port + index * port_step
    if port > 65535:
        raise ConfigurationError(
            f"Replica {index} of {name} would need port {port} (> 65535): use fewer replicas or a smaller --replica-port-step."
        )
    key = deployment.names([name])[0]
    return replace(deployment, prefix=f"{deployment.prefix}r{index}-", ports={**deployment.ports, key: port})


def replica_urls(deployment: Deployment, counts: Mapping[str, int], *, port_step: int = PORT_STEP) -> dict[str, list[str]]:
    """The site URL of every replica, per site (what the lease service hands out)."""
    return {
        deployment.names([name])[0]: [
            replica_deployment(deployment, name, index, port_step=port_step).site_url(name) for index in range(1, count + 1)
        ]
        for name, count in counts.items()
    }


def existing_replicas(client: docker.DockerClient, deployment: Deployment, name: str) -> list[int]:
    """Numbers of the replicas of ``name`` that have a container (running or not)."""
    container = deployment.site(name).container
    pattern = re.compile(re.escape(deployment.prefix) + r"r(\d+)-" + re.escape(container) + "$")
    found = set()
    for item in client.containers.list(all=True, filters={"name": f"{deployment.prefix}r"}):
        match = pattern.match(item.name)
        if match:
            found.add(int(match.group(1)))
    return sorted(found)


def replicas_up(
    client: docker.DockerClient,
    deployment: Deployment,
    counts: Mapping[str, int],
    *,
    standby: int = 0,
    port_step: int = PORT_STEP,
    configure_sites: bool = True,
    auth_dir: str | Path | None = None,
    timeout: float | None = None,
    progress: bool = True,
) -> dict[str, list[str]]:
    """Run ``counts[site]`` healthy, configured replicas of each site (extra ones are removed).

    Idempotent: replicas that run are left alone. With ``auth_dir`` each replica with a
    login form is logged in (:func:`replica_auth_dir`). Returns the replicas' site URLs per site.
    """
    for name, count in counts.items():
        if not isinstance(count, int) or count < 1:
            raise ConfigurationError(f"--replicas {name}={count!r}: a site needs at least one replica.")
        for index in range(1, count + 1):
            copy = replica_deployment(deployment, name, index, port_step=port_step)
            up(client, copy, [name], standby=standby, timeout=timeout, progress=progress)
            if configure_sites:
                configure(client, copy, [name], timeout=timeout, progress=progress)
            if auth_dir and deployment.site(name).login is not None:
                login_replica(deployment, name, index, auth_dir, port_step=port_step)
        for index in existing_replicas(client, deployment, name):
            if index > count:
                down(client, replica_deployment(deployment, name, index, port_step=port_step), [name], images=True)
    return replica_urls(deployment, counts, port_step=port_step)


def replica_auth_dir(auth_dir: str | Path, name: str, index: int) -> Path:
    """Where replica ``index`` of ``name`` keeps its login states (``<auth_dir>/<site>-<index>``)."""
    return Path(auth_dir) / f"{name}-{index}"


def login_replica(deployment: Deployment, name: str, index: int, auth_dir: str | Path, *,
                  port_step: int = PORT_STEP) -> list[Path]:
    """Log in on one replica and save its states in its own folder (sessions live in the replica)."""
    from .login_states import login

    copy = replica_deployment(deployment, name, index, port_step=port_step)
    # Playwright's sync API refuses a thread whose event loop runs elsewhere (an env's browser
    # loop may have set one on this thread): log in from a thread of its own.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="replica-login") as pool:
        return pool.submit(login, copy, [name], auth_dir=replica_auth_dir(auth_dir, name, index), pairs=False,
                           force=True, progress=False).result()


def recycle(client: docker.DockerClient, deployment: Deployment, name: str, index: int, *,
            port_step: int = PORT_STEP, timeout: float | None = None, auth_dir: str | Path | None = None) -> float:
    """Bring replica ``index`` of ``name`` back to pristine (a standby swap, else a recreation); seconds taken.

    With ``auth_dir`` the replica is logged in again afterwards (a fresh container has no sessions).
    """
    started = time.monotonic()
    copy = replica_deployment(deployment, name, index, port_step=port_step)
    reset(client, copy, [name], timeout=timeout, progress=False)
    if auth_dir and deployment.site(name).login is not None:
        login_replica(deployment, name, index, auth_dir, port_step=port_step)
    return time.monotonic() - started


def replica_status(client: docker.DockerClient, deployment: Deployment, names: list[str] | None = None, *,
                   port_step: int = PORT_STEP) -> list[tuple[int, SiteStatus]]:
    """The docker side of every replica: (number, status row) per replica of the sites."""
    rows = []
    for name in deployment.names(names):
        for index in existing_replicas(client, deployment, name):
            [row] = status(client, replica_deployment(deployment, name, index, port_step=port_step), [name])
            rows.append((index, row))
    return rows


def replicas_down(client: docker.DockerClient, deployment: Deployment, names: list[str] | None = None, *,
                  images: bool = True, port_step: int = PORT_STEP) -> list[str]:
    """Remove every replica of the sites (and with ``images``, their configured images)."""
    removed: list[str] = []
    for name in deployment.names(names):
        for index in existing_replicas(client, deployment, name):
            removed += down(client, replica_deployment(deployment, name, index, port_step=port_step), [name], images=images)
    return removed


def parse_counts(values: list[str], sites: list[str]) -> dict[str, int]:
    """``["reddit=8", "shopping=4"]`` or ``["3"]`` (every site in ``sites``) -> counts per site."""
    counts: dict[str, Any] = {}
    for value in values:
        for part in value.split(","):
            site, sep, number = part.partition("=")
            if not sep:
                site, number = "", site
            try:
                count = int(number)
            except ValueError:
                raise ConfigurationError(f"--replicas takes SITE=N or N, got {part!r}.") from None
            for name in ([site] if site else sites):
                counts[name] = count
    return counts
