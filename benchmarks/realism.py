"""Realism: do the embedded sites' pages read like the real WebArena sites' pages?

For each of 14 page types (a category listing, a product with options, ... a GitLab profile
form) this opens the embedded page on the direct backend, logged in as WebArena's account,
and measures what an agent gets: the observation's characters, its numbered elements, its
icon-only controls (a link or button with no visible text, named only by title or
aria-label) and the widget kinds its markup shows. It sets them beside the same figures of
a captured page of the real site (``benchmarks/realism_targets.json``: numbers and kind names
only, measured with this script's ``--measure-real DIR`` over the captures), prints one row
per page type, the medians per site and overall, the union of widget kinds found on the
embedded pages against the 18 kinds, and PASS/FAIL against the targets: median >= 0.85 of
the real characters and elements, >= 15 of the 18 widget kinds.

A page type whose embedded URL fails (a route that moved) is a row with its error, never a
crash; a page type without a real figure shows ``n/a`` and stays out of the medians.

Run: ``.venv/bin/python benchmarks/realism.py [--json PATH]``;
``--measure-real DIR`` measures captured real pages (file names as in the targets file) and
writes the targets file (``--targets PATH`` picks another one).
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tqdm import tqdm

from webarena_gym.observation import parse_html, parse_html5, simplify_document

logger = logging.getLogger(__name__)

TARGETS_PATH = Path(__file__).with_name("realism_targets.json")
#: Targets of issue #81.
MIN_RATIO = 0.85
MIN_WIDGET_KINDS = 15

#: The 18 widget kinds the measured captures of the real pages show between them
#: (``benchmarks/realism_targets.json``: the union of their ``widgets``, less ``export``).
WIDGET_KINDS = (
    "tabs", "collapsible", "pagination", "filters", "breadcrumbs", "vote_buttons", "mega_menu", "toolbar",
    "scope_switcher", "star_rating", "option_swatches", "sorter", "markdown_editor", "searchable_dropdown",
    "date_picker", "reactions", "switch", "role_dropdown",
)
#: Kinds detected and reported too, but not counted: ``export`` (the real report grid's export
#: control sits in the grid's own toolbar) and three kinds no measured capture shows in its markup
#: (Magento's admin grids, their mass actions and modals are drawn by scripts).
EXTRA_KINDS = ("export", "data_grid", "mass_action", "modal")

CONTROL_TAGS = ("a", "button")
CONTROL_ROLES = ("button", "link", "tab", "switch", "menuitem", "checkbox", "radio")


# -- markup helpers -----------------------------------------------------------------------

def _attr(node, name: str) -> str:
    return (node.get(name) or "").strip()


def _lower(node, name: str) -> str:
    return _attr(node, name).lower()


def _classes(node) -> str:
    return " " + _lower(node, "class") + " "


def _text(node) -> str:
    return " ".join(node.text_content().split()) if hasattr(node, "text_content") else ""


def _is_hidden(node) -> bool:
    """Hidden by markup alone: the ``hidden`` attribute, inline ``display: none``, ``<template>``."""
    for ancestor in node.iterancestors():
        if ancestor.tag == "template":
            return True
    for element in (node, *node.iterancestors()):
        if element.get("hidden") is not None:
            return True
        if re.search(r"display\s*:\s*none", _lower(element, "style")):
            return True
    return False


def _visible(nodes) -> list:
    return [node for node in nodes if isinstance(node.tag, str) and not _is_hidden(node)]


def _controls(root) -> list:
    """Links, buttons and elements with a click role."""
    return _visible(root.xpath(
        "//a | //button | //input[@type='button' or @type='submit'] | "
        "//*[@role='button' or @role='link' or @role='tab' or @role='switch' or @role='menuitem']"))


def _class_has(node, *fragments: str) -> bool:
    classes = _classes(node)
    return any(fragment in classes for fragment in fragments)


def _label_of(node) -> str:
    return " ".join(part for part in (_text(node), _attr(node, "title"), _attr(node, "aria-label"),
                                      _attr(node, "value") if node.tag == "input" else "") if part).lower()


# -- widget detectors (over a page's markup) ------------------------------------------------

def _tabs(root) -> bool:
    for tablist in _visible(root.xpath("//*[@role='tablist']")):
        if len(tablist.xpath(".//*[@role='tab']")) >= 2:
            return True
    for node in _visible(root.xpath("//ul | //div | //nav")):
        if _class_has(node, " nav-tabs ", " gl-tabs-nav ", " tabs ", " tabs-horiz ", " admin__page-nav-items ",
                      " product data items ", " data items "):
            tabs = [c for c in node.xpath(".//a | .//*[@data-role='collapsible' or @data-role='title']")]
            if len(tabs) >= 2:
                return True
        if len([c for c in node.xpath("./li/a | ./li/button | ./a | ./button") if _class_has(c, " tab ")]) >= 2:
            return True
    return False


def _collapsible(root) -> bool:
    if _visible(root.xpath("//details[summary] | //*[@aria-expanded] | //*[@data-role='collapsible'] | "
                           "//*[@data-toggle='collapse'] | //*[@data-bs-toggle='collapse']")):
        return True
    # a checkbox that a stylesheet turns into a Hide/Unhide toggle (Postmill's comments: the checkbox, then
    # <label class="... hideable__toggle" for="..."> that clicks it)
    for label in _visible(root.xpath("//label[@for][contains(@class, 'toggle')]")):
        if root.xpath("//input[@type='checkbox'][@id=$id]", id=_attr(label, "for")):
            return True
    return False


def _pagination(root) -> bool:
    if _visible(root.xpath("//nav[contains(translate(@aria-label, 'PAGINTO', 'pagints'), 'paginat')]")):
        return True
    for node in _visible(root.xpath("//*[@class]")):
        if _class_has(node, " pagination ", " pages-items ", " gl-pagination ", " admin__data-grid-pager ",
                      " pager ") and node.xpath(".//a | .//button | .//input"):
            return True
    return bool(_visible(root.xpath("//a[@rel='next' or @rel='prev']")))


def _filters(root) -> bool:
    for node in _visible(root.xpath("//*[@class or @id or @aria-label or @data-role]")):
        marker = " ".join((_lower(node, "class"), _lower(node, "id"), _lower(node, "aria-label"),
                           _lower(node, "data-role")))
        if "filter" in marker and node.tag not in ("input", "button", "a", "option", "select") and \
                len(node.xpath(".//a | .//input | .//select | .//button")) >= 2:
            return True
    return False


def _breadcrumbs(root) -> bool:
    for node in _visible(root.xpath("//nav | //div | //ol | //ul")):
        if "breadcrumb" in _lower(node, "aria-label") or "breadcrumb" in _classes(node):
            if node.xpath(".//a"):
                return True
    return False


def _vote_buttons(root) -> bool:
    votes = 0
    for node in _controls(root) + _visible(root.xpath("//input[@name='choice']")):
        label = _label_of(node)
        if "upvote" in label or "downvote" in label or _lower(node, "name") == "choice" or \
                " vote" in _classes(node).replace("__", " ").replace("-", " "):
            votes += 1
    return votes >= 2


def _mega_menu(root) -> bool:
    for nav in _visible(root.xpath("//nav | //*[@role='navigation'] | //*[@id='nav'] | //*[@id='menu-magento-backend']")):
        sections = [d for d in nav.xpath(".//details") if d.xpath(".//a")]
        submenus = [li for li in nav.xpath(".//li") if li.xpath("./ul//a | ./div//ul//a")]
        if len(sections) >= 8 or len(submenus) >= 8:
            return True
    return False


def _toolbar(root) -> bool:
    for node in _visible(root.xpath("//*[@role='toolbar'] | //*[@class]")):
        if node.get("role") == "toolbar" or _class_has(node, " toolbar ", " page-actions ", " page-actions-buttons ",
                                                        " detail-page-header-actions ", " toolbar-products "):
            if len(node.xpath(".//a | .//button | .//select")) >= 2:
                return True
    return False


def _per_page(root) -> bool:
    for select in _visible(root.xpath("//select")):
        marker = _lower(select, "name") + " " + _lower(select, "id") + " " + _classes(select)
        if "limit" in marker or "per_page" in marker or "perpage" in marker:
            return True
    return False


def _data_grid(root) -> bool:
    for table in _visible(root.xpath("//table")):
        headers = table.xpath(".//th")
        sortable = [th for th in headers if th.get("aria-sort") or th.get("data-sort") is not None or
                    _class_has(th, " sortable ", "_sortable", " sort-") or
                    any(re.search(r"[?&](sort|order|dir)=", _attr(a, "href")) for a in th.xpath(".//a"))]
        if len(sortable) >= 2 and len(table.xpath(".//tr")) >= 3 and _per_page(root):
            return True
    return False


def _mass_action(root) -> bool:
    if _visible(root.xpath("//select[@name='massaction' or contains(@id, 'massaction')]")):
        return True
    return any(_class_has(n, " action-select-wrap ", " mass-select ", " admin__data-grid-header-row massaction ")
               for n in _visible(root.xpath("//*[@class]"))) or bool(_visible(root.xpath(
                   "//*[contains(@id, 'massaction')]//select | //*[contains(@class, 'massaction')]//select")))


def _scope_switcher(root) -> bool:
    for node in _visible(root.xpath("//*[@class or @id or @name or @data-role]")):
        marker = " ".join((_lower(node, "class"), _lower(node, "id"), _lower(node, "name"), _lower(node, "data-role")))
        if "store-switcher" in marker or "scope-switcher" in marker or "store_switcher" in marker:
            return True
    return bool(_visible(root.xpath("//select[@name='store' or @name='store_id' or @name='scope' or @name='website']")))


def _star_rating(root) -> bool:
    groups: dict[str, int] = {}
    for radio in _visible(root.xpath("//input[@type='radio']")):
        name = _lower(radio, "name")
        if "rating" in name:
            groups[name] = groups.get(name, 0) + 1
    return any(count >= 3 for count in groups.values())


def _option_swatches(root) -> bool:
    options = _visible(root.xpath(
        "//select[starts-with(@name, 'super_attribute') or starts-with(@name, 'options')] | "
        "//input[@type='radio'][starts-with(@name, 'super_attribute') or starts-with(@name, 'options') or "
        "starts-with(@name, 'option')] | //*[contains(@class, 'swatch-attribute') or contains(@class, 'swatch-opt')]"))
    add_to_cart = [c for c in _controls(root) if "add to cart" in _label_of(c)]
    return bool(options) and bool(add_to_cart)


def _sorter(root) -> bool:
    sort = bool(_visible(root.xpath(
        "//select[contains(@name, 'sort') or contains(@name, 'order') or contains(@id, 'sorter')]"))) or any(
        "sort" in _label_of(c) or "sort" in _classes(c) for c in _controls(root))
    direction = any(
        "direction" in _label_of(c) or "ascending" in _label_of(c) or "descending" in _label_of(c) or
        re.search(r"[?&](dir|direction|product_list_dir)=", _attr(c, "href")) or
        _class_has(c, " sorter-action ", " sort-direction", " reverse-sort-btn ")
        for c in _controls(root))
    return sort and direction


def _markdown_editor(root) -> bool:
    if not _visible(root.xpath("//textarea")):
        return False
    labels = {_text(c).lower() for c in _controls(root)}
    return "write" in labels and "preview" in labels


def _searchable_dropdown(root) -> bool:
    if _visible(root.xpath("//*[@role='combobox']")) and root.xpath("//*[@role='listbox']"):
        return True
    for node in _visible(root.xpath("//*[@class]")):
        if _class_has(node, " select2-container", " dropdown-input ", " gl-search-box-by-type ",
                      " admin__action-multiselect-search-wrap ", " dropdown-menu-selectable "):
            return True
    return False


def _date_picker(root) -> bool:
    if _visible(root.xpath("//input[@type='date'] | //*[contains(@class, 'datepicker')]//input")):
        return True
    return any(_class_has(n, "datepicker", " ui-datepicker-trigger ", " _has-datepicker ", " date-picker ", " input-date ")
               or '"calendar"' in _attr(n, "data-mage-init") for n in _visible(root.xpath("//input | //button")))


def _reactions(root) -> bool:
    for node in _controls(root):
        label = _label_of(node) + " " + _classes(node)
        if "award" in label or "emoji" in label or "reaction" in label or "thumbs" in label:
            return True
    return False


def _switch(root) -> bool:
    return bool(_visible(root.xpath("//*[@role='switch']"))) or any(
        _class_has(n, " gl-toggle ", " toggle-switch ", " admin__actions-switch ") for n in _visible(root.xpath("//*[@class]")))


def _modal(root) -> bool:
    if root.xpath("//*[@role='dialog' or @role='alertdialog'] | //dialog"):
        return True
    return any(_class_has(n, " modal ", " modal-popup ", " modal-dialog ") for n in root.xpath("//*[@class]"))


def _role_dropdown(root) -> bool:
    per_row = 0
    for row in _visible(root.xpath("//tr | //li | //*[@role='row']")):
        for control in row.xpath(".//select | .//button"):
            label = _label_of(control) + " " + _lower(control, "name") + " " + _classes(control)
            if "access_level" in label or "role" in label or "maintainer" in label or "developer" in label:
                per_row += 1
                break
    return per_row >= 2


def _export(root) -> bool:
    in_menu = "ancestor::nav or ancestor::*[@role='menu' or @role='menubar']"
    return any(re.search(r"\bexport\b", _label_of(c)) and not c.xpath(in_menu) for c in _controls(root)) or bool(
        _visible(root.xpath("//select[contains(@name, 'export') or contains(@id, 'export')]")))


DETECTORS: dict[str, Callable] = {
    "tabs": _tabs, "collapsible": _collapsible, "pagination": _pagination, "filters": _filters,
    "breadcrumbs": _breadcrumbs, "vote_buttons": _vote_buttons, "mega_menu": _mega_menu, "toolbar": _toolbar,
    "data_grid": _data_grid, "mass_action": _mass_action, "scope_switcher": _scope_switcher,
    "star_rating": _star_rating, "option_swatches": _option_swatches, "sorter": _sorter,
    "markdown_editor": _markdown_editor, "searchable_dropdown": _searchable_dropdown, "date_picker": _date_picker,
    "reactions": _reactions, "switch": _switch, "modal": _modal, "role_dropdown": _role_dropdown, "export": _export,
}
assert set(DETECTORS) == set(WIDGET_KINDS) | set(EXTRA_KINDS) and len(WIDGET_KINDS) == 18


def detect_widgets(html: str, *, well_formed: bool = False) -> list[str]:
    """The widget kinds (of :data:`WIDGET_KINDS` and :data:`EXTRA_KINDS`) the page's markup shows.

    >>> detect_widgets('<nav aria-label="Breadcrumb"><a href="/">Home</a></nav>')
    ['breadcrumbs']
    """
    root = parse_html(html) if well_formed else parse_html5(html)
    if root is None:
        return []
    for junk in root.xpath("//script | //style | //noscript"):
        junk.drop_tree()
    return [kind for kind, detector in DETECTORS.items() if detector(root)]


# -- one page's figures -----------------------------------------------------------------------

@dataclass
class PageFigures:
    """What an agent gets from one page."""

    chars: int
    elements: int
    icon_only: int
    widgets: list[str] = field(default_factory=list)


def is_icon_only(element) -> bool:
    """A numbered link or button with no visible text, named only by its title or aria-label."""
    role = element.attributes.get("role", "")
    if element.tag not in CONTROL_TAGS and role not in CONTROL_ROLES:
        return False
    if element.tag == "input":
        return False
    named = element.attributes.get("title") or element.attributes.get("aria-label")
    return not element.text.strip() and bool(named)


def measure_html(html: str, *, well_formed: bool = False) -> PageFigures:
    """Characters, numbered elements, icon-only controls and widget kinds of a page's HTML.

    The observation is the env's (:func:`webarena_gym.observation.simplify_document`): the
    embedded sites' pages parsed as well-formed, captured real pages with the HTML5 algorithm.
    """
    root = parse_html(html) if well_formed else parse_html5(html)
    observation = simplify_document(root) if root is not None else None
    if observation is None:
        return PageFigures(0, 0, 0, [])
    return PageFigures(len(observation.text), len(observation.elements),
                       sum(1 for e in observation.elements if is_icon_only(e)),
                       detect_widgets(html, well_formed=well_formed))


# -- the page types -------------------------------------------------------------------------

def _one(world, database: str, sql: str) -> tuple:
    row = world.connection(database).execute(sql).fetchone()
    if row is None:
        raise LookupError(f"no row for the page in the {database} data: {sql}")
    return tuple(row)


def _product_with_options(world) -> str:
    (key,) = _one(world, "shopping", "SELECT url_key FROM products WHERE id IN (SELECT product_id FROM product_options) "
                                     "ORDER BY id LIMIT 1")
    return f"/{key}.html"


def _customer_order(world) -> str:
    (order_id,) = _one(world, "shopping", "SELECT o.id FROM orders o JOIN customers c ON c.id = o.customer_id WHERE "
                                          "c.email = 'emma.lopez@hotmail.com' ORDER BY o.created_at DESC LIMIT 1")
    return f"/sales/order/view/order_id/{order_id}/"


def _admin_order(world) -> str:
    (order_id,) = _one(world, "shopping_admin", "SELECT entity_id FROM sales_order ORDER BY entity_id LIMIT 1") \
        if _has_column(world, "shopping_admin", "sales_order", "entity_id") else \
        _one(world, "shopping_admin", "SELECT id FROM sales_order ORDER BY id LIMIT 1")
    return f"/sales/order/view/order_id/{order_id}/"  # the admin base URL ends in /admin


def _admin_review(world) -> str:
    column = "review_id" if _has_column(world, "shopping_admin", "review", "review_id") else "id"
    (review_id,) = _one(world, "shopping_admin", f"SELECT {column} FROM review ORDER BY {column} LIMIT 1")
    return f"/review/product/edit/id/{review_id}/"


def _has_column(world, database: str, table: str, column: str) -> bool:
    return any(row[1] == column for row in world.connection(database).execute(f"PRAGMA table_info({table})"))


def _forum_listing(world) -> str:
    (name,) = _one(world, "reddit", "SELECT f.name FROM forums f JOIN submissions s ON s.forum_id = f.id "
                                    "GROUP BY f.id ORDER BY COUNT(*) DESC, f.name LIMIT 1")
    return f"/f/{name}"


def _comment_permalink(world) -> str:
    forum, submission, comment = _one(world, "reddit", "SELECT f.name, s.id, c.id FROM comments c JOIN submissions s "
                                      "ON s.id = c.submission_id JOIN forums f ON f.id = s.forum_id "
                                      "WHERE c.parent_id IS NULL AND EXISTS (SELECT 1 FROM comments r WHERE "
                                      "r.parent_id = c.id) ORDER BY c.id LIMIT 1")
    return f"/f/{forum}/{submission}/-/comment/{comment}"


def _long_thread(world) -> str:
    forum, submission = _one(world, "reddit", "SELECT f.name, s.id FROM submissions s JOIN forums f ON f.id = s.forum_id "
                                              "JOIN comments c ON c.submission_id = s.id GROUP BY s.id "
                                              "ORDER BY COUNT(*) DESC, s.id LIMIT 1")
    return f"/f/{forum}/{submission}"


def _gitlab_issue(world) -> str:
    namespace, path, iid = _one(world, "gitlab", "SELECT p.namespace, p.path, i.iid FROM issues i JOIN projects p ON "
                                "p.id = i.project_id LEFT JOIN notes n ON n.noteable_type = 'issue' AND "
                                "n.noteable_id = i.id GROUP BY i.id ORDER BY COUNT(n.id) DESC, i.id LIMIT 1")
    return f"/{namespace}/{path}/-/issues/{iid}"


def _project_members(world) -> str:
    # a project byteblaze maintains: the real capture shows the maintainer's view (a role dropdown per row)
    namespace, path = _one(world, "gitlab", "SELECT p.namespace, p.path FROM projects p JOIN members m ON "
                                            "m.project_id = p.id WHERE p.id IN (SELECT project_id FROM members WHERE "
                                            "access_level >= 40 AND user_id = (SELECT id FROM users WHERE username = "
                                            "'byteblaze')) GROUP BY p.id ORDER BY COUNT(*) DESC, p.id LIMIT 1")
    return f"/{namespace}/{path}/-/project_members"


@dataclass(frozen=True)
class PageType:
    """One kind of page, on the embedded site and as captured on the real one."""

    key: str
    site: str
    title: str
    path: Callable[[object], str]  # world -> path on the embedded site


PAGE_TYPES = (
    PageType("category", "shopping", "category listing", lambda world: "/electronics/headphones.html"),
    PageType("product_options", "shopping", "product with options", _product_with_options),
    PageType("customer_order", "shopping", "customer order (My Orders)", _customer_order),
    PageType("admin_order", "shopping_admin", "admin order view", _admin_order),
    PageType("admin_report", "shopping_admin", "admin report", lambda world: "/reports/report_sales/sales/"),
    PageType("admin_review", "shopping_admin", "admin review form", _admin_review),
    PageType("forum_listing", "reddit", "forum listing", _forum_listing),
    PageType("comment_permalink", "reddit", "comment permalink", _comment_permalink),
    PageType("long_thread", "reddit", "long thread", _long_thread),
    PageType("submit_form", "reddit", "submit form", lambda world: "/submit"),
    PageType("biography_form", "reddit", "biography form", lambda world: "/user/MarvelsGrantMan136/edit_biography"),
    PageType("gitlab_issue", "gitlab", "GitLab issue", _gitlab_issue),
    PageType("project_members", "gitlab", "project members", _project_members),
    PageType("profile_form", "gitlab", "profile form", lambda world: "/-/profile"),
)


@dataclass
class Row:
    """One page type's figures on the embedded site beside the real ones."""

    key: str
    site: str
    title: str
    url: str = ""
    embedded: PageFigures | None = None
    real: PageFigures | None = None
    error: str = ""

    def ratio(self, measure: str) -> float | None:
        if self.embedded is None or self.real is None or not getattr(self.real, measure):
            return None
        return getattr(self.embedded, measure) / getattr(self.real, measure)


