"""`webarena-gym report`: runs rendered as one HTML file, opened and filtered in a real Chromium."""

from __future__ import annotations

import base64

import pytest

from webarena_gym.cli import main
from webarena_gym.env import WebArenaEnv
from webarena_gym.errors import ConfigurationError
from webarena_gym.evaluation import PolicyOutput, RunWriter, make_agent_envs, read_run, run_evaluation

from .chat_server import intent_of, pick_tasks

TASKS, (SHOPPING_HIT, REDDIT_HIT, MAP_HIT), KEY = pick_tasks()


class AnswerKeyPolicy:
    """Scrolls once, then answers the tasks it knows (and "N/A" to the others)."""

    def __init__(self, name: str, known: list[int]):
        from webarena_gym.suites.embedded import embedded_tasks

        intents = {t.task_id: t.intent for t in embedded_tasks("test")}
        self.name, self.key = name, {intents[t]: KEY[intents[t]] for t in known}

    def describe(self):
        return {"model": self.name}

    def act(self, contexts):
        outputs = []
        for messages in contexts:
            if len(messages) == 2:
                outputs.append(PolicyOutput('do(action="Scroll Down")', 900, 6, reasoning="Look below first."))
            else:
                answer = self.key.get(intent_of({"messages": messages}), "N/A")
                outputs.append(PolicyOutput(f'<think>I know it.</think><answer>exit(message="{answer}")</answer>',
                                            1200, 14))
        return outputs


def play(path, policy, backend, *, workers, screenshots=False):
    envs = make_agent_envs(3, workers=workers, thinking=True, suite="embedded", split="test", backend=backend,
                           max_steps=4, record_screenshots=screenshots)
    with envs, RunWriter(path, policy.describe(), resume=False) as writer:
        run_evaluation(envs, policy, TASKS, writer=writer, progress=False)
    return read_run(path, strict=True)


def test_screenshots_need_the_playwright_backend():
    with pytest.raises(ConfigurationError, match="record_screenshots=True needs backend='playwright'"):
        WebArenaEnv(suite="embedded", backend="direct", record_screenshots=True)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs")
    # The direct backend's envs in two worker processes; the Playwright ones in this process, around one browser.
    before = play(folder / "before.jsonl", AnswerKeyPolicy("before", [REDDIT_HIT, MAP_HIT]), "direct", workers=2)
    after = play(folder / "after.jsonl", AnswerKeyPolicy("after", [SHOPPING_HIT, MAP_HIT]), "playwright", workers=0,
                 screenshots=True)
    return before, after


def visible_tasks(page, selector):
    return sorted(int(e.get_attribute("id").split("-")[1]) for e in page.query_selector_all(selector) if e.is_visible())


@pytest.mark.browser
def test_the_report_filters_by_site_and_outcome_and_shows_screenshots(runs, chromium, tmp_path):
    _before, after = runs
    first = after.episodes[0].turns[0]
    assert base64.b64decode(first.screenshot).startswith(b"\x89PNG")  # the env's screenshot, in the run file
    report = tmp_path / "report.html"
    assert main(["report", str(after.path), "-o", str(report)]) == 0

    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    outside = []
    page.route("**/*", lambda route: (outside.append(route.request.url), route.abort())
               if not route.request.url.startswith(("file:", "data:")) else route.continue_())
    page.goto(report.as_uri())
    assert page.inner_text("#shown") == "6 of 6 episodes shown"
    summary = page.inner_text("#summary")
    assert "33.3% (2/6)" in summary and "2.0" in summary  # success, and interactions per episode
    assert "12,600 (2,100)" in summary and "shopping." in page.content()  # tokens; task families

    page.click('.filter[data-filter="site"] button[data-value="map"]')
    assert page.inner_text("#shown") == "2 of 6 episodes shown"
    page.click('.filter[data-filter="outcome"] button[data-value="success"]')
    assert visible_tasks(page, "article.episode") == [MAP_HIT]
    page.click('.filter[data-filter="site"] button[data-value="all"]')
    assert visible_tasks(page, "article.episode") == sorted([SHOPPING_HIT, MAP_HIT])
    page.click('.filter[data-filter="outcome"] button[data-value="failure"]')
    assert REDDIT_HIT in visible_tasks(page, "article.episode") and MAP_HIT not in visible_tasks(page, "article.episode")

    page.click(f"#task-{REDDIT_HIT} summary")
    episode = page.locator(f"#task-{REDDIT_HIT}")
    assert "Look below first." in episode.inner_html() and "Already at the bottom" in episode.inner_text()
    assert 'exit(message="N/A")' in episode.inner_text()
    width = episode.locator("img.shot").first.evaluate("img => img.decode().then(() => img.naturalWidth)")
    assert width == 1280
    shot = page.screenshot(path=str(tmp_path / "report.png"))
    assert shot.startswith(b"\x89PNG")
    assert outside == []  # self-contained: nothing fetched from anywhere
    page.close()


