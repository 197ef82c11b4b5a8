"""Schema and deterministic seed data of the map: a street graph, places and map notes.

The street network is a jittered grid (one named street per row and column) with a
few segments removed, one-way streets for cars, car-only expressways, and foot/bike
trails and foot-only city steps on diagonals, so that the best route depends on the
mode of travel. Places sit on street segments (so routes start and end on the street
in front of them) and get house numbers from their position along the street.
"""

from __future__ import annotations

import datetime as dt
import math
import random
import sqlite3
from itertools import pairwise

from . import gazetteer as gz
from .geo import haversine_m

SEED = 3000  # the map's port; any constant would do

SCHEMA = """
CREATE TABLE neighborhoods (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, zip TEXT NOT NULL,
    lat REAL NOT NULL, lon REAL NOT NULL);
CREATE TABLE categories (slug TEXT PRIMARY KEY, label TEXT NOT NULL, plural TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE nodes (id INTEGER PRIMARY KEY, lat REAL NOT NULL, lon REAL NOT NULL);
CREATE TABLE roads (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL);
CREATE TABLE segments (id INTEGER PRIMARY KEY, road_id INTEGER NOT NULL REFERENCES roads(id),
    from_node INTEGER NOT NULL REFERENCES nodes(id), to_node INTEGER NOT NULL REFERENCES nodes(id),
    length_m REAL NOT NULL, car_kmh REAL NOT NULL, bike_kmh REAL NOT NULL, foot_kmh REAL NOT NULL,
    car_oneway INTEGER NOT NULL DEFAULT 0);
CREATE TABLE places (id INTEGER PRIMARY KEY, name TEXT NOT NULL, alt_name TEXT NOT NULL DEFAULT '',
    category TEXT NOT NULL REFERENCES categories(slug), housenumber TEXT NOT NULL, street TEXT NOT NULL,
    neighborhood_id INTEGER NOT NULL REFERENCES neighborhoods(id), zip TEXT NOT NULL,
    lat REAL NOT NULL, lon REAL NOT NULL, segment_id INTEGER NOT NULL REFERENCES segments(id),
    position REAL NOT NULL, opening_hours TEXT NOT NULL DEFAULT '', cuisine TEXT NOT NULL DEFAULT '');
CREATE TABLE notes (id INTEGER PRIMARY KEY, place_id INTEGER NOT NULL REFERENCES places(id),
    text TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
    created_at TEXT NOT NULL, closed_at TEXT);
CREATE TABLE note_comments (id INTEGER PRIMARY KEY, note_id INTEGER NOT NULL REFERENCES notes(id),
    author TEXT NOT NULL, action TEXT NOT NULL, text TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE INDEX places_category ON places(category);
CREATE INDEX segments_from ON segments(from_node);
CREATE INDEX notes_place ON notes(place_id);
CREATE INDEX comments_note ON note_comments(note_id);
"""

#: Where generated businesses cluster (neighbourhood name -> weight).
BUSINESS_WEIGHTS = {
    "Oakland": 6, "Shadyside": 4, "Squirrel Hill": 4, "Downtown": 4, "Lawrenceville": 3, "East Liberty": 3,
    "South Side": 3, "Strip District": 2, "Bloomfield": 2, "North Shore": 1, "Central Northside": 1,
    "Greenfield": 1, "Point Breeze": 1, "Polish Hill": 1, "Hill District": 1, "Bluff": 1, "Highland Park": 1,
}
#: Speeds in km/h by road kind: (car, bike, foot); car speeds are scaled down by traffic.
SPEEDS = {"avenue": (40.0, 16.0, 5.0), "street": (30.0, 15.0, 5.0), "trail": (0.0, 14.0, 5.0), "steps": (0.0, 0.0, 4.0)}
#: Length factor of winding paths relative to the straight line between their ends.
WINDING = {"trail": 1.05, "steps": 1.1, "highway": 1.02}


def build_database(conn: sqlite3.Connection) -> None:
    """Create the schema and the seed data (deterministic: one seeded generator)."""
    rng = random.Random(SEED)
    conn.executescript(SCHEMA)
    conn.executemany("INSERT INTO neighborhoods (name, zip, lat, lon) VALUES (?, ?, ?, ?)", gz.NEIGHBORHOODS)
    conn.executemany(
        "INSERT INTO categories (slug, label, plural, position) VALUES (?, ?, ?, ?)",
        [(slug, label, plural, i) for i, (slug, label, plural) in enumerate(gz.CATEGORIES)],
    )
    grid = _build_roads(conn, rng)
    _build_places(conn, rng, grid)
    _build_notes(conn, rng)


