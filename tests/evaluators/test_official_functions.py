"""The official func: helpers: URL arithmetic, page readers on saved pages, and the store's REST API.

The REST helpers are exercised against a small HTTP server that answers Magento's two
endpoints the way the real store does (token, then bearer-authenticated queries).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

from webarena_gym.errors import SiteUnavailableError, TaskDataError
from webarena_gym.evaluators import StaticPage, call_function, evaluate, registered_functions

from .site_pages import GITLAB_MEMBERS, STORE_ORDER

OFFICIAL_HELPERS = {
    "shopping_get_latest_order_url",
    "shopping_get_sku_latest_review_author",
    "shopping_get_sku_latest_review_rating",
    "reddit_get_post_url",
    "gitlab_get_project_memeber_role",
}


def test_every_helper_the_official_data_names_is_registered():
    assert OFFICIAL_HELPERS <= set(registered_functions())


@pytest.mark.parametrize(
    ("url", "post"),
    [
        ("http://h:9999/f/books/59421/friendly-reminder/comment/3", "http://h:9999/f/books/59421/"),
        ("http://h:9999/f/books/59421", "http://h:9999/f/books/59421/"),
        ("http://h:9999/f/books", "http://h:9999/f/books"),
        ("http://h:9999/user/x/submissions", "http://h:9999/user/x/submissions"),
    ],
)
def test_reddit_post_url(url, post):
    assert call_function("func:reddit_get_post_url('__last_url__')", None, last_url=url) == post


def test_gitlab_member_role_reads_the_members_table():
    page = StaticPage("http://h:8023/byteblaze/dotfiles/-/project_members", GITLAB_MEMBERS)
    assert call_function("func:gitlab_get_project_memeber_role(__page__, 'yjlou')", page) == "Guest"
    assert call_function("func:gitlab_get_project_memeber_role(__page__, 'byteblaze')", page) == "Owner"
    assert call_function("func:gitlab_get_project_memeber_role(__page__, 'nobody')", page) == ""


def test_order_page_helpers_read_the_items_table():
    page = StaticPage("http://h:7770/sales/order/view/order_id/180/", STORE_ORDER)
    names = call_function("func:shopping_get_order_product_name_list(__page__)", page)
    assert names.split(" |OR| ")[1] == "Cookie Dough Bars"
    assert names.startswith("Kellogg's Special K Protein Bars")
    assert call_function("func:shopping_get_order_product_quantity(__page__, 'B00MXUFL0E')", page) == "2"
    assert (
        call_function("func:shopping_get_order_product_quantity(__page__, 'X |OR| B07ZD2PB9F')", page) == "1"
    )
    assert call_function("func:shopping_get_order_product_quantity(__page__, 'NOPE')", page) == "0"
    assert (
        call_function("func:shopping_get_order_product_option(__page__, 'B00MXUFL0E', 'Size')", page)
        == "12 Count (Pack of 1)"
    )
    assert call_function("func:get_query_text_lowercase(__page__, '#order_status')", page) == "processing"


class FakeMagento(BaseHTTPRequestHandler):
    """Magento's token and order/review endpoints, with WebArena's admin account."""

    orders = [
        {"increment_id": "000000180", "created_at": "2023-05-01"},
        {"increment_id": "000000190", "created_at": "2023-06-01"},
    ]
    reviews = {
        "B00J8RZL7I": [
            {"nickname": "Old", "ratings": [{"rating_name": "Rating", "percent": 20}]},
            {
                "nickname": "Emma Lopez",
                "title": "Great",
                "detail": "Works well",
                "ratings": [{"rating_name": "Rating", "percent": 100}],
            },
        ]
    }

    def log_message(self, *args):  # keep test output clean
        pass

    def reply(self, status, payload):
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        credentials = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path == "/rest/default/V1/integration/admin/token" and credentials == {
            "username": "admin",
            "password": "admin1234",
        }:
            return self.reply(200, "secret-token")
        return self.reply(401, {"message": "bad credentials"})

    def do_GET(self):
        if self.headers.get("Authorization") != "Bearer secret-token":
            return self.reply(401, {"message": "unauthorized"})
        parts = urlsplit(self.path)
        if parts.path == "/rest/V1/orders":
            query = parse_qs(parts.query)
            newest_first = query["searchCriteria[sortOrders][0][direction]"] == ["DESC"]
            items = sorted(self.orders, key=lambda o: o["created_at"], reverse=newest_first)
            return self.reply(200, {"items": items[: int(query["searchCriteria[pageSize]"][0])]})
        if parts.path.startswith("/rest/V1/products/") and parts.path.endswith("/reviews"):
            return self.reply(200, self.reviews.get(parts.path.split("/")[4], []))
        return self.reply(404, {"message": "no route"})


@pytest.fixture
def store():
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeMagento)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def test_rest_helpers_query_the_store(store):
    page = StaticPage(f"{store}/checkout/onepage/success/", "<p>Thanks</p>", site_urls={"shopping": store})
    assert (
        call_function("func:shopping_get_latest_order_url()", page)
        == f"{store}/sales/order/view/order_id/190/"
    )
    assert call_function("func:shopping_get_sku_latest_review_author('B00J8RZL7I')", page) == "Emma Lopez"
    assert call_function("func:shopping_get_sku_latest_review_rating('B00J8RZL7I')", page) == "100"
    assert call_function("func:shopping_get_sku_latest_review_text('B00J8RZL7I')", page) == "Works well"
    assert call_function("func:shopping_get_sku_latest_review_rating('UNKNOWN')", page) == ""


def test_official_review_task_scores_through_the_rest_api(store, monkeypatch):
    monkeypatch.setenv("WA_SHOPPING", store)
    task = {
        "task_id": 585,
        "sites": ["shopping"],
        "start_url": "__SHOPPING__",
        "intent": "Rate the product",
        "eval": {
            "eval_types": ["program_html"],
            "reference_answers": None,
            "reference_url": "",
            "program_html": [
                {
                    "url": "last",
                    "locator": "func:shopping_get_sku_latest_review_rating('B00J8RZL7I')",
                    "required_contents": {"must_include": ["100"]},
                },
                {
                    "url": "last",
                    "locator": "func:shopping_get_sku_latest_review_author('B00J8RZL7I')",
                    "required_contents": {"must_include": ["Emma Lopez"]},
                },
            ],
        },
    }
    page = StaticPage(f"{store}/review/product/list/id/1", "<p>review saved</p>")  # no site_urls: environment
    assert evaluate(task, answer=None, page=page).reward == 1.0


def test_rest_helpers_say_what_is_missing(monkeypatch, world):
    for name in ("WA_SHOPPING", "SHOPPING"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(TaskDataError, match="WA_SHOPPING"):
        call_function("func:shopping_get_latest_order_url()", StaticPage("http://x/", ""))
    with pytest.raises(TaskDataError, match="embedded"):
        call_function("func:shopping_get_latest_order_url()", StaticPage("http://x/", "", world=world))


def test_a_store_that_does_not_answer_is_an_infrastructure_error():
    page = StaticPage("http://127.0.0.1:9/", "", site_urls={"shopping": "http://127.0.0.1:9"})
    with pytest.raises(SiteUnavailableError, match="WA_SHOPPING"):
        call_function("func:shopping_get_latest_order_url()", page)