@pytest.mark.browser
def test_two_runs_compare_per_task(runs, chromium, tmp_path):
    before, after = runs
    report = tmp_path / "compare.html"
    assert main(["report", str(before.path), str(after.path), "-o", str(report), "--labels", "base", "tuned"]) == 0
    page = chromium.new_page()
    page.goto(report.as_uri())
    verdicts = {int(row.query_selector("a").inner_text()): row.query_selector(".verdict").inner_text()
                for row in page.query_selector_all("tr.task-row")}
    assert verdicts[SHOPPING_HIT] == "fixed" and verdicts[REDDIT_HIT] == "regressed" and verdicts[MAP_HIT] == "both"
    # One fixed, one regressed: no difference, with its intervals over the tasks' intent templates and the tasks.
    templates = {e.template for e in before.episodes}
    assert None not in templates and {e.template for e in after.episodes} == templates
    difference = page.inner_text("li.difference")
    assert difference.startswith("tuned − base: +0.0 [") and f"on the {len(TASKS)} tasks both ran" in difference
    assert f"resampling the {len(templates)} templates | the {len(TASKS)} tasks" in difference
    assert sorted(t for t, v in verdicts.items() if v == "neither") == sorted(set(TASKS) - {SHOPPING_HIT, REDDIT_HIT,
                                                                                            MAP_HIT})
    page.click('.filter[data-filter="outcome"] button[data-value="fixed"]')
    assert visible_tasks(page, "article.episode") == [SHOPPING_HIT]
    assert [r.inner_text().split("\t")[0] for r in page.query_selector_all("tr.task-row") if r.is_visible()] == \
           [str(SHOPPING_HIT)]
    page.click('.filter[data-filter="outcome"] button[data-value="regressed"]')
    assert visible_tasks(page, "article.episode") == [REDDIT_HIT]
    page.click(f"#task-{REDDIT_HIT} summary")
    columns = page.locator(f"#task-{REDDIT_HIT} .run h3").all_inner_texts()
    assert columns == ["base", "tuned"]  # side by side
    assert page.locator(f"#task-{REDDIT_HIT} .run").nth(1).locator("img.shot").count() == 2
    assert "both succeed" in page.inner_text("#filters")
    page.screenshot(path=str(tmp_path / "compare.png"))
    page.close()


def test_bad_report_input_fails_clearly(tmp_path, capsys, caplog):
    empty = tmp_path / "empty.jsonl"
    empty.write_text('{"schema": "webarena-gym/run-v1", "settings": {}}\nnot json\n', encoding="utf-8")
    assert main(["report", str(empty), "-o", str(tmp_path / "r.html")]) == 1
    captured = capsys.readouterr()
    assert "No episodes" in captured.err and "Skipped 1 bad line(s)" in caplog.text
    assert main(["report", str(tmp_path / "missing.jsonl")]) == 1
    assert "No run file" in capsys.readouterr().err
    assert main(["report", str(empty), str(empty), str(empty)]) == 1
    assert "one run or compares two" in capsys.readouterr().err


