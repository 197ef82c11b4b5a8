"""Shortest-time routes on the map's street graph (Dijkstra), per mode of travel.

Modes are OpenStreetMap's routing engines: ``fossgis_osrm_car``, ``fossgis_osrm_bike``
and ``fossgis_osrm_foot``. A segment is usable by a mode when its speed for that mode
is positive; cars also respect one-way segments (drawn from ``from_node`` to
``to_node``). Places sit part-way along a segment, so a route leaves a place towards
either end of its segment (where the mode may go) and arrives likewise.
"""

from __future__ import annotations

import heapq
import sqlite3
from dataclasses import dataclass, field

from .geo import bearing_deg, format_distance, format_duration, haversine_m, turn_word

#: (engine id, option text, speed column) in the order OpenStreetMap's select lists them.
ENGINES = (
    ("fossgis_osrm_bike", "Bicycle (OSRM)", "bike_kmh"),
    ("fossgis_osrm_car", "Car (OSRM)", "car_kmh"),
    ("fossgis_osrm_foot", "Foot (OSRM)", "foot_kmh"),
)
ENGINE_IDS = tuple(e[0] for e in ENGINES)
DEFAULT_ENGINE = "fossgis_osrm_car"


@dataclass(frozen=True)
class Segment:
    id: int
    road: str
    from_node: int
    to_node: int
    length_m: float
    speeds: dict[str, float]  # engine id -> km/h (0: not allowed)
    car_oneway: bool

    def allows(self, engine: str, forward: bool) -> bool:
        """Whether ``engine`` may travel this segment from_node->to_node (forward) or back."""
        if self.speeds[engine] <= 0:
            return False
        return forward or not (engine == "fossgis_osrm_car" and self.car_oneway)

    def seconds(self, engine: str, metres: float) -> float:
        return metres / (self.speeds[engine] / 3.6)


