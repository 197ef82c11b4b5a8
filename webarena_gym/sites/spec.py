"""What every embedded site declares about itself, and the registry of sites."""

from __future__ import annotations

import importlib
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from ..errors import ConfigurationError
from ..webarena_sites import EMBEDDED_SITES, SITE_ADDRESSES
from ..webarena_sites import default_base_url as webarena_base_url

if TYPE_CHECKING:
    from flask import Flask

#: Site name -> the package that defines its ``SITE``: ``webarena_gym.sites.<name>``, one for every embedded
#: site of :data:`webarena_gym.webarena_sites.SITES` (the one registry; names and ports are WebArena's).
SITE_MODULES: dict[str, str] = {name: f"{__package__}.{name}" for name in EMBEDDED_SITES}


@dataclass(frozen=True)
class SiteSpec:
    """One embedded web application.

    Attributes:
        name: WebArena's site name (``shopping``, ``shopping_admin``, ``reddit``, ...).
        title: Human-readable name shown on the homepage.
        create_app: Builds the site's Flask app (called once per process).
        build_database: Creates the schema and the deterministic seed data in an empty
            SQLite connection (None for sites without data). Like WebArena, the store and
            its admin are separate applications with separate data.
        login_path: Path of the login form, relative to the site root.
        default_user: WebArena's account for this site: (username, password), or None.
        source_files: Files whose content decides the seed data (for the on-disk cache key).
    """

    name: str
    title: str
    create_app: Callable[[], Flask]
    build_database: Callable[[sqlite3.Connection], None] | None = None
    login_path: str = "/login"
    default_user: tuple[str, str] | None = None
    source_files: tuple[str, ...] = field(default=())

    @property
    def default_port(self) -> int:
        """The port WebArena serves this site on."""
        return SITE_ADDRESSES[self.name][0]

    @property
    def url_prefix(self) -> str:
        """Path prefix of the site's base URL (``/admin`` for the store admin)."""
        return SITE_ADDRESSES[self.name][1]


@cache
def get_site(name: str) -> SiteSpec:
    """The :class:`SiteSpec` of an embedded site.

    >>> get_site("homepage").default_port
    4399
    """
    if name not in SITE_MODULES:
        raise ConfigurationError(
            f"Unknown embedded site {name!r}; expected one of {sorted(SITE_MODULES)}."
        )
    return importlib.import_module(SITE_MODULES[name]).SITE


@cache
def data_sites() -> tuple[str, ...]:
    """The embedded sites whose data lives in a database (those with a ``build_database``; the homepage is static).

    >>> data_sites()
    ('shopping', 'shopping_admin', 'reddit', 'gitlab', 'map', 'wikipedia')
    """
    return tuple(name for name in SITE_MODULES if get_site(name).build_database is not None)


_APPS: dict[str, Flask] = {}
_APPS_LOCK = threading.Lock()


def app_for(name: str) -> Flask:
    """The process-wide Flask app of a site (apps are stateless; worlds hold the data).

    Made once under a lock: threads that ask at once (episodes in flight, a threaded server) share one app,
    and no two build one together (werkzeug compiles each route with ``ast``, which CPython 3.11 does not
    make safe across threads).
    """
    with _APPS_LOCK:
        if name not in _APPS:
            _APPS[name] = get_site(name).create_app()
        return _APPS[name]


def default_base_url(name: str, host: str = "127.0.0.1") -> str:
    """Base URL of an embedded site on WebArena's port, e.g. ``http://127.0.0.1:7780/admin``."""
    if name not in SITE_MODULES:
        raise ConfigurationError(f"Unknown embedded site {name!r}; expected one of {sorted(SITE_MODULES)}.")
    return webarena_base_url(name, host)
