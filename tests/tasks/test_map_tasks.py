"""The map's task families: instances, evaluator mix, and oracles that earn the reward."""

from __future__ import annotations

import ast
import re
from collections import Counter
from functools import cache

import pytest

from webarena_gym.oracle_runner import run_answer, run_oracle
from webarena_gym.sites.map.families import FAMILIES
from webarena_gym.sites.world import pristine_database

from .family_checks import check_instances, check_oracle_solves, check_quota, check_wrong_answers_earn_nothing

BY_NAME = {family.name: family for family in FAMILIES}


@cache
def instances(name: str) -> tuple[dict, ...]:
    return tuple(BY_NAME[name].instantiate(pristine_database))


def test_families_cover_the_quota_with_distinct_instances():
    all_instances = {name: instances(name) for name in BY_NAME}
    check_quota(FAMILIES, all_instances, prefix="map.", families_at_least=6, tasks_at_least=130)


def test_instances_are_valid_webarena_tasks():
    for family in FAMILIES:
        check_instances(family, instances(family.name), start_url="__MAP__", require_login=False)


def test_evaluator_mix_is_webarena_lites():
    kinds = Counter()
    answers, url_notes, program_urls = set(), set(), set()
    for name in BY_NAME:
        for item in instances(name):
            evaluation = item["eval"]
            kinds.update(evaluation["eval_types"])
            for kind, value in (evaluation.get("reference_answers") or {}).items():
                answers.add(kind)
                if kind == "must_include" and any(" |OR| " in v for v in value):
                    answers.add("must_include |OR|")
                if kind == "fuzzy_match" and value == "N/A":
                    answers.add("N/A")
            if "url_match" in evaluation["eval_types"]:
                url_notes.add(evaluation["url_note"])
            for target in evaluation["program_html"]:
                url = target["url"]
                program_urls.add("last" if url == "last" else "func" if url.startswith("func:") else "literal")
    total = sum(kinds.values())
    # WebArena-Lite's 26 map tasks: 23 string_match, 1 url_match, 2 program_html (88%, 4%, 8%)
    assert 0.65 <= kinds["string_match"] / total <= 0.88, kinds
    assert 0.04 <= kinds["url_match"] / total <= 0.20, kinds
    assert 0.08 <= kinds["program_html"] / total <= 0.25, kinds
    assert answers == {"exact_match", "must_include", "must_include |OR|", "fuzzy_match", "N/A"}
    assert url_notes == {"EXACT", "GOLD in PRED"}
    assert program_urls == {"last", "func", "literal"}


def test_unanswerable_family_asks_for_what_the_map_does_not_record():
    for item in instances("map.missing_information"):
        assert item["eval"]["reference_answers"] == {"fuzzy_match": "N/A"}
        assert item["instantiation_dict"]["information"] in ("phone number", "website", "email address")


# -- oracles in the real env (direct backend) --------------------------------------------
@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_oracle_solves_the_first_instances(name):
    check_oracle_solves(BY_NAME[name], instances(name)[:2])


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_wrong_or_no_answer_earns_nothing(name):
    check_wrong_answers_earn_nothing(instances(name)[:1], "Carnegie Mellon University, 15213, 3 min, 1.2km")


def test_n_a_is_the_right_answer_only_where_nothing_can_be_found():
    assert run_answer(instances("map.missing_information")[0], "N/A").reward == 1.0
    assert run_answer(instances("map.zip_code")[0], "N/A").reward == 0.0


def _typing(text: str):
    def solve(ctx):
        yield ctx.search("Search", text)
        yield ctx.exit("These are the places around it.")
    return solve


def test_around_is_judged_on_the_search_url_as_the_real_map_writes_it():
    """VAB's GOLD in PRED is a raw substring of the URL, which keeps the text as typed."""
    item = instances("map.around")[0]
    values = item["instantiation_dict"]
    typed = f"{values['space']} near {values['location']}"
    assert run_oracle(item, _typing(typed)).reward == 1.0
    assert run_oracle(item, _typing(typed + " Pittsburgh")).reward == 1.0  # the reference is still inside
    cut_off = typed.rsplit(" ", 1)[0]
    assert run_oracle(item, _typing(cut_off)).reward == 0.0  # the map finds the place, the URL does not say it
    assert run_oracle(item, _typing(typed.capitalize())).reward == 0.0


