"""Oracles: scripted experts that solve embedded tasks through the env's own action strings.

An oracle is a generator ``solve(ctx)`` that yields action strings; after each yield
``ctx`` shows the new page. Oracles find elements by what the page shows (text, labels,
placeholders), never by URL, since agents have no goto action either.

>>> def solve(ctx):                                   # doctest: +SKIP
...     yield ctx.click("My Account")
...     yield ctx.click("My Orders")
...     total = ctx.search_text(r"Grand Total\\s*\\$([\\d.,]+)")
...     yield ctx.exit(total)

:mod:`webarena_gym.oracle_runner` plays oracles in an env (``play``, ``run_oracle``,
``run_answer``); this module only knows what an oracle sees and the actions it builds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from ..actions import Action, ActionName
from ..errors import WebArenaGymError
from ..observation import Element, PageObservation


class OracleError(WebArenaGymError, AssertionError):
    """An oracle could not find what it expected on the page (a bug in the oracle or the site)."""


class OracleContext:
    """What an oracle sees: the task, the current page, and helpers that build actions."""

    def __init__(self, task: dict[str, Any]):
        self.task = task
        self.observation = ""
        self.url = ""
        self.page = PageObservation(text="")
        self.last_error = ""

    @property
    def elements(self) -> list[Element]:
        return self.page.elements

    @property
    def instantiation(self) -> dict[str, Any]:
        return self.task.get("instantiation_dict") or {}

    # -- finding things ---------------------------------------------------------------
    def find_all(self, text: str | None = None, *, tag: str | None = None, exact: bool = False,
                 label: str | None = None, input_type: str | None = None) -> list[Element]:
        """Elements matching every given criterion (text/label: case-insensitive; substring unless exact)."""
        def matches(value: str, wanted: str) -> bool:
            value, wanted = value.strip().lower(), wanted.strip().lower()
            return value == wanted if exact else wanted in value

        found = []
        for element in self.page.elements:
            if tag is not None and element.tag != tag:
                continue
            if input_type is not None and element.input_type != input_type:
                continue
            if text is not None and not (matches(element.text, text) or matches(element.label, text)):
                continue
            if label is not None and not matches(element.label, label):
                continue
            found.append(element)
        return found

    def find(self, text: str | None = None, *, nth: int = 0, **criteria: Any) -> Element:
        """The ``nth`` element matching (see :meth:`find_all`); exact text matches win over substrings."""
        found = self.find_all(text, **criteria)
        if text is not None and not criteria.get("exact"):
            wanted = text.strip().lower()
            exact = [e for e in found if wanted in (e.text.strip().lower(), e.label.strip().lower())]
            found = exact or found
        if len(found) <= nth:
            wanted = ", ".join(f"{k}={v!r}" for k, v in {"text": text, **criteria}.items() if v is not None)
            raise OracleError(f"No element ({wanted}) #{nth} on {self.url}:\n{self.observation[:3000]}")
        return found[nth]

    def field(self, name: str) -> Element:
        """A form field by its label, aria-label or placeholder."""
        for element in self.page.elements:
            if element.tag in ("input", "textarea", "select") and element.label.strip().lower() == name.strip().lower():
                return element
        return self.find(label=name)

    def text(self) -> str:
        """The page's visible text (observation without tags), for reading answers."""
        return re.sub(r"<[^>]+>", " ", self.page.text)

    def search_text(self, pattern: str, group: int = 1, flags: int = re.IGNORECASE) -> str:
        """The first regex match in the page text (group ``group``); OracleError when absent."""
        match = re.search(pattern, self.page.text, flags)
        if match is None:
            raise OracleError(f"Pattern {pattern!r} not on {self.url}:\n{self.observation[:3000]}")
        return match.group(group)

    # -- building actions -------------------------------------------------------------
    def click(self, text: str | None = None, **criteria: Any) -> str:
        return Action(ActionName.CLICK, element=self.find(text, **criteria).id).to_string()

    def click_element(self, element: Element) -> str:
        return Action(ActionName.CLICK, element=element.id).to_string()

    def type(self, field_name: str, text: str) -> str:
        return Action(ActionName.TYPE, element=self.field(field_name).id, argument=text).to_string()

    def search(self, field_name: str, text: str) -> str:
        return Action(ActionName.SEARCH, element=self.field(field_name).id, argument=text).to_string()

    def select(self, field_name: str, option: str) -> str:
        return Action(ActionName.SELECT_DROPDOWN_OPTION, element=self.field(field_name).id, argument=option).to_string()

    def check(self, field_name: str) -> str:
        """Click a checkbox or radio (found by label) — a toggle, so only when it needs changing."""
        return Action(ActionName.CLICK, element=self.field(field_name).id).to_string()

    def go_back(self) -> str:
        return Action(ActionName.GO_BACKWARD).to_string()

    def exit(self, message: str = "") -> str:
        return Action(ActionName.EXIT, message=str(message)).to_string()

    def update(self, observation: str, info: dict[str, Any], page: PageObservation) -> None:
        """Show the oracle the page its last action led to (the env's observation, info and page)."""
        self.observation = observation
        self.url = info.get("url", "")
        self.last_error = info.get("last_action_error", "")
        self.page = page


Oracle = Callable[[OracleContext], Iterator[str]]
