"""Task families: an intent template, all its instantiations, and the oracle that solves it."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .oracle import OracleContext

#: ``pristine(site)`` -> a read-only connection to that site's seeded data.
PristineData = Callable[[str], sqlite3.Connection]


@dataclass(frozen=True)
class TaskFamily:
    """One WebArena-style intent template over the embedded sites.

    Attributes:
        name: Unique dotted name, ``<site>.<what>`` (e.g. ``shopping.order_total``).
        sites: The sites its tasks use.
        intent_template: The template with ``{{placeholders}}``, as in WebArena's data.
        instantiate: Returns every instance as a WebArena task dict (no ``task_id``),
            computed from the seeded data, in a deterministic order.
        solve: The oracle: a generator of action strings (see :mod:`.oracle`).
        kind: ``information``, ``navigation`` or ``content`` (WebArena's three task kinds).
    """

    name: str
    sites: tuple[str, ...]
    intent_template: str
    instantiate: Callable[[PristineData], list[dict[str, Any]]]
    solve: Callable[[OracleContext], Iterator[str]]
    kind: str = "information"

    def __post_init__(self) -> None:
        if self.kind not in ("information", "navigation", "content"):
            raise ValueError(f"TaskFamily {self.name!r}: kind must be information, navigation or content, got {self.kind!r}")
