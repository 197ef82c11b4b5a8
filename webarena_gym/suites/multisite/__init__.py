"""Multi-site task families: facts gathered on one embedded site, used on another.

They mirror WebArena-Lite's multi-site tasks: promote a GitLab project in the forum,
post a product's bad review titles or what the map says in the forum, file a GitLab
issue that quotes a store price or links a forum post, answer a question that needs
two sites, and recognise a request that cannot be done. Every task starts at the
homepage and is logged in on every site that has accounts; oracles move between sites
through the homepage (Go Backward, then the next site's link), since no site links
to another and there is no goto action.

Most families are program_html, as in WebArena-Lite; references that name a site's
URL use placeholders (``__GITLAB__/...``) and oracles read URLs off the address bar, so
tasks score the same whichever port a backend serves the sites on.
"""

from __future__ import annotations

from ...tasks.families import TaskFamily
from . import answers, to_forum, to_gitlab, wiki_map


def _ordered(families: list[TaskFamily]) -> list[TaskFamily]:
    """The suite's test split takes ten multi-site tasks round-robin in this order, one from each of the
    first ten families: two string_match and eight program_html ones (WebArena-Lite's ten: three
    string_match, seven program_html), the two over the encyclopedia and the map among them."""
    order = ("team_cost", "promote_project", "zip_code_post", "price_issue", "review_titles_post",
             "top_post_issue", "travel_time_post", "missing_forum", "find_on_map", "stadium_route")
    by_name = {f.name.removeprefix("multisite."): f for f in families}
    return [by_name[name] for name in order]


FAMILIES: list[TaskFamily] = _ordered(answers.FAMILIES + to_forum.FAMILIES + to_gitlab.FAMILIES + wiki_map.FAMILIES)
