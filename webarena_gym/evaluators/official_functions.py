"""The ``func:`` helpers that WebArena's task data names, for the real WebArena sites.

Two kinds, as in WebArena's evaluation harness:

- REST helpers ask the store's Magento API (admin token, then ``/rest/V1/...``) over HTTP
  at the configured shopping URL: ``shopping_get_latest_order_url``,
  ``shopping_get_sku_latest_review_author`` / ``_rating`` / ``_text`` / ``_title``.
- Page helpers read the current page through ``page.evaluate_locator`` (so they work in
  a real browser and on saved HTML alike): ``gitlab_get_project_memeber_role`` (sic, the
  data's spelling), ``shopping_get_order_product_name_list`` / ``_quantity`` / ``_option``,
  ``get_query_text`` / ``get_query_text_lowercase``; and ``reddit_get_post_url``, pure URL
  arithmetic.

The embedded sites have helpers of their own (``FUNCTIONS`` in ``webarena_gym/sites/<name>/families``);
these ones refuse to run on an embedded world rather than score against the wrong site.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlencode, urlparse

from ..backends.page import EvaluationPage
from ..errors import SiteUnavailableError, TaskDataError
from ..tasks.task import OR_SEPARATOR, alternatives_of
from ..webarena_sites import site_urls_from_environment
from .functions import register_function

#: WebArena's store administrator account (the same for the REST API).
SHOPPING_ADMIN_ACCOUNT = ("admin", "admin1234")
_TIMEOUT_S = 30


def _shopping_url(page: EvaluationPage | None, helper: str) -> str:
    if page is not None and page.world is not None:
        raise TaskDataError(
            f"func:{helper} queries the real WebArena store's REST API; it cannot score an embedded-site task."
        )
    urls = dict(page.site_urls) if page is not None else {}
    if "shopping" not in urls:
        urls = site_urls_from_environment()
    if "shopping" not in urls:
        raise TaskDataError(
            f"func:{helper} needs the store's URL: set WA_SHOPPING (e.g. http://localhost:7770)."
        )
    return urls["shopping"].rstrip("/")


def _request_json(url: str, *, data: dict[str, Any] | None = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = json.dumps(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, headers=headers, method="POST" if body else "GET")
    try:
        with urllib.request.urlopen(request, timeout=_TIMEOUT_S) as response:
            return json.loads(response.read().decode("utf-8"))
    except (urllib.error.URLError, TimeoutError, json.JSONDecodeError) as exc:
        raise SiteUnavailableError(
            f"The store's REST API at {url} did not answer ({exc}); check that the shopping site is up "
            "and WA_SHOPPING points at it."
        ) from exc


def shopping_admin_token(base_url: str) -> str:
    """An admin bearer token from Magento's integration endpoint."""
    username, password = SHOPPING_ADMIN_ACCOUNT
    return str(
        _request_json(
            f"{base_url}/rest/default/V1/integration/admin/token",
            data={"username": username, "password": password},
        )
    )


def latest_orders_query(base_url: str) -> str:
    """The REST URL of the most recently created order.

    >>> latest_orders_query("http://s")  # doctest: +ELLIPSIS
    'http://s/rest/V1/orders?searchCriteria%5BsortOrders%5D%5B0%5D%5Bfield%5D=created_at&...'
    """
    params = {
        "searchCriteria[sortOrders][0][field]": "created_at",
        "searchCriteria[sortOrders][0][direction]": "DESC",
        "searchCriteria[pageSize]": "1",
    }
    return f"{base_url}/rest/V1/orders?{urlencode(params)}"


def order_url_from_response(base_url: str, response: Any) -> str:
    """The customer-side URL of the order in a ``/rest/V1/orders`` answer.

    >>> order_url_from_response("http://s", {"items": [{"increment_id": "000000190"}]})
    'http://s/sales/order/view/order_id/190/'
    """
    items = response.get("items") if isinstance(response, dict) else None
    if not items:
        return ""
    return f"{base_url}/sales/order/view/order_id/{int(items[0]['increment_id'])}/"


def latest_review_field(reviews: Any, field: str) -> str:
    """A field of the newest review in a ``/rest/V1/products/{sku}/reviews`` answer ('' if none).

    ``rating`` is the first rating's percentage, as WebArena reads it.

    >>> latest_review_field([{"nickname": "a"}, {"nickname": "Emma", "ratings": [{"percent": 80}]}], "rating")
    '80'
    """
    if not isinstance(reviews, list) or not reviews:
        return ""
    latest = reviews[-1]
    if field == "rating":
        ratings = latest.get("ratings") or []
        return str(ratings[0]["percent"]) if ratings else ""
    return str(latest.get(field) or "")


@register_function("shopping_get_latest_order_url")
def shopping_get_latest_order_url(page: EvaluationPage | None) -> str:
    """URL of the store's newest order (the one the agent just placed)."""
    base = _shopping_url(page, "shopping_get_latest_order_url")
    token = shopping_admin_token(base)
    return order_url_from_response(base, _request_json(latest_orders_query(base), token=token))


