"""The observation simplifier on pages with the markup patterns of the real WebArena sites."""

from __future__ import annotations

from pathlib import Path

import pytest

from webarena_gym.actions import Action, ActionName
from webarena_gym.observation import ObservationCache, simplify_html, window_text
from webarena_gym.observation.cache import observation_bytes

PAGES = Path(__file__).parent / "fixtures" / "pages"


def page(name: str):
    return simplify_html((PAGES / name).read_text())


@pytest.mark.parametrize("name", sorted(p.name for p in PAGES.glob("*.html")))
def test_deterministic_and_numbered_in_reading_order(name):
    first, second = page(name), page(name)
    assert first.text == second.text
    assert [e.id for e in first.elements] == list(range(len(first.elements)))
    positions = [first.text.index(f' id="{e.id}"') for e in first.elements]
    assert positions == sorted(positions)
    assert "<script" not in first.text and "<style" not in first.text and "<div>" not in first.text


def test_magento_grid_keeps_rows_and_drops_hidden_filters():
    obs = page("magento_admin_orders_grid.html")
    assert "<title>Orders / Operations / Sales / Magento Admin</title>" in obs.text
    assert "<td>000000301</td> <td>May 31, 2023 9:14:06 AM</td><td>Veronica Costello</td><td>$122.00</td>" in obs.text
    assert "Please wait" not in obs.text  # hidden attribute
    assert 'aria-label="ID"' not in obs.text  # inside style="display: none"
    assert "a comment that must not show" not in obs.text
    per_page = next(e for e in obs.elements if e.tag == "select")
    assert per_page.label == "Per page" and per_page.text == "30" and per_page.options == ("20", "30", "50")
    assert '<input id="7" type="checkbox" aria-label="Select 000000300" checked>' in obs.text
    search = next(e for e in obs.elements if e.attributes.get("placeholder") == "Search by keyword")
    assert search.label == "Search by keyword" and search.is_text_field()


def test_a_menu_items_details_collapses_as_a_browser_shows_it():
    # A nav item whose submenu sits in a closed <details>: its summary (named by title) stays, the submenu
    # does not, as Chromium draws it; an open <details> shows the submenu. (Both backends must agree.)
    page = ('<main><h1>Home</h1></main><nav><ul><li><a href="/beauty">Beauty</a><details{open}>'
            '<summary title="Subcategories of Beauty"></summary><ul><li><a href="/beauty/skin">Skin Care</a></li>'
            '</ul></details></li></ul></nav>')
    closed = simplify_html(page.format(open=""))
    assert [(e.tag, e.label) for e in closed.elements] == [("a", "Beauty"), ("summary", "Subcategories of Beauty")]
    opened = simplify_html(page.format(open=" open"))
    assert [e.label for e in opened.elements] == ["Beauty", "Subcategories of Beauty", "Skin Care"]


def test_sortable_column_headers_are_controls_that_say_how_they_sort():
    # Magento's legacy grids (search terms, reviews) sort when a header with data-sort is clicked; its
    # knockout grids bind the click; the direction is a class there and aria-sort elsewhere.
    obs = simplify_html(
        '<table><thead><tr><th data-sort="query_text" data-direction="asc" class="data-grid-th _sortable">'
        '<span>Search Query</span></th><th data-sort="num_results" class="data-grid-th _sortable _descend">'
        '<span>Results</span></th><th class="data-grid-th _sortable _ascend" data-bind="click: sort">'
        '<span>Purchase Date</span></th><th aria-sort="ascending"><button>Name</button></th><th>Action</th>'
        '</tr></thead><tbody><tr><td>hollister</td><td>1</td><td>5/31/23</td><td>Ann</td><td><a href="/e">Edit</a>'
        '</td></tr></tbody></table>')
    assert [(e.tag, e.label, e.attributes.get("sorted")) for e in obs.elements] == [
        ("th", "Search Query", None), ("th", "Results", "descending"), ("th", "Purchase Date", "ascending"),
        ("button", "Name", "ascending"), ("a", "Edit", None)]
    assert '<th id="1" sorted="descending">Results</th>' in obs.text


