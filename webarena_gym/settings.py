"""The agent's settings, owned in one place: every default and bound of what the agent sees and how long it acts.

The env (``max_steps``, ``max_chars``), the context wrapper (``thinking``, ``keep_last``,
``task_after_page``), the trainers' configs and the ``eval`` command read their defaults and
bounds from here, under the same names. :class:`AgentSettings` is frozen and validated when made:

>>> AgentSettings().max_steps, AgentSettings.evaluation().max_steps, AgentSettings().max_chars
(15, 30, 16000)
>>> AgentSettings(max_chars=100)
Traceback (most recent call last):
...
webarena_gym.errors.ConfigurationError: max_chars must be a whole number from 200 to 10000000, got 100. The default, 16000, shows most pages whole.

One name is not carried through to the trainers' configs: TRL's ``max_steps`` there counts
optimizer steps, so the configs call the env's step limit ``max_turns`` (:data:`CONFIG_NAMES`).
Older names of the settings (``max_observation_chars``, ``keep_last_observations``) are read,
with a :class:`FutureWarning`, by :func:`renamed_settings`, so saved records stay readable.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from .arguments import check_flag, check_whole

#: Step limits used by WebAgent-R1: 15 interactions in training, 30 in evaluation (WebArena-Lite's budget).
DEFAULT_MAX_STEPS = 15
EVALUATION_MAX_STEPS = 30
#: Character budget of one observation: most pages of the embedded and real sites fit whole.
DEFAULT_MAX_CHARS = 16_000
#: Past observations kept in full in the context (0: WebAgent-R1's dynamic context compression).
DEFAULT_KEEP_LAST = 0
#: Accepted ranges. Past them a value is a mistake (a misplaced zero, a unit mix-up), refused rather than
#: clamped: no episode needs 10,000 steps, no observation 10 million characters (a vector env's shared
#: memory holds that many per env), and fewer than 200 characters cannot show a page's numbered elements.
MAX_STEPS_RANGE = (1, 10_000)
MAX_CHARS_RANGE = (200, 10_000_000)
MAX_KEEP_LAST = 10_000

#: Former names of settings, and the names they have now.
RENAMED = {"max_observation_chars": "max_chars", "keep_last_observations": "keep_last"}
#: Where the trainers' configs (TRL's ``TrainingArguments``) must name a setting otherwise: there
#: ``max_steps`` is TRL's count of optimizer steps.
CONFIG_NAMES = {"max_steps": "max_turns"}


@dataclass(frozen=True)
class AgentSettings:
    """What the agent sees and how long it may act (validated; a :class:`ConfigurationError` names the bad value).

    Args:
        max_steps: Interaction limit of an episode; reaching it truncates (15 in training, 30 in evaluation).
        max_chars: Character budget of one observation; longer pages scroll.
        keep_last: Past observations kept in full in the context (0: only the current one).
        thinking: The ``<think>...</think><answer>...</answer>`` format.
        task_after_page: Restate the task after the page on every turn (WebArena's prompts) instead of once first.
    """

    max_steps: int = DEFAULT_MAX_STEPS
    max_chars: int = DEFAULT_MAX_CHARS
    keep_last: int = DEFAULT_KEEP_LAST
    thinking: bool = False
    task_after_page: bool = False

    def __post_init__(self) -> None:
        checked = {
            "max_steps": check_whole("max_steps", self.max_steps, *MAX_STEPS_RANGE,
                                     hint=f"WebAgent-R1 uses {DEFAULT_MAX_STEPS} in training and "
                                          f"{EVALUATION_MAX_STEPS} in evaluation."),
            "max_chars": check_whole("max_chars", self.max_chars, *MAX_CHARS_RANGE,
                                     hint=f"The default, {DEFAULT_MAX_CHARS}, shows most pages whole."),
            "keep_last": check_whole("keep_last", self.keep_last, 0, MAX_KEEP_LAST,
                                     hint="0 keeps only the current page in full (WebAgent-R1's compression)."),
            "thinking": check_flag("thinking", self.thinking),
            "task_after_page": check_flag("task_after_page", self.task_after_page),
        }
        for name, value in checked.items():  # plain ints and bools (numpy's are accepted, and converted)
            object.__setattr__(self, name, value)

    @classmethod
    def evaluation(cls, **changes: Any) -> AgentSettings:
        """The settings of an evaluation: WebArena-Lite's budget of 30 interactions, unless ``changes`` say otherwise."""
        return cls(**{"max_steps": EVALUATION_MAX_STEPS, **changes})

    def replace(self, **changes: Any) -> AgentSettings:
        """A copy with ``changes`` (validated like any other)."""
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        """Every setting by name."""
        return asdict(self)

    def env_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :class:`webarena_gym.env.WebArenaEnv`."""
        return {"max_steps": self.max_steps, "max_chars": self.max_chars}

    def context_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :class:`webarena_gym.wrappers.CompressedHistory`."""
        return {"thinking": self.thinking, "keep_last": self.keep_last, "task_after_page": self.task_after_page}


def renamed_settings(values: Mapping[str, Any], *, where: str = "settings") -> dict[str, Any]:
    """``values`` with former setting names (:data:`RENAMED`) replaced by today's, with a :class:`FutureWarning`
    for each; a :class:`ConfigurationError` where both names are given with different values."""
    from .errors import ConfigurationError

    out = dict(values)
    for old, new in RENAMED.items():
        if old not in out:
            continue
        value = out.pop(old)
        warnings.warn(f"{where}: {old!r} is now called {new!r}; the old name will stop working in a later release.",
                      FutureWarning, stacklevel=3)
        if new in out and out[new] != value:
            raise ConfigurationError(f"{where}: {old}={value!r} and {new}={out[new]!r} name one setting; "
                                     f"give only {new}.")
        out[new] = value
    return out


class RenamedFlag(argparse.Action):
    """An argparse option also spelt its former way (the last option string), which still works but warns.

    >>> parser = argparse.ArgumentParser()
    >>> _ = parser.add_argument("--max-chars", "--max-observation-chars", type=int, action=RenamedFlag)
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     parser.parse_args(["--max-observation-chars", "900"]).max_chars
    900
    >>> str(caught[0].message)
    '--max-observation-chars is now called --max-chars; the old name will stop working in a later release.'
    """

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any):
        super().__init__(option_strings, dest, **kwargs)
        self.former, self.current = option_strings[-1], option_strings[0]

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        if option_string == self.former:
            warnings.warn(f"{self.former} is now called {self.current}; the old name will stop working in a later "
                          "release.", FutureWarning, stacklevel=2)
        setattr(namespace, self.dest, values)


__all__ = ["CONFIG_NAMES", "DEFAULT_KEEP_LAST", "DEFAULT_MAX_CHARS", "DEFAULT_MAX_STEPS", "EVALUATION_MAX_STEPS",
           "MAX_CHARS_RANGE", "MAX_KEEP_LAST", "MAX_STEPS_RANGE", "RENAMED", "AgentSettings", "RenamedFlag",
           "renamed_settings"]
