"""What an evaluated episode leaves behind, and success tables over many of them.

One :class:`EpisodeResult` per episode, one :class:`StepRecord` per interaction: the page
the agent saw (URL, observation, optionally a screenshot), what the model wrote, the
action that was parsed from it, and the env's verdict. :mod:`.run_file` stores them as
JSONL; :mod:`webarena_gym.report` renders them as HTML.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..actions import parse_action
from ..errors import InvalidActionError
from ..webarena_sites import site_group

#: Tag of an episode line in a run file.
EPISODE_SCHEMA = "webarena-gym/episode-v1"


@dataclass
class StepRecord:
    """One interaction of an episode.

    Attributes:
        output: What the policy wrote (its whole answer, thinking included), as the env received it.
        action: The action parsed from ``output`` in canonical form; "" when it did not parse.
        error: The env's ``last_action_error`` for this step, or why the model gave no answer.
        url: The page the agent saw when it answered.
        observation: The page as the agent was shown it: the turn's user message (the task on
            the first turn, the URL, the observation text); empty when not recorded.
        reasoning: A separate reasoning channel of the model (some endpoints return one).
        prompt_tokens: Tokens of the context (None when the policy does not say).
        completion_tokens: Tokens of ``output`` (None when the policy does not say).
        screenshot: Base64 PNG of the page the agent saw (Playwright with ``record_screenshots``).
    """

    output: str
    action: str = ""
    error: str = ""
    url: str = ""
    observation: str = ""
    reasoning: str = ""
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    screenshot: str | None = None


@dataclass
class EpisodeResult:
    """One evaluated episode (one line of a run file).

    ``end_reason`` is ``"exit"`` (the agent answered), ``"step_limit"`` (truncated) or what
    else ended it. ``family`` names the embedded task family that produced the task; ``template`` is
    the task's ``intent_template_id`` (tasks of one template succeed and fail together: the unit a
    comparison of two runs resamples, see :mod:`.bootstrap`). ``reference`` is the task's ``eval``
    block in WebArena's JSON (reference answers, reference URL, page checks), what the answer was
    scored against; empty in run files written before it was recorded.
    """

    task_id: int
    sites: list[str]
    reward: float
    steps: int
    answer: str | None
    turns: list[StepRecord] = field(default_factory=list)
    intent: str = ""
    reward_components: dict[str, float] = field(default_factory=dict)
    end_reason: str = ""
    family: str | None = None
    final_url: str = ""
    template: int | None = None
    reference: dict[str, Any] = field(default_factory=dict)

    @property
    def site_group(self) -> str:
        return site_group(self.sites)

    @property
    def success(self) -> bool:
        return self.reward >= 1.0

    @property
    def actions(self) -> list[str]:
        """What the policy wrote at each step."""
        return [turn.output for turn in self.turns]

    @property
    def errors(self) -> list[str]:
        """The env's error message of each step ("" where the action worked)."""
        return [turn.error for turn in self.turns]

    @property
    def tokens(self) -> tuple[int, int]:
        """(prompt, completion) tokens of the episode, counting the steps that report them."""
        return (sum(t.prompt_tokens or 0 for t in self.turns), sum(t.completion_tokens or 0 for t in self.turns))

    def to_dict(self) -> dict[str, Any]:
        return {"schema": EPISODE_SCHEMA, **asdict(self)}

    @classmethod
    def from_dict(cls, data: Any) -> EpisodeResult:
        """Validate one decoded line; raises ValueError saying which field is wrong.

        Also reads the older line format (``actions`` and ``errors`` lists, no turns).
        """
        if not isinstance(data, dict):
            raise ValueError(f"expected a JSON object, got {type(data).__name__}")
        if data.get("schema", EPISODE_SCHEMA) != EPISODE_SCHEMA:
            raise ValueError(f"unknown schema {data.get('schema')!r} (expected {EPISODE_SCHEMA!r})")
        for name, kind in (("task_id", int), ("sites", list), ("reward", (int, float)), ("steps", int)):
            if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
                raise ValueError(f"field {name!r} is missing or of the wrong type: {data.get(name)!r:.60}")
        if data["steps"] < 0:
            raise ValueError(f"field 'steps' must not be negative, got {data['steps']}")
        if not math.isfinite(data["reward"]):
            raise ValueError(f"field 'reward' must be a finite number, got {data['reward']!r}")
        if not all(isinstance(site, str) for site in data["sites"]):
            raise ValueError(f"field 'sites' must list site names, got {data['sites']!r:.60}")
        for name in ("answer", "family", "intent", "end_reason", "final_url"):
            _check_optional(data, name, str)
        reference = data.get("reference") or {}
        if not isinstance(reference, dict):
            raise ValueError(f"field 'reference' must be a JSON object (a task's eval block), got {reference!r:.60}")
        components = data.get("reward_components") or {}
        if not isinstance(components, dict) or not all(
                isinstance(value, (int, float)) and not isinstance(value, bool) for value in components.values()):
            raise ValueError(f"field 'reward_components' must map names to numbers, got {components!r:.60}")
        raw_turns = data.get("turns")
        if raw_turns is None:  # the older format
            raw_turns = [{"output": a, "error": e} for a, e in zip(data.get("actions") or [], data.get("errors") or [], strict=False)]
        if not isinstance(raw_turns, list):
            raise ValueError("field 'turns' must be a list")
        return cls(
            task_id=data["task_id"], sites=list(data["sites"]), reward=float(data["reward"]),
            steps=data["steps"], answer=data.get("answer"), turns=[_turn(index, turn) for index, turn in enumerate(raw_turns)],
            intent=data.get("intent") or "", reward_components={str(k): float(v) for k, v in components.items()},
            end_reason=data.get("end_reason") or "", family=data.get("family"), final_url=data.get("final_url") or "",
            template=_template(data.get("template")), reference=dict(reference),
        )


