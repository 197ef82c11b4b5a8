"""Embedded WebArena-shaped websites: store, store admin, forum, code host, map, homepage.

Each site is a Flask app in its own subpackage declaring a :class:`SiteSpec` named
``SITE``; its data lives in per-env :class:`World` objects.
"""

from __future__ import annotations

from .spec import DATA_SITES, SITE_MODULES, SiteSpec, app_for, default_base_url, get_site
from .world import World, WorldPool

__all__ = ["DATA_SITES", "SITE_MODULES", "SiteSpec", "World", "WorldPool", "app_for", "default_base_url", "get_site"]
