"""The forum's task families: instances from the seeded data, and oracles that earn the reward."""

from __future__ import annotations

import re

import lxml.html
import pytest

from webarena_gym.evaluators.functions import register_functions
from webarena_gym.sites.reddit.families import FAMILIES, FUNCTIONS
from webarena_gym.sites.world import pristine_database

from .family_checks import (
    check_evaluator_mix,
    check_instances,
    check_oracle_solves,
    check_quota,
    check_wrong_answers_earn_nothing,
)

INSTANCES = {family.name: family.instantiate(pristine_database) for family in FAMILIES}


def test_quota_families_and_instances():
    check_quota(FAMILIES, INSTANCES, prefix="reddit.", families_at_least=6, tasks_at_least=95)


def test_instances_are_valid_distinct_and_deterministic():
    for family in FAMILIES:
        check_instances(family, INSTANCES[family.name], start_url="__REDDIT__", own_start_urls=True)


def test_evaluator_mix_follows_webarena_lite():
    register_functions(FUNCTIONS)  # as the suite does when it loads, so this test runs alone too
    # WebArena-Lite's forum tasks: program_html 17 of 19, url_match 10, string_match 2.
    check_evaluator_mix(FAMILIES, INSTANCES, site_url="__REDDIT__", string_match=(0.2, 0.65),
                        url_match=(0.15, 0.55), program_html=(0.2, 0.9))


def test_references_agree_with_what_the_site_shows(site_client):
    client = site_client("reddit")
    for item in INSTANCES["reddit.top_post_title"]:
        doc = lxml.html.fromstring(client.get(f"/f/{item['instantiation_dict']['forum']}/top").get_data(as_text=True))
        assert doc.cssselect(".submission__title a")[0].text_content() == item["eval"]["reference_answers"]["exact_match"]
    for item in INSTANCES["reddit.subscriber_count"]:
        page = client.get(f"/f/{item['instantiation_dict']['forum']}").get_data(as_text=True)
        shown = re.search(r"([\d,]+) subscribers", page).group(1)
        assert shown in item["eval"]["reference_answers"]["must_include"][0].split(" |OR| ")
    for item in INSTANCES["reddit.vote_post"] + INSTANCES["reddit.reply_to_comment"]:
        for target in item["eval"]["program_html"]:
            path = target["url"].replace("__REDDIT__", "")
            assert client.get(path).status_code == 200, path


# -- oracles (the env, the direct backend and the evaluators) --------------------------------


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_oracle_solves_the_first_instances(family):
    check_oracle_solves(family, INSTANCES[family.name][:2])


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_wrong_or_missing_answers_earn_nothing(family):
    check_wrong_answers_earn_nothing(INSTANCES[family.name][:1])
