"""Where and under which names the sites run on one machine.

>>> deployment = Deployment(host="localhost")
>>> deployment.site_url("shopping_admin")
'http://localhost:7780/admin'
>>> deployment.container_name("reddit")
'forum'
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType

from ..errors import ConfigurationError
from .definitions import LABEL_DEPLOYMENT, LABEL_SITE, ConfigStep, DockerSite
from .registry import ALIASES, SITES

_HOST_PATTERN = re.compile(r"^[A-Za-z0-9.\-]+$|^\[[0-9A-Fa-f:]+\]$")
#: Container names start with the prefix and serve as host names on the sites' network (63 characters at most).
MAX_PREFIX_CHARS = 32


@dataclass(frozen=True)
class Deployment:
    """Where and under which names the sites run on this machine.

    Attributes:
        host: Host name the browser uses to reach the sites; it goes into the sites' own
            configuration (Magento base URLs, GitLab's external URL) and into the WA_* URLs.
        prefix: Prepended to container, network and configured-image names (lets tests and
            several stacks share one engine).
        network: Docker network the containers share; default ``<prefix>webarena-gym`` (the
            compose file's network).
        data_dir: Folder with the data that is not in images (the Wikipedia ZIM file, the
            map's source checkout); default ``$WEBARENA_DATA_DIR`` or ``./webarena-data``.
        images / ports: Per-site overrides of the image and the host port.
        sites: The site definitions (tests pass stand-ins).
        proxy_image: Image of the front proxies used with a standby pool (needs busybox ``nc``).
        probe_host: Address health checks use to reach published ports (the engine's machine).
    """

    host: str = "127.0.0.1"
    prefix: str = ""
    network: str = ""
    data_dir: str = ""
    images: Mapping[str, str] = field(default_factory=dict)
    ports: Mapping[str, int] = field(default_factory=dict)
    sites: Mapping[str, DockerSite] = field(default_factory=lambda: SITES)
    proxy_image: str = "busybox:1.36"
    probe_host: str = "127.0.0.1"

    def __post_init__(self) -> None:
        if not _HOST_PATTERN.match(self.host):
            # The host goes into shell commands run in the containers: keep it a plain name.
            raise ConfigurationError(f"host must be a host name or IP address; got {self.host!r}.")
        if not re.fullmatch(r"[a-z0-9][a-z0-9_.\-]*|", self.prefix) or len(self.prefix) > MAX_PREFIX_CHARS:
            raise ConfigurationError(
                f"prefix must be at most {MAX_PREFIX_CHARS} lowercase letters, digits, '.', '_' or '-'; "
                f"got {self.prefix!r:.80}."
            )
        for name, port in self.ports.items():
            if not (isinstance(port, int) and 0 < port < 65536):
                raise ConfigurationError(f"Port for {name} must be an integer in 1..65535; got {port!r}.")
        if not self.network:
            object.__setattr__(self, "network", f"{self.prefix}webarena-gym")
        data_dir = self.data_dir or os.environ.get("WEBARENA_DATA_DIR") or "webarena-data"
        object.__setattr__(self, "data_dir", str(Path(data_dir).resolve()))
        if self.sites is not SITES:
            object.__setattr__(self, "sites", MappingProxyType(dict(self.sites)))
        object.__setattr__(self, "images", self._overrides(self.images))
        object.__setattr__(self, "ports", self._overrides(self.ports))

    def _overrides(self, values: Mapping[str, str | int]) -> Mapping[str, str | int]:
        resolved = {}
        for name, value in values.items():
            key = ALIASES.get(name, name)
            if key not in self.sites:
                raise ConfigurationError(f"Override for unknown site {name!r}; expected one of {sorted(self.sites)}.")
            resolved[key] = value
        return MappingProxyType(resolved)

    def names(self, selected: list[str] | tuple[str, ...] | None = None) -> list[str]:
        """Site names in start order; ``selected`` (aliases allowed) narrows them."""
        if not selected:
            return list(self.sites)
        wanted = []
        for name in selected:
            key = ALIASES.get(name, name)
            if key not in self.sites:
                raise ConfigurationError(f"Unknown site {name!r}; expected one of {sorted(self.sites)}.")
            if key not in wanted:
                wanted.append(key)
        return [name for name in self.sites if name in wanted]

    def site(self, name: str) -> DockerSite:
        """The effective definition of a site (overrides applied, data paths resolved)."""
        key = ALIASES.get(name, name)
        if key not in self.sites:
            raise ConfigurationError(f"Unknown site {name!r}; expected one of {sorted(self.sites)}.")
        site = self.sites[key]
        volumes = {source.format(data_dir=self.data_dir): target for source, target in site.volumes.items()}
        host_port = int(self.ports.get(key, site.host_port))
        env_ctrl = site.host_env_ctrl_port
        if env_ctrl is not None:  # a site moved to another port keeps its env-control port beside it
            env_ctrl += host_port - site.host_port
        return replace(
            site,
            image=str(self.images.get(key, site.image)),
            host_port=host_port,
            host_env_ctrl_port=env_ctrl,
            volumes=MappingProxyType(volumes),
        )

    def container_name(self, name: str, role: str = "") -> str:
        """Name of a site's container; ``role`` is ``front``, ``standby-N`` or a companion suffix."""
        base = self.prefix + self.site(name).container
        if not role:
            return base
        return base + (role if role.startswith("_") else f"-{role}")

    def base_url(self, name: str) -> str:
        """Root URL of a site as the browser sees it, without a trailing slash."""
        return f"http://{self.host}:{self.site(name).host_port}"

    def site_url(self, name: str) -> str:
        """The URL the gym env reads for a site (``WA_SHOPPING_ADMIN`` ends in ``/admin``)."""
        return self.base_url(name) + self.site(name).url_path

    def env_ctrl_url(self, name: str) -> str | None:
        """Where a WebArena-Verified image's environment-control API answers, or None for an image without one."""
        port = self.site(name).host_env_ctrl_port
        return None if port is None else f"http://{self.host}:{port}"

    def steps(self, name: str) -> tuple[ConfigStep, ...]:
        """A site's configuration steps with this deployment's URLs filled in."""
        return tuple(step.render(self.base_url(name), self.host) for step in self.site(name).configure)

    def configured_repository(self, name: str) -> str:
        """Repository of the images that hold a site after its one-time configuration."""
        return f"{self.prefix}webarena-gym-configured/{self.site(name).container}".lower()

    def labels(self, name: str) -> dict[str, str]:
        """Labels that mark a container or network as this deployment's, for this site."""
        return {LABEL_SITE: name, LABEL_DEPLOYMENT: self.prefix or "default"}

    def fingerprint(self, name: str, base_image_id: str) -> str:
        """Identifies a configuration: the base image and the exact commands applied to it."""
        digest = hashlib.sha256(base_image_id.encode())
        for step in self.steps(name):
            digest.update(b"\0" + step.command.encode())
        return digest.hexdigest()[:16]

    def exports(self, selected: list[str] | None = None) -> dict[str, str]:
        """``{"WA_SHOPPING": "http://...", ...}`` for the selected sites (and ``WA_<SITE>_ENV_CTRL`` for the
        verified images' env-control endpoints, which the env resets writing tasks' sites through)."""
        from ..backends.verified_control import env_ctrl_variable

        exports = {}
        for name in self.names(selected):
            exports[self.site(name).env_var] = self.site_url(name)
            if (url := self.env_ctrl_url(name)) is not None:
                exports[env_ctrl_variable(name)] = url
        return exports
