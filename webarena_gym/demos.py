"""Expert demonstrations for behaviour cloning: recording oracle episodes to JSONL and reading them back.

Schema: one JSON object per line, one episode each::

    {"schema": "webarena-gym/demo-v1", "task_id": 1003, "suite": "embedded", "split": "train",
     "intent": "...", "sites": ["shopping"], "reward": 1.0,
     "turns": [{"observation": "<title>...", "action": "do(action=\\"Click\\", element=\\"4\\")",
                "thought": "Open \\"My Account\\".", "url": "http://127.0.0.1:7770/"}, ...]}

``observation`` is what the agent saw before taking ``action`` (budgeted text, exactly
as the env returned it); ``thought`` is an optional short rationale (used by the
thinking format). Lines are written and flushed one at a time, so an interrupted
recording keeps every finished episode.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .actions import TEXT_ACTIONS, ActionName, parse_action
from .errors import InvalidActionError, TrajectoryFileError
from .prompts import Turn

logger = logging.getLogger(__name__)

SCHEMA = "webarena-gym/demo-v1"


@dataclass(frozen=True)
class Demonstration:
    """One expert episode."""

    task_id: int
    intent: str
    turns: list[Turn]
    reward: float
    suite: str = "embedded"
    split: str = "train"
    sites: list[str] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps({"schema": SCHEMA, **asdict(self)}, ensure_ascii=False)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Demonstration:
        """Validate one decoded line; raises ValueError saying which field is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"expected a JSON object, got {type(data).__name__}")
        if data.get("schema", SCHEMA) != SCHEMA:
            raise ValueError(f"unknown schema {data.get('schema')!r} (expected {SCHEMA!r})")
        for name, kind in (("task_id", int), ("intent", str), ("turns", list)):
            if not isinstance(data.get(name), kind):
                raise ValueError(f"field {name!r} must be {kind.__name__}, got {data.get(name)!r:.60}")
        turns = []
        for i, turn in enumerate(data["turns"]):
            if not isinstance(turn, dict) or not isinstance(turn.get("observation"), str) or not isinstance(turn.get("action"), str):
                raise ValueError(f"turn {i} needs string fields 'observation' and 'action'")
            try:
                parse_action(turn["action"], strict=True)
            except InvalidActionError as exc:
                raise ValueError(f"turn {i} has an invalid action: {exc}") from None
            turns.append(Turn(turn["observation"], turn["action"], str(turn.get("url") or ""), str(turn.get("thought") or "")))
        if not turns:
            raise ValueError("an episode needs at least one turn")
        return cls(
            task_id=data["task_id"],
            intent=data["intent"],
            turns=turns,
            reward=float(data.get("reward", 0.0)),
            suite=str(data.get("suite", "embedded")),
            split=str(data.get("split", "train")),
            sites=list(data.get("sites") or []),
        )


@dataclass
class DemonstrationFile:
    """What :func:`read_demonstrations` found: the valid episodes and the bad lines."""

    demonstrations: list[Demonstration]
    errors: list[str]


def read_demonstrations(path: str | Path, *, strict: bool = False) -> DemonstrationFile:
    """Read a demonstrations JSONL file.

    Every valid line is kept. Bad lines (not JSON, wrong fields, invalid actions) are
    reported with their line number: as a warning, or with ``strict=True`` as one
    :class:`TrajectoryFileError` naming all of them.
    """
    path = Path(path)
    if not path.exists():
        raise TrajectoryFileError(f"No demonstrations file at {path}. Record one with `webarena-gym demos --out {path}`.")
    demos: list[Demonstration] = []
    errors: list[str] = []
    with path.open(encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                demos.append(Demonstration.from_json(json.loads(line)))
            except json.JSONDecodeError as exc:
                errors.append(f"{path}:{number}: not valid JSON ({exc.msg} at column {exc.colno})")
            except ValueError as exc:
                errors.append(f"{path}:{number}: {exc}")
    if errors:
        if strict:
            raise TrajectoryFileError(f"{len(errors)} bad line(s) in {path}:\n" + "\n".join(errors))
        logger.warning("Skipped %d bad line(s) in %s (kept %d episodes): %s", len(errors), path, len(demos), errors[:3])
    return DemonstrationFile(demos, errors)


def write_demonstrations(demos: Iterable[Demonstration], path: str | Path, *, append: bool = False) -> int:
    """Write episodes one line at a time (flushed), creating the file's folders; returns how many."""
    count = 0
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a" if append else "w", encoding="utf-8") as handle:
        for demo in demos:
            handle.write(demo.to_json() + "\n")
            handle.flush()
            count += 1
    return count


def record_oracle_demonstrations(
    split: str = "train", *, task_ids: list[int] | None = None, backend: str = "direct",
    max_steps: int = 30, progress: bool = True,
) -> Iterator[Demonstration]:
    """Play the embedded suite's oracle on each task and yield the successful episodes."""
    from tqdm.auto import tqdm

    from .env import WebArenaEnv
    from .oracle_runner import play
    from .suites.embedded import family_of

    env = WebArenaEnv(suite="embedded", split=split, backend=backend, task_ids=task_ids, max_steps=max_steps)
    try:
        for task in tqdm(env.tasks, desc=f"oracle demos ({split})", unit="task", disable=not progress):
            family = family_of(task.task_id, split)
            episode = play(env, task.task_id, family.solve, task.to_dict())
            if episode.reward < 1.0:
                logger.warning("Oracle failed task %s (%s); not recorded", task.task_id, family.name)
                continue
            turns = [
                Turn(observation, action, url, describe_step(action, page_text=observation))
                for observation, action, url in zip(episode.observations[:-1], episode.actions, episode.urls, strict=True)
            ]
            yield Demonstration(task.task_id, task.intent, turns, episode.reward, "embedded", split, list(task.sites))
    finally:
        env.close()


def describe_step(action: str, *, page_text: str = "") -> str:
    """A short thought for a demo turn, from the action and the element it targets."""
    import re

    parsed = parse_action(action, strict=True)
    if parsed.name is ActionName.EXIT:
        return f"I have what the task asks for; the answer is: {parsed.message}" if parsed.message else "The task is done."
    target = ""
    if parsed.element is not None:
        match = re.search(rf'<(\w+) id="{parsed.element}"[^>]*>([^<]*)', page_text)
        if match:
            target = match.group(2).strip() or match.group(1)
    if parsed.name is ActionName.CLICK:
        return f'I click "{target}".' if target else "I click the element."
    if parsed.name in TEXT_ACTIONS:
        return f'I {parsed.name.lower()} "{parsed.argument}" in the field.'
    if parsed.name is ActionName.SELECT_DROPDOWN_OPTION:
        return f'I choose "{parsed.argument}".'
    return f"I {parsed.name.lower()}."
