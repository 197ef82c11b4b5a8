"""Families that gather facts on one site and post them in the forum (program_html).

They mirror WebArena-Lite's forum tasks that need a second site: promote a GitLab
project with its own description (task 147), post the titles of a product's bad
reviews (task 144), and share what the map says (a zip code, a travel time).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...sites.map import facts
from ...sites.map.routing import ENGINES
from ...sites.shopping.families.common import open_product
from ...tasks.families import PristineData, TaskFamily, program_html_eval
from ...tasks.oracle import OracleContext, OracleError
from .common import (
    GITLAB,
    POST_TEXT_AND_LINKS,
    REDDIT,
    family,
    forum_post,
    open_project,
    read,
    rows,
    submit_post,
    switch_to,
    visit,
)

# -- promote a GitLab project in a forum (WebArena-Lite 147) -------------------------------

#: Words in a project's description that make a forum the natural place to promote it.
FORUM_TOPICS = (
    ("MachineLearning", ("language model", "neural", "generative", "chat completion", "inference")),
    ("programming", ("library", "bindings", "api", "script", "command-line", "syntax", "generate")),
)


def _promotion_forum(description: str, index: int) -> str:
    lowered = description.lower()
    for forum, words in FORUM_TOPICS:
        if any(word in lowered for word in words):
            return forum
    return ("technology", "programming")[index % 2]


def _promote_project(pristine: PristineData):
    projects = rows(pristine("gitlab"),
                    "SELECT namespace, path, description FROM projects"
                    " WHERE visibility = 'public' AND description != '' ORDER BY id")
    for index, project in enumerate(projects):
        repo = f"{project['namespace']}/{project['path']}"
        forum = _promotion_forum(project["description"], index)
        yield {"repo": repo, "subreddit": forum}, program_html_eval(
            ("last", POST_TEXT_AND_LINKS, {"must_include": [project["description"], f"{GITLAB}/{repo}"]}),
            reference_url=f"{REDDIT}/f/{forum}", note="GOLD in PRED",
        )


def _solve_promote_project(ctx: OracleContext) -> Iterator[str]:
    namespace, path = ctx.instantiation["repo"].split("/", 1)
    yield from visit(ctx, "gitlab")
    yield from open_project(ctx, namespace, path)
    description = project_description(ctx)
    project_url = ctx.url  # the address bar, which an agent sees too
    yield from switch_to(ctx, "reddit")
    yield from submit_post(ctx, ctx.instantiation["subreddit"], f"{path}: {description}", description, link=project_url)
    yield ctx.exit("Done")


def project_description(ctx: OracleContext) -> str:
    """The description paragraph of a GitLab project page (right under the "Project ID" line)."""
    match = re.search(r"Project ID: \d+[^\n]*\n<p>([^<]+)</p>", ctx.page.text)
    if match is None:
        raise OracleError(f"No project description on {ctx.url}:\n{ctx.observation[:3000]}")
    return match.group(1).strip()


# -- post a product's bad review titles (WebArena-Lite 144) --------------------------------

#: Store category -> the forum whose readers care about it.
CATEGORY_FORUMS = {
    "Headphones": "headphones", "Home Audio": "music", "Nintendo Switch": "gaming", "PlayStation 4": "gaming",
    "Xbox One": "gaming", "Camera & Photo": "photography", "Computers & Accessories": "technology",
    "Office Electronics": "gadgets", "Chargers & Power Adapters": "gadgets", "Cases & Holsters": "gadgets",
    "Exercise & Fitness": "Fitness", "Snacks & Sweets": "food", "Beverages": "food", "Breakfast Foods": "food",
    "Kitchen & Dining": "food", "Household Supplies": "DIY", "Storage & Organization": "DIY", "Home Decor": "DIY",
    "Outdoor Recreation": "travel",
}
STARS = {1: "1 star", 2: "2 stars"}


def _review_titles(pristine: PristineData):
    conn = pristine("shopping")
    products = rows(conn, "SELECT p.id, p.name, c.name AS category FROM products p"
                          " JOIN categories c ON c.id = p.category_id"
                          " WHERE (SELECT COUNT(*) FROM products o WHERE o.name = p.name) = 1 ORDER BY p.id")
    for product in products:
        forum = CATEGORY_FORUMS.get(product["category"])
        if forum is None:
            continue
        for rating, stars in STARS.items():
            titles = [r["summary"] for r in rows(conn, "SELECT summary FROM reviews WHERE product_id = ? AND rating = ?"
                                                 " ORDER BY id", product["id"], rating)]
            # two to four distinct titles: a real gathering job, short enough to check one by one
            if 2 <= len(titles) <= 4 and len(set(titles)) == len(titles):
                title = f"real user feedback on {product['name']}"
                yield ({"product": product["name"], "rating": stars, "subreddit": forum},
                       forum_post(forum, title, titles))


def _solve_review_titles(ctx: OracleContext) -> Iterator[str]:
    values = ctx.instantiation
    yield from visit(ctx, "shopping")
    yield from open_product(ctx, values["product"])
    titles = review_titles(ctx, values["rating"])
    yield from switch_to(ctx, "reddit")
    yield from submit_post(ctx, values["subreddit"], f"real user feedback on {values['product']}", "\n".join(titles))
    yield ctx.exit("Done")


def review_titles(ctx: OracleContext, stars: str) -> list[str]:
    """Titles of the product page's reviews that have ``stars`` (e.g. "1 star")."""
    # each review shows its title on one line and "Rating: 20% (1 star)" on the next
    found = re.findall(r"^([^<\n]+)\nRating: \d+% \((\d+ stars?)\)$", ctx.page.text, re.MULTILINE)
    titles = [title for title, rating in found if rating == stars]
    if not titles:
        raise OracleError(f"No {stars} reviews on {ctx.url}:\n{ctx.observation[:3000]}")
    return titles


