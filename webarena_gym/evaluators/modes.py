"""The two evaluation modes: VisualAgentBench's evaluators exactly, or with documented normalisations.

``"vab"`` (the default) reproduces VisualAgentBench's WebArena-Lite evaluators
(``VAB-WebArena-Lite/new/evaluators.py``), the code behind the success rates WebRL and
WebAgent-R1 report, quirks included, so a success rate from this project compares with
theirs. ``"lenient"`` adds normalisations that each accept only an answer or URL that
denotes the same thing (the README's Evaluators section lists them rule by rule) and
refuses the ways VisualAgentBench's substring rule accepts a different page: a reference
inside a query value, a longer last segment (``/issues/7190``), and path tricks that a
browser resolves elsewhere (``/todos/../../admin``, ``/todos%2F..%2Fother``,
``/todos%2Fchild``), compared after RFC 3986 dot-segment removal with ``%2F`` kept inside
its segment.
"""

from __future__ import annotations

from typing import Literal

from ..errors import ConfigurationError

EvaluationMode = Literal["vab", "lenient"]
EVALUATION_MODES: tuple[str, ...] = ("vab", "lenient")
DEFAULT_EVALUATION: EvaluationMode = "vab"


def check_evaluation_mode(mode: object) -> EvaluationMode:
    """``mode`` if it names an evaluation mode, else a :class:`ConfigurationError` that lists them.

    >>> check_evaluation_mode("lenient")
    'lenient'
    """
    if mode not in EVALUATION_MODES:
        raise ConfigurationError(
            f"evaluation={mode!r} is not an evaluation mode; expected one of {list(EVALUATION_MODES)} "
            f'("vab": VisualAgentBench\'s evaluators exactly, the default; "lenient": with normalisations).'
        )
    return mode  # type: ignore[return-value]