def test_grid_rows_that_open_a_page_are_numbered_with_their_cells():
    # Magento's dashboard and legacy grids open a row's page on click; only its title says where
    # (an absolute address on Magento 2, a relative one on Magento 1). A row with its own "Edit"
    # link is opened by the link; a title that is only a tooltip makes no control.
    obs = simplify_html(
        '<table><thead><tr><th>Customer</th><th>Items</th><th>Total</th></tr></thead><tbody>'
        '<tr title="http://shop.test/admin/sales/order/view/order_id/230/"><td>Ava Brown</td><td>2</td>'
        '<td><span class="price">$83.40</span></td></tr>'
        '<tr title="view/order_id/17/key/5f0c/"><td>Noor Haddad</td><td>1</td><td>$12.00</td></tr>'
        '<tr title="Totals for the period"><td>Total</td><td>3</td><td>$95.40</td></tr>'
        '<tr title="http://shop.test/admin/search/term/edit/id/1/"><td><input type="checkbox" name="search[]" value="1">'
        '</td><td>Joust Bag</td><td><a href="/admin/search/term/edit/id/1/">Edit</a></td></tr>'
        '<tr title="/admin/sales/order/view/order_id/9/"><td></td><td> </td></tr></tbody></table>')
    rows = [e for e in obs.elements if e.tag == "tr"]
    assert [(r.text, r.label) for r in rows] == [
        ("Ava Brown 2 $83.40", "http://shop.test/admin/sales/order/view/order_id/230/"),
        ("Noor Haddad 1 $12.00", "view/order_id/17/key/5f0c/")]
    assert ('<tr id="0" title="http://shop.test/admin/sales/order/view/order_id/230/"><td>Ava Brown</td><td>2</td>'
            '<td>$83.40</td></tr>') in obs.text
    assert "<tr><td>Total</td><td>3</td><td>$95.40</td></tr>" in obs.text
    assert [e.tag for e in obs.elements[2:]] == ["input", "a"]  # the row with an Edit link: the link opens it


def test_links_that_a_script_claims_and_chosen_items_marked_by_class():
    # GitLab hooks its scripts to js- classes and to the items of its dropdown menus; OpenStreetMap
    # binds its "Reverse Directions" by a plain class. A help table's href="#" link out of the tab
    # order and a skip link stay inert. Chosen items and current tabs are marked by classes.
    obs = simplify_html(
        '<div>0 Assignees <a href="#" class="js-sidebar-dropdown-toggle edit-link btn">Edit</a></div>'
        '<div class="dropdown show"><div class="dropdown-menu show"><div class="dropdown-content"><ul>'
        '<li><a href="#" class="is-active">Any Type</a></li><li><a href="#">Issue</a></li></ul></div></div></div>'
        '<table><tr><td><a href="#" tabindex="-1">Link</a></td></tr></table><a href="#main">Skip to main content</a>'
        '<ul class="nav gl-tabs-nav"><li><a class="gl-tab-nav-item gl-tab-nav-item-active" href="/b/active">Active</a></li>'
        '<li><a class="gl-tab-nav-item" href="/b/stale">Stale</a></li></ul>'
        '<ul><li class="gl-dropdown-item is-active"><button role="menuitem">Global</button></li>'
        '<li class="gl-dropdown-item"><button role="menuitem">Watch</button></li></ul>'
        '<a class="dropdown-item active" href="/s?sort=name">Account</a><a class="dropdown-item" href="/s?sort=date">Access granted</a>'
        '<form class="directions_form"><a class="reverse_directions" href="#">Reverse Directions</a></form>')
    assert [(e.label, "selected" in e.attributes) for e in obs.elements] == [
        ("Edit", False), ("Any Type", True), ("Issue", False), ("Active", True), ("Stale", False), ("Global", True),
        ("Watch", False), ("Account", True), ("Access granted", False), ("Reverse Directions", False)]
    assert "<td>Link</td>" in obs.text and "Skip to main content" in obs.text


