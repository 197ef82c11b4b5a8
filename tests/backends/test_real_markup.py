"""Both backends on pages with the real WebArena sites' markup (select2, ui-select, rating
radios, icon-only buttons, vote buttons, big menus, CSS-hidden content, responsive classes,
content a page's script opens on load).

The pages (tests/fixtures/real_markup/) reproduce patterns of the real Postmill, Magento
and GitLab pages; a small real site serves them in-process to the direct backend and over
loopback HTTP to Chromium.
"""

from __future__ import annotations

import re

import pytest

from webarena_gym.actions import parse_action
from webarena_gym.backends.base import check_action
from webarena_gym.backends.direct import DirectBackend
from webarena_gym.errors import InvalidActionError
from webarena_gym.observation import DRIVEN_BY_WIDGET, UI_SELECT, PageObservation
from webarena_gym.observation.visibility import DESKTOP_WIDTH
from webarena_gym.sites.world import World

from .real_markup_site import fixture_app, served

SITE = "reddit"  # any site name: the fixture site stands in for it


class Browser:
    """One backend on the fixture site, driven with the agent's action strings."""

    def __init__(self, backend, base_url: str):
        self.backend = backend
        self.base_url = base_url
        self.page = PageObservation(text="")

    def open(self, name: str) -> PageObservation:
        self.backend.start(f"{self.base_url}/{name}", allowed_sites=(SITE,))
        return self.observe()

    def observe(self) -> PageObservation:
        self.page = self.backend.observe()
        return self.page

    def act(self, action: str) -> PageObservation:
        parsed = parse_action(action)
        element = self.page.element(parsed.element) if parsed.element is not None else None
        self.backend.execute(check_action(parsed, element), element)  # as the env does
        return self.observe()

    def find(self, label: str, tag: str | None = None, **attributes: str):
        return next(e for e in self.page.elements if e.label == label and tag in (None, e.tag)
                    and all(e.attributes.get(k) == v for k, v in attributes.items()))


@pytest.fixture(scope="module", params=["direct", pytest.param("playwright", marks=pytest.mark.browser)])
def browser(request):
    if request.param == "direct":
        backend = DirectBackend(World(), site_urls={SITE: "http://fixtures.test"}, apps={SITE: fixture_app})
        yield Browser(backend, "http://fixtures.test")
        backend.close()
        return
    from webarena_gym.backends.playwright import PlaywrightBackend

    with served() as base_url:
        backend = PlaywrightBackend(site_urls={SITE: base_url})
        yield Browser(backend, base_url)
        backend.close()


def test_select2_forum_shows_its_options_and_is_chosen_and_submitted(browser):
    page = browser.open("postmill_submit")
    forum = browser.find("Forum *")
    assert forum.tag == "select" and forum.widget == DRIVEN_BY_WIDGET
    assert {"books", "AskReddit", "worldnews"} <= set(forum.options) and forum.text == "Choose one…"
    assert 'role="combobox"' not in page.text and page.text.count("Choose one…") == 1  # the stand-in is left out
    page = browser.act(f'do(action="Select Dropdown Option", element="{forum.id}", argument="books")')
    assert "<option selected>books</option>" in page.text
    if browser.backend.name == "playwright":  # the change event reached the widget
        shown = "document.getElementById('select2-submission_forum-container').title"
        assert browser.backend.evaluation_page().evaluate_locator(shown) == "books"
    browser.act(f'do(action="Type", element="{browser.find("Title *").id}", argument="Piranesi")')
    sent = browser.act(f'do(action="Click", element="{browser.find("Create submission").id}")')
    assert "<li>submission[forum]=10005</li>" in sent.text and "<li>submission[title]=Piranesi</li>" in sent.text


