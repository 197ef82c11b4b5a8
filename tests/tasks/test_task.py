"""The Task type: validation with clear messages, quirk normalisation, round trips, placeholders."""

from __future__ import annotations

import copy
import json

import pytest

from webarena_gym.errors import ConfigurationError, TaskDataError
from webarena_gym.tasks.task import Task

RAW = {
    "sites": ["reddit"],
    "task_id": 600,
    "require_login": True,
    "storage_state": "./.auth/reddit_state.json",
    "start_url": "__REDDIT__/f/books",
    "geolocation": None,
    "intent_template": 'Post my question, "{{question}}", in a subreddit where I\'m likely to get an answer.',
    "instantiation_dict": {"question": "what is the recommended console to buy these days"},
    "intent": 'Post my question, "what is the recommended console to buy these days", in a subreddit ...',
    "require_reset": False,
    "eval": {
        "eval_types": ["url_match", "program_html"],
        "reference_answers": None,
        "reference_url": "__REDDIT__/f/consoles |OR| __REDDIT__/f/gaming",
        "program_html": [
            {
                "url": "func:reddit_get_post_url('__last_url__')",
                "locator": "document.querySelector('.submission__inner').outerText",
                "required_contents": {"must_include": ["what is the recommended console to buy these days"]},
            }
        ],
        "url_note": "GOLD in PRED",
    },
    "intent_template_id": 6100,
}


def test_from_dict_reads_every_field():
    task = Task.from_dict(RAW)
    assert task.task_id == 600 and task.sites == ("reddit",) and task.require_login
    assert task.eval.eval_types == ("url_match", "program_html")
    assert task.eval.url_note == "GOLD in PRED"
    target = task.eval.program_html[0]
    assert target.url.startswith("func:reddit_get_post_url")
    assert target.required_contents.must_include == ("what is the recommended console to buy these days",)
    assert task.instantiation_dict["question"].startswith("what is")


def test_to_dict_round_trips():
    task = Task.from_dict(RAW)
    assert task.to_dict() == RAW
    assert Task.from_dict(json.loads(json.dumps(task.to_dict()))) == task
    hash(task)  # frozen and hashable despite its dict fields


def test_bare_string_must_include_is_read_as_a_list_and_kept_as_the_data_gave_it():
    raw = copy.deepcopy(RAW)
    raw["eval"] = {
        "eval_types": ["string_match"],
        "reference_answers": {"must_include": "yjlou"},
        "reference_url": "",
        "program_html": [],
    }
    task = Task.from_dict(raw)
    assert task.eval.reference_answers.must_include == ("yjlou",)
    assert task.eval.reference_answers.must_include_is_string  # VisualAgentBench's evaluator raises on it
    assert task.to_dict()["eval"]["reference_answers"] == {"must_include": "yjlou"}
    assert Task.from_dict(task.to_dict()) == task


def test_eval_types_order_and_unknown_keys_are_kept():
    raw = copy.deepcopy(RAW)
    raw["eval"]["eval_types"] = ["program_html", "url_match"]
    raw["eval"]["annotation_note"] = "checked twice"
    raw["eval"]["program_html"][0]["prep_actions"] = ["document.querySelector('x').click()"]
    raw["old_task_id"] = 12
    raw["custom"] = {"k": 1}
    task = Task.from_dict(raw)
    assert task.eval.eval_types == ("program_html", "url_match")
    assert task.eval.program_html[0].prep_actions == ("document.querySelector('x').click()",)
    assert task.webarena_id == 12
    assert task.to_dict() == raw


def test_resolve_replaces_placeholders_in_every_string():
    raw = copy.deepcopy(RAW)
    raw["eval"]["program_html"][0]["required_contents"] = {"must_include": ["__REDDIT__/f/consoles"]}
    task = Task.from_dict(raw)
    assert task.placeholders() == {"__REDDIT__"}
    resolved = task.resolve({"reddit": "http://127.0.0.1:9999/"})
    assert resolved.start_url == "http://127.0.0.1:9999/f/books"
    assert (
        resolved.eval.reference_url == "http://127.0.0.1:9999/f/consoles |OR| http://127.0.0.1:9999/f/gaming"
    )
    assert resolved.eval.program_html[0].required_contents.must_include == (
        "http://127.0.0.1:9999/f/consoles",
    )
    assert resolved.placeholders() == set()
    assert task.resolve({}) is task
    assert task.resolve({"gitlab": "http://g"}).placeholders() == {"__REDDIT__"}


