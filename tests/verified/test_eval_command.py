"""`webarena-gym eval --suite webarena-verified` and `webarena-gym report`: the structured answer and the
network evaluator's verdict, end to end (a chat-completions server on loopback, Chromium on stand-in sites)."""

from __future__ import annotations

import json

import pytest

from webarena_gym.cli import main
from webarena_gym.evaluation import read_run

from ..evaluation.chat_server import ChatServer, Reply
from .stub_sites import BESTSELLER, served

pytest.importorskip("openai")
pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning:url_normalize.*"),
              pytest.mark.filterwarnings("ignore:Only some WebArena sites")]  # two stand-ins of seven sites

RETRIEVED = {"task_type": "RETRIEVE", "status": "SUCCESS", "retrieved_data": [BESTSELLER], "error_details": None}
MUTATED = {"task_type": "MUTATE", "status": "SUCCESS", "retrieved_data": None, "error_details": None}


def respond(request: dict, number: int) -> Reply:
    """A model that answers at once: the best seller for task 0, "done" for task 448 (without doing it)."""
    prompt = next(m["content"] for m in request["messages"] if m["role"] == "user")
    assert '"task_type"' in prompt  # the answer format reached the model with the task
    response = RETRIEVED if "best-selling" in prompt else MUTATED
    return Reply(f"exit(message={json.dumps(response)!r})")


def test_eval_and_report_show_the_structured_answer_and_the_network_verdict(tmp_path, monkeypatch, capsys):
    out, html = tmp_path / "run.jsonl", tmp_path / "report.html"
    monkeypatch.setenv("WA_AUTH_DIR", str(tmp_path))  # the stand-ins need no login state
    with served() as urls, ChatServer(respond) as server:
        for site, url in urls.items():
            monkeypatch.setenv(f"WA_{site.upper()}", url)
            monkeypatch.setenv(f"WA_{site.upper()}_ENV_CTRL", "off")  # the stand-ins have no env-control endpoint
        assert main(["eval", "--suite", "webarena-verified", "--endpoint", server.url, "--model", "answer-key",
                     "--task-ids", "0", "448", "--env-workers", "0", "--out", str(out), "--no-progress"]) == 0
    run = read_run(out, strict=True)
    assert run.settings["suite"] == "webarena-verified"
    episodes = {e.task_id: e for e in run.episodes}
    assert episodes[0].success and episodes[0].reward_components == {"AgentResponseEvaluator": 1.0}
    assert json.loads(episodes[0].answer) == RETRIEVED
    assert not episodes[448].success  # it said it was done, but the profile was never posted
    assert episodes[448].reward_components == {"AgentResponseEvaluator": 1.0, "NetworkEventEvaluator": 0.0}
    assert main(["report", str(out), "-o", str(html)]) == 0
    page = html.read_text()
    assert "NetworkEventEvaluator: 0" in page and "retrieved_data" in page