def measure_embedded(page_type: PageType, backend) -> tuple[str, PageFigures]:
    """(URL, figures) of the page type's embedded page, as the direct backend serves it logged in.

    Raises:
        RuntimeError: the page answered with an HTTP error status.
    """
    url = backend.sites.urls[page_type.site] + page_type.path(backend.world)
    backend.start(url, allowed_sites=(page_type.site,), logged_in=(page_type.site,))
    final_url, status, html = backend.fetch("GET", url)
    if status >= 400:
        raise RuntimeError(f"HTTP {status} from {final_url}")
    observation = backend.observe()
    return final_url, PageFigures(len(observation.text), len(observation.elements),
                                  sum(1 for e in observation.elements if is_icon_only(e)),
                                  detect_widgets(html, well_formed=True))


# -- targets --------------------------------------------------------------------------------

def load_targets(path: Path = TARGETS_PATH) -> dict:
    """The real sites' figures: ``{"page_types": {key: {"capture", "chars", ...}}, ...}``."""
    if not path.exists():
        logger.warning("No real figures at %s: ratios will read n/a.", path)
        return {"page_types": {}}
    return json.loads(path.read_text())


def real_figures(targets: dict, key: str) -> PageFigures | None:
    entry = targets.get("page_types", {}).get(key)
    if not entry or entry.get("chars") is None:
        return None
    return PageFigures(entry["chars"], entry["elements"], entry.get("icon_only", 0), list(entry.get("widgets", [])))


