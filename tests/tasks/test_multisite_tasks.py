"""The multi-site task families: instances over two sites' data, and oracles that cross between them."""

from __future__ import annotations

import copy
import html
import json
import re
from functools import cache

import pytest

from webarena_gym.evaluators.functions import registered_functions
from webarena_gym.oracle_runner import run_oracle
from webarena_gym.sites.world import pristine_database
from webarena_gym.suites.embedded import all_families
from webarena_gym.suites.multisite import FAMILIES

from .family_checks import check_instances, check_oracle_solves, check_quota, check_wrong_answers_earn_nothing

BY_NAME = {family.name: family for family in FAMILIES}


@cache
def instances(name: str) -> list[dict]:
    return BY_NAME[name].instantiate(pristine_database)


def all_instances() -> list[tuple[str, dict]]:
    return [(family.name, item) for family in FAMILIES for item in instances(family.name)]


# --- instantiate ---------------------------------------------------------------------


def test_families_span_two_sites_with_enough_instances():
    all_instances = {name: instances(name) for name in BY_NAME}
    check_quota(FAMILIES, all_instances, prefix="multisite.", families_at_least=4, tasks_at_least=60, kinds=None)
    assert all(len(family.sites) > 1 for family in FAMILIES)
    pairs = {frozenset(family.sites) for family in FAMILIES}
    assert {frozenset(("gitlab", "reddit")), frozenset(("map", "reddit")), frozenset(("shopping", "gitlab")),
            frozenset(("wikipedia", "map"))} <= pairs


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_instances_are_valid_distinct_and_deterministic(name):
    check_instances(BY_NAME[name], instances(name), start_url="__HOMEPAGE__/")


def test_references_name_sites_by_placeholder_never_by_port():
    """Pages are served on other ports by the Playwright backend; references must not care."""
    for _name, item in all_instances():
        text = json.dumps(item["eval"])
        assert not re.search(r"127\.0\.0\.1|localhost|:\d{4}\b", text), text
    includes = [m for _n, item in all_instances() for t in item["eval"]["program_html"]
                for m in t["required_contents"].get("must_include", [])]
    assert any(m.startswith("__GITLAB__/") for m in includes) and any(m.startswith("__REDDIT__/") for m in includes)


def test_evaluator_mix_follows_webarena_lite():
    all_families()  # loading the suite registers the sites' func: helpers (so this test runs alone too)
    kinds = [tuple(instances(f.name)[0]["eval"]["eval_types"]) for f in FAMILIES]
    assert sum("program_html" in k for k in kinds) > len(kinds) / 2
    assert ("string_match",) in kinds
    answers = [instances(f.name)[0]["eval"]["reference_answers"] or {} for f in FAMILIES]
    assert {"exact_match": "N/A"} in answers  # an unachievable request, as in WebArena-Lite
    targets = [t for f in FAMILIES for t in instances(f.name)[0]["eval"]["program_html"]]
    urls = [t["url"] for t in targets]
    assert "last" in urls and any(u.startswith("__GITLAB__/") for u in urls)
    helpers = {re.match(r"func:(\w+)", t["url"]).group(1) for t in targets if t["url"].startswith("func:")}
    assert helpers and helpers <= set(registered_functions())


def test_checks_fail_on_the_untouched_sites(site_client):
    """What a content task checks is not there before the agent acts."""
    gitlab = site_client("gitlab", "byteblaze")
    for name in ("multisite.price_issue", "multisite.top_post_issue"):
        for item in instances(name):
            path = item["eval"]["program_html"][0]["url"].removeprefix("__GITLAB__")
            assert gitlab.get(path).status_code == 404, path
    forum = site_client("reddit")
    for item in instances("multisite.zip_code_post") + instances("multisite.travel_time_post"):
        listing = forum.get(f"/f/{item['instantiation_dict']['subreddit']}/new").get_data(as_text=True)
        assert item["eval"]["program_html"][0]["required_contents"]["exact_match"] not in listing


def test_references_agree_with_what_the_sites_show(site_client):
    gitlab = site_client("gitlab", "byteblaze")
    for item in instances("multisite.promote_project"):
        description, url = item["eval"]["program_html"][0]["required_contents"]["must_include"]
        assert description in html.unescape(gitlab.get(url.removeprefix("__GITLAB__")).get_data(as_text=True))
    forum = site_client("reddit")
    for item in instances("multisite.top_post_issue"):
        link = item["eval"]["program_html"][1]["required_contents"]["must_include"][0]
        top = forum.get(f"/f/{item['instantiation_dict']['subreddit']}/top").get_data(as_text=True)
        assert f'href="{link.removeprefix("__REDDIT__")}"' in top.split('class="submission__title"')[1]


# --- oracles -------------------------------------------------------------------------