def test_around_is_not_earned_on_the_whats_nearby_page_the_real_map_lacks():
    """Lite's task of this template (90) references the search URL alone; the embedded nearby page is extra."""
    item = instances("map.around")[0]
    values = item["instantiation_dict"]
    assert " |OR| " not in item["eval"]["reference_url"]
    assert item["eval"]["reference_url"].startswith("__MAP__/search?query=")

    def browse_nearby(ctx):  # the place, its "What's nearby" page, the task's category
        yield ctx.search("Search", values["location"])
        yield ctx.click(values["location"], tag="a")
        yield ctx.click("What's nearby", tag="a")
        yield ctx.select("Category", values["space"].capitalize())
        yield ctx.click("Show", tag="button")
        yield ctx.exit("These are the places around it.")

    episode = run_oracle(item, browse_nearby)
    assert not any(episode.errors), episode.errors
    assert "/nearby?category=" in episode.urls[-1] and values["location"] in episode.observations[-1]
    assert episode.reward == 0.0


# -- WebArena-Lite's own map templates (families/trips.py) ---------------------------------
def _shown_route(client, engine: str, start: str, end: str) -> tuple[str, str]:
    """(distance, time) the directions page shows for a route asked by name."""
    page = client.get("/directions", query_string={"engine": engine, "route_from": start, "route_to": end},
                      follow_redirects=True).get_data(as_text=True)
    match = re.search(r"Distance: ([\d.]+k?m)\. Time: ([^.]+)\.", page)
    assert match, (start, end)
    return match.group(1), match.group(2)


def test_trip_references_agree_with_the_directions_page(site_client):
    from webarena_gym.sites.map.families.trips import minutes

    client = site_client("map")
    car, foot = "fossgis_osrm_car", "fossgis_osrm_foot"
    for item in instances("map.walk_then_drive")[:4]:
        values = item["instantiation_dict"]
        walk = minutes(_shown_route(client, foot, values["place_A"], values["place_B"])[1])
        drive = minutes(_shown_route(client, car, values["place_B"], values["place_C"])[1])
        (total,) = item["eval"]["reference_answers"]["fuzzy_match"]
        assert minutes(total) == walk + drive
    for item in instances("map.best_order")[:4]:
        best = item["eval"]["reference_answers"]["fuzzy_match"][0].split(", ")
        start, *rest = ast.literal_eval(item["instantiation_dict"]["place_list"])
        assert best[0] == start and sorted(best[1:]) == sorted(rest)

        def total(order):
            return sum(minutes(_shown_route(client, car, a, b)[1]) for a, b in zip(order, order[1:], strict=False))

        assert total(best) + 2 <= total([start, *reversed(best[1:])])
    for item in instances("map.hotels_walk")[:4]:
        limit = int(item["instantiation_dict"]["n"])
        for part in item["eval"]["reference_answers"]["fuzzy_match"]:
            hotel, distance = part.rsplit(": ", 1)
            shown = _shown_route(client, foot, hotel, item["instantiation_dict"]["location"])
            assert shown[0] == distance and minutes(shown[1]) < limit


def test_nearest_within_keeps_its_promise_and_names_the_address(site_client):
    from webarena_gym.sites.map.families.trips import minutes
    from webarena_gym.sites.map.search import display_name

    PLACE_COLUMNS = "p.name, p.housenumber, p.street, n.name, p.zip FROM places p JOIN neighborhoods n ON n.id = p.neighborhood_id"  # noqa: N806

    client = site_client("map")
    for item in instances("map.nearest_within"):
        values = item["instantiation_dict"]
        name, number, street, _hood, city = item["eval"]["reference_answers"]["fuzzy_match"]
        mode, limit = re.match(r"I can (walk|drive) within (\d+)mins", values["condition"]).groups()
        engine = "fossgis_osrm_foot" if mode == "walk" else "fossgis_osrm_car"
        place = pristine_database("map").execute(
            f"SELECT {PLACE_COLUMNS} WHERE p.name = ? AND p.housenumber = ? AND p.street = ?", (name, number, street))
        (place,) = [dict(zip(("name", "housenumber", "street", "neighborhood", "zip"), row, strict=True)) for row in place]
        assert minutes(_shown_route(client, engine, values["location2"], display_name(place))[1]) < int(limit)
        assert city == "Pittsburgh" and number.isdigit() and street


def test_durations_read_the_way_the_site_writes_them():
    from webarena_gym.sites.map.families.trips import minutes
    from webarena_gym.sites.map.geo import format_duration

    assert [minutes(format_duration(s)) for s in (10, 420, 3600, 6300)] == [1, 7, 60, 105]
    with pytest.raises(ValueError, match="not a duration"):
        minutes("soon")
