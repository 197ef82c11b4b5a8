"""The official WebArena / WebArena-Lite tasks: loading, splits, placeholders, evaluator coverage."""

from __future__ import annotations

import json

import pytest

from webarena_gym.dom.locator_syntax import parse_locator
from webarena_gym.dom.locators import evaluate_locator_on_html
from webarena_gym.errors import ConfigurationError, TaskDataError
from webarena_gym.evaluators import evaluate
from webarena_gym.evaluators.functions import parse_function, registered_functions
from webarena_gym.suites import official
from webarena_gym.suites.official import load_official_tasks, official_data_path
from webarena_gym.webarena_sites import site_urls_from_environment

FAKE_SITES = {
    "shopping": "http://shop.test:7770",
    "shopping_admin": "http://shop.test:7780/admin",
    "reddit": "http://forum.test:9999",
    "gitlab": "http://git.test:8023",
    "map": "http://map.test:3000",
    "wikipedia": "http://wiki.test:8888",
    "homepage": "http://home.test:4399",
}
REST_HELPERS = {
    "shopping_get_latest_order_url",
    "shopping_get_sku_latest_review_author",
    "shopping_get_sku_latest_review_rating",
}


@pytest.fixture(scope="module")
def test_split():
    return load_official_tasks("test", site_urls=FAKE_SITES)


@pytest.fixture(scope="module")
def train_split():
    return load_official_tasks("train", site_urls=FAKE_SITES)


def test_all_812_webarena_tasks_load():
    raw = json.loads(official_data_path("webarena").read_text())
    assert len(raw) == 812
    assert (
        len(load_official_tasks("train", site_urls={})) + len(load_official_tasks("test", site_urls={}))
        == 812
    )


def test_split_sizes_and_no_overlap(test_split, train_split):
    assert (len(test_split), len(train_split)) == (165, 647)
    lite_ids = {t.webarena_id for t in test_split}
    train_ids = {t.webarena_id for t in train_split}
    assert len(lite_ids) == 165 and not lite_ids & train_ids
    assert lite_ids | train_ids == set(range(812))
    assert [t.task_id for t in test_split] == list(range(165))


def test_resolution_leaves_no_placeholder(test_split, train_split):
    for task in [*test_split, *train_split]:
        assert not task.placeholders(), task.task_id
        assert task.start_url.startswith("http://"), task.task_id
    assert test_split[0].start_url == "http://shop.test:7780/admin"


def test_the_bare_string_quirk_is_normalized(test_split):
    assert test_split[81].eval.reference_answers.must_include == ("yjlou",)


class AnyPage:
    """A page that opens any URL as an empty document (to drive every evaluator path)."""

    def __init__(self, url: str):
        self.url = url
        self.world = None
        self.site_urls = dict(FAKE_SITES)

    def goto(self, url: str) -> None:
        self.url = url

    def content(self) -> str:
        return "<html><body></body></html>"

    def evaluate_locator(self, locator: str) -> str:
        return evaluate_locator_on_html(self.content(), locator)


def test_every_task_maps_to_known_evaluators(test_split, train_split):
    helpers = set(registered_functions())
    checked = 0
    for task in [*test_split, *train_split]:
        uses_rest = False
        for target in task.eval.program_html:
            for expression in (target.url, target.locator):
                if expression.startswith("func:"):
                    name, _args = parse_function(expression)
                    assert name in helpers, (task.task_id, name)
                    uses_rest |= name in REST_HELPERS
                elif expression and expression != "last" and not expression.startswith("http"):
                    parse_locator(expression)
        if uses_rest:
            continue  # these query the real store's REST API (covered in tests/evaluators)
        result = evaluate(task, answer="N/A", url=task.start_url, page=AnyPage(task.start_url))
        assert list(result.components) == list(task.eval.eval_types)
        assert result.reward in (0.0, 1.0)
        checked += 1
    assert checked > 750


def test_unknown_split_is_a_clear_error():
    with pytest.raises(ConfigurationError, match=r"split must be one of \('test', 'train'\), got 'dev'"):
        load_official_tasks("dev")


def test_explicit_paths(tmp_path):
    lite = json.loads(official_data_path("webarena-lite").read_text())
    small = tmp_path / "lite.json"
    small.write_text(json.dumps(lite[:3]))
    assert [t.task_id for t in load_official_tasks("test", path=small, site_urls={})] == [0, 1, 2]
    train = load_official_tasks("train", path=official_data_path("webarena"), lite_path=small, site_urls={})
    assert len(train) == 812 - 3


def test_unreadable_files_are_clear_errors(tmp_path):
    with pytest.raises(TaskDataError, match="Cannot read the task file"):
        load_official_tasks("test", path=tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(TaskDataError, match="not readable JSON"):
        load_official_tasks("test", path=bad)
    bad.write_text('{"tasks": []}')
    with pytest.raises(TaskDataError, match="must hold a JSON list"):
        load_official_tasks("test", path=bad)
    bad.write_text(
        json.dumps([{"task_id": 1, "sites": ["map"], "start_url": "x", "intent": "y", "eval": {}}])
    )
    with pytest.raises(TaskDataError, match=r"bad.json, entry 0: Task 1, field eval.eval_types"):
        load_official_tasks("test", path=bad)


def test_a_missing_package_names_the_pip_command(monkeypatch):
    monkeypatch.setitem(
        official.OFFICIAL_DATA,
        "webarena",
        (
            "webarena-gym-no-such-dist",
            "webarena/test.raw.json",
            "webarena_gym_no_such_pkg",
            "pip install libwebarena",
        ),
    )
    with pytest.raises(TaskDataError, match="pip install libwebarena"):
        official_data_path("webarena")
    with pytest.raises(ConfigurationError, match="Unknown official task file"):
        official_data_path("mind2web")


def test_site_urls_come_from_the_environment(monkeypatch):
    for site in FAKE_SITES:
        monkeypatch.delenv(f"WA_{site.upper()}", raising=False)
        monkeypatch.delenv(site.upper(), raising=False)
    assert site_urls_from_environment() == {}
    monkeypatch.setenv("WA_GITLAB", "http://localhost:8023")
    monkeypatch.setenv("SHOPPING", "http://localhost:7770/")
    monkeypatch.setenv("MAP", "not-a-url")  # some other program's variable: ignored
    assert site_urls_from_environment() == {
        "gitlab": "http://localhost:8023",
        "shopping": "http://localhost:7770/",
    }
    task = load_official_tasks("test")[81]
    assert task.start_url == "http://localhost:8023"
    monkeypatch.setenv("WA_REDDIT", "localhost:9999")
    with pytest.raises(ConfigurationError, match="WA_REDDIT='localhost:9999' is not a URL"):
        site_urls_from_environment()
