"""`webarena-gym eval --endpoint`: the real openai client against a real chat-completions server on loopback."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from webarena_gym.cli import main
from webarena_gym.errors import ConfigurationError, EndpointError
from webarena_gym.evaluation import read_run
from webarena_gym.evaluation.chat_completions import ChatCompletionsPolicy
from webarena_gym.prompts import THINKING_FORMAT
from webarena_gym.suites.embedded import embedded_tasks

from .chat_server import ChatServer, Reply, answering, pick_tasks

pytest.importorskip("openai")

REPO = Path(__file__).resolve().parents[2]


TASKS, SOLVED, KEY = pick_tasks()


def evaluate(server: ChatServer, out: Path, *extra: str, tasks: list[int] = TASKS) -> int:
    return main(["eval", "--endpoint", server.url, "--model", "answer-key", "--task-ids", *map(str, tasks),
                 "--out", str(out), "--no-progress", *extra])


def test_eval_reports_success_per_site_and_writes_every_step(tmp_path, capsys):
    out = tmp_path / "run.jsonl"
    with ChatServer(answering(KEY)) as server:
        assert evaluate(server, out, "--episodes-in-flight", "3") == 0
    printed = capsys.readouterr().out
    for site in ("map", "reddit", "shopping"):
        assert any(line.startswith(site) and "50.0% (  1/2  )" in line for line in printed.splitlines())
    assert any(line.startswith("all") and "50.0% (  3/6  )" in line for line in printed.splitlines())
    run = read_run(out, strict=True)
    assert run.settings["model"] == "answer-key" and run.settings["endpoint"] == server.url
    assert run.settings["suite"] == "embedded" and run.settings["split"] == "test" and run.settings["max_steps"] == 30
    assert sorted(e.task_id for e in run.episodes) == sorted(TASKS)
    assert sorted(e.task_id for e in run.episodes if e.success) == sorted(SOLVED)
    for episode in run.episodes:
        (turn,) = episode.turns
        assert turn.action.startswith("exit(message=") and turn.output == turn.action and turn.error == ""
        assert (turn.prompt_tokens, turn.completion_tokens) == (7, 3)
        assert episode.intent in turn.observation and turn.url.startswith("http://127.0.0.1:")
        assert episode.end_reason == "exit" and episode.family
        assert set(episode.reward_components) == set(embedded_tasks("test")[episode.task_id].eval.eval_types)
    request = server.requests[0]
    assert request["model"] == "answer-key" and request["max_tokens"] == 1024 and request["temperature"] == 0
    assert [m["role"] for m in request["messages"]] == ["system", "user"]


def test_rate_limits_and_timeouts_are_retried_with_backoff(tmp_path):
    hang = threading.Event()  # never set: the second request only ends when the client gives up

    def respond(request, number):
        if number == 1:
            return Reply(status=429, headers={"Retry-After": "0"}, body=b'{"error": {"message": "Rate limit"}}')
        if number == 2:
            return Reply(wait_for=hang)
        return answering(KEY)(request, number)

    out = tmp_path / "run.jsonl"
    with ChatServer(respond) as server:
        assert evaluate(server, out, "--episodes-in-flight", "1", "--timeout", "3", "--backoff", "0") == 0
        intents = server.intents()
    run = read_run(out, strict=True)
    assert sorted(e.task_id for e in run.episodes if e.success) == sorted(SOLVED)
    first = embedded_tasks("test")[TASKS[0]].intent
    assert intents[:3] == [first, first, first]  # the same request three times: 429, timeout, answered
    assert len(run.episodes) == 6 and all(len(e.turns) == 1 for e in run.episodes)


def test_an_endpoint_that_refuses_or_stays_down_fails_clearly(tmp_path, capsys, monkeypatch):
    unauthorised = Reply(status=401, body=b'{"error": {"message": "Incorrect API key provided"}}')
    with ChatServer(lambda request, number: unauthorised) as server:
        assert evaluate(server, tmp_path / "a.jsonl") == 1
    error = capsys.readouterr().err
    assert "answered 401" in error and "API key" in error

    down = Reply(status=503, body=b'{"error": {"message": "overloaded"}}')
    with ChatServer(lambda request, number: down) as server:
        assert evaluate(server, tmp_path / "b.jsonl", "--retries", "2", "--backoff", "0", "--episodes-in-flight", "1") == 1
        assert len(server.requests) == 3
    error = capsys.readouterr().err
    assert "still failed after 2 retries" in error and "resume" in error
    assert read_run(tmp_path / "b.jsonl").episodes == []

    with ChatServer(answering(KEY)) as server:
        closed = server.url
        assert evaluate(server, tmp_path / "d.jsonl", "--max-tokens", "0") == 1
        assert server.requests == []
    assert "--max-tokens must be at least 1" in capsys.readouterr().err
    for malformed in ("not a url", "127.0.0.1:8000/v1", "ftp://host/v1", "http://"):  # at once, not after retries
        assert main(["eval", "--endpoint", malformed, "--model", "m", "--task-ids", "0", "--no-progress",
                     "--out", str(tmp_path / "e.jsonl")]) == 1
        assert "--endpoint must be an http(s) URL" in capsys.readouterr().err
    assert not (tmp_path / "e.jsonl").exists()
    with ChatServer(answering(KEY)) as server:  # a NaN temperature cannot be sent: refused, not 0 on every task
        for flags, named in ((["--temperature", "nan"], "--temperature must be a finite number >= 0"),
                             (["--top-p", "2"], "--top-p must be in (0, 1]"),
                             (["--backoff", "nan"], "--backoff must be a finite number of seconds"),
                             (["--timeout", "inf"], "--timeout must be a finite number of seconds > 0"),
                             (["--retries", "-1"], "--retries must be an integer >= 0")):
            assert evaluate(server, tmp_path / "f.jsonl", *flags) == 1
            assert named in capsys.readouterr().err
        assert evaluate(server, tmp_path) == 1  # --out names a folder
        assert "is a folder; the run file needs a file name" in capsys.readouterr().err
        assert server.requests == [] and not (tmp_path / "f.jsonl").exists()
    with pytest.raises(ConfigurationError, match="temperature must be a finite number"):
        ChatCompletionsPolicy("m", base_url="http://127.0.0.1:1/v1", temperature=float("nan"))
    # Nothing listening: said before the run starts (no run file), not after a minute of retries.
    assert main(["eval", "--endpoint", closed, "--model", "m", "--task-ids", "0", "--out", str(tmp_path / "c.jsonl"),
                 "--no-progress"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("error: Nothing listens at 127.0.0.1:") and "refused the connection" in error
    assert not (tmp_path / "c.jsonl").exists()
    assert main(["eval", "--endpoint", "http://no-such-host.invalid:8000/v1", "--model", "m", "--task-ids", "0",
                 "--out", str(tmp_path / "c.jsonl"), "--no-progress"]) == 1
    assert "the host name 'no-such-host.invalid' does not resolve" in capsys.readouterr().err
    # A server that goes away later is retried, then given up on with the way to resume.
    policy = ChatCompletionsPolicy("m", base_url=closed, max_retries=1, backoff=0)
    with pytest.raises(EndpointError, match="still failed after 1 retries"):
        policy.complete([{"role": "user", "content": "hi"}])
    assert policy.retries == 1
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:3128")  # behind a proxy the host may be unreachable directly
    policy.check_server()
    policy.close()


def test_invalid_model_output_is_an_agent_mistake(tmp_path):
    huge = "do(" + "x" * 300_000
    garbage_json = '{"choices": [{"index": 0, "message": {"role": "assistant", "content": "do(action=\\"Type\\", ' \
                   'element=\\"4\\", argument=\\"a\\u0000b\\ud800c\\u0007\\")"}, "finish_reason": "stop"}]}'
    replies = [
        Reply(None),                                                  # no content at all
        Reply(body=garbage_json.encode()),                            # control characters, a lone surrogate, no usage
        Reply(huge),                                                  # far more than any action
        Reply(body=b"<html>502 Bad Gateway</html>"),                   # 200 but not JSON
        Reply(status=400, body=b'{"error": {"message": "This model\'s maximum context length is 4096 tokens"}}'),
        Reply("I think I should click the search button."),           # prose without an action
        Reply('do(action="Click", element="99999")'),                 # an element that does not exist
    ]

    def respond(request, number):
        return replies[(number - 1) % len(replies)]

    out = tmp_path / "run.jsonl"
    with ChatServer(respond) as server:
        assert evaluate(server, out, "--max-steps", str(len(replies)), tasks=[TASKS[0]]) == 0
    (episode,) = read_run(out, strict=True).episodes
    assert episode.reward == 0 and episode.end_reason == "step_limit" and episode.steps == len(replies)
    turns = episode.turns
    assert all(turn.error for turn in turns[:1] + turns[2:])
    assert turns[1].output == 'do(action="Type", element="4", argument="abc")' and turns[1].prompt_tokens is None
    assert len(turns[2].output) == 100_000
    assert "not a completion" in turns[3].error or "no message" in turns[3].error
    assert "refused the request" in turns[4].error and "maximum context length" in turns[4].error
    assert turns[5].action == "" and "99999" in turns[6].error
    report = tmp_path / "report.html"
    assert main(["report", str(out), "-o", str(report)]) == 0
    assert "maximum context length" in report.read_text(encoding="utf-8")


def refusing(parameter: str, message: str):
    """A server that answers 400 to any request carrying ``parameter`` (as OpenAI's reasoning models do)."""
    def respond(request, number):
        if parameter in request:
            return Reply(status=400, body=json.dumps({"error": {"message": message, "param": parameter}}).encode())
        return answering(KEY)(request, number)

    return respond


def test_a_model_that_refuses_max_tokens_gets_max_completion_tokens(tmp_path):
    respond = refusing("max_tokens", "Unsupported parameter: 'max_tokens' is not supported with this model. "
                                     "Use 'max_completion_tokens' instead.")
    out = tmp_path / "run.jsonl"
    with ChatServer(respond) as server:
        assert evaluate(server, out, "--max-tokens", "77", "--thinking") == 0
    run = read_run(out)
    assert sorted(e.task_id for e in run.episodes if e.success) == sorted(SOLVED)
    assert all(len(e.turns) == 1 and not e.turns[0].error for e in run.episodes)  # no turn lost to the refusal
    assert all(r["max_completion_tokens"] == 77 for r in server.requests if "max_tokens" not in r)
    assert sum("max_tokens" not in r for r in server.requests) == len(TASKS)
    assert server.requests[0]["messages"][0]["content"].endswith(THINKING_FORMAT) and run.settings["thinking"]


def test_task_after_page_reaches_the_model_and_the_run_header(tmp_path, capsys):
    out = tmp_path / "run.jsonl"
    with ChatServer(answering(KEY)) as server:
        assert evaluate(server, out, "--task-after-page") == 0
        by_id = {t.task_id: t.intent for t in embedded_tasks("test")}
        for request in server.requests:
            system, user = request["messages"]
            assert user["content"].startswith("Current page (step 1 of 30): http://127.0.0.1:")
            assert user["content"].rsplit("\n\nTask: ", 1)[1] in {by_id[t] for t in TASKS}
    assert any(line.startswith("all") and "50.0% (  3/6  )" in line for line in capsys.readouterr().out.splitlines())
    assert read_run(out, strict=True).settings["task_after_page"] is True
    with ChatServer(answering(KEY)) as server:
        assert evaluate(server, out) == 1  # the other layout: refused, not mixed into the same file
    assert "task_after_page: True in the file, None now" in capsys.readouterr().err


def test_a_killed_run_resumes_without_losing_or_repeating_episodes(tmp_path, caplog):
    arrived, hold = threading.Event(), threading.Event()

    def respond_then_hang(request, number):
        if number == 4:  # three episodes are on disk; the fourth never gets its answer
            arrived.set()
            return Reply(wait_for=hold)
        return answering(KEY)(request, number)

    out = tmp_path / "run.jsonl"
    with ChatServer(respond_then_hang) as server:
        process = subprocess.Popen(
            [sys.executable, "-m", "webarena_gym.cli", "eval", "--endpoint", server.url, "--model", "answer-key",
             "--task-ids", *map(str, TASKS), "--out", str(out), "--episodes-in-flight", "1", "--no-progress"],
            cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        try:
            assert arrived.wait(timeout=300), process.stderr.read().decode() if process.poll() is not None else ""
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=60)
    before = out.read_bytes()
    lines = before.decode().splitlines()
    assert len(lines) == 4 and json.loads(lines[0])["settings"]["model"] == "answer-key"  # header + 3 episodes
    done = [json.loads(line)["task_id"] for line in lines[1:]]
    assert done == TASKS[:3]
    with out.open("ab") as handle:  # as if the kill had come in the middle of writing the fourth
        handle.write(lines[2].encode()[:70])

    with ChatServer(answering(KEY)) as server:
        assert evaluate(server, out) == 0
        asked = server.intents()
    assert "half-written line" in caplog.text
    after = out.read_bytes()
    assert after.startswith(before)  # nothing already written was touched
    by_id = {t.task_id: t.intent for t in embedded_tasks("test")}
    assert sorted(asked) == sorted(by_id[t] for t in TASKS[3:])  # only the missing tasks were played, once each
    run = read_run(out, strict=True)
    assert [e.task_id for e in run.episodes] == TASKS
    assert sorted(e.task_id for e in run.episodes if e.success) == sorted(SOLVED)

    assert evaluate(server, out, "--max-steps", "5") == 1  # other settings: refused, file untouched
    assert out.read_bytes() == after


@pytest.mark.browser
def test_screenshots_recorded_through_the_command_line_land_in_the_run_file(tmp_path):
    out = tmp_path / "run.jsonl"
    with ChatServer(answering(KEY)) as server:
        assert evaluate(server, out, "--record-screenshots", tasks=[SOLVED[0]]) == 0
    run = read_run(out, strict=True)
    assert run.settings["backend"] == "playwright"
    (episode,) = run.episodes
    assert episode.success and episode.turns[0].screenshot.startswith("iVBORw0KGgo")  # base64 of a PNG header


def test_a_model_that_refuses_a_temperature_is_asked_without_one(tmp_path, caplog):
    respond = refusing("temperature", "Unsupported value: 'temperature' does not support 0.0 with this model. "
                                      "Only the default (1) value is supported.")
    out = tmp_path / "run.jsonl"
    with ChatServer(respond) as server:
        assert evaluate(server, out, "--episodes-in-flight", "2") == 0
    run = read_run(out)
    assert sorted(e.task_id for e in run.episodes if e.success) == sorted(SOLVED)
    assert all(len(e.turns) == 1 and not e.turns[0].error for e in run.episodes)
    assert "does not take temperature=0.0" in caplog.text
