"""Families that gather facts on one site and file them as a GitLab issue (program_html).

Like WebArena-Lite's GitLab tasks fed by the forum (tasks 127, 161: links to forum
posts in a repository), the issue must quote what the other site shows: a product's
price in the store, or the address of a forum post. The new issue's URL is known in
advance (the project's next issue number), so the check opens it directly.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

from ...sites.gitlab.families.common import USER as GITLAB_USER
from ...sites.reddit.families.common import listing, open_forum, unique_first
from ...sites.reddit.queries import forum_posts, forum_summaries, post_path
from ...sites.shopping.families.common import open_product
from ...tasks.families import PristineData, TaskFamily, money, program_html_eval
from ...tasks.oracle import OracleContext
from .common import (
    GITLAB,
    REDDIT,
    family,
    new_issue,
    product_price,
    rng_for,
    rows,
    switch_to,
    team_products,
    visit,
)

ISSUE_TITLE = "document.querySelector('h1.title').outerText"
ISSUE_DESCRIPTION = "document.querySelector('.detail-page-description').outerText"


def own_projects(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """byteblaze's own projects, with the number (iid) their next issue will get."""
    return rows(conn, "SELECT p.namespace, p.path, (SELECT COALESCE(MAX(iid), 0) + 1 FROM issues i"
                      " WHERE i.project_id = p.id) AS next_iid FROM projects p WHERE p.namespace = ? ORDER BY p.id",
                GITLAB_USER)


def issue_check(project: sqlite3.Row, title: str, description_includes: list[str]) -> dict:
    """The check of a "file an issue" task: the project's next issue has the title and quotes the fact."""
    url = f"{GITLAB}/{project['namespace']}/{project['path']}/-/issues/{project['next_iid']}"
    return program_html_eval((url, ISSUE_TITLE, {"exact_match": title}),
                             (url, ISSUE_DESCRIPTION, {"must_include": description_includes}))


# -- an issue that quotes a store price ----------------------------------------------------


def _price_issue(pristine: PristineData):
    products = team_products(pristine("shopping"))
    chosen = rng_for("price_issue").sample(products, len(products))
    for project, product in zip(own_projects(pristine("gitlab")), chosen, strict=False):
        title = f"Buy {product['name']} for the team"
        yield ({"repo": f"{project['namespace']}/{project['path']}", "product": product["name"], "title": title},
               issue_check(project, title, [money(product["price"] / 100)]))


def _solve_price_issue(ctx: OracleContext) -> Iterator[str]:
    values = ctx.instantiation
    yield from visit(ctx, "shopping")
    yield from open_product(ctx, values["product"])
    price = product_price(ctx)
    yield from switch_to(ctx, "gitlab")
    namespace, path = values["repo"].split("/", 1)
    yield from new_issue(ctx, namespace, path, values["title"], f"One Stop Market sells it for ${price}.")
    yield ctx.exit("Done")


# -- an issue that links a forum post -------------------------------------------------------


def _top_post_issue(pristine: PristineData):
    conn = pristine("reddit")
    projects = own_projects(pristine("gitlab"))
    index = 0
    for forum_id, forum, *_ in forum_summaries(conn):
        top = unique_first(forum_posts(conn, forum_id, "top"), 3)
        if top is None:
            continue
        project = projects[index % len(projects)]
        index += 1
        title = f"Read the top post of the {forum} forum"
        yield ({"repo": f"{project['namespace']}/{project['path']}", "subreddit": forum, "title": title},
               issue_check(project, title, [REDDIT + post_path(forum, top[0], top[1])]))


def _solve_top_post_issue(ctx: OracleContext) -> Iterator[str]:
    values = ctx.instantiation
    yield from visit(ctx, "reddit")
    yield from open_forum(ctx, values["subreddit"], "top")
    yield ctx.click_element(listing(ctx)[0]["title"])
    post_url = ctx.url  # the address bar, which an agent sees too
    yield from switch_to(ctx, "gitlab")
    namespace, path = values["repo"].split("/", 1)
    yield from new_issue(ctx, namespace, path, values["title"], f"Worth reading: {post_url}")
    yield ctx.exit("Done")


FAMILIES: list[TaskFamily] = [
    family("price_issue", ("shopping", "gitlab"),
           'Open an issue in {{repo}} titled "{{title}}" whose description gives the price of {{product}}'
           " in One Stop Market",
           "content", _price_issue, _solve_price_issue),
    family("top_post_issue", ("reddit", "gitlab"),
           'Create an issue in {{repo}} titled "{{title}}" whose description links to the top post of all time'
           " in the {{subreddit}} subreddit",
           "content", _top_post_issue, _solve_top_post_issue),
]