# -- roads -------------------------------------------------------------------------------
def _build_roads(conn: sqlite3.Connection, rng: random.Random) -> dict:
    """Nodes and segments; returns what place seeding needs about the grid."""
    south, west, north, east = gz.BOUNDS
    dlat, dlon = (north - south) / (gz.GRID_ROWS - 1), (east - west) / (gz.GRID_COLS - 1)
    node_id, coords = {}, {}
    for r in range(gz.GRID_ROWS):
        for c in range(gz.GRID_COLS):
            nid = r * gz.GRID_COLS + c + 1
            lat = south + r * dlat + rng.uniform(-0.18, 0.18) * dlat
            lon = west + c * dlon + rng.uniform(-0.18, 0.18) * dlon
            node_id[(r, c)], coords[nid] = nid, (round(lat, 6), round(lon, 6))
    conn.executemany("INSERT INTO nodes (id, lat, lon) VALUES (?, ?, ?)", [(n, *ll) for n, ll in coords.items()])

    roads: dict[str, tuple[int, str]] = {}

    def road(name: str, kind: str) -> tuple[int, str]:
        if name not in roads:
            cur = conn.execute("INSERT INTO roads (name, kind) VALUES (?, ?)", (name, kind))
            roads[name] = (cur.lastrowid, kind)
        return roads[name]

    # Grid edges: (a, b, street name, kind, grid index of a along the street).
    edges = []
    for r, (name, kind) in enumerate(gz.ROW_STREETS):
        edges += [((r, c), (r, c + 1), name, kind, c) for c in range(gz.GRID_COLS - 1)]
    for c, (name, kind) in enumerate(gz.COLUMN_STREETS):
        edges += [((r, c), (r + 1, c), name, kind, r) for r in range(gz.GRID_ROWS - 1)]
    removable = [e for e in edges if e[3] != "trail" and min(e[0][0], e[1][0]) > 1]
    removed = set()
    for edge in rng.sample(removable, len(removable) // 12):
        kept = [e for e in edges if e[3] != "trail" and e not in removed and e is not edge]
        if _connected(kept, len(node_id)):
            removed.add(edge)
    edges = [e for e in edges if e not in removed]

    oneway = {}  # edge -> True when cars may only go from b to a
    for c in range(6, 17):
        oneway[((5, c), (5, c + 1))] = True  # Forbes Avenue runs west through Oakland
        oneway[((6, c), (6, c + 1))] = False  # Fifth Avenue runs east
    streets = [e for e in edges if e[3] == "street" and (e[0], e[1]) not in oneway]
    for edge in rng.sample(streets, 18):
        trial = {**oneway, (edge[0], edge[1]): rng.random() < 0.5}
        if _strongly_connected([e for e in edges if e[3] != "trail"], trial, len(node_id)):
            oneway = trial

    grid = {"segments": [], "coords": coords}
    rows = []
    for a, b, name, kind, index in edges:
        reverse = oneway.get((a, b))  # None: two-way for cars
        start, end = (b, a) if reverse else (a, b)
        car, bike, foot = SPEEDS[kind]
        car *= rng.uniform(0.65, 1.0)
        if kind == "avenue" and rng.random() < 0.3:
            bike = 19.0  # a painted bike lane
        length = haversine_m(*coords[node_id[start]], *coords[node_id[end]])
        rows.append((road(name, kind)[0], node_id[start], node_id[end], length, car, bike, foot, int(reverse is not None)))
        if kind != "trail":
            # Places need to know how house numbers grow along the segment.
            grid["segments"].append((len(rows), name, index, bool(reverse)))

    for name, axis, index, every, speed in gz.HIGHWAYS:
        rid = road(name, "highway")[0]
        stops = range(0, gz.GRID_COLS if axis == "row" else gz.GRID_ROWS, every)
        points = [node_id[(index, s) if axis == "row" else (s, index)] for s in stops]
        for p, q in pairwise(points):
            length = haversine_m(*coords[p], *coords[q]) * WINDING["highway"]
            rows.append((rid, p, q, length, speed, 0.0, 0.0, 0))

    cells = rng.sample([(r, c) for r in range(1, gz.GRID_ROWS - 3) for c in range(gz.GRID_COLS - 3)], 60)
    used: set[tuple[int, int]] = set()
    for name, kind, size in [(n, "trail", 3) for n in gz.TRAIL_NAMES] + [(n, "steps", 1) for n in gz.STEPS_NAMES]:
        for r, c in cells:
            diagonal = rng.choice([(1, 1), (1, -1)]) if c > 2 else (1, 1)
            path = [(r + i * diagonal[0], c + i * diagonal[1]) for i in range(size + 1)]
            if any(p in used for p in path):
                continue
            used.update(path)
            rid = road(name, kind)[0]
            _car, bike, foot = SPEEDS[kind]
            for p, q in pairwise(path):
                length = haversine_m(*coords[node_id[p]], *coords[node_id[q]]) * WINDING[kind]
                rows.append((rid, node_id[p], node_id[q], length, 0.0, bike, foot, 0))
            break
    conn.executemany(
        "INSERT INTO segments (id, road_id, from_node, to_node, length_m, car_kmh, bike_kmh, foot_kmh, car_oneway)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(i + 1, rid, p, q, round(length, 1), round(car, 1), bike, foot, ow)
         for i, (rid, p, q, length, car, bike, foot, ow) in enumerate(rows)],
    )
    return grid


