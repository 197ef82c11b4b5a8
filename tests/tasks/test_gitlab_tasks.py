"""The code host's task families: instances from the seed data, and oracles that earn the reward."""

from __future__ import annotations

import copy
from collections import Counter
from functools import cache

import pytest

from webarena_gym.oracle_runner import run_oracle
from webarena_gym.sites.gitlab.families import FAMILIES
from webarena_gym.sites.world import pristine_database

from .family_checks import check_instances, check_oracle_solves, check_quota, check_wrong_answers_earn_nothing

BY_NAME = {family.name: family for family in FAMILIES}


@cache
def instances(name: str) -> list[dict]:
    return BY_NAME[name].instantiate(pristine_database)


def first(name: str) -> dict:
    return copy.deepcopy(instances(name)[0])


# --- instantiate ---------------------------------------------------------------------


def test_quota_and_sizes():
    all_instances = {family.name: instances(family.name) for family in FAMILIES}
    check_quota(FAMILIES, all_instances, prefix="gitlab.", families_at_least=8, tasks_at_least=150)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_instances_are_distinct_deterministic_and_well_formed(name):
    check_instances(BY_NAME[name], instances(name), start_url="__GITLAB__")


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
    check_oracle_solves(BY_NAME[name], instances(name)[:2])


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_exiting_at_once_with_a_wrong_answer_earns_nothing(name):
    check_wrong_answers_earn_nothing(instances(name)[:1], "byteblaze/dotfiles, 12345", stall_only_string_match=True)


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
