"""Families that look a fact up in the encyclopedia and act on it on the map (WebArena-Lite's wikipedia+map tasks).

The encyclopedia says which place a description means (the museum that opened in 1994,
the arena of the city's NHL team); the map then shows that place's page or a route to it.
Both checks are program_html on the last page, as in WebArena-Lite: the place page's
sidebar names the place (and its coordinates, which no search page shows), or the
directions form holds both ends and the car engine.
"""

from __future__ import annotations

import html
import re
import sqlite3
from collections.abc import Iterator

from ...sites.map import facts
from ...sites.map.families.common import ENGINE
from ...sites.map.geo import format_coordinates
from ...sites.wikipedia.articles import LISTS
from ...sites.wikipedia.data import year_of
from ...tasks.families import PristineData, TaskFamily, program_html_eval
from ...tasks.oracle import OracleContext, OracleError
from .common import family, rng_for, rows, switch_to, visit

SIDEBAR = "document.querySelector('[id=\"sidebar_content\"]').outerText"
ROUTE_FROM = "document.querySelector('[name=\"route_from\"]').value"
ROUTE_TO = "document.querySelector('[name=\"route_to\"]').value"
#: WebArena-Lite's check of the chosen engine: the second option of the real map's select (Car).
ENGINE_INDEX = 'document.querySelector("div#content select.routing_engines").selectedIndex'
#: What a description calls a place of each list (the list article's kinds).
NOUNS = {"university": "university", "museum": "museum", "park": "park", "stadium": "sports venue",
         "attraction": "landmark", "theatre": "concert hall"}
SEARCH_WIKI = "Search 'Wikipedia'"


def map_name(title: str) -> str:
    """The map's name of a place an article is about (the article title without its disambiguation)."""
    return re.sub(r" \([^)]*\)$", "", title)


def link_text(value: str) -> str:
    """An infobox value's text: ``[[A|b]]`` -> ``b``."""
    return re.sub(r"\[\[(?:[^\]|]+\|)?([^\]]+)\]\]", r"\1", value)


def _infobox(conn: sqlite3.Connection, kind: str) -> dict[str, dict[str, str]]:
    """Article title -> its infobox, for the articles of one kind."""
    boxes: dict[str, dict[str, str]] = {}
    for row in rows(conn, "SELECT a.title, i.label, i.value FROM articles a JOIN infobox i ON i.article_id = a.id"
                          " WHERE a.kind = ? ORDER BY a.id, i.position", kind):
        boxes.setdefault(row["title"], {})[row["label"]] = row["value"]
    return boxes


# -- the place a description means, on the map --------------------------------------------


def descriptions(wiki: sqlite3.Connection, places: dict[str, sqlite3.Row]) -> list[tuple[str, sqlite3.Row]]:
    """(description, map place) for every fact of a list that only one place of its kind has."""
    found = []
    for kind, (_title, year_label, _plural) in LISTS.items():
        boxes = {t: b for t, b in _infobox(wiki, kind).items() if map_name(t) in places}
        clues: dict[str, list[str]] = {}
        for title, box in boxes.items():
            year = year_of(box.get(year_label) or box.get("Opened") or box.get("Established", ""))
            verb = "was founded" if year_label == "Established" else "opened"
            clues.setdefault(f"that {verb} in {year}", []).append(title)
            for label, phrase in (("Founder", "founded by"), ("Named after", "named after")):
                if label in box:
                    clues.setdefault(f"{phrase} {link_text(box[label])}", []).append(title)
        for clue, titles in clues.items():
            if len(titles) == 1:
                found.append((f"the {NOUNS[kind]} in Pittsburgh {clue}", places[map_name(titles[0])]))
    return found


def _find_on_map(pristine: PristineData):
    places = {p["name"]: p for p in facts.unique_places(facts.readable(pristine("map")))}
    chosen = descriptions(pristine("wikipedia"), places)
    rng_for("find_on_map").shuffle(chosen)
    for description, place in chosen:
        coordinates = format_coordinates(place["lat"], place["lon"])
        yield {"description": description}, program_html_eval(
            ("last", SIDEBAR, {"must_include": [place["name"], coordinates]}))


