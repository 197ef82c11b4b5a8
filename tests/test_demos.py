"""Expert demonstrations: recording with the CLI, reading back, and corrupt files."""

from __future__ import annotations

import json

import pytest

from webarena_gym.actions import parse_action
from webarena_gym.cli import main
from webarena_gym.demos import read_demonstrations
from webarena_gym.errors import TrajectoryFileError


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("demos") / "demos.jsonl"
    assert main(["demos", "--split", "train", "--out", str(path), "--limit", "6"]) == 0
    return path


def test_recorded_demonstrations_follow_the_schema(demo_file):
    lines = demo_file.read_text().splitlines()
    assert len(lines) == 6
    first = json.loads(lines[0])
    assert first["schema"] == "webarena-gym/demo-v1" and first["split"] == "train" and first["reward"] == 1.0
    loaded = read_demonstrations(demo_file, strict=True).demonstrations
    assert [d.task_id for d in loaded] == [json.loads(line)["task_id"] for line in lines]
    for demo in loaded:
        assert demo.turns[-1].action.startswith("exit(")
        for turn in demo.turns:
            parse_action(turn.action, strict=True)
            assert turn.observation.startswith("<title>") and turn.url.startswith("http://")
            assert turn.thought


def test_corrupt_lines_are_reported_and_valid_ones_kept(demo_file, tmp_path):
    good = demo_file.read_text().splitlines()
    broken = json.loads(good[1])
    broken["turns"][0]["action"] = "click the thing"
    missing = json.loads(good[2])
    del missing["intent"]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join([good[0], "{not json", json.dumps(broken), json.dumps(missing), good[3], ""]) + "\n")
    result = read_demonstrations(path)
    assert len(result.demonstrations) == 2
    assert [e.split(":")[1] for e in result.errors] == ["2", "3", "4"]
    assert "not valid JSON" in result.errors[0] and "invalid action" in result.errors[1] and "'intent'" in result.errors[2]
    with pytest.raises(TrajectoryFileError, match="3 bad line"):
        read_demonstrations(path, strict=True)
    with pytest.raises(TrajectoryFileError, match="webarena-gym demos --out"):
        read_demonstrations(tmp_path / "nowhere.jsonl")
