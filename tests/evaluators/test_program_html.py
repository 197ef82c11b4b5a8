"""program_html on StaticPage: last / literal / func: urls, locators, required contents, failures."""

from __future__ import annotations

import re

import pytest

from webarena_gym.errors import ConfigurationError, TaskDataError
from webarena_gym.evaluators import StaticPage, evaluate

from .site_pages import FORUM_POST, GITLAB_MEMBERS, STORE_ADMIN_PRODUCT

REDDIT = "http://127.0.0.1:9999"
GITLAB = "http://127.0.0.1:8023"
ADMIN = "http://127.0.0.1:7780/admin"


def html_task(*targets, eval_types=("program_html",), reference_url="", url_note=None, sites=("reddit",)):
    data = {
        "eval_types": list(eval_types),
        "reference_answers": None,
        "reference_url": reference_url,
        "program_html": list(targets),
    }
    if url_note:
        data["url_note"] = url_note
    return {
        "task_id": 600,
        "sites": list(sites),
        "start_url": "__REDDIT__",
        "intent": "Post a review",
        "eval": data,
    }


def target(url, locator, **required):
    return {"url": url, "locator": locator, "required_contents": required}


def test_last_url_reads_the_final_page():
    task = html_task(
        target(
            "last",
            "document.querySelector('.submission__title').outerText",
            exact_match="To Kill a Mockingbird by Harper Lee",
        )
    )
    page = StaticPage(f"{REDDIT}/f/books/59421/good-book", FORUM_POST)
    result = evaluate(task, answer=None, page=page)
    assert result.reward == 1.0
    assert result.details["program_html"]["targets"][0]["text"] == "To Kill a Mockingbird by Harper Lee"


def test_func_url_opens_the_canonical_post_of_the_last_url():
    task = html_task(
        target(
            "func:reddit_get_post_url('__last_url__')",
            "document.querySelector('.submission__inner').outerText",
            must_include=["To Kill a Mockingbird by Harper Lee", "good book!"],
        )
    )
    final = f"{REDDIT}/f/books/59421/good-book/comment/7"
    page = StaticPage(final, "<p>a comment page</p>", other_pages={f"{REDDIT}/f/books/59421/": FORUM_POST})
    result = evaluate(task, answer=None, url=final, page=page)
    assert result.reward == 1.0
    assert result.details["program_html"]["targets"][0]["url"] == f"{REDDIT}/f/books/59421/"


def test_literal_urls_are_opened_and_each_target_must_pass():
    members = f"{GITLAB}/byteblaze/dotfiles/-/project_members"
    task = html_task(
        target(members, "func:gitlab_get_project_memeber_role(__page__, 'yjlou')", must_include=["Guest"]),
        target("last", "func:gitlab_get_project_memeber_role(__page__, 'byteblaze')", must_include=["Owner"]),
        sites=("gitlab",),
    )
    page = StaticPage(f"{GITLAB}/byteblaze", "<p>profile</p>", other_pages={members: GITLAB_MEMBERS})
    assert evaluate(task, answer=None, page=page).reward == 1.0

    wrong_role = html_task(
        target(members, "func:gitlab_get_project_memeber_role(__page__, 'yjlou')", must_include=["Reporter"]),
        sites=("gitlab",),
    )
    page = StaticPage(f"{GITLAB}/byteblaze", "<p>profile</p>", other_pages={members: GITLAB_MEMBERS})
    result = evaluate(wrong_role, answer=None, page=page)
    assert result.reward == 0.0
    assert result.details["program_html"]["targets"][0]["must_include_missing"] == ["Reporter"]


def test_empty_locator_reads_the_whole_page_html():
    task = html_task(target("last", "", must_include=["vote--user-upvoted"]))
    assert evaluate(task, answer=None, page=StaticPage(f"{REDDIT}/f/books", FORUM_POST)).reward == 1.0


def test_a_failing_locator_reads_as_empty_and_fails_the_check():
    task = html_task(target("last", "document.querySelector('.no-such-thing').outerText", must_include=["x"]))
    result = evaluate(task, answer=None, page=StaticPage(f"{REDDIT}/f/books", FORUM_POST))
    assert result.reward == 0.0
    assert result.details["program_html"]["targets"][0]["text"] == ""


def test_exact_match_and_fuzzy_match_on_located_values():
    product = f"{ADMIN}/catalog/product/edit/id/5/"
    task = html_task(
        target(product, "document.querySelector('[name=\"product[price]\"').value", exact_match="29.00"),
        target(
            "last", "document.querySelector('[name=\"route_from\"').value", fuzzy_match=["Carnegie Mellon"]
        ),
        sites=("shopping_admin",),
    )
    page = StaticPage(f"{ADMIN}/dashboard", "<p>dash</p>", other_pages={product: STORE_ADMIN_PRODUCT})
    assert evaluate(task, answer=None, page=page).reward == 1.0