def test_tooltips_rendered_as_markup_taken_over_by_scripts_or_saying_what_numbers_count():
    obs = simplify_html(
        '<div class="progress"><div class="progress-bar has-tooltip" style="width: 51.8%" data-html="true" title="'
        '&lt;span class=&quot;lang&quot;&gt;Nunjucks&lt;/span&gt;&amp;nbsp;&lt;span&gt;51.8%&lt;/span&gt;"></div></div>'
        '<div class="divergence-graph" title="109 commits behind main, 39 commits ahead">'
        '<div class="graph-side"><span class="count">109</span></div><div class="graph-side"><span>39</span></div></div>'
        '<span title="Comments">Comments 61</span> <span title="Created">2023-05-31 18:22</span>'
        '<label>Title <abbr title="This field is required.">*</abbr></label>'
        '<button class="btn btn-icon has-tooltip" data-title="Merge request actions"><svg data-testid="ellipsis_v-icon">'
        '</svg></button><button class="btn" data-original-title="Delete branch"><svg></svg></button>'
        '<a href="/x" data-html="true" title="&lt;b&gt;Fork&lt;/b&gt; this project">Fork</a>')
    assert "Nunjucks 51.8%" in obs.text and "&lt;span" not in obs.text
    assert "109\n39\n(109 commits behind main, 39 commits ahead)" in obs.text
    assert "Comments 61 2023-05-31 18:22" in obs.text  # words or a date say what they are already
    assert "required" not in obs.text  # a mark that counts nothing keeps its tooltip to itself
    assert [e.label for e in obs.elements] == ["Merge request actions", "Delete branch", "Fork this project"]
    assert obs.elements[2].attributes["title"] == "Fork this project"


def test_table_footers_knockout_cells_and_split_button_items():
    # A footer written before the body is drawn after it; a knockout grid's cells bind a click that
    # does nothing on most grids; an open split button's items get their handlers from a script.
    obs = simplify_html(
        '<table><tfoot><tr><td>Grand Total</td><td>$95.40</td></tr></tfoot><tbody><tr><td>Subtotal</td>'
        '<td>$90.40</td></tr></tbody></table>'
        '<table><tr class="data-row"><td data-bind="css: getFieldClass($row()), click: getFieldHandler($row())">'
        '<div class="data-grid-cell-content">Pending</div></td></tr></table>'
        '<table><thead><tr><th class="data-grid-th _sortable" data-bind="click: sort"><span>Status</span></th></tr>'
        '</thead></table>'
        '<div class="actions-split"><ul class="dropdown-menu show"><li><span class="item" title="Configurable Product">'
        'Configurable Product</span></li></ul></div>')
    assert "<tr><td>Subtotal</td><td>$90.40</td></tr>\n<tr><td>Grand Total</td><td>$95.40</td></tr>" in obs.text
    statuses = simplify_html('<select name="order_statuses[]" multiple size="3"><option selected>Complete</option>'
                             '<option selected>Closed</option><option>Pending</option></select>')
    assert statuses.text.startswith('<select id="0" multiple name="order_statuses[]"><option selected>Complete</option>'
                                    '<option selected>Closed</option><option>Pending</option></select>')
    assert [(e.tag, e.label) for e in obs.elements] == [("th", "Status"), ("span", "Configurable Product")]


def test_a_name_that_aria_labelledby_builds_from_a_label_and_the_element_itself():
    obs = simplify_html('<strong id="modes-label">View as</strong> <strong class="modes-mode active">Grid</strong> '
                        '<a href="/c?mode=list" id="mode-list" aria-labelledby="modes-label mode-list">List</a>')
    assert [e.label for e in obs.elements] == ["View as List"]


def test_gitlab_list_links_and_labels():
    obs = page("gitlab_issues_list.html")
    titles = [e.text for e in obs.elements if e.tag == "a"]
    assert "Contrast of comment tokens fails WCAG AA" in titles
    assert "Template content" not in obs.text
    assert next(e for e in obs.elements if e.attributes.get("title") == "Dashboard").label == "Homepage"  # aria-label
    assert '<a id="8" aria-label="Go to next page">Next ›</a>' in obs.text