@pytest.mark.browser
def test_the_report_shows_the_reference_the_code_and_date_and_its_links_open_episodes(runs, chromium, tmp_path):
    import re
    from datetime import datetime, timedelta, timezone
    from importlib.metadata import version

    before, after = runs
    hit = next(e for e in after.episodes if e.task_id == SHOPPING_HIT)
    reference = hit.reference["reference_answers"]["exact_match"]
    assert hit.answer == reference  # the episode keeps what it was scored against
    report = tmp_path / "report.html"
    assert main(["report", str(after.path), "-o", str(report)]) == 0
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    page.goto(report.as_uri() + f"#task-{SHOPPING_HIT}")  # a link from elsewhere to one episode opens it
    assert page.locator(f"#task-{SHOPPING_HIT} > details").evaluate("d => d.open")
    facts = page.locator(f"#task-{SHOPPING_HIT} dl").inner_text()
    assert f"answer\n{hit.answer!r}\nreference answer\nexactly: {reference!r}" in facts  # side by side
    made = page.inner_text("header .made")
    started = datetime.fromisoformat(after.sessions[0]["date"])
    assert abs(datetime.now(timezone.utc) - started) < timedelta(days=1)  # the date the run was made
    assert re.fullmatch(rf"made with webarena-gym {re.escape(version('webarena-gym'))}, commit [0-9a-f]{{7}}"
                        rf"( with local changes)?, on {started:%Y-%m-%d %H:%M} UTC", made), made
    page.screenshot(path=str(tmp_path / "episode.png"), full_page=False)

    # A screenshot is a thumbnail beside the step's output and action; a click shows it whole.
    step = page.locator(f"#task-{SHOPPING_HIT} li.step").first
    thumbnail, action = step.locator("img.shot").bounding_box(), step.locator(".action").bounding_box()
    assert thumbnail["width"] <= 240 and action["x"] >= thumbnail["x"] + thumbnail["width"]
    assert action["y"] < thumbnail["y"] + thumbnail["height"]  # on the same row, not pushed below it
    step.locator(".shot-button").click()
    enlarged = page.locator("#lightbox img")
    assert page.locator("#lightbox").evaluate("d => d.open") and enlarged.bounding_box()["width"] > 4 * thumbnail["width"]
    page.keyboard.press("Escape")
    assert not page.locator("#lightbox").evaluate("d => d.open")
    page.close()

    compare = tmp_path / "compare.html"
    assert main(["report", str(before.path), str(after.path), "-o", str(compare)]) == 0
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    page.goto(compare.as_uri())
    episode = page.locator(f"#task-{REDDIT_HIT} > details")
    assert not episode.evaluate("d => d.open")
    page.click(f'tr.task-row a[href="#task-{REDDIT_HIT}"]')  # was: jumped to the closed episode
    assert episode.evaluate("d => d.open") and page.url.endswith(f"#task-{REDDIT_HIT}")
    assert page.locator(f"#task-{REDDIT_HIT}").is_visible()
    page.close()


def test_a_run_file_from_before_references_and_code_versions_were_recorded_still_renders(tmp_path):
    old = tmp_path / "old.jsonl"
    old.write_text('{"schema": "webarena-gym/run-v1", "settings": {"model": "m"}}\n'
                   '{"task_id": 4, "sites": ["map"], "reward": 0, "steps": 1, "answer": "x", "turns": []}\n',
                   encoding="utf-8")
    assert main(["report", str(old), "-o", str(tmp_path / "old.html")]) == 0
    html = (tmp_path / "old.html").read_text(encoding="utf-8")
    assert "code version and date not recorded" in html and "not recorded in this run file" in html
