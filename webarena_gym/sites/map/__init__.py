"""The map: an OpenStreetMap-shaped site with places, search, directions and map notes.

Like WebArena's map it needs no login: anyone can search, ask for directions by car,
bicycle or on foot, and leave or resolve notes about places.
"""

from __future__ import annotations

from ..spec import SiteSpec
from .app import create_app
from .data import build_database

SITE = SiteSpec(
    name="map",
    title="OpenStreetMap",
    create_app=create_app,
    build_database=build_database,
    login_path="/login",
    default_user=None,
)
