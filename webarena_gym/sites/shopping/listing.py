"""Product lists: layered navigation (price and brand filters), sorting and pagination.

Query parameters are Magento's: ``product_list_order`` (position, name, price; relevance
on search pages), ``product_list_dir`` (asc, desc), ``price`` (``10-20`` in dollars,
``100-`` for open-ended), ``brand`` and ``p`` (page) and ``limit`` (products per page: 12 or 24). URLs keep the parameters in one
fixed order so the same list always has the same address.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

PER_PAGE = 12
PAGE_SIZES = (12, 24)
PARAM_ORDER = ("q", "product_list_order", "product_list_dir", "price", "brand", "limit", "p")
SORT_LABELS = {"relevance": "Relevance", "position": "Position", "name": "Product Name", "price": "Price"}


@dataclass
class Listing:
    """One page of a product list and everything its toolbar and filters show."""

    items: list[dict[str, Any]]
    total: int
    page: int
    pages: int
    order: str
    direction: str
    sort_options: list[tuple[str, str]]
    params: dict[str, str]
    base: str
    price_filter: str | None = None
    brand_filter: str | None = None
    price_options: list[tuple[str, str, int]] = field(default_factory=list)
    brand_options: list[tuple[str, int]] = field(default_factory=list)
    per_page: int = PER_PAGE

    @property
    def first(self) -> int:
        return 0 if not self.total else (self.page - 1) * self.per_page + 1

    @property
    def last(self) -> int:
        return min(self.total, self.page * self.per_page)

    @property
    def page_sizes(self) -> tuple[int, ...]:
        return PAGE_SIZES

    @property
    def other_direction(self) -> str:
        return "desc" if self.direction == "asc" else "asc"

    @property
    def direction_url(self) -> str:
        """This list in the other direction (from its first page)."""
        return self.url(p=None, product_list_dir=self.other_direction)

    @property
    def limit_fields(self) -> list[tuple[str, str]]:
        """Parameters the per-page form keeps (all but the page and the limit itself)."""
        return [(key, self.params[key]) for key in PARAM_ORDER if self.params.get(key) and key not in ("limit", "p")]

    def url(self, **changes: str | int | None) -> str:
        """This list's URL with some parameters changed (None removes one)."""
        params = dict(self.params)
        for key, value in changes.items():
            if value is None:
                params.pop(key, None)
            else:
                params[key] = str(value)
        query = [(key, params[key]) for key in PARAM_ORDER if params.get(key)]
        return self.base + ("?" + urlencode(query) if query else "")

    def page_url(self, number: int) -> str:
        return self.url(p=number if number > 1 else None)

    def filter_url(self, **changes: str | None) -> str:
        """URL after changing a filter (back to the first page)."""
        return self.url(p=None, **changes)

    @property
    def price_label(self) -> str:
        return price_range_label(self.price_filter) if self.price_filter else ""

    @property
    def hidden_fields(self) -> list[tuple[str, str]]:
        """Parameters the sort form must carry along (the search query, the filters)."""
        return [(key, self.params[key]) for key in ("q",) if self.params.get(key)]

    @property
    def range_fields(self) -> list[tuple[str, str]]:
        """Parameters the Min/Max price form keeps (the query, the sort order, the brand)."""
        keep = ("q", "product_list_order", "product_list_dir", "brand", "limit")
        return [(key, self.params[key]) for key in keep if self.params.get(key)]

    @property
    def trailing_fields(self) -> list[tuple[str, str]]:
        return [(key, self.params[key]) for key in ("price", "brand", "limit") if self.params.get(key)]


def parse_price(value: str | None) -> tuple[int, int | None] | None:
    """``"10-20"`` -> (1000, 2000) in cents; ``"100-"`` -> (10000, None); None when malformed."""
    if not value or "-" not in value:
        return None
    low, _, high = value.partition("-")
    try:
        return int(float(low) * 100), (int(float(high) * 100) if high else None)
    except ValueError:
        return None


def _amount(raw: str | None) -> float | None:
    try:
        value = float((raw or "").strip().lstrip("$"))
    except ValueError:
        return None
    return value if value >= 0 else None


def _plain(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}"


