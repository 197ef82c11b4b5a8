"""The forum's task families: instances from the seeded data, and oracles that earn the reward."""

from __future__ import annotations

import re

import lxml.html
import pytest

from webarena_gym.evaluators.functions import register_functions
from webarena_gym.oracle_runner import run_oracle
from webarena_gym.sites.reddit.families import FAMILIES, FUNCTIONS
from webarena_gym.sites.reddit.families.common import open_forum
from webarena_gym.sites.reddit.families.posting import QUESTIONS, suitable_forums
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


def _forums_in_search(client, query):
    forums, path = set(), f"/search?q={query}"
    while path:
        doc = lxml.html.fromstring(client.get(path).get_data(as_text=True))
        forums |= {a.text_content() for a in doc.cssselect(".submission__info a:nth-of-type(2)")}
        path = next((a.get("href") for a in doc.cssselect("a[rel=next]")), None)
    return forums


def _reference_forums(item):
    return {url.rsplit("/", 1)[1] for url in item["eval"]["reference_url"].split(" |OR| ")}


def test_suitable_forums_are_those_the_search_finds(site_client):
    client = site_client("reddit")
    for name in ("reddit.question_on_topic", "reddit.discussion_post"):
        for item in INSTANCES[name]:
            topic = item["instantiation_dict"]["topic"]
            assert _reference_forums(item) == _forums_in_search(client, topic), (name, topic)


def test_new_vote_and_topic_references_agree_with_the_site(site_client):
    client = site_client("reddit")
    for item in INSTANCES["reddit.like_all_by_user"] + INSTANCES["reddit.dislike_all_by_user"]:
        values, posts = item["instantiation_dict"], set()
        path = f"/user/{values['user']}"
        while path:
            doc = lxml.html.fromstring(client.get(path).get_data(as_text=True))
            for row in doc.cssselect(".submission"):
                if row.cssselect(".submission__info a")[1].text_content() == values["subreddit"]:
                    posts.add(row.cssselect(".submission__title a")[0].get("href"))
            path = next((a.get("href") for a in doc.cssselect("a[rel=next]")), None)
        assert {t["url"].replace("__REDDIT__", "") for t in item["eval"]["program_html"]} == posts
    for item in INSTANCES["reddit.top_posts_about"]:
        values = item["instantiation_dict"]
        topic = re.search(r"talks about (.+)\? If so", values["description"])[1].lower()
        doc = lxml.html.fromstring(client.get(f"/f/{values['subreddit']}/top").get_data(as_text=True))
        rows = doc.cssselect(".submission")[: values["number"]]
        authors = [r.cssselect(".submission__info a")[0].text_content() for r in rows
                   if topic in r.cssselect(".submission__title a")[0].text_content().lower()]
        assert authors == item["eval"]["reference_answers"]["must_include"]


def _post_question_in(forum):
    def solve(ctx):
        yield from open_forum(ctx, forum)
        yield ctx.click(f"Submit a post to {forum}", tag="a", exact=True)
        yield ctx.type("Title", ctx.instantiation["question"])
        yield ctx.click("Create submission", tag="button", exact=True)
        yield ctx.exit("Done")

    return solve


def test_open_ended_post_counts_in_any_suitable_forum_and_no_other():
    conn = pristine_database("reddit")
    item = next(i for i in INSTANCES["reddit.question_anywhere"] if len(_reference_forums(i)) > 1)
    question = item["instantiation_dict"]["question"]
    topic = next(m[1] for q in QUESTIONS if (m := re.fullmatch(re.escape(q).replace(r"\{t\}", "(.+)"), question)))
    suitable = suitable_forums(conn, topic)
    assert set(suitable) == _reference_forums(item) and len(suitable) > 1
    # the second suitable forum (the oracle picks the one with most hits) earns the reward too
    assert run_oracle(item, _post_question_in(sorted(suitable)[-1])).reward == 1.0
    other = next(r[0] for r in conn.execute("SELECT name FROM forums ORDER BY name") if r[0] not in suitable)
    assert run_oracle(item, _post_question_in(other)).reward == 0.0


def _post_review_through_the_forum_picker(ctx):
    yield ctx.click("Submit", tag="a", exact=True)
    yield ctx.search("Find a forum", "book")
    yield ctx.click("books", tag="a", exact=True)  # the listbox's option
    yield ctx.type("Title", f"Review: {ctx.instantiation['book']}")
    yield ctx.type("Body", ctx.instantiation["content"])
    yield ctx.click("Create submission", tag="button", exact=True)
    yield ctx.exit("Done")


@pytest.mark.parametrize("backend", ["direct", pytest.param("playwright", marks=[pytest.mark.browser, pytest.mark.slow])])
def test_the_forum_picker_chooses_the_forum_on_both_backends(backend):
    item = INSTANCES["reddit.book_review"][0]
    episode = run_oracle(item, _post_review_through_the_forum_picker, backend=backend)
    assert episode.reward == 1.0, (episode.actions, episode.errors)
    assert "forum_query=book" in episode.urls[2] and episode.urls[3].endswith("/submit/books")


def _repost_without_the_image(ctx):
    yield ctx.click("Submit", tag="a", exact=True)
    yield ctx.type("Title", f"{ctx.instantiation['content']} from /f/pics")
    yield ctx.select("Forum", ctx.instantiation["subreddit"])
    yield ctx.click("Create submission", tag="button", exact=True)
    yield ctx.exit("Done")


def test_a_repost_must_carry_the_image_link():
    item = INSTANCES["reddit.repost_image"][0]
    image = item["eval"]["program_html"][1]["required_contents"]["must_include"][0]
    assert re.fullmatch(r"[0-9a-f]{64}\.jpg", image)
    episode = run_oracle(item, _repost_without_the_image)
    assert episode.reward == 0.0 and episode.info["reward_components"]["url_match"] == 1.0


# -- oracles (the env, the direct backend and the evaluators) --------------------------------


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_oracle_solves_the_first_instances(family):
    check_oracle_solves(family, INSTANCES[family.name][:2])


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_wrong_or_missing_answers_earn_nothing(family):
    check_wrong_answers_earn_nothing(INSTANCES[family.name][:1])