def test_postmill_post_buttons_comments_and_hidden_menu():
    obs = page("postmill_post.html")
    assert "Log out" not in obs.text and "Profile" not in obs.text  # dropdown menu is hidden
    upvote = next(e for e in obs.elements if e.label == "Upvote")
    assert upvote.tag == "button"
    comment_box = next(e for e in obs.elements if e.tag == "textarea")
    assert comment_box.label == "Comment" and comment_box.is_text_field()
    assert "<p>The Expanse, no contest.</p>" in obs.text
    assert "abc123" not in obs.text  # hidden input


def test_form_controls_show_state_and_whitelisted_attributes_only():
    obs = page("form_controls.html")
    text = obs.text
    assert '<input id="0" type="text" value="Aero Daily Fitness Tee">' in text
    assert "action=" not in text and "href" not in text
    assert 'name="' not in text.replace('type="checkbox" name="status"', "").replace('type="radio" name="visibility"', "")
    assert '<select id="3"><option>In Stock</option><option selected>Out of Stock</option></select>' in text
    assert obs.elements[3].label == "Stock Status" and obs.elements[3].text == "Out of Stock"
    assert obs.elements[1].label.startswith("Enable Product") and "checked" in obs.elements[1].attributes
    assert "<button id=\"8\" disabled>" in text
    assert obs.elements[9].label == "Save"
    assert obs.elements[10].attributes.get("role") == "tab"
    assert "&lt;incl. tax&gt;" in text  # page text never looks like a tag
    assert obs.elements[7].label == "Admin PIN"


def test_empty_and_broken_pages_give_empty_observations():
    assert simplify_html("").text == ""
    assert simplify_html("   ").elements == []
    assert simplify_html("<p>unclosed <b>tags").text == "<p>unclosed tags</p>"


def test_budget_window_cuts_on_lines_with_markers():
    text = "\n".join(f"line {i:03d}" for i in range(100))
    first = window_text(text, 0, 100)
    assert first.startswith("line 000") and "more characters below; use Scroll Down" in first
    assert len(first.split("\n[...")[0]) <= 100
    later = window_text(text, 500, 100)
    assert later.startswith("[... 500 characters above; use Scroll Up ...]")
    assert window_text(text, 0, 10_000) == text


REAL_MARKUP = Path(__file__).parent / "fixtures" / "real_markup"


def real_page(name: str, **options):
    return simplify_html((REAL_MARKUP / f"{name}.html").read_text(), **options)


def test_html_from_outside_the_embedded_sites_is_parsed_as_browsers_do():
    stray = "<!DOCTYPE html><table><tr><td>$5</td></tr><p>Sold out</p></table>"
    as_browser = simplify_html(stray).text  # HTML5 algorithm: the stray paragraph goes before the table
    assert as_browser.index("Sold out") < as_browser.index("$5")
    as_lxml = simplify_html(stray, well_formed=True).text
    assert as_lxml.index("$5") < as_lxml.index("Sold out")
    nested = '<!DOCTYPE html><form action="/a"><p>Find <form action="/b"><input name="q"></form> now</p>'
    assert simplify_html(nested).text.count("<form>") == 1  # a browser ignores the inner <form>


@pytest.mark.parametrize("name", sorted(p.stem for p in REAL_MARKUP.glob("*.html")))
def test_real_markup_pages_read_the_same_with_either_parser(name):
    html5 = real_page(name)
    fast = real_page(name, well_formed=True)
    assert html5.text == fast.text and [e.label for e in html5.elements] == [e.label for e in fast.elements]


def test_navigation_order_can_be_turned_off():
    ordered = real_page("magento_admin_review")
    in_document_order = real_page("magento_admin_review", order_navigation=False)
    assert in_document_order.text.index("<h1>") > in_document_order.text.index("Credit Memos")
    assert ordered.text.index("<h1>") < ordered.text.index("<nav>")
    assert len(ordered.text) < len(in_document_order.text) / 2  # closed submenus are collapsed