def measure_real(capture_dir: Path, targets: dict) -> dict:
    """Measure the captured real pages named in ``targets`` (found by file name under ``capture_dir``)."""
    updated = json.loads(json.dumps(targets))
    for key, entry in tqdm(updated.get("page_types", {}).items(), desc="real pages"):
        if not entry.get("capture"):
            continue
        name = Path(entry["capture"]).name
        found = sorted(capture_dir.rglob(name))
        if not found:
            logger.warning("No capture %s under %s; %s keeps its figures.", name, capture_dir, key)
            continue
        figures = measure_html(found[0].read_text(errors="replace"))
        entry.update(chars=figures.chars, elements=figures.elements, icon_only=figures.icon_only,
                     widgets=[k for k in figures.widgets if k in WIDGET_KINDS + EXTRA_KINDS])
    return updated


# -- the report ------------------------------------------------------------------------------

def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def summarize(rows: list[Row]) -> dict:
    """Medians per site and overall, the widget kinds found, and the verdict against the targets."""
    sites: dict[str, dict] = {}
    for site in dict.fromkeys(row.site for row in rows):
        site_rows = [row for row in rows if row.site == site]
        sites[site] = {measure: _median([r.ratio(measure) for r in site_rows if r.ratio(measure) is not None])
                       for measure in ("chars", "elements")}
    overall = {measure: _median([r.ratio(measure) for r in rows if r.ratio(measure) is not None])
               for measure in ("chars", "elements")}
    found = sorted({kind for row in rows if row.embedded for kind in row.embedded.widgets if kind in WIDGET_KINDS},
                   key=WIDGET_KINDS.index)
    checks = {
        "chars": overall["chars"] is not None and overall["chars"] >= MIN_RATIO,
        "elements": overall["elements"] is not None and overall["elements"] >= MIN_RATIO,
        "widget_kinds": len(found) >= MIN_WIDGET_KINDS,
    }
    return {"sites": sites, "overall": overall, "widget_kinds_found": found,
            "widget_kinds_missing": [k for k in WIDGET_KINDS if k not in found],
            "checks": checks, "passed": all(checks.values())}


