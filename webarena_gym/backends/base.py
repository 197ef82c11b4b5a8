"""What the env needs from a backend, the agent mistakes every backend refuses (checked once,
before one acts), and the site-URL bookkeeping both backends share."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

from ..actions import TEXT_ACTIONS, Action, ActionName, preview
from ..errors import InvalidActionError

if TYPE_CHECKING:
    from ..observation import Element, PageObservation
    from .page import EvaluationPage

#: The agent error of ``Press Enter`` with no field in focus, the same on every backend.
NOTHING_FOCUSED = "Press Enter needs a field to be in focus: Type into it or Click it first."


def check_action(action: Action, element: Element | None) -> Action:
    """The action as a backend may carry it out, or an :class:`InvalidActionError` saying why none may.

    Checks what no backend can do whatever the page: typing into something that is not a
    text field, choosing from something that is not a dropdown or an option it does not
    offer. The chosen option comes back spelled as the page spells it (matched exactly,
    else ignoring case).

    >>> from webarena_gym.observation import Element
    >>> size = Element(3, "select", "S", {}, "Size", "/html/body/select", options=("S", "M"))
    >>> check_action(Action("Select Dropdown Option", element=3, argument="m"), size).argument
    'M'
    >>> check_action(Action("Type", element=3, argument="x"), size)
    Traceback (most recent call last):
    ...
    webarena_gym.errors.InvalidActionError: Element 3 (<select>) is not a text field; Type needs one.
    """
    if element is None:
        return action
    if action.name in TEXT_ACTIONS and not element.is_text_field():
        raise InvalidActionError(f"Element {element.id} ({_markup(element)}) is not a text field; Type needs one.")
    if action.name is ActionName.SELECT_DROPDOWN_OPTION:
        if element.tag != "select":
            raise InvalidActionError(f"Element {element.id} ({_markup(element)}) is not a dropdown.")
        wanted = (action.argument or "").strip()
        match = [o for o in element.options if o == wanted] or [o for o in element.options if o.lower() == wanted.lower()]
        if not match:
            choices = ", ".join(repr(o) for o in element.options)
            raise InvalidActionError(f"Dropdown {element.id} has no option {preview(action.argument or '')}; options: {choices}.")
        return replace(action, argument=match[0])
    return action


def _markup(element: Element) -> str:
    """How an error names an element's kind: ``<a>``, ``<input type="checkbox">``."""
    return f'<input type="{element.input_type}">' if element.tag == "input" else f"<{element.tag}>"


@dataclass(frozen=True)
class SiteMap:
    """Base URLs of the sites, and which of them the current task may visit.

    >>> sites = SiteMap({"shopping": "http://127.0.0.1:7770", "reddit": "http://127.0.0.1:9999"})
    >>> sites.site_of("http://127.0.0.1:9999/f/books")
    'reddit'
    >>> sites.site_of("http://example.com/") is None
    True
    """

    urls: dict[str, str]
    allowed: frozenset[str] = field(default_factory=frozenset)

    def site_of(self, url: str) -> str | None:
        parts = urlsplit(url)
        best, best_len = None, -1
        for name, base in self.urls.items():
            base_parts = urlsplit(base)
            if (base_parts.scheme, _netloc(base_parts)) != (parts.scheme, _netloc(parts)):
                continue
            if parts.path.startswith(base_parts.path) and len(base_parts.path) > best_len:
                best, best_len = name, len(base_parts.path)
        return best

    def direct_origins(self) -> tuple[str, ...]:
        """``host:port`` of each site the task may visit, as a proxy's bypass list spells them: a
        browser reaches these directly and hands every other request to a proxy that refuses it
        (see :mod:`.refusing_proxy`). A loopback site is listed under both of its host names.

        >>> sites = SiteMap({"shopping": "http://localhost:7770", "reddit": "http://127.0.0.1:9999"}, frozenset({"shopping"}))
        >>> sites.direct_origins()
        ('127.0.0.1:7770', 'localhost:7770')
        """
        origins = set()
        for name in self.allowed or self.urls:
            if name in self.urls:
                origin = _netloc(urlsplit(self.urls[name]))
                origins.add(origin)
                if origin.startswith("127.0.0.1:"):
                    origins.add(origin.replace("127.0.0.1", "localhost", 1))
        return tuple(sorted(origins))

    def allows(self, url: str) -> bool:
        """Whether the task may be on ``url``: one of its sites, or a page of no site (``about:blank``, ``data:``).

        >>> sites = SiteMap({"shopping": "http://127.0.0.1:7770", "reddit": "http://127.0.0.1:9999"}, frozenset({"shopping"}))
        >>> [sites.allows(u) for u in ("http://127.0.0.1:7770/cart", "http://127.0.0.1:9999/", "chrome-error://chromewebdata/")]
        [True, False, False]
        """
        return url.startswith(("about:", "data:", "blob:")) or self._may_visit(self.site_of(url))

    def for_task(self, sites: list[str] | tuple[str, ...]) -> SiteMap:
        """A copy that allows the task's sites and the homepage."""
        return SiteMap(self.urls, frozenset(sites) | {"homepage"})

    def check_navigation(self, url: str) -> str:
        """The site of ``url``; an agent error when it is not one the task may visit."""
        site = self.site_of(url)
        if not self._may_visit(site):
            raise self.blocked(url)
        return site

    def _may_visit(self, site: str | None) -> bool:
        """Whether ``site`` (a name :meth:`site_of` gave) is one the task may visit: any site when none is named."""
        return site is not None and (not self.allowed or site in self.allowed)

    def blocked(self, url: str) -> InvalidActionError:
        """The agent error of a navigation to ``url``, which is not one of the task's sites."""
        allowed = ", ".join(sorted(self.allowed or self.urls))
        return InvalidActionError(f"Navigation to {url} was blocked: it is not one of this task's sites ({allowed}).")


def _netloc(parts) -> str:
    host = (parts.hostname or "").replace("localhost", "127.0.0.1")
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return f"{host}:{parts.port or default}"


class Backend(Protocol):
    """Drives one env's browsing session.

    Agent mistakes raise :class:`~webarena_gym.errors.InvalidActionError` (the env turns
    them into ``info["last_action_error"]``); infrastructure faults raise
    :class:`~webarena_gym.errors.InfrastructureError` subclasses.
    """

    name: str

    @property
    def sites(self) -> SiteMap:
        """Base URLs of the sites this backend reaches."""

    @property
    def url(self) -> str:
        """The current page's URL."""

    def start(self, start_url: str, *, allowed_sites: tuple[str, ...], logged_in: tuple[str, ...] = (),
              storage_state: str | None = None) -> None:
        """Begin an episode at ``start_url`` in a fresh session that may visit ``allowed_sites``
        and is logged in on the sites ``logged_in`` names: as WebArena's account of each site on
        the embedded sites, from the saved login states (the task's ``storage_state`` file when
        there is one) on the real sites."""

    def observe(self) -> PageObservation:
        """The current page, simplified."""

    def execute(self, action: Action, element: Element | None) -> None:
        """Carry out a page action (not exit, not scrolling: the env handles those) that
        :func:`check_action` has let through."""

    def evaluation_page(self) -> EvaluationPage:
        """The final page, for the evaluators."""

    def close(self) -> None:
        """Release the session (browser context, cookies)."""
