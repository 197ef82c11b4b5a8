"""WebArena-Lite's own map templates: times by one or more modes, several legs, orders, nearby candidates.

Each reference is computed with the site's routing and near search (:mod:`..facts`), and
an instance is kept only when the answer cannot be read two ways: a clear nearest place,
a clear best order, no hotel on the edge of a time limit. Durations add up as a person
adds what the page shows: whole minutes per leg.
"""

from __future__ import annotations

import html
import math
import random
import re
import sqlite3
from itertools import permutations
from typing import TYPE_CHECKING

from ....tasks.families import TaskFamily
from .. import facts
from ..geo import format_duration, haversine_m
from ..search import PLACE_COLUMNS
from .common import (
    ENGINE,
    answer,
    driving_and_walking_solve,
    family,
    first_result,
    get_directions,
    read,
    route_summary,
)

if TYPE_CHECKING:
    pass

CAR, BIKE, WALK = ENGINE["car"][0], ENGINE["bike"][0], facts.WALK
#: Walking speed of the map's footways (km/h): no walk is faster than a straight line at this speed.
WALK_KMH = 5.0


def minutes(duration: str) -> int:
    """Whole minutes of a duration as the site writes it (``7 min``, ``1h 05min``)."""
    match = re.fullmatch(r"(?:(\d+)h )?(\d+) ?min", duration.strip())
    if match is None:
        raise ValueError(f"not a duration: {duration!r}")
    return int(match.group(1) or 0) * 60 + int(match.group(2))


def shown_minutes(conn: sqlite3.Connection, engine: str, a: sqlite3.Row, b: sqlite3.Row) -> int:
    """The minutes the directions page shows for a route."""
    return minutes(facts.route(conn, engine, a, b).duration)


# -- one route, one mode -------------------------------------------------------------------
def _walk_time_instances(conn):
    for a, b in facts.place_pairs(conn, 31, 14, low=400, high=4000):
        yield {"start": a["name"], "end": b["name"]}, answer(fuzzy_match=[facts.route(conn, WALK, a, b).duration])


def _walk_time_solve(ctx):
    yield from get_directions(ctx, "foot", ctx.instantiation["start"], ctx.instantiation["end"])
    yield ctx.exit(route_summary(ctx)[1])


def _car_time_instances(conn):
    for a, b in facts.place_pairs(conn, 32, 14, low=1500, high=9000):
        yield {"location1": a["name"], "location2": b["name"]}, answer(
            fuzzy_match=[facts.route(conn, CAR, a, b).duration])


def _car_time_solve(ctx):
    yield from get_directions(ctx, "car", ctx.instantiation["location1"], ctx.instantiation["location2"])
    yield ctx.exit(route_summary(ctx)[1])