def test_closed_details_dialogs_and_known_hidden_classes_hide_content():
    page = simplify_html(
        "<details><summary>Formatting help</summary><p>Use *stars*</p></details>"
        '<dialog><button>Confirm</button></dialog><p class="gl-field-error hide">This field is required.</p>'
        '<ul class="dropdown-menu"><li><a href="/x">Closed</a></li></ul>'
        '<ul class="dropdown-menu show"><li><a href="/y">Open</a></li></ul>'
        '<details open><summary>More</summary><p>Shown</p></details>'
    )
    assert "Formatting help" in page.text and "*stars*" not in page.text and "Confirm" not in page.text
    assert "required" not in page.text and "Closed" not in page.text and "Open" in page.text and "Shown" in page.text


def test_screen_reader_text_names_a_control_and_is_read_where_it_is_the_only_text():
    # Magento draws a rating as a bar whose only text is clipped out of sight: a screen reader (and
    # WebArena's accessibility tree) reads it, and so must the agent. A clipped skip link is not there to use.
    page = simplify_html('<a class="sr-only" href="#main">Skip to Content</a>'
                         '<a href="/cart"><span class="sr-only">My Cart</span><span>2</span></a>'
                         '<div class="rating-result" title="87%"><span style="width:87%"><span class="sr-only">'
                         '<span>87</span>% of <span>100</span></span></span></div>')
    assert [e.label for e in page.elements] == ["My Cart 2"] and "Skip to Content" not in page.text
    assert page.text.endswith("</a>\n87% of 100")


def test_tooltips_that_hold_a_date_or_an_icons_meaning_are_read():
    page = simplify_html(
        '<ul><li><a href="/i/1">Fix focus ring</a> created <span title="Jan 13, 2013 1:48pm PST">13 years ago</span>'
        '</li></ul><p>authored <time title="Mar 28, 2021 2:59pm PDT" datetime="2021-03-28T21:59:56Z">5 years ago</time></p>'
        '<p>posted <time datetime="2023-02-19T15:19:30+00:00">3 years ago</time></p>'
        '<p>posted <time datetime="2023-02-19T15:19:30+00:00" title="February 19, 2023">on February 19, 2023</time></p>'
        '<h2><a href="/p">dotfiles</a> <span class="has-tooltip" title="Private - access is granted per user">'
        '<svg data-testid="lock-icon"></svg></span></h2>'
        '<div class="progress-bar" style="width: 51.8%" title="Nunjucks 51.8%"></div>'
        '<div class="stock" title="Availability">In stock</div><span title="Full name">Full name</span>')
    assert page.text == (
        '<ul>\n<li><a id="0">Fix focus ring</a> created 13 years ago (Jan 13, 2013 1:48pm PST)</li>\n</ul>\n'
        '<p>authored 5 years ago (Mar 28, 2021 2:59pm PDT)</p>\n<p>posted 3 years ago (2023-02-19T15:19:30+00:00)</p>\n'
        '<p>posted on February 19, 2023</p>\n<h2><a id="1">dotfiles</a> Private - access is granted per user</h2>\n'
        'Nunjucks 51.8%\nIn stock\nFull name')


def test_scripted_widgets_show_their_state():
    page = simplify_html(
        '<div role="listbox"><div role="option" aria-checked="false" aria-label="S" tabindex="0">S</div>'
        '<div role="option" aria-checked="true" aria-label="M" tabindex="0">M</div>'
        '<div role="option" aria-checked="false" aria-disabled="true" aria-label="XL" tabindex="-1">XL</div></div>'
        '<label for="c">Confidential</label><button id="c" role="switch" aria-checked="true"></button>'
        '<div role="checkbox" aria-checked="mixed" tabindex="0">All</div><button aria-pressed="true">Bold</button>'
        '<a role="tab" aria-selected="true" href="/a">Overview</a><a role="button" href="/b">Go</a>'
        '<button aria-haspopup="true" aria-expanded="true">Menu</button><button aria-expanded="false">More</button>')
    assert page.text == (
        '<div id="0" aria-label="S" role="option">S</div><div id="1" aria-label="M" role="option" checked>M</div>'
        '<div id="2" aria-label="XL" role="option" disabled>XL</div>\n<label>Confidential</label>'
        '<button id="3" role="switch" checked>Confidential</button><div id="4" role="checkbox" checked="mixed">All</div>'
        '<button id="5" pressed>Bold</button><a id="6" role="tab" selected>Overview</a><a id="7">Go</a>'
        '<button id="8" expanded>Menu</button><button id="9">More</button>')
    assert page.elements[1].attributes["checked"] == "" and page.elements[4].attributes["checked"] == "mixed"