def _open_list(ctx: OracleContext, title: str) -> Iterator[str]:
    yield ctx.search(SEARCH_WIKI, title)
    yield ctx.click(title, tag="a", exact=True)


def _table_rows(ctx: OracleContext) -> list[list[str]]:
    """The cells' text of every row of the page's tables."""
    return [[html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td>(.*?)</td>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", ctx.page.text, re.S)]


def _solve_find_on_map(ctx: OracleContext) -> Iterator[str]:
    description = ctx.instantiation["description"]
    kind = next(k for k, noun in NOUNS.items() if description.startswith(f"the {noun} in Pittsburgh "))
    clue = description.removeprefix(f"the {NOUNS[kind]} in Pittsburgh ")
    fact = re.sub(r"^(?:that (?:was founded|opened) in|founded by|named after) ", "", clue)
    yield from visit(ctx, "wikipedia")
    yield from _open_list(ctx, LISTS[kind][0])
    matches = [cells[0] for cells in _table_rows(ctx) if cells and fact in cells[1:]]
    if len(matches) != 1:
        raise OracleError(f"{fact!r} is in {len(matches)} rows of {ctx.url}:\n{ctx.observation[:3000]}")
    name = map_name(matches[0])
    yield from switch_to(ctx, "map")
    yield ctx.search("Search", name)
    yield ctx.click(name, tag="a", exact=True)
    yield ctx.exit("Done")


# -- a route to the home venue of a team ---------------------------------------------------

TIMES = ("", "this season", "in 2023")


def _stadium_route(pristine: PristineData):
    conn = facts.readable(pristine("map"))
    places = {p["name"]: p for p in facts.unique_places(conn)}
    starts = [p for p in facts.sample_places(conn, 41, 40) if p["category"] not in ("stadium",)]
    index = 0
    for box in _infobox(pristine("wikipedia"), "team").values():
        venue = places.get(link_text(box["Home venue"]))
        league = re.search(r"\((\w+)\)$", box["League"])
        if venue is None or league is None:
            continue
        for _ in range(3):
            start = starts[index % len(starts)]
            time = TIMES[index % len(TIMES)]
            index += 1
            yield ({"location": start["name"], "sport_team": f"Pittsburgh home {league.group(1)} team", "time": time},
                   program_html_eval(
                       ("last", ROUTE_FROM, {"must_include": [start["name"], "Pittsburgh"]}),
                       ("last", ROUTE_TO, {"must_include": [venue["name"], "Pittsburgh"]}),
                       ("last", ENGINE_INDEX, {"exact_match": "1"})))


def _solve_stadium_route(ctx: OracleContext) -> Iterator[str]:
    values = ctx.instantiation
    league = re.search(r"home (\w+) team", values["sport_team"]).group(1)
    yield from visit(ctx, "wikipedia")
    yield from _open_list(ctx, "Sports in Pittsburgh")
    venues = [cells[3] for cells in _table_rows(ctx) if len(cells) > 3 and cells[2].endswith(f"({league})")]
    if len(venues) != 1:
        raise OracleError(f"No single {league} team on {ctx.url}:\n{ctx.observation[:3000]}")
    yield from switch_to(ctx, "map")
    yield ctx.click("Directions", tag="a", exact=True)
    yield ctx.select("Mode of travel", ENGINE["car"][1])
    yield ctx.type("From", values["location"])
    yield ctx.type("To", venues[0])
    yield ctx.click("Get directions", tag="button")
    yield ctx.exit("Here is the way.")


FAMILIES: list[TaskFamily] = [
    family("find_on_map", ("wikipedia", "map"), "Find the page of {{description}} on the map.", "navigation",
           _find_on_map, _solve_find_on_map),
    family("stadium_route", ("wikipedia", "map"),
           "Show me the way from {{location}} to the home stadium of {{sport_team}} {{time}}", "navigation",
           _stadium_route, _solve_stadium_route),
]
