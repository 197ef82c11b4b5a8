"""The default evaluators agree with VisualAgentBench's on every case of the differential set.

``data/vab_differential.json`` holds answer, URL and located-text cases over the 165
WebArena-Lite tasks, each with the outcome VisualAgentBench's own evaluators gave and why
the case is there (``scripts/vab_differential.py`` built it by running that code outside
this repository). Cases whose outcome would come from that code's LLM judge are not in it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webarena_gym.evaluators.program_html import program_html
from webarena_gym.evaluators.string_match import string_match
from webarena_gym.evaluators.url_match import url_match
from webarena_gym.suites.official import load_official_tasks

DATA = json.loads((Path(__file__).parent / "data" / "vab_differential.json").read_text(encoding="utf-8"))
PLACEHOLDER_SITES = {
    "__SHOPPING_ADMIN__": "shopping_admin",
    "__SHOPPING__": "shopping",
    "__REDDIT__": "reddit",
    "__GITLAB__": "gitlab",
    "__MAP__": "map",
    "__WIKIPEDIA__": "wikipedia",
    "__HOMEPAGE__": "homepage",
}
SITES = {PLACEHOLDER_SITES[p]: url for p, url in DATA["sites"].items()}


class LocatedTexts:
    """The final page as program_html sees it: each locator (or the page HTML) reads the next text."""

    def __init__(self, url: str, texts: list[str]):
        self.url = url
        self.texts = list(texts)
        self.opened: list[str] = []
        self.world = None
        self.site_urls = SITES

    def goto(self, url: str) -> None:
        self.opened.append(url)

    def evaluate_locator(self, locator: str) -> str:
        return self.texts.pop(0)

    def content(self) -> str:
        return self.texts.pop(0)


@pytest.fixture(scope="module")
def tasks():
    return {t.task_id: t for t in load_official_tasks("test", site_urls=SITES)}


def cases(kind: str) -> list[dict]:
    return [case for case in DATA["cases"] if case["kind"] == kind]


def report(disagreements: list[str]) -> str:
    return f"{len(disagreements)} disagreement(s) with VisualAgentBench:\n" + "\n".join(disagreements[:40])


def test_the_set_covers_the_lite_tasks_with_several_hundred_cases():
    kinds = {kind: len(cases(kind)) for kind in ("string_match", "url_match", "program_html")}
    assert all(count >= 300 for count in kinds.values()), kinds
    assert len({c["task_id"] for c in DATA["cases"]}) >= 100
    assert {c["expected"] for c in DATA["cases"]} == {0.0, 1.0}
    assert all(c["why"] for c in DATA["cases"])


def test_string_match_agrees(tasks):
    disagreements = []
    for case in cases("string_match"):
        task = tasks[case["task_id"]]
        score = string_match(task, case["answer"]).score
        if score != case["expected"]:
            disagreements.append(f"task {case['task_id']} answer {case['answer']!r}: VAB {case['expected']}, ours {score} ({case['why']})")
    assert not disagreements, report(disagreements)


def test_url_match_agrees(tasks):
    disagreements = []
    for case in cases("url_match"):
        task = tasks[case["task_id"]]
        score = float(url_match(case["url"], task.eval.reference_url, task.eval.url_note))
        if score != case["expected"]:
            disagreements.append(f"task {case['task_id']} url {case['url']!r}: VAB {case['expected']}, ours {score} ({case['why']})")
    assert not disagreements, report(disagreements)


def test_program_html_agrees(tasks):
    disagreements = []
    for case in cases("program_html"):
        task = tasks[case["task_id"]]
        page = LocatedTexts(case["url"], case["texts"])
        score = program_html(task, page, last_url=case["url"]).score
        if score != case["expected"] or page.opened != case["opened"]:
            disagreements.append(
                f"task {case['task_id']} texts {case['texts']!r}: VAB {case['expected']} opening {case['opened']}, "
                f"ours {score} opening {page.opened} ({case['why']})"
            )
    assert not disagreements, report(disagreements)
