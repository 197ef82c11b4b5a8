"""The one-time configuration of the real sites, kept in an image so resets keep it.

WebArena's images carry the URLs they were built with: Magento redirects every request
to its stored base URL, GitLab writes its external URL into every link, and the store
admin forces a password change. :func:`configure_container` runs the site's
:class:`~webarena_gym.docker_sites.definitions.ConfigStep` commands inside the running
container (skipping those whose check says they are done), then commits the container
as ``<prefix>webarena-gym-configured/<site>:<fingerprint>``. Resets start from that image.

``docker commit`` does not keep what an image stores in declared volumes (GitLab's
/etc/gitlab is one), so for such images the steps are simply run again after every
reset; the checks keep that cheap when nothing changed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import docker
from docker.errors import APIError

from ..errors import DockerError
from .containers import configured_image, probe_url, topology_of, wait_healthy
from .definitions import LABEL_FINGERPRINT, ConfigStep
from .deployment import Deployment
from .engine import image_volumes, require_image

logger = logging.getLogger(__name__)


@dataclass
class ConfigureResult:
    """What ``configure`` did to one site."""

    site: str
    ran: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    committed: str = ""
    reapply_after_reset: bool = False


def run_in(container: Any, script: str) -> tuple[int, str]:
    """Run an ``sh -c`` script in a container; returns (exit code, combined output)."""
    try:
        code, output = container.exec_run(["sh", "-c", script], demux=False)
    except APIError as exc:
        raise DockerError(f"Cannot run a command in {container.name!r}: {exc}") from exc
    return code, (output or b"").decode("utf-8", "replace")


def is_done(container: Any, step: ConfigStep) -> bool:
    """True when the step's check shows it is already applied."""
    if step.check is None:
        return False
    code, output = run_in(container, step.check)
    return code == 0 and step.expect in output


def apply_steps(container: Any, site: str, steps: tuple[ConfigStep, ...], result: ConfigureResult) -> None:
    """Run the steps that are not done yet; a failing command raises with its output."""
    changed = False
    for step in steps:
        if step.after_change and not changed:
            result.skipped.append(step.description)
            continue
        if not step.after_change and is_done(container, step):
            result.skipped.append(step.description)
            continue
        logger.info("%s: %s", site, step.description)
        code, output = run_in(container, step.command)
        if code != 0:
            raise DockerError(
                f"Configuring {site} failed at step {step.description!r} (exit code {code}): "
                f"{step.command}\n{output.strip()[-2000:]}"
            )
        if step.check is not None and not is_done(container, step):
            raise DockerError(
                f"Configuring {site}: step {step.description!r} ran but its check still fails "
                f"({step.check!r} should print {step.expect!r})."
            )
        result.ran.append(step.description)
        changed = True


def configure_container(
    client: docker.DockerClient,
    deployment: Deployment,
    name: str,
    container: Any,
    *,
    timeout: float | None = None,
    progress: bool = True,
    commit: bool = True,
) -> ConfigureResult:
    """Configure one healthy, running container of a site, and keep the result in an image.

    Args:
        commit: Commit the configuration when no configured image exists yet (standbys
            and resets pass False: they already start from that image).
    """
    result = ConfigureResult(site=name)
    steps = deployment.steps(name)
    if not steps:
        return result
    site = deployment.site(name)
    base = require_image(client, site.image, site.obtain, site=name)
    topology = topology_of(container) or "direct"
    url = probe_url(deployment, name, container, topology)
    apply_steps(container, name, steps, result)
    if result.ran:
        # Reconfiguring restarts services (gitlab-ctl reconfigure, cache flushes).
        wait_healthy(deployment, [(name, container, url)], timeout=timeout, progress=progress, description="configured")
    if image_volumes(base):
        result.reapply_after_reset = True
        return result
    if commit and configured_image(client, deployment, name) is None:
        result.committed = _commit(deployment, name, container, base)
        container.start()
        url = probe_url(deployment, name, container, topology)  # an ephemeral port changes on restart
        wait_healthy(deployment, [(name, container, url)], timeout=timeout, progress=progress, description="restarted")
    return result


def _commit(deployment: Deployment, name: str, container: Any, base: Any) -> str:
    """Stop the container cleanly (databases flush on shutdown), then commit it."""
    fingerprint = deployment.fingerprint(name, base.id)
    repository = deployment.configured_repository(name)
    try:
        container.stop(timeout=deployment.site(name).stop_timeout)
        container.commit(
            repository=repository,
            tag=fingerprint,
            message=f"webarena-gym: {name} configured for {deployment.base_url(name)}",
            changes=f"LABEL {LABEL_FINGERPRINT}={fingerprint}",
        )
    except APIError as exc:
        raise DockerError(f"Cannot commit the configured {name} container: {exc}") from exc
    logger.info("%s: configuration committed as %s:%s", name, repository, fingerprint)
    return f"{repository}:{fingerprint}"
