"""Directions: the From/To form and routes by car, bicycle or on foot.

As on OpenStreetMap, a submitted form (place names or addresses) is turned into the
canonical ``/directions?engine=...&route=lat,lon;lat,lon`` URL, which is what the
route page is served from, so routes can be linked and bookmarked.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, redirect, render_template, request

from ..webapp import db
from .routing import DEFAULT_ENGINE, ENGINE_IDS, Endpoint, find_route, load_graph
from .search import directions_path, resolve_location

bp = Blueprint("directions", __name__)

_ROUTE = re.compile(r"^\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*;\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*$")


@bp.get("/directions")
def directions() -> Any:
    conn = db()
    graph = load_graph(conn)
    engine = request.args.get("engine", DEFAULT_ENGINE)
    if engine not in ENGINE_IDS:
        engine = DEFAULT_ENGINE
    typed_from = request.args.get("route_from", "").strip()
    typed_to = request.args.get("route_to", "").strip()
    errors: list[str] = []
    start = end = None
    if typed_from and typed_to:
        start = resolve_location(conn, graph, typed_from, engine)
        end = resolve_location(conn, graph, typed_to, engine)
        if start is None:
            errors.append(f"Could not find '{typed_from}'.")
        if end is None:
            errors.append(f"Could not find '{typed_to}'.")
        if start is not None and end is not None:
            return redirect(directions_path(engine, start, end))
    elif "route" in request.args:
        start, end = _endpoints(conn, graph, request.args["route"], engine)
        if start is None or end is None:
            errors.append("The route in this link is not valid.")
        else:
            typed_from, typed_to = start.label, end.label
    elif "route_from" in request.args and "route_to" in request.args:
        errors.append("Enter both a start (From) and a destination (To).")
    route = None
    if start is not None and end is not None and not errors:
        route = find_route(graph, engine, start, end)
        if route is None:
            errors.append("No route found between these two places for this mode of travel.")
    reverse_url = directions_path(engine, end, start) if route is not None else None
    return render_template(
        "directions.html", engine=engine, route_from=typed_from, route_to=typed_to, route=route,
        errors=errors, reverse_url=reverse_url, start=start, end=end,
    )


def _endpoints(conn: Any, graph: Any, route: str, engine: str) -> tuple[Endpoint | None, Endpoint | None]:
    match = _ROUTE.match(route)
    if match is None:
        return None, None
    try:
        a, b, c, d = (float(x) for x in match.groups())
    except ValueError:  # "1.2.3" passes the pattern
        return None, None
    return (resolve_location(conn, graph, f"{a},{b}", engine), resolve_location(conn, graph, f"{c},{d}", engine))
