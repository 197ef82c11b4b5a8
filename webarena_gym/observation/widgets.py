"""Scripted widgets that stand in for form controls.

- select2 (Postmill's forum picker, GitLab's older dropdowns): the real ``<select>`` is
  kept but hidden from sight and from assistive technology (``aria-hidden="true"``,
  ``select2-hidden-accessible``), and a ``<span role="combobox">`` after it shows the
  choice. select2 3.x (GitLab's profile preferences) hides the select with ``display: none``
  behind a ``<div class="select2-container">`` before it. The observation shows the select
  with its options and drops the stand-in.
- Magento's ui-select (the admin's attribute set and category pickers): a knockout
  widget with no native select behind it. The observation shows it as a select whose
  options are the widget's items; choosing one clicks the widget in the browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import lxml.html

from .naming import clean
from .visibility import class_names

UI_SELECT_CLASS = "admin__action-multiselect-wrap"
UI_SELECT_ITEM_CLASS = "admin__action-multiselect-menu-inner-item"
UI_SELECT_LABEL_CLASS = "admin__action-multiselect-label"
UI_SELECT_CHOSEN_CLASS = "_selected"
UI_SELECT_PLACEHOLDER_ROLE = "selected-option"
_PROXY_CLASSES = ("select2", "select2-container", "chosen-container")


def widget_stand_ins(root: lxml.html.HtmlElement) -> Iterator[lxml.html.HtmlElement]:
    """The visible stand-ins of selects that a widget drives (to be left out)."""
    for select in root.iter("select"):
        before = select2_container_before(select)
        if before is not None:
            yield before
            continue
        if select.get("aria-hidden") != "true" and "select2-hidden-accessible" not in class_names(select):
            continue
        sibling = _element_sibling(select, after=True)
        if sibling is not None and _is_stand_in(sibling):
            yield sibling


def is_driven_by_widget(select: lxml.html.HtmlElement) -> bool:
    return (select.get("aria-hidden") == "true" or "select2-hidden-accessible" in class_names(select)
            or select2_container_before(select) is not None)


def select2_container_before(select: lxml.html.HtmlElement) -> lxml.html.HtmlElement | None:
    """The select2 3.x widget that stands in for ``select`` (its previous sibling), if any."""
    if select.tag != "select":
        return None
    sibling = _element_sibling(select, after=False)
    return sibling if sibling is not None and "select2-container" in class_names(sibling) else None


def _element_sibling(el: lxml.html.HtmlElement, *, after: bool) -> lxml.html.HtmlElement | None:
    """The nearest element after (or before) ``el``, past comments and processing instructions."""
    sibling = el.getnext() if after else el.getprevious()
    while sibling is not None and not isinstance(sibling.tag, str):
        sibling = sibling.getnext() if after else sibling.getprevious()
    return sibling


def _is_stand_in(el: lxml.html.HtmlElement) -> bool:
    if class_names(el) & set(_PROXY_CLASSES):
        return True
    return any(isinstance(d.tag, str) and (d.get("role") or "") == "combobox" for d in el.iter())


@dataclass(frozen=True)
class UiSelect:
    """A Magento ui-select read from the DOM."""

    options: tuple[str, ...]
    chosen: tuple[str, ...]
    placeholder: str


def read_ui_select(el: lxml.html.HtmlElement) -> UiSelect | None:
    """The options of a Magento ui-select wrapper (None when ``el`` is not one)."""
    if UI_SELECT_CLASS not in class_names(el):
        return None
    options: list[str] = []
    chosen: list[str] = []
    for item in el.iter("li"):
        if UI_SELECT_ITEM_CLASS not in class_names(item):
            continue
        entry = next((c for c in item if isinstance(c.tag, str) and c.tag != "ul"), None)
        label = _first_with_class(entry, UI_SELECT_LABEL_CLASS) if entry is not None else None
        text = clean((label if label is not None else entry).text_content()) if entry is not None else ""
        if not text:
            continue
        options.append(text)
        if UI_SELECT_CHOSEN_CLASS in class_names(entry) or any(
            i.get("type") == "checkbox" and (i.get("data-wa-checked") == "1" or i.get("checked") is not None)
            for i in entry.iter("input")
        ):
            chosen.append(text)
    placeholder = next(
        (clean(n.text_content()) for n in el.iter() if isinstance(n.tag, str) and n.get("data-role") == UI_SELECT_PLACEHOLDER_ROLE),
        "",
    )
    return UiSelect(tuple(options), tuple(chosen), placeholder)


def _first_with_class(el: lxml.html.HtmlElement, name: str) -> lxml.html.HtmlElement | None:
    return next((n for n in el.iter() if isinstance(n.tag, str) and name in class_names(n)), None)
