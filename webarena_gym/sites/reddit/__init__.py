"""The forum: a Postmill-shaped community like WebArena's reddit site (port 9999)."""

from __future__ import annotations

from ..spec import SiteSpec
from .app import create_app
from .data import DEFAULT_USER, build_database

SITE = SiteSpec(
    name="reddit",
    title="Reddit (Postmill forum)",
    create_app=create_app,
    build_database=build_database,
    login_path="/login",
    default_user=DEFAULT_USER,
)
