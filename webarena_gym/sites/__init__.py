"""Embedded WebArena-shaped websites: store, store admin, forum, code host, map, homepage.

Each site is one folder, ``webarena_gym/sites/<name>/``: a Flask app declaring a :class:`SiteSpec` named
``SITE``, its seed data and templates, and (in ``families``) its task families, oracles and ``func:``
helpers. A site is registered by one line in :data:`webarena_gym.webarena_sites.SITES`; its data lives in
per-env :class:`World` objects.
"""

from __future__ import annotations

from .spec import SITE_MODULES, SiteSpec, app_for, data_sites, default_base_url, get_site
from .world import World, WorldPool

__all__ = ["SITE_MODULES", "SiteSpec", "World", "WorldPool", "app_for", "data_sites", "default_base_url", "get_site"]
