"""The command lines of the example scripts.

In ``train_bc.py``, ``train_grpo.py`` and ``evaluate.py`` every field of their dataclasses is a
flag (``HfArgumentParser``, as TRL's own scripts do), and bad input ends the script as a user
expects of a command: a usage message that says what is wrong and exit status 2 for a flag or
value it refuses. In every script (:func:`run_script`), a fault found while it runs (a missing
file, an unknown task id) is ``error: ...`` and status 1. A traceback is left for defects.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from transformers import HfArgumentParser

from webarena_gym.errors import user_error_message


def parse_script_arguments(types: Sequence[type], *, defaults: dict[str, Any] | None = None,
                           check: Callable[..., None] | None = None,
                           argv: Sequence[str] | None = None) -> tuple[Any, ...]:
    """One instance of each dataclass of ``types`` from ``argv`` (the command line by default).

    An unknown flag, a value of the wrong type, a value a dataclass refuses (``ValueError``
    in its ``__post_init__``) and a ``ValueError`` of ``check(*instances)``, which checks
    and applies what needs more than a type (a model that must load, a thread count), all
    exit with argparse's usage error, before anything is written.
    """
    parser = HfArgumentParser(types)
    parser.error = _short_usage_error(parser)
    if defaults:
        parser.set_defaults(**defaults)
    try:
        *parsed, remaining = parser.parse_args_into_dataclasses(args=argv, return_remaining_strings=True)
    except ValueError as exc:
        parser.error(str(exc))
    if remaining:
        parser.error(f"unrecognized arguments: {' '.join(remaining)}")
    if check is not None:
        try:
            check(*parsed)
        except ValueError as exc:
            parser.error(str(exc))
    return tuple(parsed)


def _short_usage_error(parser: HfArgumentParser) -> Callable[[str], NoReturn]:
    """argparse's usage error without the usage, which for a trainer's hundreds of flags would bury the message."""
    def error(message: str) -> NoReturn:
        parser.exit(2, f"{parser.prog}: error: {message}\n(`{parser.prog} --help` lists every flag)\n")

    return error


def run_script(main: Callable[[], Any], *, interrupted: str | None = None) -> None:
    """Run a script's ``main``: a fault the user must fix ends it with ``error: ...`` on stderr and
    status 1, Ctrl-C with status 130 (after ``interrupted``, when given); a defect shows its traceback."""
    try:
        main()
    except KeyboardInterrupt:
        if interrupted:
            print(interrupted, file=sys.stderr)
        sys.exit(130)
    except Exception as exc:
        message = user_error_message(exc)
        if message is None:
            raise
        print(f"error: {message}", file=sys.stderr)
        sys.exit(1)


__all__ = ["parse_script_arguments", "run_script"]
