"""Task families of the embedded map (WebArena's OpenStreetMap tasks).

References come from the pristine data through :mod:`webarena_gym.sites.map.facts`,
which uses the site's own routing and search, so an answer is exactly what the site
shows. Instances are kept only when unambiguous: places a name alone identifies, a
clear nearest place, a clear winner between two.

The map has no accounts and little user content, so most families are string_match
and url_match as in WebArena; the map notes (OpenStreetMap's anonymous problem
reports) carry the content-changing program_html families. :mod:`.places` holds the
first families, :mod:`.trips` those over several legs, modes or candidates (WebArena-Lite's
own map templates).
"""

from __future__ import annotations

from collections.abc import Callable

from ....tasks.families import TaskFamily
from . import places, trips

FAMILIES: list[TaskFamily] = places.FAMILIES + trips.FAMILIES

#: The ``func:`` helpers this site's task data names, by name (the embedded suite registers them with the
#: evaluators when it loads).
FUNCTIONS: dict[str, Callable[..., str]] = dict(places.FUNCTIONS)
