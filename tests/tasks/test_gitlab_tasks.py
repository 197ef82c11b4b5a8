"""The code host's task families: instances from the seed data, and oracles that earn the reward."""

from __future__ import annotations

import copy
from collections import Counter
from functools import cache

import pytest

from webarena_gym.sites.world import pristine_database
from webarena_gym.tasks.embedded.gitlab import FAMILIES
from webarena_gym.tasks.oracle import run_answer, run_oracle

BY_NAME = {family.name: family for family in FAMILIES}


@cache
def instances(name: str) -> list[dict]:
    return BY_NAME[name].instantiate(pristine_database)


def first(name: str) -> dict:
    return copy.deepcopy(instances(name)[0])


# --- instantiate ---------------------------------------------------------------------


def test_quota_and_sizes():
    sizes = {family.name: len(instances(family.name)) for family in FAMILIES}
    assert len(FAMILIES) >= 8 and sum(sizes.values()) >= 150
    assert min(sizes.values()) >= 10, sizes


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_instances_are_distinct_deterministic_and_well_formed(name):
    items = instances(name)
    intents = [item["intent"] for item in items]
    assert len(set(intents)) == len(intents)
    assert BY_NAME[name].instantiate(pristine_database) == items
    for item in items:
        assert item["sites"] == ["gitlab"] and item["start_url"] == "__GITLAB__" and item["require_login"]
        assert "{{" not in item["intent"]
        assert set(item["eval"]["eval_types"]) <= {"string_match", "url_match", "program_html"}


def test_evaluator_mix_follows_webarena_lite():
    kinds = Counter(tuple(instances(f.name)[0]["eval"]["eval_types"]) for f in FAMILIES)
    total = sum(kinds.values())
    assert 0.45 <= kinds[("string_match",)] / total <= 0.6
    assert 0.15 <= kinds[("url_match",)] / total <= 0.25
    assert 0.2 <= kinds[("program_html",)] / total <= 0.3
    answers = [instances(f.name)[0]["eval"]["reference_answers"] or {} for f in FAMILIES]
    assert any("exact_match" in a for a in answers) and any("fuzzy_match" in a for a in answers)
    assert any(" |OR| " in item for a in answers for item in a.get("must_include", []))
    assert {"fuzzy_match": "N/A"} in answers
    notes = {instances(f.name)[0]["eval"].get("url_note") for f in FAMILIES}
    assert "GOLD in PRED" in notes
    urls = [t["url"] for f in FAMILIES for t in instances(f.name)[0]["eval"]["program_html"]]
    assert "last" in urls and any(u.startswith("func:") for u in urls) and any(u.startswith("__GITLAB__/") for u in urls)


def test_references_agree_with_the_site(site_client):
    gitlab = site_client("gitlab", "byteblaze")
    clone = first("gitlab.clone_ssh")
    command = clone["eval"]["reference_answers"]["exact_match"]
    path = command.split(":2222")[1].removesuffix(".git")
    assert command.removeprefix("git clone ") in gitlab.get(path).get_data(as_text=True)
    top = first("gitlab.top_contributor")
    repo = top["instantiation_dict"]["repo"]
    page = gitlab.get(f"/byteblaze/{repo}/-/graphs/main").get_data(as_text=True)
    assert page.index(top["eval"]["reference_answers"]["exact_match"]) < page.index("</tr>", page.index("<tr class=\"person\">"))


# --- oracles -------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_oracle_solves_the_first_instances(name):
    for item in instances(name)[:2]:
        episode = run_oracle(item, BY_NAME[name].solve)
        assert episode.reward == 1.0, (item["intent"], episode.actions, episode.info.get("reward_components"))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_oracle_solves_every_instance(name):
    for item in instances(name)[2:]:
        episode = run_oracle(item, BY_NAME[name].solve)
        assert episode.reward == 1.0, (item["intent"], episode.actions, episode.info.get("reward_components"))


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_exiting_at_once_with_a_wrong_answer_earns_nothing(name):
    item = instances(name)[0]
    assert run_answer(item, "byteblaze/dotfiles, 12345").reward == 0.0
    if "string_match" in item["eval"]["eval_types"]:
        assert run_answer(item, None).reward == 0.0  # stalling until the step limit


#: Values the oracle is sent after instead of the asked-for one (None: another instance's value).
WRONG = {
    "gitlab.invite_member": ("role", ("Guest", "Reporter", "Developer", "Maintainer")),
    "gitlab.set_status": ("status", None),
    "gitlab.follow_user": ("user", None),
    "gitlab.new_project": ("visibility", None),
    "gitlab.new_issue": ("repo", None),
    "gitlab.star_project": ("repo", None),
    "gitlab.issues_by_label": ("label", ("bug", "enhancement", "documentation")),  # every project has these
    "gitlab.mrs_by_state": ("state", ("merged", "closed")),
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_doing_the_wrong_thing_earns_nothing(name):
    """The oracle, sent after another value than the task asks for, must fail the evaluation."""
    key, values = WRONG[name]
    task = copy.deepcopy(instances(name)[0])
    choices = set(values or (item["instantiation_dict"][key] for item in instances(name)))
    task["instantiation_dict"][key] = sorted(choices - {task["instantiation_dict"][key]})[0]
    assert run_oracle(task, BY_NAME[name].solve).reward == 0.0, task["instantiation_dict"]


@pytest.mark.browser
@pytest.mark.parametrize("name", ["gitlab.issues_by_label", "gitlab.invite_member", "gitlab.new_project"])
def test_oracle_earns_the_reward_in_a_real_browser(name):
    episode = run_oracle(instances(name)[1], BY_NAME[name].solve, backend="playwright")
    assert episode.reward == 1.0, (episode.actions, episode.info.get("reward_components"))