def test_select2_3_hides_its_select_which_is_shown_and_chosen_instead_of_the_widget(browser):
    page = browser.open("gitlab_preferences")  # select2 3.x: the select is display: none, the widget before it
    dashboard = browser.find("Dashboard", tag="select")
    assert dashboard.widget == DRIVEN_BY_WIDGET and len(dashboard.options) == 5 and dashboard.text == "Your Projects (default)"
    assert page.text.count("Your Projects (default)") == 1  # the widget's copy of the choice is left out
    page = browser.act(f'do(action="Select Dropdown Option", element="{dashboard.id}", argument="Your Groups")')
    assert "<option selected>Your Groups</option>" in page.text
    if browser.backend.name == "playwright":  # the change event reached the widget
        shown = "document.getElementById('select2-chosen-1').textContent"
        assert browser.backend.evaluation_page().evaluate_locator(shown) == "Your Groups"
    sent = browser.act(f'do(action="Click", element="{browser.find("Save changes").id}")')
    assert "<li>user[dashboard]=groups</li>" in sent.text and "<li>user[layout]=fixed</li>" in sent.text


def test_rating_radios_show_what_tells_them_apart_and_submit_the_chosen_one(browser):
    page = browser.open("magento_admin_review")
    radios = [e for e in page.elements if e.input_type == "radio"]
    assert [r.attributes["dom-id"] for r in radios] == ["Rating_5", "Rating_4", "Rating_3", "Rating_2", "Rating_1"]
    assert [r.attributes["value"] for r in radios] == ["20", "19", "18", "17", "16"]
    assert all(r.attributes["name"] == "ratings[4]" for r in radios) and "checked" in radios[-1].attributes
    page = browser.act(f'do(action="Click", element="{radios[0].id}")')
    assert "checked" in page.elements[radios[0].id].attributes and "checked" not in page.elements[radios[-1].id].attributes
    sent = browser.act(f'do(action="Click", element="{browser.find("Save Review").id}")')
    assert "<li>ratings[4]=20</li>" in sent.text and "<li>nickname=Emma</li>" in sent.text


def test_vote_buttons_are_named_not_read_as_their_value(browser):
    page = browser.open("postmill_forum")
    upvote = browser.find("Upvote")
    assert f'<button id="{upvote.id}" title="Upvote"></button> 3085' in page.text
    assert ">1</button>" not in page.text and ">-1</button>" not in page.text
    sent = browser.act(f'do(action="Click", element="{upvote.id}")')
    assert "<li>choice=1</li>" in sent.text


def test_a_product_page_shows_its_rating_and_which_swatch_is_chosen(browser):
    page = browser.open("magento_storefront_product")
    assert "Rating:\n87% of 100" in page.text  # the bar's only text is clipped out of sight in Chromium
    sizes = [browser.find(label, role="option") for label in ("S", "M", "XL")]
    assert ["checked" in s.attributes for s in sizes] == [False, True, False] and "disabled" in sizes[2].attributes
    assert "selected" in browser.find("Details", role="tab").attributes
    assert "Runs small" not in page.text  # the reviews tab is closed


@pytest.mark.browser
def test_swatches_tabs_and_ratings_work_as_on_the_storefront_in_chromium(chromium):
    chromium.open("magento_storefront_product")
    page = chromium.act(f'do(action="Click", element="{chromium.find("S", role="option").id}")')
    assert "checked" in chromium.find("S", role="option").attributes and "checked" not in chromium.find("M").attributes
    assert "SizeS" in page.text
    chromium.act(f'do(action="Click", element="{chromium.find("Orange", role="option").id}")')
    chromium.act(f'do(action="Type", element="{chromium.find("Qty").id}", argument="2")')
    sent = chromium.act(f'do(action="Click", element="{chromium.find("Add to Cart").id}")')
    assert all(f"<li>{pair}</li>" in sent.text for pair in ("super_attribute[144]=167", "super_attribute[93]=56", "qty=2"))
    chromium.open("magento_storefront_product")
    page = chromium.act(f'do(action="Click", element="{chromium.find("Reviews 3").id}")')
    assert "selected" in chromium.find("Reviews 3").attributes and "selected" not in chromium.find("Details").attributes
    # each review's stars are read, as "Who gave 4 or 5 stars ..." needs
    assert re.search(r"Kept me dry on a four-hour run\nRating\s*100%.*Runs small\nRating\s*60%", page.text, re.S)