@dataclass
class Graph:
    nodes: dict[int, tuple[float, float]]
    segments: dict[int, Segment]
    #: engine -> node -> [(next node, segment id)]
    adjacency: dict[str, dict[int, list[tuple[int, int]]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Endpoint:
    """Where a route starts or ends: a place on a segment, or a bare street node."""

    label: str
    lat: float
    lon: float
    segment_id: int | None = None
    position: float = 0.0
    node_id: int | None = None
    place_id: int | None = None


@dataclass
class Route:
    engine: str
    distance_m: float
    seconds: float
    steps: list[tuple[str, str]]  # (instruction, distance text)

    @property
    def distance(self) -> str:
        return format_distance(self.distance_m)

    @property
    def duration(self) -> str:
        return format_duration(self.seconds)


_GRAPHS: dict[tuple, Graph] = {}


def load_graph(conn: sqlite3.Connection) -> Graph:
    """The street graph of a map database (cached: streets are never edited)."""
    fingerprint = tuple(conn.execute("SELECT count(*), total(length_m), max(id) FROM segments").fetchone())
    graph = _GRAPHS.get(fingerprint)
    if graph is not None:
        return graph
    nodes = {row[0]: (row[1], row[2]) for row in conn.execute("SELECT id, lat, lon FROM nodes")}
    segments = {}
    for row in conn.execute(
        "SELECT s.id, r.name, from_node, to_node, length_m, car_kmh, bike_kmh, foot_kmh, car_oneway"
        " FROM segments s JOIN roads r ON r.id = s.road_id ORDER BY s.id"
    ):
        speeds = {"fossgis_osrm_car": row[5], "fossgis_osrm_bike": row[6], "fossgis_osrm_foot": row[7]}
        segments[row[0]] = Segment(row[0], row[1], row[2], row[3], row[4], speeds, bool(row[8]))
    graph = Graph(nodes, segments)
    for engine in ENGINE_IDS:
        adjacency: dict[int, list[tuple[int, int]]] = {}
        for seg in segments.values():
            if seg.allows(engine, True):
                adjacency.setdefault(seg.from_node, []).append((seg.to_node, seg.id))
            if seg.allows(engine, False):
                adjacency.setdefault(seg.to_node, []).append((seg.from_node, seg.id))
        graph.adjacency[engine] = adjacency
    _GRAPHS[fingerprint] = graph
    return graph


def nearest_node(graph: Graph, lat: float, lon: float, engine: str) -> int:
    """The street node closest to a point that ``engine`` can use."""
    usable = graph.adjacency[engine]
    return min(usable, key=lambda n: (haversine_m(lat, lon, *graph.nodes[n]), n))


def find_route(graph: Graph, engine: str, start: Endpoint, end: Endpoint) -> Route | None:
    """The fastest route for ``engine`` from ``start`` to ``end``, or None when there is none."""
    # Legs are (segment id, metres, from point, to point); a path is a tuple of legs.
    frontier: list[tuple[float, int, int, tuple]] = []
    counter = 0
    best: dict[int, float] = {}
    for node, leg in _exits(graph, engine, start):
        cost = graph.segments[leg[0]].seconds(engine, leg[1]) if leg else 0.0
        counter += 1
        heapq.heappush(frontier, (cost, counter, node, (leg,) if leg else ()))
    arrivals = dict(_arrivals(graph, engine, end))
    finish: tuple[float, tuple] | None = None
    direct = _same_segment_leg(graph, engine, start, end)
    if direct is not None:
        finish = (graph.segments[direct[0]].seconds(engine, direct[1]), (direct,))
    while frontier:
        cost, _, node, path = heapq.heappop(frontier)
        if finish is not None and cost >= finish[0]:
            break
        if node in best:
            continue
        best[node] = cost
        if node in arrivals:
            leg = arrivals[node]
            total = cost + (graph.segments[leg[0]].seconds(engine, leg[1]) if leg else 0.0)
            if finish is None or total < finish[0]:
                finish = (total, path + ((leg,) if leg else ()))
        for nxt, seg_id in graph.adjacency[engine].get(node, ()):
            if nxt not in best:
                seg = graph.segments[seg_id]
                leg = (seg_id, seg.length_m, graph.nodes[node], graph.nodes[nxt])
                counter += 1
                heapq.heappush(frontier, (cost + seg.seconds(engine, seg.length_m), counter, nxt, path + (leg,)))
    if finish is None:
        return None
    seconds, legs = finish
    return Route(engine, sum(leg[1] for leg in legs), seconds, _steps(graph, legs, end.label))


def _point(graph: Graph, seg: Segment, position: float) -> tuple[float, float]:
    (lat1, lon1), (lat2, lon2) = graph.nodes[seg.from_node], graph.nodes[seg.to_node]
    return lat1 + position * (lat2 - lat1), lon1 + position * (lon2 - lon1)


def _exits(graph: Graph, engine: str, start: Endpoint) -> list[tuple[int, tuple | None]]:
    """(node, leg from the start to it) for each way out of the start."""
    if start.segment_id is None:
        return [(start.node_id, None)]
    seg, t = graph.segments[start.segment_id], start.position
    here = _point(graph, seg, t)
    ways = []
    if seg.allows(engine, True):
        ways.append((seg.to_node, (seg.id, (1 - t) * seg.length_m, here, graph.nodes[seg.to_node])))
    if seg.allows(engine, False):
        ways.append((seg.from_node, (seg.id, t * seg.length_m, here, graph.nodes[seg.from_node])))
    return ways


def _arrivals(graph: Graph, engine: str, end: Endpoint) -> list[tuple[int, tuple | None]]:
    """(node, leg from it to the end) for each way into the end."""
    if end.segment_id is None:
        return [(end.node_id, None)]
    seg, t = graph.segments[end.segment_id], end.position
    there = _point(graph, seg, t)
    ways = []
    if seg.allows(engine, True):
        ways.append((seg.from_node, (seg.id, t * seg.length_m, graph.nodes[seg.from_node], there)))
    if seg.allows(engine, False):
        ways.append((seg.to_node, (seg.id, (1 - t) * seg.length_m, graph.nodes[seg.to_node], there)))
    return ways


def _same_segment_leg(graph: Graph, engine: str, start: Endpoint, end: Endpoint) -> tuple | None:
    if start.segment_id is None or start.segment_id != end.segment_id:
        return None
    seg = graph.segments[start.segment_id]
    forward = end.position >= start.position
    if not seg.allows(engine, forward):
        return None
    here, there = _point(graph, seg, start.position), _point(graph, seg, end.position)
    return (seg.id, abs(end.position - start.position) * seg.length_m, here, there)


def _steps(graph: Graph, legs: tuple, destination: str) -> list[tuple[str, str]]:
    """Turn-by-turn instructions: consecutive legs on the same road merge into one step."""
    merged: list[list] = []  # [road, metres, first bearing, last bearing]
    for seg_id, metres, a, b in legs:
        if metres <= 0:
            continue
        road = graph.segments[seg_id].road
        heading = bearing_deg(*a, *b)
        if merged and merged[-1][0] == road:
            merged[-1][1] += metres
            merged[-1][3] = heading
        else:
            merged.append([road, metres, heading, heading])
    steps = []
    for i, (road, metres, first, _last) in enumerate(merged):
        if i == 0:
            instruction = f"Head {_compass(first)} on {road}"
        else:
            word = turn_word(merged[i - 1][3], first)
            instruction = f"{word} {'on' if word == 'Continue' else 'onto'} {road}"
        steps.append((instruction, format_distance(metres)))
    steps.append((f"Arrive at {destination}", ""))
    return steps


def _compass(bearing: float) -> str:
    return ("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest")[
        int((bearing + 22.5) % 360 // 45)
    ]
