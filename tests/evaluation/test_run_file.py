"""Run files: appended episode by episode, read back tolerantly, repaired when a run was cut short."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from webarena_gym.errors import ConfigurationError, TrajectoryFileError
from webarena_gym.evaluation import EpisodeResult, RunWriter, StepRecord, read_run
from webarena_gym.evaluation.results import _TURN_FIELDS


def episode(task_id: int, reward: float = 1.0) -> EpisodeResult:
    turn = StepRecord('exit(message="42")', 'exit(message="42")', url="http://127.0.0.1:7770/")
    return EpisodeResult(task_id, ["shopping"], reward, 1, "42", [turn], intent=f"task {task_id}", end_reason="exit",
                         template=100 + task_id)


def test_episodes_survive_a_round_trip_and_resuming_keeps_them(tmp_path):
    path = tmp_path / "runs" / "run.jsonl"
    with RunWriter(path, {"model": "m", "max_steps": 30}) as writer:
        writer.append(episode(1))
        writer.append(episode(2, 0.0))
    with RunWriter(path, {"model": "m", "max_steps": 30}) as writer:
        assert sorted(writer.finished) == [1, 2]
        writer.append(episode(3))
    run = read_run(path, strict=True)
    assert run.settings == {"model": "m", "max_steps": 30} and run.name == "m"
    assert [e.task_id for e in run.episodes] == [1, 2, 3] and run.episodes[0] == episode(1)
    with pytest.raises(ConfigurationError, match="max_steps: 30 in the file, 15 now"):
        RunWriter(path, {"model": "m", "max_steps": 15})
    with RunWriter(path, {"model": "other"}, resume=False) as writer:  # --fresh
        assert writer.finished == {}
    assert read_run(path).episodes == []


def test_a_last_line_without_its_newline_is_kept_when_whole_and_cut_when_not(tmp_path):
    path = tmp_path / "run.jsonl"
    with RunWriter(path, {"model": "m"}) as writer:
        writer.append(episode(1))
    whole = json.dumps(episode(2).to_dict())
    path.write_text(path.read_text() + whole)  # killed just before the newline
    with RunWriter(path, {"model": "m"}) as writer:
        assert sorted(writer.finished) == [1, 2]
    path.write_text(path.read_text() + whole[: len(whole) // 2])  # killed mid-line
    with RunWriter(path, {"model": "m"}) as writer:
        assert sorted(writer.finished) == [1, 2]
        writer.append(episode(3))
    assert [e.task_id for e in read_run(path, strict=True).episodes] == [1, 2, 3]
    header_only = tmp_path / "header.jsonl"
    header_only.write_text('{"schema": "webarena-gym/run-v1", "sett')  # killed while writing the header
    with RunWriter(header_only, {"model": "m"}) as writer:
        writer.append(episode(4))
    assert read_run(header_only, strict=True).settings == {"model": "m"}


def test_reading_keeps_every_valid_line_and_names_the_bad_ones(tmp_path):
    path = tmp_path / "old.jsonl"
    old_format = {"task_id": 7, "sites": ["reddit"], "reward": 0.0, "steps": 2, "answer": None,
                  "actions": ["do(action=\"Wait\")", "junk"], "errors": ["", "Unknown action"]}
    lines = [json.dumps(old_format), "{not json", json.dumps({"task_id": "eight"}),
             '{"task_id": 9, "sites": ["map"], "reward": 1, "steps": 1, "answer": "\\ud800", "turns": []}',
             json.dumps({**episode(10).to_dict(), "template": "7"}), json.dumps({**episode(11).to_dict(), "template": 7}),
             ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    run = read_run(path)
    assert [e.task_id for e in run.episodes] == [7, 9, 11]
    assert run.episodes[0].template is None and run.episodes[2].template == 7  # older files have none
    assert run.episodes[0].actions == ['do(action="Wait")', "junk"] and run.episodes[0].errors[1] == "Unknown action"
    assert [error.split(": ")[0] for error in run.errors] == [f"{path}:2", f"{path}:3", f"{path}:5"]
    assert "field 'template' must be an integer" in run.errors[2]
    with pytest.raises(TrajectoryFileError, match="3 bad line"):
        read_run(path, strict=True)


@pytest.mark.parametrize(("change", "named"), [
    ({"reward": float("nan")}, "'reward' must be a finite number"),
    ({"reward": float("inf")}, "'reward' must be a finite number"),
    ({"steps": -1}, "'steps' must not be negative"),
    ({"sites": ["shopping", None]}, "'sites' must list site names"),
    ({"family": ["shopping.search"]}, "'family' must be a str or null"),
    ({"answer": {"text": "42"}}, "'answer' must be a str or null"),
    ({"intent": 3}, "'intent' must be a str or null"),
    ({"reward_components": [["url", 1]]}, "'reward_components' must map names to numbers"),
    ({"reward_components": {"url": "1"}}, "'reward_components' must map names to numbers"),
    ({"turns": [{"output": "x", "error": 5}]}, "turn 0: field 'error' must be a str or null"),
    ({"turns": [{"output": "x", "prompt_tokens": "12"}]}, "turn 0: field 'prompt_tokens' must be a int or null"),
    ({"turns": [{"output": "x", "completion_tokens": True}]}, "turn 0: field 'completion_tokens'"),
])
def test_a_line_whose_fields_would_break_a_report_is_refused_by_name(tmp_path, change, named):
    path = tmp_path / "run.jsonl"
    path.write_text(json.dumps({**episode(1).to_dict(), **change}) + "\n" + json.dumps(episode(2).to_dict()) + "\n",
                    encoding="utf-8")
    run = read_run(path)
    assert [e.task_id for e in run.episodes] == [2] and len(run.errors) == 1 and named in run.errors[0]


def test_null_turn_fields_read_as_their_defaults(tmp_path):
    path = tmp_path / "run.jsonl"
    turn = {"output": "stop [42]", "action": None, "error": None, "prompt_tokens": None, "screenshot": None}
    path.write_text(json.dumps({**episode(1).to_dict(), "turns": [turn], "family": None}) + "\n", encoding="utf-8")
    (result,) = read_run(path, strict=True).episodes
    assert result.turns == [StepRecord("stop [42]")] and result.family is None
    assert set(_TURN_FIELDS) == {f.name for f in fields(StepRecord)}  # every field of a turn is checked


def test_a_run_records_the_code_and_date_that_made_it_and_each_resume(tmp_path):
    from importlib.metadata import version

    path = tmp_path / "run.jsonl"
    with RunWriter(path, {"model": "m"}) as writer:
        writer.append(episode(1))
    with RunWriter(path, {"model": "m"}) as writer:  # resumed
        writer.append(episode(2))
    run = read_run(path, strict=True)  # the resume line is neither an episode nor a bad line
    assert [e.task_id for e in run.episodes] == [1, 2] and run.errors == []
    assert len(run.sessions) == 2
    for session in run.sessions:
        assert session["version"] == version("webarena-gym") and session["date"].endswith("+00:00")
        assert session["commit"] is None or len(session["commit"]) == 40  # a checkout of this project: its commit
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["code"] == run.sessions[0] and json.loads(lines[2])["schema"] == "webarena-gym/resumed-v1"


def test_an_episode_keeps_the_reference_it_was_scored_against(tmp_path):
    reference = {"eval_types": ["string_match"], "reference_answers": {"exact_match": "42"}, "reference_url": None,
                 "program_html": []}
    result = episode(1)
    result.reference = reference
    path = tmp_path / "run.jsonl"
    with RunWriter(path, {"model": "m"}) as writer:
        writer.append(result)
    assert read_run(path, strict=True).episodes[0].reference == reference
    bad = json.loads(path.read_text(encoding="utf-8").splitlines()[1]) | {"reference": "42"}
    with pytest.raises(ValueError, match="field 'reference' must be a JSON object"):
        EpisodeResult.from_dict(bad)
