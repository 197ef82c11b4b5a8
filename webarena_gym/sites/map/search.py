"""Finding places: free-text search, "<what> near <place>" search, and location resolving.

Shared by the views and by the map's task families, so task references are computed
with exactly the rules the site applies.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from urllib.parse import quote

from .gazetteer import BOUNDS
from .geo import haversine_m
from .routing import Endpoint, Graph, nearest_node

PLACE_COLUMNS = (
    "p.*, c.label AS category_label, c.plural AS category_plural, n.name AS neighborhood"
    " FROM places p JOIN categories c ON c.slug = p.category JOIN neighborhoods n ON n.id = p.neighborhood_id"
)
_NEAR = re.compile(r"^(?P<what>.+?)\s+(?:near|around)\s+(?P<where>.+)$", re.IGNORECASE)
_COORDINATES = re.compile(r"^\s*(-?\d{1,3}(?:\.\d+)?)\s*[,;]\s*(-?\d{1,3}(?:\.\d+)?)\s*$")
#: How far outside the map's bounds typed coordinates may lie (degrees).
MARGIN = 0.02
_TOKEN = re.compile(r"[\w'&-]+")


def address(place: sqlite3.Row) -> str:
    """The postal address, e.g. ``5000 Forbes Avenue, Oakland, Pittsburgh, PA 15213``."""
    return f"{place['housenumber']} {place['street']}, {place['neighborhood']}, Pittsburgh, PA {place['zip']}"


def display_name(place: sqlite3.Row) -> str:
    """Name and address, the way the directions form shows a place."""
    return f"{place['name']}, {address(place)}"


def all_places(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    return conn.execute(f"SELECT {PLACE_COLUMNS} ORDER BY p.id").fetchall()


def get_place(conn: sqlite3.Connection, place_id: int) -> sqlite3.Row | None:
    return conn.execute(f"SELECT {PLACE_COLUMNS} WHERE p.id = ?", (place_id,)).fetchone()


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _haystack(place: sqlite3.Row) -> str:
    parts = (place["name"], place["alt_name"], place["category_label"], place["category_plural"],
             address(place), place["cuisine"])
    return " ".join(parts).lower()


def text_score(place: sqlite3.Row, query: str) -> int:
    """How well a place matches a free-text query: 0 (not at all) to 4 (its exact name)."""
    wanted = " ".join(tokens(query))
    if not wanted:
        return 0
    names = [" ".join(tokens(place["name"])), " ".join(tokens(place["alt_name"])), " ".join(tokens(display_name(place)))]
    if wanted in names:
        return 4
    if names[0].startswith(wanted):
        return 3
    words = tokens(query)
    if all(w in names[0] or w in names[1] for w in words):
        return 2
    hay = _haystack(place)
    return 1 if all(w in hay for w in words) else 0


def text_search(conn: sqlite3.Connection, query: str) -> list[sqlite3.Row]:
    """Places matching ``query``, best first (then by name and id)."""
    scored = [(text_score(p, query), p) for p in all_places(conn)]
    return [p for s, p in sorted(scored, key=lambda x: (-x[0], x[1]["name"], x[1]["id"])) if s > 0]


def find_place(conn: sqlite3.Connection, text: str) -> sqlite3.Row | None:
    """The place a person means by ``text``: an exact name first, else the best search hit."""
    hits = text_search(conn, text)
    return hits[0] if hits else None


def category_for(conn: sqlite3.Connection, text: str) -> sqlite3.Row | None:
    """The category named by ``text`` (slug, label or plural, any case)."""
    wanted = " ".join(tokens(text.replace("_", " ")))
    for row in conn.execute("SELECT * FROM categories ORDER BY position"):
        names = {" ".join(tokens(row["slug"].replace("_", " "))), row["label"].lower(), row["plural"].lower()}
        if wanted in names:
            return row
    return None


@dataclass
class NearSearch:
    """A resolved "<what> near <place>" query."""

    what: str
    anchor: sqlite3.Row
    category: sqlite3.Row | None
    results: list[tuple[sqlite3.Row, float]]  # (place, metres in a straight line), nearest first

    @property
    def subject(self) -> str:
        """What is searched for: the category's plural (``cafes``), else the words typed."""
        return self.category["plural"].lower() if self.category is not None else self.what


