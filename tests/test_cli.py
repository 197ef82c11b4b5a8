"""The webarena-gym command line."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from webarena_gym.cli import main


def test_tasks_list_prints_one_task_per_line(capsys):
    assert main(["tasks", "list", "--suite", "embedded", "--split", "test"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 165
    task_id, sites, intent = lines[0].split("\t")
    assert task_id == "0" and sites and intent


def test_tasks_show_prints_json_and_unknown_ids_fail_clearly(capsys):
    assert main(["tasks", "show", "1003"]) == 0
    task = json.loads(capsys.readouterr().out)
    assert task["task_id"] == 1003 and "eval" in task and task["start_url"].startswith("http://127.0.0.1:")
    assert main(["tasks", "show", "424242"]) == 1
    assert "No task 424242" in capsys.readouterr().err


def test_tasks_families_lists_every_family_with_its_split_counts(capsys):
    from webarena_gym.suites.embedded import all_families, embedded_tasks

    assert main(["tasks", "families"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split(maxsplit=4) for line in lines[1:-1]}
    families = all_families()
    assert list(rows) == [family.name for family in families] and lines[-1].startswith(f"{len(families)} families")
    name, kind, test, train, template = rows["shopping.product_sku"]
    assert (kind, template) == ("information", "What is the SKU of {{product}}?") and int(test) >= 1 and int(train) >= 1
    assert sum(int(row[2]) for row in rows.values()) == 165
    assert sum(int(row[3]) for row in rows.values()) == len(embedded_tasks("train"))


def test_a_command_group_without_its_command_names_what_is_missing(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["tasks"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: webarena-gym tasks") and "required: COMMAND" in err
    assert main([]) == 2  # no command at all: the whole help
    assert "commands:" in capsys.readouterr().out


def test_serve_answers_http_on_ephemeral_ports():
    process = subprocess.Popen(
        [sys.executable, "-m", "webarena_gym.cli", "serve", "--ephemeral"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        urls = {}
        deadline = time.time() + 60
        while time.time() < deadline and "homepage" not in urls:
            line = process.stdout.readline()
            if line.strip() and not line.startswith("Serving"):
                name, url = line.split()
                urls[name] = url
        assert set(urls) == {"shopping", "shopping_admin", "reddit", "gitlab", "map", "wikipedia", "homepage"}
        page = urllib.request.urlopen(urls["reddit"] + "/forums", timeout=10).read().decode()
        assert "<title>" in page and "Forums" in page
        assert urls["shopping_admin"].endswith("/admin")
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_output_paths_and_limits_that_cannot_work_fail_in_one_line(tmp_path, capsys):
    assert main(["demos", "--out", str(tmp_path), "--limit", "1"]) == 1  # a folder
    assert capsys.readouterr().err == f"error: {tmp_path}: Is a directory\n"
    assert main(["demos", "--out", str(tmp_path / "d.jsonl"), "--limit", "-3"]) == 1  # was: all tasks but 3
    assert "--limit must be a positive number of tasks, got -3" in capsys.readouterr().err
    assert not (tmp_path / "d.jsonl").exists()


def test_demos_creates_the_folders_of_its_output_path(tmp_path, capsys):
    out = tmp_path / "runs" / "guide" / "demos.jsonl"
    assert main(["demos", "--split", "test", "--out", str(out), "--limit", "1"]) == 0
    assert capsys.readouterr().out == f"Wrote 1 demonstrations to {out}\n"
    assert len(out.read_text().splitlines()) == 1


def test_serve_env_refuses_bad_settings_and_taken_ports_before_it_announces_itself(capsys):
    pytest.importorskip("openenv")
    assert main(["serve-env", "--max-steps", "0"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: max_steps must be a whole number from 1 to 10000, got 0.")
    assert main(["serve-env", "--max-sessions", "0"]) == 1
    assert "max_sessions must be a positive integer" in capsys.readouterr().err
    with socket.create_server(("127.0.0.1", 0)) as taken:
        assert main(["serve-env", "--port", str(taken.getsockname()[1])]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "Address already in use" in err and "Pass a free port (CLI: --port)" in err
    assert main(["serve-env", "--port", "70000"]) == 1
    assert "a port is a number in 0..65535, not 70000" in capsys.readouterr().err


def _commands(parser, path=("webarena-gym",)):
    """Every parser of the command tree with its command path: the top one, each command, each sub-command."""
    import argparse

    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                yield from _commands(command, (*path, name))


def test_every_option_of_every_command_has_help_that_states_its_default():
    import argparse

    from webarena_gym.cli import build_parser

    checked, missing = 0, []
    for path, parser in _commands(build_parser()):
        formatter = parser._get_formatter()
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)):
                continue
            if action.help == argparse.SUPPRESS:  # hidden on purpose (an alias kept for old commands)
                continue
            checked += 1
            text = formatter._expand_help(action) if action.help else ""
            takes_value = bool(action.option_strings) and action.nargs != 0 and not action.required
            if not text or (takes_value and "default" not in text):
                missing.append(f"{' '.join(path)} {'/'.join(action.option_strings) or action.dest}: {text!r}")
    assert checked > 100 and missing == []


def test_eval_and_baseline_say_their_step_limit_is_not_the_envs(capsys):
    for command in ("eval", "baseline"):
        with pytest.raises(SystemExit) as exit_info:
            main([command, "--help"])
        assert exit_info.value.code == 0
        out = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
        assert "(default: 30, the evaluation budget; the env's default is 15, the training budget)" in out
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--temperature TEMPERATURE sampling temperature (0: greedy decoding) (default: 0.0)" in out
    assert "--episodes-in-flight EPISODES_IN_FLIGHT episodes played at once (default: 8)" in out


def test_verbose_is_accepted_after_the_command_too_and_both_commands_take_o_for_out():
    from webarena_gym.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["tasks", "list", "-v"]).verbose is True  # was: unrecognized arguments: -v
    assert parser.parse_args(["-v", "tasks", "list"]).verbose is True
    assert parser.parse_args(["--verbose", "report", "r.jsonl", "--verbose"]).verbose is True
    assert parser.parse_args(["tasks", "list"]).verbose is False
    assert parser.parse_args(["sites", "status", "-v"]).verbose is True
    assert parser.parse_args(["eval", "--model", "m", "-o", "run.jsonl"]).out == "run.jsonl"  # was: --out only
    assert parser.parse_args(["report", "r.jsonl", "--out", "r.html"]).out == "r.html"