def _solve_and_check(name: str, items: list[dict]) -> None:
    for episode in check_oracle_solves(BY_NAME[name], items):
        if name != "multisite.missing_forum":  # the others cross from one site to the other
            assert "Go Backward" in " ".join(episode.actions)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_oracle_solves_the_first_instances(name):
    _solve_and_check(name, instances(name)[:2])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_oracle_solves_every_instance(name):
    _solve_and_check(name, instances(name)[2:])


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_wrong_or_missing_answers_earn_nothing(name):
    check_wrong_answers_earn_nothing(instances(name)[:1])


def _price(product: str) -> int:
    return pristine_database("shopping").execute("SELECT price FROM products WHERE name = ?", (product,)).fetchone()[0]


def _zip(place: str) -> str:
    return pristine_database("map").execute("SELECT zip FROM places WHERE name = ?", (place,)).fetchone()[0]


#: Family -> (the instantiation key the oracle is misled on, what must differ for the task to fail).
WRONG = {
    "multisite.team_cost": ("product", _price),
    "multisite.price_issue": ("product", _price),
    "multisite.zip_code_post": ("place", _zip),
    "multisite.promote_project": ("subreddit", str),
    "multisite.top_post_issue": ("subreddit", str),
    "multisite.travel_time_post": ("mode", str),
    "multisite.review_titles_post": ("rating", str),
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_doing_the_wrong_thing_earns_nothing(name):
    """The oracle, sent after another value than the task asks for, must fail the evaluation."""
    key, fact = WRONG[name]
    task = copy.deepcopy(instances(name)[0])
    own = task["instantiation_dict"][key]
    others = [item["instantiation_dict"][key] for item in instances(name)]
    if key == "rating":
        others = ["3 stars"]  # every product has middling reviews; their titles are not the bad ones
    task["instantiation_dict"][key] = next(v for v in others if v != own and fact(v) != fact(own))
    episode = run_oracle(task, BY_NAME[name].solve)
    assert episode.reward == 0.0, (task["instantiation_dict"], episode.info.get("reward_components"))


# --- the suite -----------------------------------------------------------------------


def test_the_test_split_has_webarena_lites_165_tasks_with_ten_multisite():
    from webarena_gym.suites.embedded import embedded_tasks

    test = embedded_tasks("test")
    assert len(test) == 165
    multisite = [task for task in test if len(task.sites) > 1]
    assert len(multisite) == 10
    assert sum("string_match" in task.eval.eval_types for task in multisite) in (2, 3, 4)
    train_intents = {task.intent for task in embedded_tasks("train") if len(task.sites) > 1}
    assert train_intents and not train_intents & {task.intent for task in multisite}


# --- the encyclopedia and the map ------------------------------------------------------


def test_find_on_map_descriptions_name_one_place_of_the_encyclopedias_lists(site_client):
    from webarena_gym.sites.wikipedia.articles import LISTS
    from webarena_gym.suites.multisite.wiki_map import NOUNS

    wiki, osm = site_client("wikipedia"), site_client("map")
    for item in instances("multisite.find_on_map"):
        description = item["instantiation_dict"]["description"]
        kind = next(k for k, noun in NOUNS.items() if description.startswith(f"the {noun} in Pittsburgh "))
        fact = re.sub(r"^the .+? in Pittsburgh (?:that (?:was founded|opened) in|founded by|named after) ", "",
                      description)
        page = html.unescape(wiki.get(f"/wikipedia_en_all_maxi_2022-05/A/{LISTS[kind][0].replace(' ', '_')}")
                             .get_data(as_text=True))
        rows = [row for row in page.split("<tr>")[2:] if re.search(rf">{re.escape(fact)}<", row)]
        name, coordinates = item["eval"]["program_html"][0]["required_contents"]["must_include"]
        assert len(rows) == 1 and name in re.sub(r" \(Pittsburgh\)", "", rows[0]), (description, rows)
        # the place page shows the coordinates; the search results that lead there do not
        search = html.unescape(osm.get("/search", query_string={"query": name}, follow_redirects=True).get_data(as_text=True))
        assert name in search and coordinates not in search


def test_stadium_route_wants_the_car_and_the_teams_venue():
    from webarena_gym.suites.multisite.common import switch_to, visit

    item = instances("multisite.stadium_route")[0]
    values = item["instantiation_dict"]

    def route(mode_option: str, destination: str):
        def solve(ctx):
            yield from visit(ctx, "wikipedia")
            yield from switch_to(ctx, "map")
            yield ctx.click("Directions", tag="a", exact=True)
            yield ctx.select("Mode of travel", mode_option)
            yield ctx.type("From", values["location"])
            yield ctx.type("To", destination)
            yield ctx.click("Get directions", tag="button")
            yield ctx.exit("Here is the way.")
        return solve

    venue = item["eval"]["program_html"][1]["required_contents"]["must_include"][0]
    assert run_oracle(item, route("Car (OSRM)", venue)).reward == 1.0
    assert run_oracle(item, route("Bicycle (OSRM)", venue)).reward == 0.0
    other = "PPG Paints Arena" if venue != "PPG Paints Arena" else "PNC Park"
    assert run_oracle(item, route("Car (OSRM)", other)).reward == 0.0
