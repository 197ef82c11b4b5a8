"""Task families: an intent template, all its instantiations, and the oracle that solves it."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .task import any_of

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


#: ``instances(pristine)`` yields (instantiation, eval[, start_url]) for each task of a family.
Instances = Callable[[PristineData], Iterable[tuple]]


def fill_template(template: str, values: dict[str, Any]) -> str:
    """The intent: ``{{key}}`` placeholders replaced by the instantiation's values.

    >>> fill_template("Promote {{repo}} to {{forum}}", {"repo": "auth0/angular-storage", "forum": "technology"})
    'Promote auth0/angular-storage to technology'
    """
    for key, value in values.items():
        template = template.replace("{{" + key + "}}", str(value))
    return template


def template_family(name: str, sites: tuple[str, ...], template: str, kind: str, instances: Instances,
                    solve: Callable[[OracleContext], Iterator[str]], *, start_url: str, require_login: bool,
                    storage_state: str | None) -> TaskFamily:
    """A family of WebArena task dicts, one per instance (whose own start url beats ``start_url``)."""

    def instantiate(pristine: PristineData) -> list[dict[str, Any]]:
        return [
            {
                "sites": list(sites), "require_login": require_login, "storage_state": storage_state,
                "start_url": start[0] if start else start_url, "geolocation": None,
                "intent": fill_template(template, values), "instantiation_dict": values, "eval": evaluation,
            }
            for values, evaluation, *start in instances(pristine)
        ]

    return TaskFamily(name=name, sites=sites, intent_template=template, instantiate=instantiate, solve=solve,
                      kind=kind)


def single_site_family(site: str, name: str, template: str, kind: str,
                       instances: Callable[[sqlite3.Connection], Iterable[tuple]],
                       solve: Callable[[OracleContext], Iterator[str]], *, start_url: str, require_login: bool = True,
                       prepare: Callable[[sqlite3.Connection], sqlite3.Connection] | None = None) -> TaskFamily:
    """A family ``<site>.<name>`` whose ``instances(conn)`` reads the site's pristine data.

    A logged-in family uses WebArena's storage state ``./.auth/<site>_state.json``.
    ``prepare`` turns the pristine connection into a connection of its own, closed after use.
    """

    def site_instances(pristine: PristineData) -> list[tuple]:
        conn = pristine(site)
        if prepare is None:
            return list(instances(conn))
        conn = prepare(conn)
        try:
            return list(instances(conn))
        finally:
            conn.close()

    return template_family(f"{site}.{name}", (site,), template, kind, site_instances, solve, start_url=start_url,
                           require_login=require_login,
                           storage_state=f"./.auth/{site}_state.json" if require_login else None)


# -- eval dicts --------------------------------------------------------------------------


def money(amount: float) -> str:
    """An amount as must_include wants it: ``27.49``, or ``1,234.56 |OR| 1234.56`` from a thousand on.

    >>> money(27.49), money(1234.56)
    ('27.49', '1,234.56 |OR| 1234.56')
    """
    return any_of(f"{amount:,.2f}", f"{amount:.2f}")



def string_match_eval(*, string_note: str | None = None, **answers: Any) -> dict[str, Any]:
    """A string_match eval over ``answers`` (``must_include=[...]``, ``exact_match=...``, ...)."""
    evaluation: dict[str, Any] = {"eval_types": ["string_match"], "reference_answers": answers, "reference_url": "",
                  "program_html": []}
    if string_note is not None:
        evaluation["string_note"] = string_note
    return evaluation


def url_match_eval(reference: str, note: str) -> dict[str, Any]:
    """A url_match eval; ``note`` is ``EXACT`` or ``GOLD in PRED``."""
    return {"eval_types": ["url_match"], "reference_answers": None, "reference_url": reference,
            "url_note": note, "program_html": []}


def program_html_eval(*targets: tuple[str, str, dict[str, Any]], reference_url: str = "",
                      note: str = "") -> dict[str, Any]:
    """A program_html eval over (url, locator, required_contents) targets; url_match too with ``reference_url``."""
    evaluation: dict[str, Any] = {
        "eval_types": (["url_match"] if reference_url else []) + ["program_html"],
        "reference_answers": None, "reference_url": reference_url,
        "program_html": [{"url": u, "locator": loc, "required_contents": req} for u, loc, req in targets],
    }
    if note:
        evaluation["url_note"] = note
    return evaluation
