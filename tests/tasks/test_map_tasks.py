"""The map's task families: instances, evaluator mix, and oracles that earn the reward."""

from __future__ import annotations

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
    assert 0.50 <= kinds["string_match"] / total <= 0.60, kinds
    assert 0.15 <= kinds["url_match"] / total <= 0.25, kinds
    assert 0.20 <= kinds["program_html"] / total <= 0.30, kinds
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
