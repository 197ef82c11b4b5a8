"""The forum's task families: instances from the seeded data, and oracles that earn the reward."""

from __future__ import annotations

import re

import lxml.html
import pytest

from webarena_gym.evaluators.functions import registered_functions
from webarena_gym.sites.world import pristine_database
from webarena_gym.tasks.embedded.reddit import FAMILIES
from webarena_gym.tasks.task import Task

INSTANCES = {family.name: family.instantiate(pristine_database) for family in FAMILIES}
ALL = [(family, item) for family in FAMILIES for item in INSTANCES[family.name]]


def evals():
    return [item["eval"] for _family, item in ALL]


def test_quota_families_and_instances():
    assert len(FAMILIES) >= 6 and all(f.name.startswith("reddit.") for f in FAMILIES)
    assert sum(len(items) for items in INSTANCES.values()) >= 95
    assert {name: len(items) for name, items in INSTANCES.items() if len(items) < 10} == {}
    assert {f.kind for f in FAMILIES} == {"information", "navigation", "content"}


def test_instances_are_valid_distinct_and_deterministic():
    for family, item in ALL:
        task = Task.from_dict(item | {"task_id": 0, "intent_template": family.intent_template})
        assert task.sites == ("reddit",) and task.start_url.startswith("__REDDIT__")
        assert "{{" not in task.intent
    for family in FAMILIES:
        intents = [item["intent"] for item in INSTANCES[family.name]]
        assert len(set(intents)) == len(intents), family.name
        assert family.instantiate(pristine_database) == INSTANCES[family.name]


def test_evaluator_mix_follows_webarena_lite():
    kinds = [tuple(next(iter(f.instantiate(pristine_database)))["eval"]["eval_types"]) for f in FAMILIES]
    share = lambda name: sum(name in k for k in kinds) / len(kinds)  # noqa: E731
    assert 0.45 <= share("string_match") <= 0.65
    assert 0.15 <= share("url_match") <= 0.35
    assert 0.2 <= share("program_html") <= 0.4
    answers = [e["reference_answers"] for e in evals() if e["reference_answers"]]
    assert any("exact_match" in a for a in answers)
    assert any(" |OR| " in m for a in answers for m in a.get("must_include", []))
    assert any(isinstance(a.get("fuzzy_match"), list) for a in answers)
    assert any(a.get("fuzzy_match") == "N/A" for a in answers)
    assert any(e.get("url_note") == "GOLD in PRED" and "?" in e["reference_url"] for e in evals())
    urls = [t["url"] for e in evals() for t in e["program_html"]]
    assert "last" in urls and any(u.startswith("__REDDIT__/") for u in urls)
    helpers = {re.match(r"func:(\w+)", u).group(1) for u in urls if u.startswith("func:")}
    assert helpers and helpers <= set(registered_functions())


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


# -- oracles (need the env, the direct backend and the evaluators) ---------------------------

oracle = pytest.importorskip("webarena_gym.tasks.oracle")


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_oracle_solves_every_instance(family):
    for item in INSTANCES[family.name]:
        episode = oracle.run_oracle(item, family.solve)
        assert episode.reward == 1.0, (item["intent"], episode.actions, episode.info.get("reward_components"))


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_wrong_or_missing_answers_earn_nothing(family):
    item = INSTANCES[family.name][0]
    assert oracle.run_answer(item, "I am not sure").reward == 0.0
    assert oracle.run_answer(item, None).reward == 0.0


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_oracle_solves_in_a_real_browser(family):
    episode = oracle.run_oracle(INSTANCES[family.name][0], family.solve, backend="playwright")
    assert episode.reward == 1.0, (episode.actions, episode.info.get("reward_components"))