@pytest.mark.parametrize("well_formed", [False, True])
def test_hostile_html_gives_an_observation_in_bounded_time(well_formed):
    deep = "<div>" * 50_000 + "<a href='/deep'>deep link</a>" + "</div>" * 50_000
    controls = "<p>tab\x0bvertical\x00nul \ud800 lone surrogate \x1f unit</p><a href='/x'>go\x07</a>"
    wide = "<p>" + "word " * 200_000 + "</p>"
    for html in (deep, controls, wide, "<" * 10_000, "\x00" * 100):
        page = simplify_html(html, well_formed=well_formed)
        assert isinstance(page.text, str)
    assert "lone surrogate" in simplify_html(controls, well_formed=well_formed).text


@pytest.mark.parametrize(("classes", "shown"), [
    ("d-none d-md-inline-block", True),  # GitLab's Author and role badges: from md up
    ("gl-display-none gl-sm-display-block", True),  # GitLab's "Closed" status text: from sm up
    ("d-none d-sm-inline-block d-lg-none", False),  # a tablet-only copy
    ("d-block d-sm-none", False),  # a phone-only copy
    ("gl-display-block gl-sm-display-none!", False),  # GitLab's mobile issue actions
    ("d-none d-xl-flex", True),  # 1200px: within a desktop screen
    ("d-none d-xxl-block", False),  # 1400px: wider than it
    ("d-none gl-sm-display-block", False),  # Bootstrap's !important none beats GitLab's plain block
    ("d-print-none", True),  # for printing only
    ("d-none", False), ("gl-display-none", False), ("top-nav-responsive", False), ("toggle-mobile-nav", False),
])
def test_responsive_classes_are_read_at_a_desktop_width(classes, shown):
    text = simplify_html(f'<body><p>Always</p><p class="{classes}">Sometimes</p></body>').text
    assert ("Sometimes" in text) is shown and "Always" in text


def magento_tabs(active_option: str, *, reveal_second: bool = True, content_style: str = "") -> str:
    """Magento 2.4's admin tabs markup for two tabs, as the server writes it."""
    items = []
    for number, (tab, label, content) in enumerate([("t_info", "Information", "Order Status Pending"),
                                                    ("t_history", "Comments History", "Left the warehouse")]):
        reveal = (f"<script>require(['jquery'], function($){{ $('li.admin__page-nav-item#{tab}')"
                  ".removeClass('no-display'); }})</script>") if number == 0 or reveal_second else ""
        items.append(f'<li class="admin__page-nav-item no-display" id="{tab}"><a href="#{tab}_content" id="{tab}" '
                     f'class="admin__page-nav-link tab-item-link"><span>{label}</span></a>'
                     f'<div id="{tab}_content"{content_style}><p>{content}</p></div>'
                     f"<script>document.getElementById('{tab}_content').style.display = 'none';</script></li>{reveal}")
    return (f'<body><div class="admin__page-nav" data-role="container" id="t"><ul class="tabs admin__page-nav-items">'
            f'{"".join(items)}</ul></div><script>require(["jquery", "mage/backend/tabs"], function($){{ $(function() {{'
            f'$("#t").tabs({{{active_option}destination: "#main"}}); }}); }});</script></body>')