def _latest_review(page: EvaluationPage | None, sku: str, field: str, helper: str) -> str:
    base = _shopping_url(page, helper)
    token = shopping_admin_token(base)
    return latest_review_field(_request_json(f"{base}/rest/V1/products/{sku}/reviews", token=token), field)


@register_function("shopping_get_sku_latest_review_author")
def shopping_get_sku_latest_review_author(page: EvaluationPage | None, sku: str) -> str:
    return _latest_review(page, sku, "nickname", "shopping_get_sku_latest_review_author")


@register_function("shopping_get_sku_latest_review_rating")
def shopping_get_sku_latest_review_rating(page: EvaluationPage | None, sku: str) -> str:
    return _latest_review(page, sku, "rating", "shopping_get_sku_latest_review_rating")


@register_function("shopping_get_sku_latest_review_text")
def shopping_get_sku_latest_review_text(page: EvaluationPage | None, sku: str) -> str:
    return _latest_review(page, sku, "detail", "shopping_get_sku_latest_review_text")


@register_function("shopping_get_sku_latest_review_title")
def shopping_get_sku_latest_review_title(page: EvaluationPage | None, sku: str) -> str:
    return _latest_review(page, sku, "title", "shopping_get_sku_latest_review_title")


@register_function("reddit_get_post_url")
def reddit_get_post_url(page: EvaluationPage | None, url: str) -> str:
    """The canonical URL of the forum post that ``url`` (a post or one of its comments) is in.

    >>> reddit_get_post_url(None, "http://127.0.0.1:9999/f/books/59421/a-title/comment/12")
    'http://127.0.0.1:9999/f/books/59421/'
    >>> reddit_get_post_url(None, "http://127.0.0.1:9999/forums")
    'http://127.0.0.1:9999/forums'
    """
    parts = urlparse(url)
    segments = parts.path.split("/")
    if len(segments) < 4 or segments[1] != "f":
        return url
    return f"{parts.scheme}://{parts.netloc}/f/{segments[2]}/{segments[3]}/"


def _js_string(text: str) -> str:
    return json.dumps(text)


@register_function("gitlab_get_project_memeber_role")
def gitlab_get_project_memeber_role(page: EvaluationPage, account_name: str) -> str:
    """The role shown for ``@account_name`` on a GitLab project's members page ('' if absent)."""
    accounts = page.evaluate_locator(
        "[...document.querySelectorAll(\"td[data-label='Account'] span.gl-avatar-labeled-sublabel\")]"
        ".map(e => e.outerText).join('\\n')"
    )
    names = accounts.split("\n") if accounts else []
    if f"@{account_name}" not in names:
        return ""
    index = names.index(f"@{account_name}")
    return page.evaluate_locator(f'document.querySelectorAll("td.col-max-role span")[{index}].outerText')


def _order_cells(page: EvaluationPage, kind: str) -> list[str]:
    """The texts of one column (``name``, ``sku``, ``qty``...) of a customer order's item table."""
    text = page.evaluate_locator(
        f"[...document.querySelectorAll('#my-orders-table tbody td.{kind}')].map(e => e.outerText).join('\\u0001')"
    )
    return text.split("\u0001") if text else []


@register_function("shopping_get_order_product_name_list")
def shopping_get_order_product_name_list(page: EvaluationPage) -> str:
    """Names of the products on an order page, as ``" |OR| "`` alternatives."""
    return OR_SEPARATOR.join(_order_cells(page, "name"))


@register_function("shopping_get_order_product_quantity")
def shopping_get_order_product_quantity(page: EvaluationPage, sku: str) -> str:
    """Ordered quantity of ``sku`` (which may list ``" |OR| "`` alternatives) on an order page; "0" if absent."""
    wanted = alternatives_of(sku)
    for product_sku, quantity in zip(_order_cells(page, "sku"), _order_cells(page, "qty"), strict=False):
        if product_sku.strip() in wanted:
            digits = "".join(c for c in quantity if c.isdigit())
            return digits or "0"
    return "0"


@register_function("shopping_get_order_product_option")
def shopping_get_order_product_option(page: EvaluationPage, sku: str, option_name: str) -> str:
    """The value of an option (e.g. ``Size``) of ``sku`` on an order page ('' if absent)."""
    for index, product_sku in enumerate(_order_cells(page, "sku")):
        if product_sku.strip() != sku:
            continue
        pairs = page.evaluate_locator(
            f"[...document.querySelectorAll('#my-orders-table tbody td.name')[{index}].querySelectorAll('dl > *')]"
            ".map(e => e.outerText).join('\\u0001')"
        ).split("\u0001")
        options = dict(zip(pairs[0::2], pairs[1::2], strict=False))
        return options.get(option_name, "")
    return ""


@register_function("get_query_text")
def get_query_text(page: EvaluationPage, selector: str) -> str:
    """``textContent`` of the first element matching a CSS selector ('' if none)."""
    return page.evaluate_locator(f"document.querySelector({_js_string(selector)}).textContent")


@register_function("get_query_text_lowercase")
def get_query_text_lowercase(page: EvaluationPage, selector: str) -> str:
    return get_query_text(page, selector).lower()