def test_dashboard_rows_that_open_a_page_are_numbered_with_their_cells(browser):
    page = browser.open("magento_admin_dashboard")
    order = browser.find("/echo?order_id=230")
    assert order.tag == "tr" and order.text == "Ava Brown 2 $83.40"
    assert re.search(rf'<tr id="{order.id}" title="/echo\?order_id=230"><td>Ava Brown</td> ?<td>2</td> ?<td>\$83.40</td></tr>',
                     page.text)
    assert "Lifetime Sales\n$3,210.45" in page.text and "<th>Customer</th>" in page.text
    assert "selected" in browser.find("Bestsellers", role="tab").attributes and "Trail Runner Cap" not in page.text


@pytest.mark.browser
def test_a_clicked_row_opens_its_page_and_a_clicked_tab_shows_its_grid_in_chromium(chromium):
    chromium.open("magento_admin_dashboard")
    sent = chromium.act(f'do(action="Click", element="{chromium.find("/echo?order_id=230").id}")')
    assert "<li>order_id=230</li>" in sent.text
    chromium.open("magento_admin_dashboard")
    page = chromium.act(f'do(action="Click", element="{chromium.find("Most Viewed Products").id}")')
    assert "selected" in chromium.find("Most Viewed Products").attributes and "Harbor Rain Shell" not in page.text
    sent = chromium.act(f'do(action="Click", element="{chromium.find("/echo?product_id=41").id}")')
    assert "<li>product_id=41</li>" in sent.text


def test_links_that_only_a_script_claims_are_controls(browser):
    page = browser.open("gitlab_merge_request")
    assert re.search(r'0 Assignees <a id="\d+">Edit</a>', page.text)  # href="#" with a js- class
    assert browser.find("Merge request actions").tag == "button"  # an icon named by its data-title
    assert "selected" in browser.find("Overview 3").attributes and "selected" not in browser.find("Commits 2").attributes
    assert "Grace Hopper" not in page.text  # the user picker is closed


@pytest.mark.browser
def test_the_sidebar_user_picker_opens_and_assigns_in_chromium(chromium):
    chromium.open("gitlab_merge_request")
    page = chromium.act(f'do(action="Click", element="{chromium.find("Edit", tag="a").id}")')
    assert "selected" in chromium.find("Unassigned").attributes and "Alan Turing @aturing" in page.text
    sent = chromium.act(f'do(action="Click", element="{chromium.find("Alan Turing @aturing").id}")')
    assert "<li>merge_request[assignee_ids][]=9</li>" in sent.text


def test_knockout_tabs_nameless_filter_boxes_and_disabled_pager_buttons(browser):
    page = browser.open("magento_admin_customer")
    tabs = [browser.find(name, tag="a") for name in ("Customer View", "Account Information", "Orders")]
    assert ["selected" in tab.attributes for tab in tabs] == [True, False, False]  # the <li> says _active
    page = browser.act(f'do(action="Click", element="{tabs[2].id}")')  # Chromium shows the open section only
    assert [e.attributes.get("name") for e in page.elements if e.input_type == "text"][-3:] == [
        "increment_id", "billing_name", None]  # the third has a placeholder, "From"
    assert all("disabled" in browser.find(name).attributes for name in ("Previous page", "Next page"))


def test_a_details_summary_opens_its_content(browser):
    page = browser.open("postmill_forum")
    summary = browser.find("Hide this forum")
    assert summary.tag == "summary" and "expanded" not in summary.attributes and "will not be shown" not in page.text
    page = browser.act(f'do(action="Click", element="{summary.id}")')
    assert "expanded" in browser.find("Hide this forum").attributes and "will not be shown on the front page" in page.text
    sent = browser.act(f'do(action="Click", element="{browser.find("Hide").id}")')
    assert "<li>forum=books</li>" in sent.text