def test_magento_admin_tabs_show_what_their_script_opens_on_load():
    first = simplify_html(magento_tabs("active: 't_info', "))
    assert "Order Status Pending" in first.text and "Left the warehouse" not in first.text
    links = {e.text: e for e in first.elements}
    assert set(links) == {"Information", "Comments History"}  # the tab links are controls, though href="#..."
    assert "selected" in links["Information"].attributes and "selected" not in links["Comments History"].attributes
    second = simplify_html(magento_tabs("active: 't_history', "))
    assert "Left the warehouse" in second.text and "Order Status Pending" not in second.text
    assert "selected" in second.elements[1].attributes
    no_option = simplify_html(magento_tabs(""))  # the widget opens the first tab
    assert "Order Status Pending" in no_option.text and "Left the warehouse" not in no_option.text
    older = simplify_html(magento_tabs("", content_style=' style="display:none"'))  # Magento 2.2 hid every panel inline
    assert "Order Status Pending" in older.text and "Left the warehouse" not in older.text
    unrevealed = simplify_html(magento_tabs("active: 't_info', ", reveal_second=False))  # a tab the page keeps hidden
    assert "Comments History" not in unrevealed.text and "Information" in unrevealed.text


def test_new_real_markup_pages_show_what_a_desktop_browser_shows():
    order = real_page("magento_admin_order")  # before: the whole order was inside no-display
    assert "<tr><th>Order Status</th><td>Processing</td></tr>" in order.text
    assert "Grand Total" in order.text and "Driftwood Canvas Tote" in order.text
    assert [e.label for e in order.elements if e.tag in ("select", "textarea", "button")][-3:] == [
        "Status", "Comment", "Submit Comment"]
    issue = real_page("gitlab_issue")
    assert issue.text.index("Closed") < issue.text.index("<h1>")
    assert "Author Maintainer" in issue.text and "Developer" in issue.text and "@dpatel" in issue.text
    assert "Issue actions" not in issue.text and "Your projects" not in issue.text and "Toggle navigation" not in issue.text


# -- the observation cache ------------------------------------------------------------------

FIXTURE_FILES = sorted([*PAGES.glob("*.html"), *REAL_MARKUP.glob("*.html")])


def same_observation(cached, fresh) -> bool:
    def fields(page):
        return page.text, page.title, [(e.id, e.tag, e.text, dict(e.attributes), e.label, e.key, tuple(e.options),
                                        e.widget) for e in page.elements]
    return fields(cached) == fields(fresh)


@pytest.fixture
def process_cache():
    """The process-wide cache, restored afterwards (other tests share it)."""
    from webarena_gym.observation import cache as cache_module

    saved = cache_module._cache
    yield cache_module
    cache_module._cache = saved


@pytest.mark.parametrize("well_formed", [False, True])
def test_cached_observation_is_byte_identical_on_every_fixture(well_formed):
    cache = ObservationCache(max_bytes=64 << 20)
    for path in FIXTURE_FILES:
        html = path.read_text()
        fresh = simplify_html(html, well_formed=well_formed)
        first = cache.simplify(html, well_formed=well_formed)
        second = cache.simplify(html, well_formed=well_formed)
        assert same_observation(first, fresh), path.name
        assert second is first, path.name  # the second visit is not simplified again
    assert cache.stats()["hits"] == cache.stats()["misses"] == len(FIXTURE_FILES)


def test_cache_is_keyed_by_the_settings_that_change_the_observation():
    cache = ObservationCache(max_bytes=64 << 20)
    stray = "<!DOCTYPE html><nav><a href='/'>Home</a></nav><table><tr><td>$5</td></tr><p>Sold out</p></table>"
    for well_formed in (False, True):
        for order_navigation in (False, True):
            page = cache.simplify(stray, well_formed=well_formed, order_navigation=order_navigation)
            assert page.text == simplify_html(stray, well_formed=well_formed, order_navigation=order_navigation).text
    assert len(cache) == 4 and cache.stats()["hits"] == 0
    assert cache.simplify(stray).text != cache.simplify(stray, well_formed=True).text  # the parsers differ here