def test_the_judge_reads_a_located_text_as_it_is():
    """VisualAgentBench hands its fuzzy judge the located text uncleaned (quotes and case kept)."""
    calls = []

    def judge(intent: str, answer: str, reference: str) -> bool:
        calls.append((intent, answer, reference))
        return True

    task = html_task(target("last", "document.querySelector('h1').outerText", fuzzy_match=["Carnegie Mellon", "CMU"]))
    page = StaticPage(f"{REDDIT}/f/books", "<h1>'Carnegie MELLON'</h1>")
    assert evaluate(task, answer=None, page=page, judge=judge).reward == 1.0
    assert calls == [("Post a review", "'Carnegie MELLON'", "Carnegie Mellon, CMU")]


def test_prep_actions_are_run_and_ignored_on_saved_html():
    prep = "document.querySelector('[data-index=\"actions\"]').querySelector('.admin__collapsible-title').click()"
    task = html_task(
        {
            **target(
                "last",
                "document.querySelector('[name=\"product[name]\"').value",
                exact_match="Sprite Yoga Strap 6 foot",
            ),
            "prep_actions": [prep],
        },
        sites=("shopping_admin",),
    )
    assert evaluate(task, answer=None, page=StaticPage(f"{ADMIN}/x", STORE_ADMIN_PRODUCT)).reward == 1.0


def test_url_match_and_program_html_multiply():
    post = f"{REDDIT}/f/books/59421/good-book"
    task = html_task(
        target("last", "document.querySelector('.comment__body').outerText", exact_match="Nice post"),
        eval_types=("url_match", "program_html"),
        reference_url=post,
        url_note="GOLD in PRED",
    )
    good = evaluate(task, answer=None, page=StaticPage(post, FORUM_POST))
    assert (good.reward, good.components) == (1.0, {"url_match": 1.0, "program_html": 1.0})
    elsewhere = evaluate(task, answer=None, page=StaticPage(f"{REDDIT}/f/pics/1", FORUM_POST))
    assert (elsewhere.reward, elsewhere.components) == (0.0, {"url_match": 0.0, "program_html": 1.0})


def test_placeholders_are_resolved_with_the_pages_site_urls():
    task = html_task(
        target(
            "__REDDIT__/f/books/59421/good-book",
            "document.querySelector('.comment__body').outerText",
            exact_match="Nice post",
        )
    )
    page = StaticPage(
        f"{REDDIT}/f/books",
        "<p/>",
        other_pages={f"{REDDIT}/f/books/59421/good-book": FORUM_POST},
        site_urls={"reddit": REDDIT},
    )
    assert evaluate(task, answer=None, page=page).reward == 1.0


def test_a_static_page_refuses_pages_it_does_not_hold():
    task = html_task(target(f"{REDDIT}/f/pics/2", "", must_include=["x"]))
    with pytest.raises(ConfigurationError, match="other_pages"):
        evaluate(task, answer=None, page=StaticPage(f"{REDDIT}/f/books", FORUM_POST))


def test_program_html_without_a_page_says_how_to_fix_it():
    task = html_task(target("last", "", must_include=["x"]))
    with pytest.raises(ConfigurationError, match="StaticPage"):
        evaluate(task, answer=None, url=f"{REDDIT}/f/books")


def test_unknown_func_helper_is_a_data_error():
    task = html_task(target("last", "func:no_such_helper(__page__)", must_include=["x"]))
    with pytest.raises(TaskDataError, match="no_such_helper"):
        evaluate(task, answer=None, page=StaticPage(f"{REDDIT}/f/books", FORUM_POST))


def test_rescoring_a_page_saved_from_the_embedded_forum(site_client):
    client = site_client("reddit")
    front = client.get("/").get_data(as_text=True)
    post_path = re.search(r'href="(/f/[^/"]+/\d+/[^"#]+)"', front).group(1)
    post_html = client.get(post_path).get_data(as_text=True)
    title = StaticPage(REDDIT + post_path, post_html).evaluate_locator(
        "document.querySelector('.submission__title').outerText"
    )
    assert title
    task = html_task(
        target(
            "func:reddit_get_post_url('__last_url__')",
            "document.querySelector('.submission__inner').outerText",
            must_include=[title],
        )
    )
    canonical = REDDIT + "/".join(post_path.split("/")[:4]) + "/"
    page = StaticPage(REDDIT + post_path, post_html, other_pages={canonical: post_html})
    assert evaluate(task, answer=None, page=page).reward == 1.0