# -- share what the map says ------------------------------------------------------------

#: The forums where people ask about getting around Pittsburgh (the map's city).
CITY_FORUMS = ("Pittsburgh", "travel")


def _zip_code(pristine: PristineData):
    conn = facts.readable(pristine("map"))
    try:
        for index, place in enumerate(facts.sample_places(conn, 31, 14)):
            forum = CITY_FORUMS[index % len(CITY_FORUMS)]
            title = f"Zip code of {place['name']}"
            yield {"place": place["name"], "subreddit": forum, "title": title}, forum_post(forum, title, [place["zip"]])
    finally:
        conn.close()


def _solve_zip_code(ctx: OracleContext) -> Iterator[str]:
    values = ctx.instantiation
    yield from visit(ctx, "map")
    yield ctx.search("Search", values["place"])
    yield ctx.click(values["place"], tag="a", exact=True)
    zip_code = read(ctx, r"Zip code (\d{5})").group(1)
    yield from switch_to(ctx, "reddit")
    body = f"The zip code of {values['place']} is {zip_code}."
    yield from submit_post(ctx, values["subreddit"], values["title"], body)
    yield ctx.exit("Done")


#: Verb of the intent -> (routing engine, option text of the directions form); engines end in _car, _foot, _bike.
_VERB_OF_ENGINE = {"car": "drive", "foot": "walk", "bike": "bike"}
MODES = {_VERB_OF_ENGINE[engine.rsplit("_", 1)[1]]: (engine, text) for engine, text, _column in ENGINES}


def _travel_time(pristine: PristineData):
    conn = facts.readable(pristine("map"))
    try:
        for index, (start, end) in enumerate(facts.place_pairs(conn, 32, 14)):
            verb = ("drive", "walk", "bike")[index % 3]
            duration = facts.route(conn, MODES[verb][0], start, end).duration
            forum = CITY_FORUMS[index % len(CITY_FORUMS)]
            title = f"How long to {verb} from {start['name']} to {end['name']}?"
            yield ({"mode": verb, "start": start["name"], "end": end["name"], "subreddit": forum, "title": title},
                   forum_post(forum, title, [duration]))
    finally:
        conn.close()


def _solve_travel_time(ctx: OracleContext) -> Iterator[str]:
    values = ctx.instantiation
    yield from visit(ctx, "map")
    yield ctx.click("Directions", tag="a", exact=True)
    yield ctx.select("Mode of travel", MODES[values["mode"]][1])
    yield ctx.type("From", values["start"])
    yield ctx.type("To", values["end"])
    yield ctx.click("Get directions", tag="button")
    duration = read(ctx, r"Time: ([^.]+)\.").group(1)
    yield from switch_to(ctx, "reddit")
    yield from submit_post(ctx, values["subreddit"], values["title"],
                           f"The map says it takes {duration} to {values['mode']} there.")
    yield ctx.exit("Done")


FAMILIES: list[TaskFamily] = [
    family("promote_project", ("gitlab", "reddit"),
           "Promote {{repo}} to subreddit {{subreddit}} with the description from the repo itself.",
           "content", _promote_project, _solve_promote_project),
    family("review_titles_post", ("shopping", "reddit"),
           "Gather the titles of {{product}} reviews with {{rating}} rating from OneStopShop, and post them in the"
           ' {{subreddit}} subreddit under the title "real user feedback on {{product}}"',
           "content", _review_titles, _solve_review_titles),
    family("zip_code_post", ("map", "reddit"),
           "Find the zip code of {{place}} on the map and post it in the {{subreddit}} subreddit"
           ' under the title "{{title}}"',
           "content", _zip_code, _solve_zip_code),
    family("travel_time_post", ("map", "reddit"),
           "Check on the map how long it takes to {{mode}} from {{start}} to {{end}}, and post the answer in the"
           ' {{subreddit}} subreddit under the title "{{title}}"',
           "content", _travel_time, _solve_travel_time),
]
