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
import shlex
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from ..errors import LoginStateError
from ..webarena_sites import (
    SITE_VARIABLES,
    login_state_name,
    site_urls_from_environment,
    sites_of_login_state,
)
from .site_leases import Lease, LeaseClient, rebase_task, task_writes

if TYPE_CHECKING:
    from ..sites.server import SiteServer
    from ..sites.world import World
    from ..tasks.task import Task

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

    def begin_episode(self, task: Task) -> Task:
        """The task as the episode runs it (moved onto leased replicas, where there are leases)."""

    def end_episode(self) -> None:
        """Return what :meth:`begin_episode` leased."""

    @property
    def episode_info(self) -> dict[str, Any]:
        """What ``info`` says about the sites of the episode."""

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

    def begin_episode(self, task: Task) -> Task:
        return task  # the env's world is its own: nothing to lease

    def end_episode(self) -> None:
        pass

    @property
    def episode_info(self) -> dict[str, Any]:
        return {}

    def close(self) -> None:
        embedded_server().pool.discard(self.world)


class RealSites:
    """The real WebArena sites at their ``WA_*`` URLs, logged in with the states
    ``webarena-gym sites login`` saved.

    Args:
        site_urls: Base URL per site (default: the ``WA_*`` variables).
        storage_state_dir: Where the login states are (``<site>_state.json``); default
            ``$WA_AUTH_DIR`` or ``./.auth``.
        leases: A lease service (its URL or a :class:`LeaseClient`; default ``$WA_LEASES``):
            each episode then runs on replicas leased for it (:mod:`.site_leases`), its login
            states come from the replicas' folders, and the lease is returned when it ends.
    """

    well_formed = False
    force_actions = False

    def __init__(self, site_urls: dict[str, str] | None = None, storage_state_dir: str | Path | None = None,
                 leases: str | LeaseClient | None = None):
        self.world: World | None = None
        leases = leases if leases is not None else os.environ.get("WA_LEASES") or None
        self.leases = LeaseClient(leases) if isinstance(leases, str) else leases
        self.urls = dict(site_urls or site_urls_from_environment() or (self.leases.sites() if self.leases else {}))
        self.configured_urls = dict(self.urls)  # the URLs the tasks were resolved with
        self.storage_state_dir = Path(storage_state_dir or os.environ.get("WA_AUTH_DIR") or ".auth")
        self.lease: Lease | None = None

    def begin_episode(self, task: Task) -> Task:
        """Lease a replica of each of the task's sites (with a lease service) and move the task onto them.

        Without a lease service the task is returned as is. A lease still held (an episode
        left unfinished) is returned first, as dirty when that episode could write.
        """
        if self.leases is None:
            return task
        self.end_episode()
        self.lease = self.leases.acquire(tuple(task.sites), writes=task_writes(task))
        self.urls = {**self.configured_urls, **self.lease.urls}
        return rebase_task(task, self.configured_urls, self.lease.urls)

    def end_episode(self) -> None:
        """Return the episode's lease (its replicas are recycled when the task writes)."""
        lease, self.lease = self.lease, None
        if lease is not None and self.leases is not None:
            self.leases.release(lease)

    @property
    def episode_info(self) -> dict[str, Any]:
        """What ``info`` says about the replicas of the episode (empty without leases)."""
        if self.lease is None:
            return {}
        return {"replicas": dict(self.lease.replicas), "lease_id": self.lease.lease_id}

    def _state_dir(self, site: str) -> Path:
        if self.lease is not None and site in self.lease.auth_dirs:
            return Path(self.lease.auth_dirs[site])
        return self.storage_state_dir

    def storage_state(self, logged_in: tuple[str, ...], task_state: str | None) -> dict[str, Any]:
        """The task's own ``storage_state`` file (WebArena names one per site combination, e.g.
        ``gitlab.reddit_state.json``) when it exists in the state folder, else the per-site
        files merged: merging would clash where two sites use one cookie name on one host.

        Raises:
            LoginStateError: the task must start logged in (``logged_in`` is not empty and it
                names a state) and neither its state nor the per-site states of the sites that
                state names are in the folder; an episode would otherwise run logged out.
        """
        if not logged_in:
            return {"cookies": [], "origins": []}
        folder = self._state_dir(logged_in[0])
        if task_state and (folder / Path(task_state).name).exists():
            return _read_state(folder / Path(task_state).name)
        needed = (sites_of_login_state(task_state) or logged_in) if task_state else ()
        cookies: list[dict[str, Any]] = []
        origins: list[dict[str, Any]] = []
        missing: list[Path] = []
        for site in dict.fromkeys((*needed, *logged_in)):
            path = self._state_dir(site) / login_state_name([site])
            if path.exists():
                state = _read_state(path)
                cookies.extend(state.get("cookies", []))
                origins.extend(state.get("origins", []))
            elif site in needed:
                missing.append(path)
        if missing:
            raise LoginStateError(_missing_state_message(task_state or "", needed, folder, missing))
        return {"cookies": cookies, "origins": origins}

    def close(self) -> None:
        if self.leases is not None:
            self.lease = None
            self.leases.close()


def start_page_error(start_url: str, final_url: str, status: int, status_text: str, site: str | None) -> str:
    """What a start page that answered an error status means, and where to look.

    >>> print(start_page_error("http://h:7770/x", "http://h:7770/x", 404, "Not Found", "shopping"))
    The start page http://h:7770/x answered HTTP 404 Not Found; ... `webarena-gym sites status shopping`...
    """
    landed = f" (redirected to {final_url})" if final_url.rstrip("/") != start_url.rstrip("/") else ""
    reason = f"{status} {status_text}".strip()
    if site is None:
        return (f"The start page {start_url}{landed} answered HTTP {reason}; an episode would run on an error page. "
                "Is the site up, and does the task's URL point at it?")
    return (
        f"The start page {start_url}{landed} answered HTTP {reason}; an episode would run on an error page. Is "
        f"the {site} site up and configured for this URL? Check `webarena-gym sites status {site}`, that "
        f"{SITE_VARIABLES[site]} is the site's base URL (`webarena-gym sites env` prints it), and that the "
        f"site was configured for this host (`webarena-gym sites configure {site}`)."
    )


def _read_state(path: Path) -> dict[str, Any]:
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LoginStateError(
            f"The saved login state {path.resolve()} is not readable JSON ({exc}). Save it again with "
            f"`webarena-gym sites login --force --auth-dir {shlex.quote(str(path.parent.resolve()))}`."
        ) from exc
    if not isinstance(state, dict):
        raise LoginStateError(
            f"The saved login state {path.resolve()} must hold a Playwright storage state (a JSON object with "
            f"cookies and origins), got {type(state).__name__}. Save it again with `webarena-gym sites login --force`."
        )
    return state


def _missing_state_message(task_state: str, sites: tuple[str, ...], folder: Path, missing: list[Path]) -> str:
    folder = folder.resolve()
    looked = [folder / Path(task_state).name] if task_state else []
    looked = list(dict.fromkeys([*looked, *(path.resolve() for path in missing)]))  # a one-site task's two are one
    return (
        f"The task starts logged in on {', '.join(sites)}, and its saved login state is missing: no "
        f"{' nor '.join(map(str, looked))}. Save them with "
        f"`webarena-gym sites login {' '.join(sites)} --auth-dir {shlex.quote(str(folder))}` once the sites "
        "are up, or set WA_AUTH_DIR to the folder that holds them."
    )


def _cookie(name: str, value: str, host: str | None) -> dict[str, Any]:
    return {"name": name, "value": value, "domain": host or "127.0.0.1", "path": "/"}