def custom_price_url(args: Any, base: str) -> str | None:
    """Where the Min/Max price form leads: the list filtered by ``price=low-high`` (None when not submitted)."""
    if "price_from" not in args and "price_to" not in args:
        return None
    low, high = _amount(args.get("price_from")), _amount(args.get("price_to"))
    params = {key: args[key] for key in PARAM_ORDER if args.get(key) and key not in ("price", "p")}
    if low is not None or high is not None:
        params["price"] = f"{_plain(low or 0)}-{_plain(high) if high is not None else ''}"
    query = [(key, params[key]) for key in PARAM_ORDER if params.get(key)]
    return base + ("?" + urlencode(query) if query else "")


def price_range_label(value: str) -> str:
    bounds = parse_price(value)
    if bounds is None:
        return value
    low, high = bounds
    if high is None:
        return f"${low / 100:,.2f} and above"
    return f"${low / 100:,.2f} - ${(high - 1) / 100:,.2f}"


def _price_buckets(items: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    """Magento-style ranges: a power-of-ten step chosen from the highest price."""
    if not items:
        return []
    highest = max(item["price"] for item in items) / 100
    # the widest round step that still gives four ranges (ten dollars at least)
    step = next((s for s in (1000, 500, 250, 200, 100, 50, 25, 20) if highest / s >= 4), 10)
    counts = Counter(int(item["price"] / 100 // step) for item in items)
    buckets = []
    for index in sorted(counts):
        value = f"{index * step}-{(index + 1) * step}"
        buckets.append((price_range_label(value), value, counts[index]))
    return buckets


def _sort_key(order: str):
    if order == "name":
        return lambda item: (item["name"].lower(), item["id"])
    if order == "price":
        return lambda item: (item["price"], item["name"].lower(), item["id"])
    if order == "relevance":
        return lambda item: (-item.get("relevance", 0), item["category_position"], item["position"], item["id"])
    return lambda item: (item["category_position"], item["position"], item["id"])


def build_listing(items: list[dict[str, Any]], args: Any, base: str, *, search: bool = False) -> Listing:
    """Filter, sort and paginate ``items`` by the request's query ``args``."""
    default_order = "relevance" if search else "position"
    orders = ["relevance", "name", "price"] if search else ["position", "name", "price"]
    order = args.get("product_list_order") if args.get("product_list_order") in orders else default_order
    direction = "desc" if args.get("product_list_dir") == "desc" else "asc"
    if search and order == "relevance" and not args.get("product_list_dir"):
        direction = "desc"  # most relevant first
    params = {key: args.get(key, "") for key in PARAM_ORDER if args.get(key)}

    price_filter = args.get("price") if parse_price(args.get("price")) else None
    brand_filter = args.get("brand") or None
    shown = items
    if price_filter:
        low, high = parse_price(price_filter)
        shown = [i for i in shown if i["price"] >= low and (high is None or i["price"] < high)]
    if brand_filter:
        shown = [i for i in shown if i["brand"] == brand_filter]

    key = _sort_key(order)
    if order == "relevance":
        ranked = sorted(shown, key=key) if direction == "desc" else sorted(shown, key=key, reverse=True)
    else:
        ranked = sorted(shown, key=key, reverse=direction == "desc")
    per_page = int(args.get("limit")) if args.get("limit") in {str(size) for size in PAGE_SIZES} else PER_PAGE
    if per_page == PER_PAGE:
        params.pop("limit", None)  # the default size keeps the list's plain address
    pages = max(1, math.ceil(len(ranked) / per_page))
    try:
        page = min(max(1, int(args.get("p", 1))), pages)
    except ValueError:
        page = 1
    brands = Counter(i["brand"] for i in shown)
    return Listing(
        items=ranked[(page - 1) * per_page : page * per_page],
        total=len(ranked),
        page=page,
        pages=pages,
        order=order,
        direction=direction,
        sort_options=[(value, SORT_LABELS[value]) for value in orders],
        params=params,
        base=base,
        price_filter=price_filter,
        brand_filter=brand_filter,
        price_options=[] if price_filter else _price_buckets(shown),
        brand_options=[] if brand_filter else sorted(brands.items()),
        per_page=per_page,
    )
