"""The agent settings a model was trained with, saved beside its weights and compared when it is used again.

BC, GRPO and evaluation must render the agent's prompts alike: the observation budget, the
thinking format, the history kept in full and where the task is restated. A model directory
that BC or GRPO saved holds ``agent_settings.json``; a later GRPO run or evaluation with other
values gets one warning per difference, naming the value that repeats the trained prompts,
since a mismatch is otherwise silent (it only costs success). ``max_turns`` is recorded but not
compared: evaluation raises it for test-time scaling. Records saved under the settings' former names
(``max_observation_chars``, ``keep_last_observations``) read as today's (``max_chars``, ``keep_last``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from webarena_gym.settings import RENAMED

from .config import AgentArguments

logger = logging.getLogger(__name__)

AGENT_SETTINGS_FILE = "agent_settings.json"
#: The settings that change what the model reads; a run that differs in one renders other prompts.
PROMPT_SETTINGS = ("max_chars", "thinking", "keep_last", "task_after_page")


def write_agent_settings(args: AgentArguments, directory: str | Path) -> None:
    """Record ``args``'s prompt settings (and suite and turn limit, for the record) in ``directory``."""
    recorded = {"suite": args.suite, "max_turns": args.max_turns, **agent_settings_of(args)}
    path = Path(directory) / AGENT_SETTINGS_FILE
    path.write_text(json.dumps(recorded, indent=1) + "\n", encoding="utf-8")


def recorded_agent_settings(directory: str | Path) -> dict[str, Any]:
    """What ``directory`` was trained with; empty for a model saved elsewhere (a hub id, a base model)
    and, with a warning, for a record that does not read as one."""
    path = Path(directory) / AGENT_SETTINGS_FILE
    if not path.is_file():
        return {}
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        logger.warning("Ignoring %s, which does not read as JSON (%s).", path, exc)
        return {}
    if not isinstance(recorded, dict):
        logger.warning("Ignoring %s: expected an object of settings, got %s.", path, type(recorded).__name__)
        return {}
    return {RENAMED.get(name, name): value for name, value in recorded.items()}


def agent_setting_differences(directory: str | Path, settings: Mapping[str, Any],
                              flags: Mapping[str, str] | None = None) -> list[str]:
    """One sentence per prompt setting whose value in ``settings`` differs from what ``directory`` was trained
    with, naming the flag that repeats it (``flags`` maps a setting to its flag; default ``--<name>``)."""
    recorded = recorded_agent_settings(directory)
    settings = {RENAMED.get(name, name): value for name, value in settings.items()}
    flags = {RENAMED.get(name, name): flag for name, flag in (flags or {}).items()}
    differences = []
    for name in PROMPT_SETTINGS:
        if name not in recorded or name not in settings or recorded[name] == settings[name]:
            continue
        trained, now = recorded[name], settings[name]
        flag = (flags or {}).get(name, f"--{name}")
        remedy = (f"pass {flag}" if trained else f"leave out {flag}") if isinstance(trained, bool) else \
            f"pass {flag} {trained}"
        differences.append(f"{directory} was trained with {name}={trained!r} and this run uses {now!r}, so its "
                           f"prompts differ from those it learnt ({remedy} to repeat them)")
    return differences


def warn_about_agent_settings(directory: str | Path, settings: Mapping[str, Any],
                              flags: Mapping[str, str] | None = None) -> list[str]:
    """Log a warning for each difference of :func:`agent_setting_differences`; the differences."""
    differences = agent_setting_differences(directory, settings, flags)
    for difference in differences:
        logger.warning("%s.", difference)
    return differences


def agent_settings_of(args: AgentArguments) -> dict[str, Any]:
    """``args``'s prompt settings, as :func:`agent_setting_differences` compares them."""
    return {name: getattr(args, name) for name in PROMPT_SETTINGS}


__all__ = ["AGENT_SETTINGS_FILE", "PROMPT_SETTINGS", "agent_setting_differences", "agent_settings_of",
           "recorded_agent_settings", "warn_about_agent_settings", "write_agent_settings"]