@pytest.mark.browser
def test_knockout_tabs_and_split_button_menus_work_in_chromium(chromium):
    page = chromium.open("magento_admin_customer")
    assert "Account Created:" in page.text and "noor.haddad@example.com" not in page.text
    page = chromium.act(f'do(action="Click", element="{chromium.find("Orders", tag="a").id}")')
    assert "selected" in chromium.find("Orders", tag="a").attributes and "Account Created:" not in page.text
    assert "<li>order_id=229</li>" in chromium.act(f'do(action="Click", element="{chromium.find("/echo?order_id=229").id}")').text
    page = chromium.open("magento_admin_product")
    assert "Save & Close" not in page.text
    chromium.act(f'do(action="Click", element="{chromium.find("Select menu").id}")')
    item = chromium.find("Save & Close")  # its click handler is set by a script: only its class says so
    assert "<li>back=close</li>" in chromium.act(f'do(action="Click", element="{item.id}")').text


def test_the_current_tab_is_marked_where_only_a_class_says_so(browser):
    browser.open("postmill_forum")  # Postmill's sort tabs: class="tab tab--active"
    assert "selected" in browser.find("Hot").attributes and "selected" not in browser.find("New").attributes
    browser.open("gitlab_new_issue")  # GitLab's tab bar: <ul class="nav-links"><li class="active">
    assert "selected" in browser.find("Write").attributes and "selected" not in browser.find("Preview").attributes


def test_icon_only_controls_are_named_and_nameless_ones_are_not_numbered(browser):
    page = browser.open("gitlab_new_issue")
    labels = [e.label for e in page.elements]
    assert {"Dashboard", "hamburger", "Add bold text", "table", "maximize", "Help", "Byte Blaze"} <= set(labels)
    assert all(labels), "every numbered element has a name"
    assert not re.search(r'<button id="\d+"></button>', page.text)  # the blank toolbar button is not numbered
    page = browser.open("magento_storefront_category")
    products = [e for e in page.elements if e.text == "Crest 3D White Whitestrips"]
    assert len(products) == 1  # the tabindex=-1 photo link to the same page is not numbered again
    assert browser.find("Add to Wish List").tag == "a"


def test_main_content_comes_before_navigation_and_nested_menus_collapse(browser):
    page = browser.open("magento_admin_review")
    assert page.text.index("<h1>Edit Review</h1>") < page.text.index("<nav>")
    assert "Email Templates" in page.text and "Credit Memos" not in page.text  # current section open, others closed
    assert browser.find("Sales").id > browser.find("Save Review").id
    page = browser.open("magento_storefront_category")
    category_link = max(e.id for e in page.elements if e.label == "Beauty & Personal Care")  # the menu's, not the crumb's
    assert browser.find("Crest 3D White Whitestrips").id < category_link
    assert "Exercise & Fitness" not in page.text and "Sports & Outdoors" in page.text
    page = browser.open("gitlab_new_issue")
    assert page.text.index("Create issue") < page.text.index("<header>") < page.text.index("<aside>")
    assert "Boards" in page.text and "Commits" not in page.text  # the active sidebar section is open


def test_validation_messages_and_closed_menus_are_hidden(browser):
    page = browser.open("gitlab_new_issue")
    assert "This field is required." not in page.text
    assert "New group" not in page.text and "Sign out" not in page.text  # dropdown menus are closed


def test_an_admin_order_shows_the_tab_its_tabs_widget_opens_on_load(browser):
    page = browser.open("magento_admin_order")  # raw HTML: every tab of the order is in no-display
    assert "<tr><th>Order Status</th><td>Processing</td></tr>" in page.text
    assert "Driftwood Canvas Tote" in page.text and re.search(r"<td>Grand Total</td> ?<td>\$77\.50</td>", page.text)
    assert browser.find("Comment").tag == "textarea" and browser.find("Submit Comment").tag == "button"
    tabs = [browser.find(name, tag="a") for name in ("Order Information", "Order Invoices", "Order History")]
    assert ["selected" in tab.attributes for tab in tabs] == [True, False, False]
    assert "Northwind Freight" not in page.text and "000000093" not in page.text  # the closed tabs' content
    assert "Transactions" not in page.text and "7F3K2" not in page.text  # a tab the page keeps hidden


