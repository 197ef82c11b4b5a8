"""Multi-site families answered with a message (string_match).

One needs a fact from each of two sites and a little arithmetic (WebArena-Lite's
information tasks that combine sources, like tasks 23 and 64); the other is
unachievable, as WebArena-Lite task 161 is: the forum it names does not exist, and the
right answer is "N/A".
"""

from __future__ import annotations

from collections.abc import Iterator

from ...sites.map import facts
from ...sites.shopping.families.common import open_product
from ...tasks.families import PristineData, TaskFamily, money, string_match_eval
from ...tasks.oracle import OracleContext, OracleError
from .common import (
    family,
    open_project,
    product_price,
    read,
    rng_for,
    rows,
    switch_to,
    team_products,
    visit,
)

# -- a team order: a store price times a project's member count -----------------------------


def _team_cost(pristine: PristineData):
    projects = rows(pristine("gitlab"),
                    "SELECT p.namespace, p.path, COUNT(*) AS members FROM projects p"
                    " JOIN members m ON m.project_id = p.id"
                    " WHERE p.visibility = 'public' GROUP BY p.id HAVING COUNT(*) >= 2 ORDER BY p.id")
    products = team_products(pristine("shopping"))
    rng = rng_for("team_cost")
    picked_projects = rng.sample(projects, min(len(projects), 16))
    for project, product in zip(picked_projects, rng.sample(products, len(products)), strict=False):
        total = product["price"] * project["members"]
        yield ({"product": product["name"], "repo": f"{project['namespace']}/{project['path']}"},
               string_match_eval(string_note="", must_include=[money(total / 100)]))


def _solve_team_cost(ctx: OracleContext) -> Iterator[str]:
    values = ctx.instantiation
    namespace, path = values["repo"].split("/", 1)
    yield from visit(ctx, "gitlab")
    yield from open_project(ctx, namespace, path)
    yield ctx.click("Members", tag="a", exact=True)
    members = int(read(ctx, r"Members of .+? \((\d+)\)").group(1))
    yield from switch_to(ctx, "shopping")
    yield from open_product(ctx, values["product"])
    price = product_price(ctx)
    cents = round(float(price.replace(",", "")) * 100) * members
    yield ctx.exit(f"${cents / 100:,.2f} ({members} members at ${price} each)")


# -- unachievable: the forum does not exist (WebArena-Lite 161) --------------------------------

#: Forums people might expect; an instance is kept only when the forum really is missing.
MISSING_FORUMS = ("cars", "pittsburghfood", "hiking", "coffee", "running", "cycling", "yinzers", "steelers",
                  "urbanplanning", "realestate", "foodies", "localnews", "architecture", "museums")


def _missing_forum(pristine: PristineData):
    existing = {r[0].lower() for r in pristine("reddit").execute("SELECT name FROM forums")}
    forums = [name for name in MISSING_FORUMS if name.lower() not in existing]
    conn = facts.readable(pristine("map"))
    try:
        places = facts.sample_places(conn, 33, len(forums))
    finally:
        conn.close()
    for forum, place in zip(forums, places, strict=True):
        evaluation = string_match_eval(string_note="", exact_match="N/A")
        evaluation["string_note"] = "the subreddit does not exist"
        yield {"place": place["name"], "subreddit": forum}, evaluation


def _solve_missing_forum(ctx: OracleContext) -> Iterator[str]:
    forum = ctx.instantiation["subreddit"]
    yield from visit(ctx, "reddit")
    yield ctx.click("Forums", tag="a", exact=True)
    while True:  # every page of the forum list, to be sure the forum is not there
        if ctx.find_all(forum, tag="a", exact=True):
            raise OracleError(f"The forum {forum} exists; this instance is not unachievable")
        if not ctx.find_all("Next page", tag="a", exact=True):
            break
        yield ctx.click("Next page", tag="a", exact=True)
    yield ctx.exit("N/A")


FAMILIES: list[TaskFamily] = [
    family("team_cost", ("gitlab", "shopping"),
           "How much would it cost to buy one {{product}} from One Stop Market for every member of the {{repo}}"
           " project on GitLab?",
           "information", _team_cost, _solve_team_cost),
    family("missing_forum", ("map", "reddit"),
           "Find the zip code of {{place}} on the map and post it in the {{subreddit}} subreddit",
           "content", _missing_forum, _solve_missing_forum),
]
