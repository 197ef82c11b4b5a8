"""Which sites the Playwright backend browses: the embedded ones served on this machine, or
the real WebArena sites.

They differ in what :class:`PlaywrightSites` names, and in nothing else: the base URLs, the
cookies a new browser context starts with (a world and logins, or saved login states), how
a snapshot is parsed (the embedded sites' well-formed pages with lxml, anything else with
the HTML5 algorithm, as browsers do), and whether Playwright's actionability waits are worth
their time.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from ..webarena_sites import site_urls_from_environment

if TYPE_CHECKING:
    from ..sites.server import SiteServer
    from ..sites.world import World

_server_lock = threading.Lock()
_embedded_server: SiteServer | None = None


def embedded_server() -> SiteServer:
    """The process-wide server of the embedded sites (ephemeral loopback ports)."""
    global _embedded_server
    with _server_lock:
        if _embedded_server is None:
            from ..sites.server import SiteServer

            _embedded_server = SiteServer(ephemeral=True).start()
        return _embedded_server


class PlaywrightSites(Protocol):
    """The sites one Playwright backend browses.

    Attributes:
        urls: Base URL per site.
        world: The env's world on the embedded sites, None on the real ones.
        well_formed: Whether pages are parsed with lxml's fast parser (else the HTML5 algorithm).
        force_actions: Whether actions skip Playwright's actionability waits (stable for two
            frames, hit-target checks): pages without scripts, animations or overlays never
            need them, and they only cost time there.
    """

    urls: dict[str, str]
    world: World | None
    well_formed: bool
    force_actions: bool

    def storage_state(self, logged_in: tuple[str, ...], task_state: str | None) -> dict[str, Any]:
        """Cookies (and origins) of a new browser context, logged in on the sites ``logged_in`` names."""

    def close(self) -> None:
        """Release what these sites hold for the backend."""


class EmbeddedSites:
    """The embedded sites, served over real HTTP on loopback by one process-wide server; a
    ``wa_world`` cookie in the context picks the env's world."""

    well_formed = True
    force_actions = True

    def __init__(self, world: World):
        self.world: World | None = world
        server = embedded_server()
        server.pool.add(world)
        self.urls = dict(server.base_urls)

    def storage_state(self, logged_in: tuple[str, ...], task_state: str | None) -> dict[str, Any]:
        from ..sites.webapp import WORLD_COOKIE, default_login_cookies

        host = urlsplit(next(iter(self.urls.values()))).hostname
        pairs = [(WORLD_COOKIE, self.world.token), *default_login_cookies(logged_in)]
        return {"cookies": [_cookie(name, value, host) for name, value in pairs], "origins": []}

    def close(self) -> None:
        embedded_server().pool.discard(self.world)


class RealSites:
    """The real WebArena sites at their ``WA_*`` URLs, logged in with the states
    ``webarena-gym sites login`` saved.

    Args:
        site_urls: Base URL per site (default: the ``WA_*`` variables).
        storage_state_dir: Where the login states are (``<site>_state.json``); default
            ``$WA_AUTH_DIR`` or ``./.auth``.
    """

    well_formed = False
    force_actions = False

    def __init__(self, site_urls: dict[str, str] | None = None, storage_state_dir: str | Path | None = None):
        self.world: World | None = None
        self.urls = dict(site_urls or site_urls_from_environment())
        self.storage_state_dir = Path(storage_state_dir or os.environ.get("WA_AUTH_DIR") or ".auth")

    def storage_state(self, logged_in: tuple[str, ...], task_state: str | None) -> dict[str, Any]:
        """The task's own ``storage_state`` file (WebArena names one per site combination, e.g.
        ``gitlab.reddit_state.json``) when it exists in the state folder, else the per-site
        files merged: merging would clash where two sites use one cookie name on one host."""
        if task_state and (self.storage_state_dir / Path(task_state).name).exists():
            return json.loads((self.storage_state_dir / Path(task_state).name).read_text())
        cookies: list[dict[str, Any]] = []
        origins: list[dict[str, Any]] = []
        for site in logged_in:
            path = self.storage_state_dir / f"{site}_state.json"
            if path.exists():
                state = json.loads(path.read_text())
                cookies.extend(state.get("cookies", []))
                origins.extend(state.get("origins", []))
        return {"cookies": cookies, "origins": origins}

    def close(self) -> None:
        pass


def _cookie(name: str, value: str, host: str | None) -> dict[str, Any]:
    return {"name": name, "value": value, "domain": host or "127.0.0.1", "path": "/"}