def _ratio_text(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def format_report(rows: list[Row], summary: dict) -> str:
    """The table an engineer reads: one row per page type, then medians and verdicts."""
    header = (f"{'page type':<28} {'chars emb/real':>17} {'ratio':>5} {'elements emb/real':>17} {'ratio':>5} "
              f"{'icon-only':>9}  widget kinds (embedded | real)")
    lines = [header, "-" * len(header)]
    for row in rows:
        name = f"{row.site}:{row.key}"[:28]
        if row.error:
            lines.append(f"{name:<28} ERROR {row.error}")
            continue
        emb, real = row.embedded, row.real
        real_chars = str(real.chars) if real else "n/a"
        real_elements = str(real.elements) if real else "n/a"
        icons = f"{emb.icon_only}/{real.icon_only if real else 'n/a'}"
        widgets = f"{','.join(emb.widgets) or '-'} | {','.join(real.widgets) if real else 'n/a'}"
        lines.append(f"{name:<28} {f'{emb.chars}/{real_chars}':>17} {_ratio_text(row.ratio('chars')):>5} "
                     f"{f'{emb.elements}/{real_elements}':>17} {_ratio_text(row.ratio('elements')):>5} "
                     f"{icons:>9}  {widgets}")
    lines.append("")
    for site, medians in summary["sites"].items():
        lines.append(f"median {site:<15} chars {_ratio_text(medians['chars'])}  elements {_ratio_text(medians['elements'])}")
    overall = summary["overall"]
    lines.append(f"median {'overall':<15} chars {_ratio_text(overall['chars'])}  elements {_ratio_text(overall['elements'])}")
    found = summary["widget_kinds_found"]
    lines.append(f"widget kinds on the embedded pages: {len(found)}/{len(WIDGET_KINDS)}: {', '.join(found) or '-'}")
    lines.append(f"missing: {', '.join(summary['widget_kinds_missing']) or '-'}")
    real = sorted({k for row in rows if row.real for k in row.real.widgets if k in WIDGET_KINDS}, key=WIDGET_KINDS.index)
    lines.append(f"widget kinds on the measured real pages: {len(real)}/{len(WIDGET_KINDS)}")
    checks = summary["checks"]

    def verdict(ok: bool) -> str:
        return "PASS" if ok else "FAIL"

    lines.append(f"{verdict(checks['chars'])} median chars ratio >= {MIN_RATIO}")
    lines.append(f"{verdict(checks['elements'])} median elements ratio >= {MIN_RATIO}")
    lines.append(f"{verdict(checks['widget_kinds'])} widget kinds >= {MIN_WIDGET_KINDS} of {len(WIDGET_KINDS)}")
    lines.append(f"overall: {verdict(summary['passed'])}")
    return "\n".join(lines)


def run(targets: dict | None = None, page_types: tuple[PageType, ...] = PAGE_TYPES) -> tuple[list[Row], dict]:
    """Measure the page types on a fresh world; returns the rows and their summary."""
    from webarena_gym.backends.direct import DirectBackend
    from webarena_gym.sites.world import World

    targets = load_targets() if targets is None else targets
    world = World()
    backend = DirectBackend(world)
    rows = []
    try:
        for page_type in tqdm(page_types, desc="embedded pages"):
            row = Row(page_type.key, page_type.site, page_type.title, real=real_figures(targets, page_type.key))
            try:
                row.url, row.embedded = measure_embedded(page_type, backend)
            except Exception as exc:  # a route that moved or data that changed is a row, not a crash
                row.error = f"{type(exc).__name__}: {exc}"
            rows.append(row)
    finally:
        backend.close()
        world.close()
    return rows, summarize(rows)


def main(argv: list[str] | None = None) -> dict:
    """Print the realism table; returns the figures as written by ``--json``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--targets", type=Path, default=TARGETS_PATH, help="the real figures (default: %(default)s)")
    parser.add_argument("--measure-real", type=Path, metavar="DIR",
                        help="measure the captured real pages under DIR and write them to --targets, then compare")
    args = parser.parse_args(argv)
    targets = load_targets(args.targets)
    if args.measure_real:
        targets = measure_real(args.measure_real, targets)
        args.targets.write_text(json.dumps(targets, indent=2) + "\n")
    rows, summary = run(targets)
    print(format_report(rows, summary))
    figures = {"rows": [{**asdict(row), "chars_ratio": row.ratio("chars"), "elements_ratio": row.ratio("elements")}
                        for row in rows],
               "summary": summary, "widget_kinds": list(WIDGET_KINDS), "extra_kinds": list(EXTRA_KINDS),
               "targets": {"min_ratio": MIN_RATIO, "min_widget_kinds": MIN_WIDGET_KINDS}}
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return figures


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    main()