def _hotels(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    return [p for p in facts.unique_places(conn) if p["category"] == "hotel"]


def _hotel_drive_instances(conn):
    hotels = _hotels(conn)
    sights = [p for p in facts.unique_places(conn) if p["category"] in ("museum", "stadium", "attraction", "park",
                                                                         "university", "theatre")]
    rng = random.Random(33)
    seen = set()
    while len(seen) < 14:
        hotel, sight = rng.choice(hotels), rng.choice(sights)
        if (hotel["id"], sight["id"]) in seen or facts.route(conn, WALK, hotel, sight).distance_m < 1200:
            continue
        seen.add((hotel["id"], sight["id"]))
        yield {"hotel": hotel["name"], "place": sight["name"]}, answer(
            fuzzy_match=[facts.route(conn, CAR, hotel, sight).duration])


def _hotel_drive_solve(ctx):
    yield from get_directions(ctx, "car", ctx.instantiation["hotel"], ctx.instantiation["place"])
    yield ctx.exit(route_summary(ctx)[1])


# -- two modes, or two legs ------------------------------------------------------------------
def _difference_instances(conn):
    for a, b in facts.place_pairs(conn, 34, 12, low=1000, high=6000):
        car, foot = (facts.route(conn, engine, a, b).duration for engine in (CAR, WALK))
        yield {"start": a["name"], "end": b["name"]}, answer(fuzzy_match=[f"driving: {car}", f"walking: {foot}"])


def _walk_then_drive_instances(conn):
    places = facts.unique_places(conn)
    rng = random.Random(35)
    seen = set()
    while len(seen) < 12:
        a, b, c = rng.sample(places, 3)
        walk = facts.route(conn, WALK, a, b)
        if (a["id"], b["id"], c["id"]) in seen or not 300 <= walk.distance_m <= 2500:
            continue
        if facts.route(conn, WALK, b, c).distance_m < 1500:
            continue
        seen.add((a["id"], b["id"], c["id"]))
        total = minutes(walk.duration) + shown_minutes(conn, CAR, b, c)
        yield {"place_A": a["name"], "place_B": b["name"], "place_C": c["name"]}, answer(
            fuzzy_match=[format_duration(total * 60)])


def _walk_then_drive_solve(ctx):
    values = ctx.instantiation
    yield from get_directions(ctx, "foot", values["place_A"], values["place_B"])
    walk = minutes(route_summary(ctx)[1])
    yield from get_directions(ctx, "car", values["place_B"], values["place_C"])
    yield ctx.exit(format_duration((walk + minutes(route_summary(ctx)[1])) * 60))


def _all_modes_instances(conn):
    """From CMU (the template names it) to the clearly nearest place of a kind, by the three modes."""
    cmu = conn.execute(f"SELECT {PLACE_COLUMNS} WHERE p.name = 'Carnegie Mellon University'").fetchone()
    for category in conn.execute("SELECT * FROM categories WHERE slug NOT IN ('university', 'station')"
                                 " ORDER BY position"):
        nearest = facts.clear_nearest(conn, cmu, category["slug"])
        if nearest is None:
            continue
        times = {mode: facts.route(conn, engine, cmu, nearest).duration
                 for mode, engine in (("Walk", WALK), ("Drive", CAR), ("Bike", BIKE))}
        yield {"location": category["label"].lower()}, answer(
            fuzzy_match=[f"{mode}: {time}" for mode, time in times.items()])


def _all_modes_solve(ctx):
    yield ctx.search("Search", f"{ctx.instantiation['location']} near Carnegie Mellon University")
    yield ctx.click_element(ctx.page.element(first_result(ctx)))
    yield ctx.click("Directions to here", tag="a")
    times = {}
    for label, mode in (("Walk", "foot"), ("Drive", "car"), ("Bike", "bike")):
        yield ctx.select("Mode of travel", ENGINE[mode][1])
        yield ctx.type("From", "Carnegie Mellon University")
        yield ctx.click("Get directions", tag="button")
        times[label] = route_summary(ctx)[1]
    yield ctx.exit(", ".join(f"{label}: {time}" for label, time in times.items()))


# -- the nearest of a kind -------------------------------------------------------------------
_KINDS = ("cafe", "pharmacy", "bank", "supermarket", "bar", "restaurant", "bakery", "bookstore")


def _closest_instances(conn):
    for anchor, category, nearest in facts.nearest_cases(conn, _KINDS, 36, 14):
        yield {"place1": category["label"].lower(), "place2": anchor["name"]}, answer(must_include=[nearest["name"]])


def _closest_solve(ctx):
    values = ctx.instantiation
    yield ctx.search("Search", f"{values['place1']} near {values['place2']}")
    yield ctx.exit(ctx.page.element(first_result(ctx)).text)


def _nearest_within_instances(conn):
    for i, (anchor, category, nearest) in enumerate(facts.nearest_cases(conn, _KINDS[::-1], 37, 14)):
        if i % 2:
            limit = 5 * math.ceil((shown_minutes(conn, WALK, anchor, nearest) + 1) / 5)
            condition = f"I can walk within {limit}mins"
        else:
            limit = 5 * math.ceil((shown_minutes(conn, CAR, anchor, nearest) + 1) / 5)
            condition = f"I can drive within {limit}mins"
        place = conn.execute(f"SELECT {PLACE_COLUMNS} WHERE p.id = ?", (nearest["id"],)).fetchone()
        yield ({"location": category["label"].lower(), "location2": anchor["name"], "condition": condition},
               answer(fuzzy_match=[nearest["name"], place["housenumber"], place["street"], place["neighborhood"],
                                   "Pittsburgh"]))


def _nearest_within_solve(ctx):
    values = ctx.instantiation
    yield ctx.search("Search", f"{values['location']} near {values['location2']}")
    first = ctx.page.element(first_result(ctx))
    name = first.text
    yield ctx.click_element(first)
    where = read(ctx, r"Address (.+?, PA \d{5})").group(1)
    yield ctx.exit(f"{name}, {where}")


# -- several candidates or stops -----------------------------------------------------------
def hotels_within(conn: sqlite3.Connection, place: sqlite3.Row, limit: int) -> list[tuple[sqlite3.Row, str, int]] | None:
    """(hotel, walking distance, minutes) of the hotels at most ``limit`` minutes' walk away, nearest first;
    None when a hotel takes ``limit`` +- 1 minutes (a judgement call)."""
    found = []
    for hotel in _hotels(conn):
        if haversine_m(place["lat"], place["lon"], hotel["lat"], hotel["lon"]) > limit * WALK_KMH * 1000 / 60 + 50:
            continue
        walk = facts.route(conn, WALK, hotel, place)
        shown = minutes(walk.duration)
        if abs(shown - limit) <= 1:
            return None
        if shown < limit:
            found.append((hotel, walk.distance, shown))
    return sorted(found, key=lambda f: f[2])


def _hotels_walk_instances(conn):
    places = [p for p in facts.unique_places(conn) if p["category"] != "hotel"]
    random.Random(38).shuffle(places)
    count = 0
    for i, place in enumerate(places):
        limit = (5, 10, 15)[i % 3]
        found = hotels_within(conn, place, limit)
        if not found or len(found) > 3:
            continue
        yield {"location": place["name"], "n": str(limit)}, answer(
            fuzzy_match=[f"{hotel['name']}: {distance}" for hotel, distance, _m in found])
        count += 1
        if count == 12:
            return


def _hotels_walk_solve(ctx):
    values = ctx.instantiation
    limit = int(values["n"])
    reach = limit * WALK_KMH * 1000 / 60 + 50
    yield ctx.search("Search", f"hotels near {values['location']}")
    candidates = []
    for name, shown in re.findall(r'<li><a id="\d+">([^<]+)</a> \(Hotel\)[^<]*? ([\d.]+k?m) away', ctx.page.text):
        metres = float(shown[:-2]) * 1000 if shown.endswith("km") else float(shown[:-1])
        if metres <= reach:
            candidates.append(html.unescape(name))
    found = []
    for hotel in candidates:
        yield from get_directions(ctx, "foot", hotel, values["location"])
        distance, duration = route_summary(ctx)
        if minutes(duration) < limit:
            found.append(f"{hotel}: {distance}")
    yield ctx.exit(", ".join(found))


def _best_order(conn, stops):
    """(order, total minutes) of the quickest car trip through ``stops`` starting at the first; None if close."""
    first, rest = stops[0], stops[1:]
    totals = []
    for order in permutations(rest):
        path = (first, *order)
        totals.append((sum(shown_minutes(conn, CAR, a, b) for a, b in zip(path, path[1:], strict=False)), path))
    totals.sort(key=lambda t: t[0])
    if totals[1][0] - totals[0][0] < 2:
        return None
    return totals[0][1]


def _order_instances(conn):
    places = [p for p in facts.unique_places(conn) if p["category"] in
              ("university", "museum", "park", "stadium", "attraction", "hospital", "hotel", "library", "theatre")]
    rng = random.Random(39)
    seen = set()
    while len(seen) < 12:
        stops = rng.sample(places, 3)
        key = tuple(p["id"] for p in stops)
        if key in seen:
            continue
        seen.add(key)
        best = _best_order(conn, stops)
        if best is None:
            seen.discard(key)
            continue
        listed = "[" + ", ".join(repr(p["name"]) for p in stops) + "]"
        yield {"place_list": listed}, answer(fuzzy_match=[", ".join(p["name"] for p in best)])


def _order_solve(ctx):
    import ast

    stops = ast.literal_eval(ctx.instantiation["place_list"])
    first, b, c = stops
    time = {}
    for a, z in ((first, b), (b, c), (first, c), (c, b)):
        yield from get_directions(ctx, "car", a, z)
        time[(a, z)] = minutes(route_summary(ctx)[1])
    order = (first, b, c) if time[(first, b)] + time[(b, c)] < time[(first, c)] + time[(c, b)] else (first, c, b)
    yield ctx.exit("The order is " + ", ".join(order))


# -- a hotel near where one arrives, and what is near the hotel -----------------------------
#: Hotel brands a traveller asks for (the first words of the map's hotel names).
BRANDS = ("Wyndham", "Hilton", "Residence Inn", "Hampton Inn", "Omni", "Fairmont", "Kimpton", "Holiday Inn",
          "Renaissance", "SpringHill Suites", "Courtyard", "Hotel Indigo")
_ERRANDS = ("supermarket", "pharmacy", "cafe", "bank")
_INFORMATION = {"shortest walking distance": 0, "walking time": 1}


def _arrival_instances(conn):
    anchors = [p for p in facts.unique_places(conn) if p["category"] in
               ("station", "university", "stadium", "museum", "hospital", "attraction", "theatre")]
    random.Random(42).shuffle(anchors)
    count = 0
    for i, anchor in enumerate(anchors):
        hotel = facts.clear_nearest(conn, anchor, "hotel")
        brand = next((b for b in BRANDS if hotel is not None and hotel["name"].startswith(b)), None)
        if brand is None:
            continue
        errand = conn.execute("SELECT * FROM categories WHERE slug = ?", (_ERRANDS[i % len(_ERRANDS)],)).fetchone()
        target = facts.clear_nearest(conn, hotel, errand["slug"])
        if target is None:
            continue
        information = tuple(_INFORMATION)[count % 2]
        walk = facts.route(conn, WALK, hotel, target)
        yield ({"place": anchor["name"], "target1": f"{brand} hotel", "information": information,
                "target2": f"a {errand['label'].lower()}"},
               answer(fuzzy_match=[hotel["name"], (walk.distance, walk.duration)[_INFORMATION[information]]]))
        count += 1
        if count == 14:
            return


def _arrival_solve(ctx):
    values = ctx.instantiation
    yield ctx.search("Search", f"hotels near {values['place']}")
    hotel = ctx.page.element(first_result(ctx)).text
    errand = values["target2"].removeprefix("a ")
    yield ctx.search("Search", f"{errand} near {hotel}")
    yield ctx.click_element(ctx.page.element(first_result(ctx)))
    yield ctx.click("Directions to here", tag="a")
    yield ctx.select("Mode of travel", ENGINE["foot"][1])
    yield ctx.type("From", hotel)
    yield ctx.click("Get directions", tag="button")
    summary = route_summary(ctx)[_INFORMATION[values["information"]]]
    yield ctx.exit(f"{hotel}; {summary}")


def _within_hour_instances(conn):
    kinds = ("police", "fire_station", "hospital", "post_office", "library", "school")
    for anchor, category, nearest in facts.nearest_cases(conn, kinds, 43, 12):
        drive = shown_minutes(conn, CAR, anchor, nearest)
        yield ({"place": category["label"].lower(), "location": anchor["name"]},
               answer(fuzzy_match=["Yes" if drive <= 60 else "No"]))


def _within_hour_solve(ctx):
    values = ctx.instantiation
    yield ctx.search("Search", f"{values['place']} near {values['location']}")
    yield ctx.click_element(ctx.page.element(first_result(ctx)))
    yield ctx.click("Directions to here", tag="a")
    yield ctx.select("Mode of travel", ENGINE["car"][1])
    yield ctx.type("From", values["location"])
    yield ctx.click("Get directions", tag="button")
    drive = minutes(route_summary(ctx)[1])
    yield ctx.exit(f"Yes, it takes {drive} min by car." if drive <= 60 else f"No, it takes {drive} min by car.")


FAMILIES: list[TaskFamily] = [
    family("walk_time", "How long does it take to walk from {{start}} to {{end}}?", "information",
           _walk_time_instances, _walk_time_solve),
    family("closest", "Tell me the closest {{place1}}(s) to {{place2}}", "information",
           _closest_instances, _closest_solve),
    family("car_time", "What is the minimum travel time by car from {{location1}} to {{location2}}?", "information",
           _car_time_instances, _car_time_solve),
    family("hotel_drive", "From my stay at {{hotel}}, what's the estimated driving time to reach {{place}}?",
           "information", _hotel_drive_instances, _hotel_drive_solve),
    family("compare_difference", "Compare the difference in time for walking and driving route from {{start}} to "
           "{{end}}", "information", _difference_instances, driving_and_walking_solve),
    family("walk_then_drive", "What is the duration required to first walk from {{place_A}} to {{place_B}}, and then "
           "drive to {{place_C}}?", "information", _walk_then_drive_instances, _walk_then_drive_solve),
    family("nearest_all_modes", "I am at CMU Pittsburgh, how long it takes to the nearest {{location}} with different "
           "transportation methods?", "information", _all_modes_instances, _all_modes_solve),
    family("nearest_within", "Where is the nearest {{location}} from {{location2}} {{condition}}", "information",
           _nearest_within_instances, _nearest_within_solve),
    family("hotels_walk", "Show me the walking distance from nearby hotels to {{location}} that take at most {{n}} "
           "minutes?", "information", _hotels_walk_instances, _hotels_walk_solve),
    family("best_order", "Given the following locations, {{place_list}}, what would be the optimal route to travel "
           "through them all in order to minimize total travel time? Please note the journey begins at the first "
           "place listed.", "information", _order_instances, _order_solve),
    family("hotel_errand", "I will arrive {{place}} soon. Provide the name of a {{target1}} in the vicinity, if "
           "available. Then, tell me the {{information}} to {{target2}} from the hotel.", "information",
           _arrival_instances, _arrival_solve),
    family("within_hour", "Check if the {{place}} in pittsburgh can be reached in one hour by car from {{location}}",
           "information", _within_hour_instances, _within_hour_solve),
]
