"""Argparse types for numbers with bounds: a bad value is a usage error that names its option.

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
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


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


__all__ = ["number", "whole"]
