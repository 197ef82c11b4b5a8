"""What the multi-site families share: task dicts, evaluations, and moving between sites.

Every multi-site task starts at the homepage, which links to each site. No site links
back to the homepage and there is no goto action, so an oracle that is done with its
first site goes back through the browser history to the homepage, then follows the
link to the next site, the way a person with only a back button would.
"""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

from ...sites.reddit.families.common import USER as FORUM_USER
from ...sites.reddit.families.common import open_forum
from ...sites.spec import get_site
from ...tasks.families import Instances, TaskFamily, program_html_eval, template_family
from ...tasks.oracle import OracleContext, OracleError

HOMEPAGE = "__HOMEPAGE__/"
GITLAB = "__GITLAB__"
REDDIT = "__REDDIT__"
#: Where the forum's ``reddit_newest_post_url`` helper finds the post a task asked for.
NEWEST_POST = f"func:reddit_newest_post_url('{FORUM_USER}')"
POST_TITLE = "document.querySelector('.submission__title').outerText"
POST_BODY = "document.querySelector('.submission__body').outerText"
#: A post's text plus the targets of its links (WebArena's locator for link posts).
POST_TEXT_AND_LINKS = (
    "document.querySelector('.submission__inner').outerText + ' ' + "
    "[...document.querySelector('.submission__inner').querySelectorAll('[href],[src]')]"
    ".map(elem => elem.getAttribute('href') || elem.getAttribute('src')).join(' ')"
)
#: Longest walk back to the homepage an oracle allows itself (a guard against loops).
MAX_BACK_STEPS = 8

# -- task dicts --------------------------------------------------------------------------


def family(name: str, sites: tuple[str, ...], template: str, kind: str, instances: Instances,
           solve: Callable[[OracleContext], Iterator[str]]) -> TaskFamily:
    """A family over several sites whose tasks start at the homepage, logged in everywhere."""
    # WebArena names multi-site storage states after the sites, e.g. gitlab.reddit_state.json
    return template_family(f"multisite.{name}", sites, template, kind, instances, solve, start_url=HOMEPAGE,
                           require_login=True, storage_state=f"./.auth/{'.'.join(sorted(sites))}_state.json")


def forum_post(forum: str, title: str, body_includes: list[str]) -> dict[str, Any]:
    """The check of a "post it in the forum" task: ends in the forum, the new post has the title and body."""
    return program_html_eval(
        (NEWEST_POST, POST_TITLE, {"exact_match": title}),
        (NEWEST_POST, POST_BODY, {"must_include": body_includes}),
        reference_url=f"{REDDIT}/f/{forum}", note="GOLD in PRED",
    )


def rng_for(name: str) -> random.Random:
    """A family's own fixed random stream (the same picks on every machine)."""
    return random.Random(f"multisite.{name}")


def rows(conn: sqlite3.Connection, sql: str, *args: Any) -> list[sqlite3.Row]:
    """Rows as ``sqlite3.Row`` without touching the shared pristine connection's row factory."""
    cursor = conn.cursor()
    cursor.row_factory = sqlite3.Row
    return cursor.execute(sql, args).fetchall()


#: Store categories a software team buys from.
TEAM_CATEGORIES = ("Headphones", "Computers & Accessories", "Office Electronics", "Chargers & Power Adapters",
                   "Office & School Supplies", "Camera & Photo")


def team_products(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """Uniquely named products of the team categories, in catalog order."""
    marks = ",".join("?" * len(TEAM_CATEGORIES))
    return rows(conn, "SELECT p.name, p.price FROM products p JOIN categories c ON c.id = p.category_id"
                      f" WHERE c.name IN ({marks}) AND (SELECT COUNT(*) FROM products o WHERE o.name = p.name) = 1"
                      " ORDER BY p.id", *TEAM_CATEGORIES)


# -- oracle steps: between sites -----------------------------------------------------------


def visit(ctx: OracleContext, site: str) -> Iterator[str]:
    """From the homepage, follow the link to ``site``."""
    yield ctx.click(get_site(site).title, tag="a", exact=True)


def back_to_homepage(ctx: OracleContext) -> Iterator[str]:
    """Go Backward until the homepage shows again."""
    home = ctx.task["start_url"].rstrip("/")
    for _ in range(MAX_BACK_STEPS):
        if ctx.url.rstrip("/") == home:
            return
        yield ctx.go_back()
    raise OracleError(f"Going back never reached the homepage {home}; stuck on {ctx.url}")


def switch_to(ctx: OracleContext, site: str) -> Iterator[str]:
    yield from back_to_homepage(ctx)
    yield from visit(ctx, site)


# -- oracle steps: on the sites ------------------------------------------------------------


def submit_post(ctx: OracleContext, forum: str, title: str, body: str, link: str = "") -> Iterator[str]:
    """On the forum's front page: open the forum and create a post there."""
    yield from open_forum(ctx, forum)
    yield ctx.click(f"Submit a post to {forum}", tag="a", exact=True)
    if link:
        yield ctx.type("URL (for a link post)", link)
    yield ctx.type("Title", title)
    yield ctx.type("Body", body)
    yield ctx.click("Create submission", tag="button", exact=True)


def open_project(ctx: OracleContext, namespace: str, path: str) -> Iterator[str]:
    """On GitLab: the header search, then the project's result."""
    yield ctx.search("Search GitLab", path)
    yield ctx.click(f"{namespace} / {path}", tag="a", exact=True)


def new_issue(ctx: OracleContext, namespace: str, path: str, title: str, description: str) -> Iterator[str]:
    """On GitLab: open the project and file an issue."""
    yield from open_project(ctx, namespace, path)
    yield ctx.click_element(matching(ctx, r"Issues \d+"))
    yield ctx.click("New issue", tag="a", exact=True)
    yield ctx.type("Title", title)
    yield ctx.type("Description", description)
    yield ctx.click("Create issue", tag="button", exact=True)


def matching(ctx: OracleContext, pattern: str, tag: str = "a"):
    """The first element of ``tag`` whose whole text matches the regex ``pattern``."""
    for element in ctx.find_all(tag=tag):
        if re.fullmatch(pattern, element.text.strip()):
            return element
    raise OracleError(f"No <{tag}> matching {pattern!r} on {ctx.url}:\n{ctx.observation[:3000]}")


def product_price(ctx: OracleContext) -> str:
    """The price on a store product page: the first line that is a price alone (``1,234.56``)."""
    match = re.search(r"^\$([\d,]+\.\d\d)$", ctx.page.text, re.MULTILINE)
    if match is None:
        raise OracleError(f"No price on {ctx.url}:\n{ctx.observation[:3000]}")
    return match.group(1)


def read(ctx: OracleContext, pattern: str) -> re.Match[str]:
    """A regex match in the page's visible text (whitespace collapsed)."""
    match = re.search(pattern, " ".join(ctx.text().split()))
    if match is None:
        raise OracleError(f"{pattern!r} not on {ctx.url}:\n{ctx.observation[:3000]}")
    return match
