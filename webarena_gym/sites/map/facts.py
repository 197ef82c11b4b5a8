"""Facts about the seeded map that tasks ask for, computed with the site's own rules.

Task families call these on the pristine data to get reference answers (routes come
from the same Dijkstra the directions page runs, "nearest" from the same ordering the
near search shows), so a reference can never disagree with what the site displays.
"""

from __future__ import annotations

import random
import sqlite3
from collections import Counter

from .routing import Route, find_route, load_graph
from .search import all_places, nearby, place_endpoint, tokens

WALK = "fossgis_osrm_foot"


def readable(conn: sqlite3.Connection) -> sqlite3.Connection:
    """A private copy of a map database whose rows are :class:`sqlite3.Row` (the pristine one gives tuples)."""
    copy = sqlite3.connect(":memory:")
    conn.backup(copy)
    copy.row_factory = sqlite3.Row
    return copy


def unique_places(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """Places a name alone identifies: the name is not shared and searching it finds this place first."""
    places = all_places(conn)
    # Searching a name ranks first the places whose name or alternative name equals it
    # (see search.text_score), so a name is enough when nobody else has it as either.
    counts = Counter(" ".join(tokens(p["name"])) for p in places)
    counts.update(" ".join(tokens(p["alt_name"])) for p in places if p["alt_name"])
    return [p for p in places if counts[" ".join(tokens(p["name"]))] == 1]


def route(conn: sqlite3.Connection, engine: str, start: sqlite3.Row, end: sqlite3.Row) -> Route:
    """The route the directions page shows between two places."""
    found = find_route(load_graph(conn), engine, place_endpoint(start), place_endpoint(end))
    if found is None:
        raise LookupError(f"no {engine} route from {start['name']} to {end['name']}")
    return found


def clear_nearest(conn: sqlite3.Connection, anchor: sqlite3.Row, category: str, margin: float = 1.2) -> sqlite3.Row | None:
    """The nearest place of a category when "nearest" cannot be read two ways.

    The near search orders by straight-line distance; this returns its first result
    only when the second is at least ``margin`` times as far and no other of the five
    nearest is closer on foot, so walkers and map readers agree. Else None.
    """
    row = conn.execute("SELECT * FROM categories WHERE slug = ?", (category,)).fetchone()
    results = nearby(conn, anchor, row).results
    if len(results) < 2 or results[1][1] < margin * results[0][1]:
        return None
    walks = [route(conn, WALK, anchor, place).distance_m for place, _m in results[:5]]
    if min(walks) != walks[0] or sorted(walks)[1] < walks[0] * 1.05:
        return None
    return results[0][0]


def places_with_one_open_note(conn: sqlite3.Connection) -> list[tuple[sqlite3.Row, sqlite3.Row]]:
    """(place, note) for uniquely named places with exactly one unresolved note."""
    pairs = []
    for place in unique_places(conn):
        notes = conn.execute("SELECT * FROM notes WHERE place_id = ? AND status = 'open'", (place["id"],)).fetchall()
        if len(notes) == 1:
            pairs.append((place, notes[0]))
    return pairs


def place_columns(conn: sqlite3.Connection) -> set[str]:
    """What the map records about places (tasks asking for anything else are unanswerable)."""
    return {row[1] for row in conn.execute("PRAGMA table_info(places)")}


# -- picking task instances (fixed seeds, so the same data always gives the same picks) --
def sample_places(conn: sqlite3.Connection, seed: int, count: int) -> list[sqlite3.Row]:
    """``count`` uniquely named places, at most two per category."""
    places = unique_places(conn)
    random.Random(seed).shuffle(places)
    picked, per_category = [], Counter()
    for place in places:
        if per_category[place["category"]] < 2:
            per_category[place["category"]] += 1
            picked.append(place)
    return picked[:count]


def place_pairs(conn: sqlite3.Connection, seed: int, count: int, low: float = 800, high: float = 7000) -> list[tuple]:
    """``count`` distinct (start, end) pairs of unique places ``low`` to ``high`` metres apart on foot."""
    places = unique_places(conn)
    rng = random.Random(seed)
    pairs: list[tuple] = []
    seen = set()
    while len(pairs) < count:
        a, b = rng.sample(places, 2)
        if (a["id"], b["id"]) in seen:
            continue
        seen.add((a["id"], b["id"]))
        if low <= route(conn, WALK, a, b).distance_m <= high:
            pairs.append((a, b))
    return pairs


def nearest_cases(conn: sqlite3.Connection, categories: tuple[str, ...], seed: int, count: int) -> list[tuple]:
    """``count`` (anchor, category row, nearest place) triples where the nearest is clear."""
    anchors = unique_places(conn)
    random.Random(seed).shuffle(anchors)
    cases = []
    for i, anchor in enumerate(anchors):
        slug = categories[i % len(categories)]
        if anchor["category"] == slug:
            continue
        nearest = clear_nearest(conn, anchor, slug)
        if nearest is not None:
            category = conn.execute("SELECT * FROM categories WHERE slug = ?", (slug,)).fetchone()
            cases.append((anchor, category, nearest))
        if len(cases) == count:
            break
    return cases
