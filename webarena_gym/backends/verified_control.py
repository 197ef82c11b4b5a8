"""Resetting WebArena-Verified's site images through their environment-control endpoint.

Each of the package's images serves, beside its site, a small HTTP API (``env-ctrl``) that
restarts the site on its pristine data. Before an episode whose task writes, the env asks
the endpoint of every site of the task to restart and waits until it is ready; the
requests are made by the package's own client (``webarena_verified``'s ``HttpClient``).

Where each endpoint is: ``WA_<SITE>_ENV_CTRL`` (``WA_GITLAB_ENV_CTRL=http://host:8024``),
else the host of the site's URL at the port the package publishes the endpoint on, kept at
the same distance from the site's port as in the package's container configurations (GitLab
8023 -> 8024, shopping 7770 -> 7771, the forum 9999 -> 9998), so a site published on another
port finds its endpoint beside it as ``webarena-gym sites up --image-set verified`` puts it.
``WA_<SITE>_ENV_CTRL=off`` leaves a site alone (one that is not served from these images).

>>> env_ctrl_variable("shopping_admin")
'WA_SHOPPING_ADMIN_ENV_CTRL'
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..errors import ConfigurationError, SiteUnavailableError
from ..webarena_sites import SITE_VARIABLES

logger = logging.getLogger(__name__)

#: Seconds one restart may take, the wait for readiness included (a GitLab restart takes minutes).
RESET_TIMEOUT_S = 900.0
ENV_CTRL_SUFFIX = "_ENV_CTRL"
#: ``WA_<SITE>_ENV_CTRL=off``: the site has no endpoint and is never reset.
OFF = ("off", "none", "0")


def env_ctrl_variable(site: str) -> str:
    """The environment variable that names a site's env-control endpoint (``WA_GITLAB_ENV_CTRL``)."""
    if site not in SITE_VARIABLES:
        raise ConfigurationError(f"Unknown WebArena site {site!r}; expected one of {sorted(SITE_VARIABLES)}.")
    return SITE_VARIABLES[site] + ENV_CTRL_SUFFIX


def package_container_configs() -> dict[str, Any]:
    """The package's default container configuration per site name (``DEFAULT_CONTAINER_CONFIGS``), read now."""
    from webarena_verified.environments.container.config import DEFAULT_CONTAINER_CONFIGS

    return {site.value: config for site, config in DEFAULT_CONTAINER_CONFIGS.items()}


def env_ctrl_port_offset(config: Any) -> int:
    """How far the package publishes a site's env-control port from its site port (7771 - 7770 = 1)."""
    host_port = config.host_port or config.container_port
    return (config.host_env_ctrl_port or config.env_ctrl_port) - host_port


def derived_env_ctrl_url(site: str, site_url: str, configs: Mapping[str, Any] | None = None) -> str | None:
    """The endpoint beside ``site_url`` by the package's port layout, or None for a site without one."""
    configs = package_container_configs() if configs is None else configs
    config = configs.get(site)
    if config is None:
        return None
    parts = urlsplit(site_url)
    if not parts.hostname:
        return None
    port = (parts.port or (443 if parts.scheme == "https" else 80)) + env_ctrl_port_offset(config)
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"http://{host}:{port}"


def env_ctrl_urls(site_urls: Mapping[str, str], environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each site's env-control endpoint: ``WA_<SITE>_ENV_CTRL``, else derived beside its URL (see the module)."""
    environ = os.environ if environ is None else environ
    configs = package_container_configs()
    urls = {}
    for site, site_url in site_urls.items():
        if site not in SITE_VARIABLES:
            continue
        url = environ.get(env_ctrl_variable(site), "").strip() or derived_env_ctrl_url(site, site_url, configs)
        if url and url.lower() not in OFF:
            urls[site] = url.rstrip("/")
    return urls


@dataclass
class SiteResetter:
    """Restarts sites through their env-control endpoints and waits until they are ready.

    Attributes:
        urls: Endpoint per site name (:func:`env_ctrl_urls`).
        timeout: Seconds one site's restart may take, readiness included.
    """

    urls: Mapping[str, str]
    timeout: float = RESET_TIMEOUT_S

    def reset(self, sites: tuple[str, ...] | list[str]) -> list[str]:
        """Restart ``sites`` (those with an endpoint) one after the other; returns the sites reset.

        Raises:
            SiteUnavailableError: An endpoint did not answer, or said the restart failed
                (the message names its URL): the episode must not run on dirty data.
        """
        from webarena_verified.environments.env_ctrl_client import HttpClient

        done = []
        for site in sites:
            url = self.urls.get(site)
            if url is None:
                logger.info("%s has no env-control endpoint: not reset", site)
                continue
            started = time.monotonic()
            client = HttpClient(base_url=url, timeout=max(1, int(self.timeout)))
            try:
                result = client.restart(wait=True)
                if result.get("success"):
                    remaining = max(1.0, self.timeout - (time.monotonic() - started))
                    result = client.wait_until_ready(timeout=remaining, interval=1.0)
            except (ConnectionError, RuntimeError, OSError) as exc:
                raise SiteUnavailableError(_failure(site, url, f"did not answer ({exc})")) from exc
            if not result.get("success"):
                raise SiteUnavailableError(_failure(site, url, f"said the restart failed: {result.get('message')!r}"))
            logger.info("reset %s through %s in %.1f s", site, url, time.monotonic() - started)
            done.append(site)
        return done


def _failure(site: str, url: str, what: str) -> str:
    return (f"Could not reset the {site} site before a task that writes: its env-control endpoint {url} {what}. "
            f"Is the site running from WebArena-Verified's image (`webarena-gym sites up --image-set verified`)? "
            f"Set {env_ctrl_variable(site)} to its endpoint, or pass reset_sites=False to run on the site as it is "
            "(a writing task's earlier changes stay).")


__all__ = ["RESET_TIMEOUT_S", "SiteResetter", "derived_env_ctrl_url", "env_ctrl_port_offset", "env_ctrl_urls",
           "env_ctrl_variable", "package_container_configs"]
