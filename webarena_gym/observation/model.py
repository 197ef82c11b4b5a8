"""What a simplified page is: its text and its numbered elements."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..settings import DEFAULT_MAX_CHARS  # noqa: F401  (re-exported: the observation budget's one owner)

TEXT_INPUT_TYPES = frozenset("text search email url tel password number date datetime-local month week time".split())

#: :attr:`Element.widget` of a native control that the page drives through a visible
#: widget of its own (select2 over an ``aria-hidden`` select): the control is acted on
#: directly, without waiting for it to be visible.
DRIVEN_BY_WIDGET = "driven"
#: :attr:`Element.widget` of a Magento ui-select: a scripted dropdown with no native
#: ``<select>`` behind it, shown as a select; choosing an option clicks the widget.
UI_SELECT = "ui-select"


@dataclass(frozen=True)
class Element:
    """One numbered, interactive element of an observation.

    Attributes:
        id: The number the agent uses (``element="12"``).
        tag: Lower-case tag name (``select`` for a scripted dropdown shown as one).
        text: The element's visible text (for selects: the selected option).
        attributes: The whitelisted attributes as shown in the observation.
        label: Its accessible name: aria-labelledby, aria-label, associated ``<label>``,
            placeholder, title, its text, an image's alt, screen-reader text or an icon's
            test id.
        key: Where the backend finds it again: the ``data-wa-idx`` the browser
            annotation gave it, else its XPath in the parsed document.
        options: Option texts of a select, in order.
        widget: How the page drives it, when not natively: :data:`DRIVEN_BY_WIDGET` or
            :data:`UI_SELECT` ("" for ordinary elements).
        navigates: Whether a click on it loads another page in this tab, as the page read:
            a link that leaves the page, or a row a grid script opens (False when that is
            not known from the page alone: a submit button, a script's handler).
    """

    id: int
    tag: str
    text: str
    attributes: dict[str, str]
    label: str
    key: str
    options: tuple[str, ...] = ()
    widget: str = ""
    navigates: bool = False

    @property
    def input_type(self) -> str:
        """``type`` of an input (``text`` when absent), else the tag name."""
        return self.attributes.get("type", "text") if self.tag == "input" else self.tag

    def is_text_field(self) -> bool:
        return self.tag == "textarea" or (self.tag == "input" and self.input_type in TEXT_INPUT_TYPES) or (
            self.attributes.get("role") in ("textbox", "searchbox", "combobox")
        )


@dataclass(frozen=True)
class PageObservation:
    """The simplified page: the full text (no budget applied) and its numbered elements."""

    text: str
    elements: list[Element] = field(default_factory=list)
    title: str = ""

    def element(self, element_id: int) -> Element | None:
        return self.elements[element_id] if 0 <= element_id < len(self.elements) else None

    def window(self, offset: int = 0, max_chars: int = DEFAULT_MAX_CHARS) -> str:
        """The text from ``offset`` on, cut at a line end within ``max_chars`` with a visible marker."""
        return window_text(self.text, offset, max_chars)


def window_text(text: str, offset: int, max_chars: int) -> str:
    """A line-aligned window of ``text`` with markers for what lies before and after it.

    >>> print(window_text("aaaa\\nbbbb\\ncccc", 0, 10))
    aaaa
    bbbb
    [... 5 more characters below; use Scroll Down ...]
    """
    offset = max(0, min(offset, len(text)))
    head = f"[... {offset} characters above; use Scroll Up ...]\n" if offset else ""
    rest = text[offset:]
    if len(rest) <= max_chars:
        return head + rest
    cut = rest.rfind("\n", 0, max_chars + 1)
    if cut <= 0:
        cut = max_chars
    shown = rest[:cut].rstrip("\n")
    remaining = len(rest) - len(shown)
    return f"{head}{shown}\n[... {remaining} more characters below; use Scroll Down ...]"
