"""WebArena's seven sites: their names, ports and base paths, the ``WA_*`` variables that
point at the real ones, and how a task's sites group.

The one owner of these facts: the embedded sites serve on these ports, the docker
deployment publishes them, task data names these sites in its placeholders
(``__SHOPPING__``...), and the backends and evaluators read the real sites' URLs through
:func:`site_urls_from_environment`.

>>> default_base_url("shopping_admin")
'http://127.0.0.1:7780/admin'
>>> site_group(["gitlab", "reddit"]), site_group(("map",))
('multisite', 'map')
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .errors import ConfigurationError


@dataclass(frozen=True)
class Site:
    """One entry of :data:`SITES`.

    Attributes:
        port: The port WebArena serves the site on (the embedded site serves there too).
        path: The base URL's path (``/admin`` for the store admin), "" for none.
        embedded: Whether this package has the site: the folder ``webarena_gym/sites/<name>/`` holds its
            app, data, templates and task families.
    """

    port: int
    path: str = ""
    embedded: bool = True


#: The one registry of sites, in the order the suite lists them: BrowserGym's and WebArena's names, WebArena's
#: ports. Every other table of sites is derived from it (addresses, ``WA_*`` variables, placeholders, the
#: embedded sites and their task families), so adding an embedded site is its folder plus one line here.
SITES: dict[str, Site] = {
    "shopping": Site(7770),
    "shopping_admin": Site(7780, "/admin"),
    "reddit": Site(9999),
    "gitlab": Site(8023),
    "map": Site(3000),
    "wikipedia": Site(8888),
    "homepage": Site(4399),
}

#: Site name -> (WebArena's port, base path).
SITE_ADDRESSES: dict[str, tuple[int, str]] = {name: (site.port, site.path) for name, site in SITES.items()}
SITE_NAMES: tuple[str, ...] = tuple(SITES)

#: The sites this package embeds (each one a folder ``webarena_gym/sites/<name>/``).
EMBEDDED_SITES: tuple[str, ...] = tuple(name for name, site in SITES.items() if site.embedded)

#: Site name -> the variable naming a real site's base URL (BrowserGym's names).
SITE_VARIABLES: dict[str, str] = {site: f"WA_{site.upper()}" for site in SITE_NAMES}

#: Site name -> the placeholder that stands for its base URL in task data.
PLACEHOLDERS: dict[str, str] = {site: f"__{site.upper()}__" for site in SITE_NAMES}

#: The group of a task that visits more than one site (WebArena-Lite counts them apart).
MULTISITE = "multisite"

#: How WebArena's tasks (and ``webarena-gym sites login``) name a saved login state: ``<site>[.<site>]_state.json``.
LOGIN_STATE_SUFFIX = "_state.json"


def site_group(sites: Iterable[str]) -> str:
    """The group a task's sites put it in: its one site, or :data:`MULTISITE`."""
    sites = list(sites)
    return sites[0] if len(sites) == 1 else MULTISITE


def login_state_name(sites: Iterable[str]) -> str:
    """WebArena's file name of the saved login state of some sites.

    >>> login_state_name(["shopping_admin", "gitlab"])
    'gitlab.shopping_admin_state.json'
    """
    return ".".join(sorted(sites)) + LOGIN_STATE_SUFFIX


def sites_of_login_state(name: str) -> tuple[str, ...] | None:
    """The sites a saved login state's file name logs in to, None for a name of another form.

    >>> sites_of_login_state("./.auth/gitlab.reddit_state.json"), sites_of_login_state("cookies.json")
    (('gitlab', 'reddit'), None)
    """
    base = name.replace("\\", "/").rpartition("/")[2]
    if not base.endswith(LOGIN_STATE_SUFFIX):
        return None
    sites = tuple(base[: -len(LOGIN_STATE_SUFFIX)].split("."))
    return sites if all(site in SITE_ADDRESSES for site in sites) else None


def default_base_url(site: str, host: str = "127.0.0.1") -> str:
    """Base URL of a site on WebArena's port, e.g. ``http://127.0.0.1:7780/admin``."""
    if site not in SITE_ADDRESSES:
        raise ConfigurationError(f"Unknown WebArena site {site!r}; expected one of {sorted(SITE_ADDRESSES)}.")
    port, path = SITE_ADDRESSES[site]
    return f"http://{host}:{port}{path}"


def site_urls_from_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Base URLs of the real WebArena sites that are configured, by site name.

    Reads ``WA_SHOPPING``, ``WA_SHOPPING_ADMIN``, ``WA_REDDIT``, ``WA_GITLAB``, ``WA_MAP``,
    ``WA_WIKIPEDIA``, ``WA_HOMEPAGE`` (BrowserGym's names), else the same names without
    ``WA_``. Unprefixed values that are not http(s) URLs are ignored: such generic names
    may belong to something else.

    >>> site_urls_from_environment({"WA_SHOPPING": "http://localhost:7770", "MAP": "x"})
    {'shopping': 'http://localhost:7770'}
    """
    env = os.environ if environ is None else environ
    found: dict[str, str] = {}
    for site in SITE_NAMES:
        prefixed = SITE_VARIABLES[site]
        value = (env.get(prefixed) or "").strip()
        if value:
            if not value.startswith(("http://", "https://")):
                port, path = SITE_ADDRESSES[site]
                raise ConfigurationError(
                    f"{prefixed}={value!r} is not a URL; set it to the site's base URL, e.g. "
                    f"{prefixed}=http://localhost:{port}{path}."
                )
            found[site] = value
            continue
        value = (env.get(site.upper()) or "").strip()
        if value.startswith(("http://", "https://")):
            found[site] = value
    return found