def parse_near(query: str) -> tuple[str, str] | None:
    match = _NEAR.match(query.strip())
    return (match["what"].strip(), match["where"].strip()) if match else None


def near_search(conn: sqlite3.Connection, query: str) -> NearSearch | None:
    """Resolve "cafes near Carnegie Mellon University"; None when it is not such a query."""
    parsed = parse_near(query)
    if parsed is None:
        return None
    what, where = parsed
    anchor = find_place(conn, where)
    if anchor is None:
        return None
    return nearby(conn, anchor, category_for(conn, what), what)


def nearby(conn: sqlite3.Connection, anchor: sqlite3.Row, category: sqlite3.Row | None, what: str = "") -> NearSearch:
    """Places around ``anchor`` (of a category, or matching ``what``), nearest first."""
    results = []
    for place in all_places(conn):
        if place["id"] == anchor["id"]:
            continue
        if category is not None and place["category"] != category["slug"]:
            continue
        if category is None and what and text_score(place, what) == 0:
            continue
        results.append((place, haversine_m(anchor["lat"], anchor["lon"], place["lat"], place["lon"])))
    results.sort(key=lambda r: (r[1], r[0]["id"]))
    return NearSearch(what, anchor, category, results)


def search_path(query: str) -> str:
    """The URL the real map's search box opens for the typed ``query``, e.g. ``/search?query=cafes%20near%20CMU``.

    Its script routes to ``"/search?query=" + encodeURIComponent(query)``, so the text stays as
    typed (case, words, spaces); the browser then writes ``'`` as ``%27`` in a query.

    >>> search_path("Rita's Café (Oakland)")
    '/search?query=Rita%27s%20Caf%C3%A9%20(Oakland)'
    """
    return "/search?query=" + quote(query, safe="!*()")


def near_search_path(subject: str, place_name: str) -> str:
    """The URL of the near search an agent types as ``<subject> near <place name>``."""
    return search_path(f"{subject} near {place_name}")


def place_endpoint(place: sqlite3.Row) -> Endpoint:
    return Endpoint(display_name(place), place["lat"], place["lon"], place["segment_id"], place["position"],
                    place_id=place["id"])


def resolve_location(conn: sqlite3.Connection, graph: Graph, text: str, engine: str) -> Endpoint | None:
    """What a directions field means: coordinates, a place's name or address, or a search."""
    match = _COORDINATES.match(text)
    if match:
        lat, lon = float(match[1]), float(match[2])
        south, west, north, east = BOUNDS
        if not (south - MARGIN <= lat <= north + MARGIN and west - MARGIN <= lon <= east + MARGIN):
            return None  # far off the map: nothing there to route to
        place = conn.execute(
            f"SELECT {PLACE_COLUMNS} WHERE abs(p.lat - ?) < 1e-6 AND abs(p.lon - ?) < 1e-6 ORDER BY p.id", (lat, lon)
        ).fetchone()
        if place is not None:
            return place_endpoint(place)
        node = nearest_node(graph, lat, lon, engine)
        return Endpoint(f"{lat:.5f}, {lon:.5f}", lat, lon, node_id=node)
    place = find_place(conn, text)
    return place_endpoint(place) if place is not None else None


def route_param(start: Endpoint, end: Endpoint) -> str:
    """OpenStreetMap's ``route`` query value: ``lat,lon;lat,lon`` (five decimals)."""
    return f"{start.lat:.5f},{start.lon:.5f};{end.lat:.5f},{end.lon:.5f}"


def directions_path(engine: str, start: Endpoint, end: Endpoint) -> str:
    """The canonical directions URL path, encoded the way OpenStreetMap's site does it."""
    return f"/directions?engine={engine}&route={quote(route_param(start, end), safe='')}"