def test_admin_placeholder_is_not_confused_with_the_store():
    raw = copy.deepcopy(RAW)
    raw["start_url"] = "__SHOPPING_ADMIN__/admin/system_design_theme/edit/id/1"
    resolved = Task.from_dict(raw).resolve(
        {"shopping": "http://s:7770", "shopping_admin": "http://s:7780/admin"}
    )
    # Magento's real theme-editor URL: the doubled /admin is kept on purpose
    assert resolved.start_url == "http://s:7780/admin/admin/system_design_theme/edit/id/1"


def test_resolve_rejects_unknown_sites_and_urls_that_are_not_http():
    task = Task.from_dict(RAW)
    with pytest.raises(ConfigurationError, match="Unknown site 'forum'"):
        task.resolve({"forum": "http://x"})
    for url in (" ", "localhost:9999", "ftp://x", None):
        with pytest.raises(ConfigurationError, match=r"site_urls\['reddit'\] must be the site's http\(s\) base URL"):
            task.resolve({"reddit": url})


def broken(path: str, value):
    raw = copy.deepcopy(RAW)
    *parents, key = path.split(".")
    node = raw
    for part in parents:
        node = node[part] if not part.isdigit() else node[int(part)]
    if value is KeyError:
        del node[key]
    else:
        node[key] = value
    return raw


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("task_id", None, r"Task None, field task_id: expected an integer or a string"),
        ("intent", KeyError, r"Task 600, field intent: is missing"),
        ("sites", "reddit", None),  # a bare string site is accepted like a bare must_include
        ("sites", [], r"field sites: expected at least one site"),
        ("start_url", 5, r"field start_url: expected a string, got int 5"),
        ("require_login", "yes", r"field require_login: expected true or false"),
        (
            "eval.eval_types",
            ["string_match", "llm_judge"],
            r"field eval.eval_types: unknown evaluator 'llm_judge'",
        ),
        ("eval.eval_types", [], r"field eval.eval_types: expected a non-empty list"),
        ("eval.url_note", "FUZZY", r"field eval.url_note: expected one of \['EXACT', 'GOLD in PRED'\]"),
        ("eval.reference_url", "", r"field eval.reference_url: url_match needs a reference URL"),
        (
            "eval.program_html",
            [],
            r"field eval.program_html: program_html is an eval type but has no targets",
        ),
        ("eval.program_html.0.locator", KeyError, r"field eval.program_html\[0\].locator: is missing"),
        (
            "eval.program_html.0.required_contents",
            {"regex": "x"},
            r"field eval.program_html\[0\].required_contents: unsupported kind\(s\) \['regex'\]",
        ),
        (
            "eval.program_html.0.required_contents",
            {"must_include": [1]},
            r"field eval.program_html\[0\].required_contents.must_include: expected a list of strings",
        ),
    ],
)
def test_malformed_tasks_name_the_task_and_field(path, value, message):
    if message is None:
        assert Task.from_dict(broken(path, value)).sites == ("reddit",)
        return
    with pytest.raises(TaskDataError, match=message):
        Task.from_dict(broken(path, value))


def test_string_match_needs_reference_answers():
    raw = broken("eval.eval_types", ["string_match"])
    with pytest.raises(
        TaskDataError, match="field eval.reference_answers: string_match needs reference answers"
    ):
        Task.from_dict(raw)
    raw["eval"]["reference_answers"] = {"fuzzy_match": "maybe"}
    with pytest.raises(TaskDataError, match='expected a list of strings or "N/A"'):
        Task.from_dict(raw)
    raw["eval"]["reference_answers"] = {"fuzzy_match": "N/A"}
    assert Task.from_dict(raw).eval.reference_answers.fuzzy_match == "N/A"


def test_a_task_must_be_an_object():
    with pytest.raises(TaskDataError, match="must be a JSON object"):
        Task.from_dict(["not", "a", "task"])