def test_an_issue_reads_as_on_a_desktop_screen(browser):
    page = browser.open("gitlab_issue")
    assert page.text.index("Closed") < page.text.index("<h1>Crash when the config file is empty</h1>")
    assert "Author Maintainer" in page.text and "Developer" in page.text and "@mkowalski" in page.text
    assert {browser.find(name).tag for name in ("Reopen issue", "New issue", "hamburger", "Help")} == {"a"}
    assert browser.find("Search GitLab").tag == "input"
    for mobile_only in ("Issue actions", "Toggle navigation", "Your projects", "Open sidebar"):
        assert mobile_only not in page.text
    assert not any(e.label == "Search" for e in page.elements)  # the tablet-only search link


@pytest.mark.browser
def test_chromium_shows_at_the_width_the_raw_rules_assume_and_opens_another_order_tab(chromium):
    chromium.open("gitlab_issue")
    width = chromium.backend.evaluation_page().evaluate_locator("String(window.innerWidth)")
    assert int(width) >= DESKTOP_WIDTH
    chromium.open("magento_admin_order")
    page = chromium.act(f'do(action="Click", element="{chromium.find("Order History").id}")')
    assert "Parcel left the warehouse with Northwind Freight." in page.text and "Order Status" not in page.text
    assert "selected" in chromium.find("Order History").attributes
    assert "selected" not in chromium.find("Order Information").attributes


@pytest.fixture
def chromium():
    from webarena_gym.backends.playwright import PlaywrightBackend

    with served() as base_url:
        backend = PlaywrightBackend(site_urls={SITE: base_url})
        yield Browser(backend, base_url)
        backend.close()


@pytest.mark.browser
def test_chromium_decides_visibility_from_computed_style_and_layout(chromium):
    page = chromium.open("postmill_submit")
    assert "Emphasis" not in page.text  # collapsed by a stylesheet rule
    assert "Jump to main content" not in page.text  # placed off the page
    toggle = next(e for e in page.elements if e.input_type == "checkbox")
    assert "**Strong emphasis**" in chromium.act(f'do(action="Click", element="{toggle.id}")').text
    page = chromium.open("magento_admin_review")
    assert "Account Setting" not in page.text and "Credit Memos" not in page.text  # closed menus
    page = chromium.act(f'do(action="Click", element="{chromium.find("Sales").id}")')
    assert "Credit Memos" in page.text  # the clicked item's submenu opened


@pytest.mark.browser
def test_ui_select_options_are_shown_and_chosen_in_chromium(chromium):
    chromium.open("magento_admin_product")
    attribute_set = chromium.find("Attribute Set")
    assert attribute_set.widget == UI_SELECT and attribute_set.options == ("Default", "Bag", "Bottom", "Gear", "Top")
    assert attribute_set.text == "Default"
    page = chromium.act(f'do(action="Select Dropdown Option", element="{attribute_set.id}", argument="gear")')
    assert "<option selected>Gear</option>" in page.text and "<option selected>Default</option>" not in page.text
    categories = chromium.find("Categories")
    page = chromium.act(f'do(action="Select Dropdown Option", element="{categories.id}", argument="Bags")')
    assert chromium.find("Categories").text == "Bags"
    assert "Done" not in page.text  # the multi-select closed again


def test_ui_select_on_the_direct_backend_says_it_needs_a_browser():
    backend = DirectBackend(World(), site_urls={SITE: "http://fixtures.test"}, apps={SITE: fixture_app})
    browser = Browser(backend, "http://fixtures.test")
    browser.open("magento_admin_product")
    attribute_set = browser.find("Attribute Set")
    assert attribute_set.options == ("Default", "Bag", "Bottom", "Gear", "Top")
    with pytest.raises(InvalidActionError, match="needs a browser"):
        browser.act(f'do(action="Select Dropdown Option", element="{attribute_set.id}", argument="Gear")')
