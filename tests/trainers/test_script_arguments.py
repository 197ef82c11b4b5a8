"""The example scripts' command lines: bad input is a short usage error or ``error: ...``, never a traceback."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from trainers.config import AgentArguments, MultiTurnGRPOConfig
from trainers.script_arguments import parse_script_arguments, run_script
from webarena_gym.errors import UnknownTaskError, user_error_message


@dataclass
class Knobs:
    model: str = field(default="tiny", metadata={"help": "A model."})
    steps: int = 1

    def __post_init__(self):
        if self.steps < 1:
            raise ValueError(f"steps must be at least 1, got {self.steps}")


def refused(capsys, argv, **kwargs) -> str:
    with pytest.raises(SystemExit) as exit_:
        parse_script_arguments((Knobs, AgentArguments), argv=argv, **kwargs)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "usage:" not in err  # the message, not hundreds of flags
    return err


def test_every_field_is_a_flag_and_defaults_can_be_changed():
    knobs, agent = parse_script_arguments((Knobs, AgentArguments), argv=["--steps", "4", "--task_ids", "3", "5"],
                                          defaults={"max_turns": 30})
    assert (knobs.model, knobs.steps, agent.task_ids, agent.max_turns) == ("tiny", 4, [3, 5], 30)


@pytest.mark.parametrize(("argv", "message"), [
    (["--epochs", "3"], "error: unrecognized arguments: --epochs 3"),
    (["--steps", "many"], "argument --steps: invalid int value: 'many'"),
    (["--steps", "0"], "error: steps must be at least 1, got 0"),
    (["--model", "\udcff\x00"], None),  # any text is a model name to the parser; the check refuses it
])
def test_bad_flags_and_values_are_usage_errors(capsys, argv, message):
    def check(knobs, agent):
        if not knobs.model.isprintable():
            raise ValueError(f"there is no model {knobs.model!r}")

    err = refused(capsys, argv, check=check)
    assert (message or "error: there is no model '\\udcff\\x00'") in err
    assert "--help` lists every flag" in err


def test_a_trainer_config_that_refuses_a_value_is_a_usage_error(capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_:
        parse_script_arguments((MultiTurnGRPOConfig,), argv=["--output_dir", str(tmp_path / "out"), "--layout", "x"])
    assert exit_.value.code == 2
    assert "error: layout must be one of ('turn', 'trajectory'), got 'x'." in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_the_check_runs_after_parsing_and_its_value_errors_are_usage_errors(capsys):
    seen = []
    parse_script_arguments((Knobs, AgentArguments), argv=["--steps", "2"], check=lambda *parsed: seen.extend(parsed))
    assert [type(item) for item in seen] == [Knobs, AgentArguments] and seen[0].steps == 2

    def check(knobs, agent):
        raise ValueError("threads must be 0 (torch's default) or more, got -1")

    assert "error: threads must be 0 (torch's default) or more, got -1" in refused(capsys, [], check=check)


def test_run_script_reports_faults_the_user_must_fix_and_shows_defects(capsys, tmp_path):
    def unknown_task():
        raise UnknownTaskError("Unknown task id 99999 in the embedded test split.")

    with pytest.raises(SystemExit) as exit_:
        run_script(unknown_task)
    assert exit_.value.code == 1
    assert capsys.readouterr().err == "error: Unknown task id 99999 in the embedded test split.\n"

    def missing_file():
        (tmp_path / "absent" / "x.jsonl").read_text()

    with pytest.raises(SystemExit) as exit_:
        run_script(missing_file)
    assert exit_.value.code == 1
    assert capsys.readouterr().err == f"error: {tmp_path / 'absent' / 'x.jsonl'}: No such file or directory\n"

    def interrupted():
        raise KeyboardInterrupt

    with pytest.raises(SystemExit) as exit_:
        run_script(interrupted)
    assert exit_.value.code == 130

    def defect():
        raise ZeroDivisionError("a bug")

    with pytest.raises(ZeroDivisionError):  # a defect keeps its traceback
        run_script(defect)
    assert run_script(lambda: 7) is None


def test_user_error_message_names_only_faults_a_user_can_fix():
    assert user_error_message(UnknownTaskError("no task 5")) == "no task 5"
    assert user_error_message(FileNotFoundError(2, "No such file or directory", "demos.jsonl")) == \
        "demos.jsonl: No such file or directory"
    assert user_error_message(OSError("socket closed")) is None  # no file named: not the user's to fix
    assert user_error_message(ValueError("bug")) is None
