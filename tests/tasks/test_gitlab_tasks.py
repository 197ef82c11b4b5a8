"""The code host's task families: instances from the seed data, and oracles that earn the reward."""

from __future__ import annotations

import copy
import datetime as dt
from functools import cache

import lxml.html
import pytest

from webarena_gym.oracle_runner import run_oracle
from webarena_gym.sites.gitlab.families import FAMILIES
from webarena_gym.sites.world import pristine_database
from webarena_gym.suites.embedded import all_families

from .family_checks import (
    check_evaluator_mix,
    check_instances,
    check_oracle_solves,
    check_quota,
    check_wrong_answers_earn_nothing,
)

BY_NAME = {family.name: family for family in FAMILIES}


@cache
def instances(name: str) -> list[dict]:
    return BY_NAME[name].instantiate(pristine_database)


def first(name: str) -> dict:
    return copy.deepcopy(instances(name)[0])


#: Families whose tasks start on a project page, as their Lite template's do.
OWN_START_URLS = {"gitlab.commits_day"}


# --- instantiate ---------------------------------------------------------------------


def test_quota_and_sizes():
    all_instances = {family.name: instances(family.name) for family in FAMILIES}
    check_quota(FAMILIES, all_instances, prefix="gitlab.", families_at_least=39, tasks_at_least=800)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_instances_are_distinct_deterministic_and_well_formed(name):
    check_instances(BY_NAME[name], instances(name), start_url="__GITLAB__", own_start_urls=name in OWN_START_URLS)


def test_evaluator_mix_follows_webarena_lite():
    """Lite's 30 GitLab templates: string_match 10, url_match 9, program_html 15 (a task may use two)."""
    all_families()  # registers the site's func: helpers, as loading the suite does
    all_instances = {family.name: instances(family.name) for family in FAMILIES}
    check_evaluator_mix(FAMILIES, all_instances, site_url="__GITLAB__", string_match=(0.3, 0.55),
                        url_match=(0.15, 0.35), program_html=(0.3, 0.55))


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


def test_commit_counts_on_a_day_agree_with_the_commits_page(site_client):
    """The reference of each "commits on a day" task is what the author-filtered commits page shows that day."""
    gitlab = site_client("gitlab", "byteblaze")
    for task in instances("gitlab.commits_repo_day")[:6]:
        values = task["instantiation_dict"]
        repo = values["repo"] if "/" in values["repo"] else f"byteblaze/{values['repo']}"
        month, day, year = (int(part) for part in values["date"].split("/"))
        heading = dt.date(year, month, day).strftime("%b ") + f"{day}, {year}"
        shown, page = 0, 1
        while True:
            doc = lxml.html.fromstring(gitlab.get(f"/{repo}/-/commits/main", query_string={
                "author": values["user"], "page": page}).get_data(as_text=True))
            for header in doc.cssselect("h2.day"):
                if header.text_content() == heading:
                    shown += len(header.getnext().cssselect("li.commit"))
            if not doc.cssselect('nav[aria-label="Pagination"] a') or page > 10 or "Next" not in doc.text_content():
                break
            page += 1
        assert [str(shown)] == task["eval"]["reference_answers"]["must_include"], values


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
    "gitlab.homepage_url": ("url", None),
    "gitlab.dotfiles_guest": ("name", None),
    "gitlab.add_members_role": ("role", ("guest", "reporter", "developer", "maintainer")),
    "gitlab.mr_comment": ("content", None),
    "gitlab.project_with_members": ("scope", ("public", "private", "internal")),
    "gitlab.issue_with_due_date": ("due", None),
    "gitlab.latest_updated_issue": ("keyword", None),
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_doing_the_wrong_thing_earns_nothing(name):
    """The oracle, sent after another value than the task asks for, must fail the evaluation."""
    key, values = WRONG[name]
    task = copy.deepcopy(instances(name)[0])
    choices = set(values or (item["instantiation_dict"][key] for item in instances(name)))
    task["instantiation_dict"][key] = sorted(choices - {task["instantiation_dict"][key]})[0]
    assert run_oracle(task, BY_NAME[name].solve).reward == 0.0, task["instantiation_dict"]
