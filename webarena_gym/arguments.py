"""Checked arguments: argparse types for numbers with bounds (a bad value is a usage error that
names its option), and the same checks for keyword arguments (a :class:`ConfigurationError` that
shows the bad value and the accepted range).

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="demo", exit_on_error=False)
>>> _ = parser.add_argument("--steps", type=whole(1))
>>> _ = parser.add_argument("--temperature", type=number(0, above=True))
>>> parser.parse_args(["--steps", "3", "--temperature", "0.7"])
Namespace(steps=3, temperature=0.7)
>>> parser.parse_args(["--temperature", "nan"])
Traceback (most recent call last):
...
argparse.ArgumentError: argument --temperature: must be a finite number above 0, got 'nan'
>>> check_whole("max_steps", 0, 1, 10_000)
Traceback (most recent call last):
...
webarena_gym.errors.ConfigurationError: max_steps must be a whole number from 1 to 10000, got 0.
>>> check_flag("keep_task", "yes")
Traceback (most recent call last):
...
webarena_gym.errors.ConfigurationError: keep_task must be True or False, got 'yes'.
"""

from __future__ import annotations

import argparse
import math
import numbers
from collections.abc import Callable
from typing import Any

from .errors import ConfigurationError


def whole(minimum: int) -> Callable[[str], int]:
    """An argparse type: an integer of at least ``minimum``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


def number(minimum: float, maximum: float = math.inf, *, above: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number in [minimum, maximum] (greater than ``minimum`` when ``above``)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        low_ok = value > minimum if above else value >= minimum
        if not (math.isfinite(value) and low_ok and value <= maximum):  # NaN fails every comparison
            bound = f"above {minimum:g}" if above else f"at least {minimum:g}"
            most = f" and at most {maximum:g}" if maximum < math.inf else ""
            raise argparse.ArgumentTypeError(f"must be a finite number {bound}{most}, got {text!r}")
        return value

    return parse


def is_flag(value: Any) -> bool:
    """Whether ``value`` is a bool: Python's, or a numpy bool scalar (never 0, 1, None or ``"no"``)."""
    return isinstance(value, bool) or (getattr(getattr(value, "dtype", None), "kind", None) == "b"
                                       and getattr(value, "shape", None) == ())


def is_whole(value: Any) -> bool:
    """Whether ``value`` is an integer (Python's or numpy's), bools excluded."""
    return isinstance(value, numbers.Integral) and not is_flag(value)


def check_flag(name: str, value: Any, hint: str = "") -> bool:
    """``value`` as a bool; a :class:`ConfigurationError` unless it is one (``"no"`` would otherwise be true)."""
    if not is_flag(value):
        raise ConfigurationError(f"{name} must be True or False, got {value!r:.80}.{_hint(hint)}")
    return bool(value)


def check_whole(name: str, value: Any, minimum: int, maximum: int, hint: str = "") -> int:
    """``value`` as an int in [minimum, maximum]; a :class:`ConfigurationError` that shows the range otherwise."""
    if not is_whole(value) or not minimum <= value <= maximum:
        raise ConfigurationError(
            f"{name} must be a whole number from {minimum} to {maximum}, got {value!r:.80}.{_hint(hint)}")
    return int(value)


def check_number(name: str, value: Any, minimum: float, maximum: float, *, above: bool = False, hint: str = "") -> float:
    """``value`` as a finite float in [minimum, maximum] (greater than ``minimum`` when ``above``)."""
    ok = isinstance(value, numbers.Real) and not is_flag(value) and math.isfinite(value)
    if not ok or not (value > minimum if above else value >= minimum) or value > maximum:  # NaN fails isfinite
        low = f"above {minimum:g}" if above else f"from {minimum:g}"
        raise ConfigurationError(
            f"{name} must be a finite number {low} up to {maximum:g}, got {value!r:.80}.{_hint(hint)}")
    return float(value)


def _hint(hint: str) -> str:
    return f" {hint}" if hint else ""


__all__ = ["check_flag", "check_number", "check_whole", "is_flag", "is_whole", "number", "whole"]
