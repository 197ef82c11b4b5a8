"""What the map's task families share: task dicts, answers, and the oracle's steps on the map's pages.

Oracles work like a person: search box, place page, "Directions" form, reading distances
and times off the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, NoReturn

from ....tasks.families import single_site_family, string_match_eval
from ....tasks.task import any_of
from .. import facts
from ..routing import ENGINES

if TYPE_CHECKING:
    from ....tasks.oracle import OracleContext

MAP = "__MAP__"
#: Mode (car, bike, foot) -> (engine id, option text of the directions form's select).
ENGINE = {engine.rsplit("_", 1)[1]: (engine, text) for engine, text, _column in ENGINES}
_NUMBER = r"[\d.]+k?m"


# -- task dicts --------------------------------------------------------------------------
#: ``family(name, template, kind, instances, solve)``: a map family; ``instances(conn)`` yields
#: (instantiation, eval) pairs over a private copy of the map data whose rows are ``sqlite3.Row``.
family = partial(single_site_family, "map", start_url=MAP, require_login=False, prepare=facts.readable)
#: The map's string_match evals carry an empty ``string_note``.
answer = partial(string_match_eval, string_note="")


def either_spacing(distance: str) -> str:
    """``1.9km`` also written ``1.9 km`` (a must_include item with an alternative)."""
    spaced = re.sub(r"(?<=\d)(?=k?m$)", " ", distance)
    return any_of(distance, spaced)


# -- oracle steps ------------------------------------------------------------------------
def read(ctx: OracleContext, pattern: str) -> re.Match[str]:
    """A regex match in the page's visible text (whitespace collapsed)."""
    match = re.search(pattern, " ".join(ctx.text().split()))
    if match is None:
        fail(ctx, repr(pattern))
    return match


def fail(ctx: OracleContext, missing: str) -> NoReturn:
    from ....tasks.oracle import OracleError

    raise OracleError(f"{missing} not on {ctx.url}:\n{ctx.observation[:2000]}")


def open_place(ctx: OracleContext, name: str) -> Iterator[str]:
    yield ctx.search("Search", name)
    yield ctx.click(name, tag="a", exact=True)


def get_directions(ctx: OracleContext, mode: str, start: str, end: str) -> Iterator[str]:
    """Fill the directions form (opening it first when needed) and ask for the route."""
    if not ctx.find_all(label="Mode of travel", tag="select"):
        yield ctx.click("Directions", tag="a", exact=True)
    yield ctx.select("Mode of travel", ENGINE[mode][1])
    yield ctx.type("From", start)
    yield ctx.type("To", end)
    yield ctx.click("Get directions", tag="button")


def route_summary(ctx: OracleContext) -> tuple[str, str]:
    match = read(ctx, rf"Distance: ({_NUMBER})\. Time: ([^.]+)\.")
    return match.group(1), match.group(2)


def driving_and_walking_solve(ctx: OracleContext) -> Iterator[str]:
    """The oracle of the families that compare a trip by car and on foot: both routes, then both times."""
    values, times = ctx.instantiation, {}
    for mode in ("car", "foot"):
        yield from get_directions(ctx, mode, values["start"], values["end"])
        times[mode] = route_summary(ctx)[1]
    yield ctx.exit(f"driving: {times['car']}, walking: {times['foot']}")


def first_result(ctx: OracleContext) -> int:
    """Element id of the first result link of a search page."""
    match = re.search(r'<li><a id="(\d+)">', ctx.page.text)
    if match is None:
        fail(ctx, "a search result")
    return int(match.group(1))
