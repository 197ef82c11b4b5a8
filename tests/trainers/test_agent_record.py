"""A trained model's agent settings: recorded beside its weights, compared when it is trained on or evaluated."""

from __future__ import annotations

import json
import logging

from trainers.agent_record import (
    AGENT_SETTINGS_FILE,
    agent_setting_differences,
    agent_settings_of,
    recorded_agent_settings,
    warn_about_agent_settings,
    write_agent_settings,
)
from trainers.config import AgentArguments


def test_the_record_holds_the_prompt_settings_and_the_turn_limit(tmp_path):
    write_agent_settings(AgentArguments(max_turns=3, max_chars=2000, task_after_page=True), tmp_path)
    assert json.loads((tmp_path / AGENT_SETTINGS_FILE).read_text()) == {
        "suite": "embedded", "max_turns": 3, "max_chars": 2000, "thinking": False,
        "keep_last": 0, "task_after_page": True}
    assert recorded_agent_settings(tmp_path)["max_chars"] == 2000


def test_each_prompt_setting_that_differs_is_named_with_the_value_that_repeats_it(tmp_path):
    trained = AgentArguments(max_turns=3, max_chars=2000, task_after_page=True)
    write_agent_settings(trained, tmp_path)
    assert agent_setting_differences(tmp_path, agent_settings_of(trained)) == []
    scaled = AgentArguments(max_turns=30, max_chars=2000, task_after_page=True)  # test-time scaling
    assert agent_setting_differences(tmp_path, agent_settings_of(scaled)) == []
    other = AgentArguments(max_chars=16_000, thinking=True, keep_last=1)
    differences = agent_setting_differences(tmp_path, agent_settings_of(other), flags={"keep_last":
                                                                                      "--keep-last"})
    assert differences == [
        f"{tmp_path} was trained with max_chars=2000 and this run uses 16000, so its prompts differ "
        "from those it learnt (pass --max_chars 2000 to repeat them)",
        f"{tmp_path} was trained with thinking=False and this run uses True, so its prompts differ from those "
        "it learnt (leave out --thinking to repeat them)",
        f"{tmp_path} was trained with keep_last=0 and this run uses 1, so its prompts differ from "
        "those it learnt (pass --keep-last 0 to repeat them)",
        f"{tmp_path} was trained with task_after_page=True and this run uses False, so its prompts differ from "
        "those it learnt (pass --task_after_page to repeat them)",
    ]


def test_a_model_without_a_record_or_with_a_broken_one_is_used_as_it_is(tmp_path, caplog):
    settings = agent_settings_of(AgentArguments(thinking=True))
    assert recorded_agent_settings(tmp_path) == {} and agent_setting_differences(tmp_path, settings) == []
    assert agent_setting_differences("Qwen/Qwen2.5-3B-Instruct", settings) == []  # a hub id: nothing recorded
    for broken, reason in (('{"thinking": fal', "does not read as JSON"), ("[1, 2]", "expected an object"),
                           (b"\xff\xfe\x00", "does not read as JSON")):
        path = tmp_path / AGENT_SETTINGS_FILE
        path.write_bytes(broken) if isinstance(broken, bytes) else path.write_text(broken)
        with caplog.at_level(logging.WARNING, logger="trainers.agent_record"):
            caplog.clear()
            assert warn_about_agent_settings(tmp_path, settings) == []
        assert reason in caplog.text


def test_differences_are_logged_as_warnings(tmp_path, caplog, messages_of):
    write_agent_settings(AgentArguments(max_chars=2000), tmp_path)
    with caplog.at_level(logging.WARNING, logger="trainers.agent_record"):
        differences = warn_about_agent_settings(tmp_path, agent_settings_of(AgentArguments()))
    assert len(differences) == 1 and messages_of("trainers.agent_record") == [differences[0] + "."]