def test_cache_stays_within_its_bound_and_drops_the_least_recently_used():
    pages = [p.read_text() for p in FIXTURE_FILES[:6]]
    sizes = [observation_bytes(simplify_html(html)) for html in pages]
    cache = ObservationCache(max_bytes=sum(sorted(sizes)[-2:]))  # room for about two pages
    for html in pages:
        cache.simplify(html)
        assert cache.bytes <= cache.max_bytes
    stats = cache.stats()
    assert stats["evictions"] >= 3 and stats["entries"] < len(pages)
    cache.simplify(pages[-1])  # the newest is kept
    assert cache.stats()["hits"] == 1
    cache.simplify(pages[0])  # the oldest went first
    assert cache.stats()["misses"] == len(pages) + 1
    off = ObservationCache(max_bytes=0)
    assert off.simplify(pages[0]).text == simplify_html(pages[0]).text and len(off) == 0
    with pytest.raises(ValueError, match="max_bytes must be >= 0"):
        ObservationCache(max_bytes=-1)


def test_cached_observations_are_read_only_and_survive_pickling():
    import pickle

    page = ObservationCache(max_bytes=1 << 20).simplify((PAGES / "magento_admin_orders_grid.html").read_text())
    element = next(e for e in page.elements if e.attributes)
    assert isinstance(page.elements, tuple)
    with pytest.raises(TypeError, match="read-only"):
        element.attributes["value"] = "changed"
    with pytest.raises(TypeError, match="read-only"):
        element.attributes.update(value="changed")
    copy = pickle.loads(pickle.dumps(page))  # vector workers send observations between processes
    assert copy == page and dict(copy.elements[0].attributes) == dict(page.elements[0].attributes)


def test_direct_backend_shares_pages_as_served_but_not_what_an_agent_typed(process_cache):
    from webarena_gym.backends.direct import DirectBackend
    from webarena_gym.sites.world import World

    process_cache.configure_observation_cache(64 << 20)
    first, second = DirectBackend(World()), DirectBackend(World())
    start = first.sites.urls["shopping"] + "/"
    for backend in (first, second):
        backend.start(start, allowed_sites=("shopping",))
    shown = first.observe()
    assert second.observe() is shown  # the same HTML: simplified once for both envs
    search = next(e for e in shown.elements if e.is_text_field())
    first.execute(Action(ActionName.TYPE, element=search.id, argument="blue mug"), search)
    assert 'value="blue mug"' in first.observe().text
    assert 'value="blue mug"' not in second.observe().text and 'value="blue mug"' not in shown.text
    first.start(start, allowed_sites=("shopping",))  # a new episode on the page as served
    assert first.observe() is shown


def test_direct_backend_gives_the_same_observations_with_and_without_the_cache(process_cache):
    from webarena_gym.env import WebArenaEnv
    from webarena_gym.oracle_runner import play
    from webarena_gym.suites.embedded import embedded_tasks, family_of

    seen, task_ids = set(), []
    for task in embedded_tasks("test"):
        name = family_of(task.task_id, "test").name
        if name not in seen:
            seen.add(name)
            task_ids.append(task.task_id)
    observed = {}
    for max_bytes in (0, 64 << 20, 64 << 20):  # off, then a cold cache, then a warm one
        process_cache.configure_observation_cache(max_bytes)
        env = WebArenaEnv(suite="embedded", backend="direct", max_steps=30)
        try:
            for task_id in task_ids:
                episode = play(env, task_id, family_of(task_id, "test").solve, env.tasks_by_id[task_id].to_dict())
                observed.setdefault(task_id, []).append((episode.observations, episode.reward))
        finally:
            env.close()
    assert process_cache.observation_cache().stats()["hits"] > 0
    for task_id, (off, cold, warm) in observed.items():
        assert off == cold == warm, f"task {task_id}"


def test_every_kind_of_whitespace_reads_as_one_space():
    page = simplify_html("<html><body><p>Price:\u00a0\u00a0$5\tnow\u2003\u3000only\n\n today</p>"
                         "<a href='/x' title=' Buy\u00a0it '>\u2002Buy\u00a0 now\u2009</a></body></html>")
    assert "<p>Price: $5 now only today</p>" in page.text
    assert page.elements[0].text == "Buy now" and page.elements[0].label == "Buy it"  # the title names it
    assert '<a id="0" title="Buy it">Buy now</a>' in page.text