#: The type of each :class:`StepRecord` field in a run file (null stands for the field's default).
_TURN_FIELDS = {"output": str, "action": str, "error": str, "url": str, "observation": str, "reasoning": str,
                "prompt_tokens": int, "completion_tokens": int, "screenshot": str}


def _check_optional(data: dict[str, Any], name: str, kind: type) -> None:
    """Raise ValueError unless ``data[name]`` is absent, None or a ``kind`` (never a bool)."""
    value = data.get(name)
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
        raise ValueError(f"field {name!r} must be a {kind.__name__} or null, got {value!r:.60}")


def _turn(index: int, turn: Any) -> StepRecord:
    """One validated turn of a run file's episode (unknown fields are ignored)."""
    if not isinstance(turn, dict) or not isinstance(turn.get("output"), str):
        raise ValueError(f"turn {index} needs a string field 'output'")
    try:
        for name, kind in _TURN_FIELDS.items():
            _check_optional(turn, name, kind)
    except ValueError as exc:
        raise ValueError(f"turn {index}: {exc}") from None
    return StepRecord(**{k: v for k, v in turn.items() if k in _TURN_FIELDS and v is not None})  # null: the default


def _template(value: Any) -> int | None:
    """A run file's ``template``: an integer, or None (absent in older files)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"field 'template' must be an integer, got {value!r:.60}")
    return value


def canonical_action(text: str, *, strict: bool = False) -> str:
    """The action an agent's output parses to, in canonical form; "" when it does not parse.

    >>> canonical_action('<answer>do(element="3", action="click")</answer>')
    'do(action="Click", element="3")'
    """
    try:
        return parse_action(text, strict=strict).to_string()
    except InvalidActionError:
        return ""


def success_by_site(results: Iterable[EpisodeResult]) -> dict[str, tuple[int, int]]:
    """{site group: (successes, episodes)}, plus ``"all"``."""
    return success_by(results, lambda result: result.site_group)


def success_by(results: Iterable[EpisodeResult], key: Any) -> dict[str, tuple[int, int]]:
    """{key(result): (successes, episodes)}, sorted by key, plus ``"all"`` last."""
    table: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for result in results:
        for name in (key(result), "all"):
            table[name][0] += int(result.success)
            table[name][1] += 1
    return {k: (v[0], v[1]) for k, v in sorted(table.items(), key=lambda kv: (kv[0] == "all", kv[0]))}


def success_rate(results: Iterable[EpisodeResult]) -> float:
    """Fraction of episodes with reward 1."""
    wins, total = success_by_site(results).get("all", (0, 0))
    return wins / total if total else 0.0


def format_success_table(columns: dict[str, list[EpisodeResult]]) -> str:
    """A plain-text table: one row per site, one column per agent (success rate and counts)."""
    tables = {name: success_by_site(results) for name, results in columns.items()}
    sites = sorted({s for t in tables.values() for s in t}, key=lambda s: (s == "all", s))
    header = f"{'site':<16}" + "".join(f"{name:>22}" for name in columns)
    lines = [header, "-" * len(header)]
    for site in sites:
        cells = []
        for name in columns:
            wins, total = tables[name].get(site, (0, 0))
            cells.append(f"{(100 * wins / total if total else 0):6.1f}% ({wins:>3}/{total:<3})".rjust(22))
        lines.append(f"{site:<16}" + "".join(cells))
    return "\n".join(lines)