def _connected(edges: list, node_count: int) -> bool:
    """Whether the undirected grid edges reach every node."""
    adjacency: dict = {}
    for a, b, *_ in edges:
        adjacency.setdefault(a, []).append(b)
        adjacency.setdefault(b, []).append(a)
    seen, stack = {(0, 0)}, [(0, 0)]
    while stack:
        for nxt in adjacency.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return len(seen) == node_count


def _strongly_connected(edges: list, oneway: dict, node_count: int) -> bool:
    """Whether cars can get from every node to every other with these one-way rules."""
    forward: dict = {}
    backward: dict = {}
    for edge in edges:
        a, b = edge[0], edge[1]
        direction = oneway.get((a, b))
        pairs = [(a, b), (b, a)] if direction is None else [(b, a) if direction else (a, b)]
        for p, q in pairs:
            forward.setdefault(p, []).append(q)
            backward.setdefault(q, []).append(p)
    for adjacency in (forward, backward):
        seen, stack = {(0, 0)}, [(0, 0)]
        while stack:
            for nxt in adjacency.get(stack.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        if len(seen) != node_count:
            return False
    return True


# -- places ------------------------------------------------------------------------------
def _place_specs(rng: random.Random) -> list[tuple[str, str, str, tuple[float, float] | None]]:
    """(name, category, alt name, target point or None for 'somewhere in a busy area')."""
    specs = [(name, cat, alt, (lat, lon)) for name, cat, lat, lon, alt in gz.LANDMARKS]
    for name, cat, count in gz.CHAINS:
        specs += [(name, cat, "", None)] * count
    taken = {s[0] for s in specs}
    for cat, (suffixes, count, cuisines) in gz.GENERATED.items():
        made = 0
        while made < count:
            k = rng.randrange(len(suffixes))
            name = f"{rng.choice(gz.NAME_PREFIXES)} {suffixes[k]}"
            if name not in taken:
                taken.add(name)
                specs.append((name, cat, cuisines[k] if cuisines else "", None))
                made += 1
    for name in rng.sample(gz.SCHOOL_NAMES, 10):
        specs.append((f"{name} {rng.choice(gz.SCHOOL_KINDS)}", "school", "", None))
    for saint in rng.sample(gz.SAINTS, 8):
        specs.append((f"{saint} {rng.choice(gz.CHURCH_KINDS)}", "place_of_worship", "", None))
    for hood in rng.sample([n[0] for n in gz.NEIGHBORHOODS], 8):
        specs.append((f"United States Postal Service - {hood}", "post_office", "", _centre(hood)))
    for zone in range(1, 6):
        specs.append((f"Pittsburgh Police Zone {zone} Station", "police", "", None))
    for number in sorted(rng.sample(range(2, 40), 6)):
        specs.append((f"Pittsburgh Fire Station {number}", "fire_station", "", None))
    return specs


def _centre(hood: str) -> tuple[float, float]:
    return next((lat, lon) for name, _zip, lat, lon in gz.NEIGHBORHOODS if name == hood)


def _build_places(conn: sqlite3.Connection, rng: random.Random, grid: dict) -> None:
    coords = grid["coords"]
    segments = []
    for seg_id, street, index, reverse in grid["segments"]:
        row = conn.execute("SELECT from_node, to_node FROM segments WHERE id = ?", (seg_id,)).fetchone()
        segments.append((seg_id, street, index, reverse, coords[row[0]], coords[row[1]]))
    hoods = conn.execute("SELECT id, name, zip, lat, lon FROM neighborhoods").fetchall()
    busy = [name for name in BUSINESS_WEIGHTS for _ in range(BUSINESS_WEIGHTS[name])]
    occupied: dict[int, list[float]] = {}
    rows = []
    for name, cat, extra, target in _place_specs(rng):
        if target is None:
            centre = _centre(rng.choice(busy))
            target = (centre[0] + rng.gauss(0, 0.004), centre[1] + rng.gauss(0, 0.005))
        seg, t = _free_spot(segments, occupied, target)
        seg_id, street, index, reverse, (lat1, lon1), (lat2, lon2) = seg
        side = rng.randrange(2)
        lat, lon = lat1 + t * (lat2 - lat1), lon1 + t * (lon2 - lon1)
        # Buildings stand about 15 m off the street's centre line, on either side.
        norm = math.hypot(lat2 - lat1, (lon2 - lon1) * 0.76) or 1.0
        offset = (15 / 111_320) * (1 if side else -1)
        lat += -(lon2 - lon1) * 0.76 / norm * offset
        lon += (lat2 - lat1) / norm * offset / 0.76
        along = index + (1 - t if reverse else t)
        housenumber = str(100 + 2 * int(along * 50) + side)
        hood = min(hoods, key=lambda h: haversine_m(lat, lon, h[3], h[4]))
        hours = ""
        if cat in gz.OPENING_HOURS and rng.random() < 0.8:
            hours = rng.choice(gz.OPENING_HOURS[cat])
        alt, cuisine = (extra, "") if cat not in ("restaurant", "cafe") else ("", extra)
        rows.append((name, alt, cat, housenumber, street, hood[0], hood[2], round(lat, 5), round(lon, 5),
                     seg_id, round(t, 4), hours, cuisine))
    conn.executemany(
        "INSERT INTO places (name, alt_name, category, housenumber, street, neighborhood_id, zip, lat, lon,"
        " segment_id, position, opening_hours, cuisine) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


def _free_spot(segments: list, occupied: dict[int, list[float]], target: tuple[float, float]) -> tuple:
    """The street spot nearest ``target`` at least 6% of a block away from other places."""

    def projection(seg: tuple) -> tuple[float, float]:
        (lat1, lon1), (lat2, lon2) = seg[4], seg[5]
        dx, dy = (lon2 - lon1) * 0.76, lat2 - lat1
        px, py = (target[1] - lon1) * 0.76, target[0] - lat1
        t = max(0.08, min(0.92, (px * dx + py * dy) / (dx * dx + dy * dy)))
        return math.hypot(px - t * dx, py - t * dy), t

    ranked = sorted(((projection(s), s) for s in segments), key=lambda x: x[0][0])
    for (_dist, t), seg in ranked:
        for candidate in (t, t + 0.07, t - 0.07, t + 0.14, t - 0.14, t + 0.21, t - 0.21):
            if 0.08 <= candidate <= 0.92 and all(abs(candidate - o) >= 0.06 for o in occupied.get(seg[0], [])):
                occupied.setdefault(seg[0], []).append(candidate)
                return seg, candidate
    raise RuntimeError("no free spot left on the street grid")


# -- notes -------------------------------------------------------------------------------
def _build_notes(conn: sqlite3.Connection, rng: random.Random) -> None:
    places = [row[0] for row in conn.execute("SELECT id FROM places ORDER BY id")]
    streets = [row[0] for row in conn.execute("SELECT name FROM roads WHERE kind IN ('avenue', 'street') ORDER BY id")]
    chosen = sorted(rng.sample(places, 46)) + sorted(rng.sample(places, 14))
    start = dt.datetime(2022, 1, 3, 8, 0)
    for place_id in chosen:
        created = start + dt.timedelta(minutes=rng.randrange(0, 430 * 24 * 60))
        text = rng.choice(gz.NOTE_TEMPLATES).format(
            street=rng.choice(streets), month=rng.choice(["January 2023", "March 2023", "April 2023"]),
            number=rng.randrange(100, 2400),
        )
        closed = rng.random() < 0.35
        stamp = created
        comments = [(rng.choice(gz.NOTE_AUTHORS), "opened", text, created)]
        for _ in range(rng.randrange(0, 3)):
            stamp += dt.timedelta(hours=rng.randrange(2, 400))
            comments.append((rng.choice(gz.NOTE_AUTHORS), "commented", rng.choice(gz.NOTE_COMMENTS), stamp))
        if closed:
            stamp += dt.timedelta(hours=rng.randrange(2, 400))
            comments.append((rng.choice(gz.NOTE_AUTHORS[1:]), "closed", "Thanks, updated the map.", stamp))
        cur = conn.execute(
            "INSERT INTO notes (place_id, text, status, created_at, closed_at) VALUES (?, ?, ?, ?, ?)",
            (place_id, text, "closed" if closed else "open", _stamp(created), _stamp(stamp) if closed else None),
        )
        conn.executemany(
            "INSERT INTO note_comments (note_id, author, action, text, created_at) VALUES (?, ?, ?, ?, ?)",
            [(cur.lastrowid, author, action, body, _stamp(when)) for author, action, body, when in comments],
        )


def _stamp(when: dt.datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M:%S")
