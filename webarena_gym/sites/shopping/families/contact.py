"""Contact Us families: refund and coupon messages drafted in the store's contact form."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from ....tasks.families import TaskFamily, program_html_eval, url_match_eval
from .common import (
    SHOPPING,
    emma_items,
    family,
    kind_of,
    month_phrase,
    open_row_order,
    orders_in_month,
    pick,
    view_order,
    viewed_items,
)

COMMENT_LOCATOR = "document.querySelector('[title=\"What’s on your mind?\"]').value"
COMMENT_FIELD = "What’s on your mind?"


def _unique_kinds(conn, group_key) -> list[tuple[dict, str]]:
    """(item, kind) for Emma's bought items whose kind is the only one of its kind in its group."""
    items = [i for i in emma_items(conn) if i["status"] != "Canceled"]
    groups: dict[str, list[str]] = {}
    for item in items:
        groups.setdefault(group_key(item), []).append(kind_of(item["name"], item["brand"]).lower())
    found = []
    for item in items:
        kind = kind_of(item["name"], item["brand"]).lower()
        if groups[group_key(item)].count(kind) == 1:
            found.append((item, kind))
    return found


def _find_item(ctx, kind: str) -> dict | None:
    return next((item for item in viewed_items(ctx) if kind in item["name"].lower()), None)


# -- Draft a refund message for something bought in a month (program_html, url "last") -----


def _draft_instances(conn):
    seen = set()
    for item, kind in pick(_unique_kinds(conn, lambda i: month_phrase(i["created_at"])), 16, salt=51):
        month = month_phrase(item["created_at"])
        if (kind, month) in seen:
            continue
        seen.add((kind, month))
        amount = item["price"] * item["qty"] / 100
        yield {"product": kind, "time": month}, program_html_eval(
            ("last", COMMENT_LOCATOR, {"fuzzy_match": ["refund", "it broke after three days of use",
                                                      item["increment_id"], f"{amount:.2f}"]}))


def _draft_solve(ctx) -> Iterator[str]:
    kind = ctx.instantiation["product"]
    month = dt.datetime.strptime(ctx.instantiation["time"], "%B %Y")
    candidates = yield from orders_in_month(ctx, month.year, month.month)
    for number, _date, _total, status in candidates:
        if status == "Canceled":
            continue
        yield from open_row_order(ctx, number)
        item = _find_item(ctx, kind)
        if item is not None:
            yield ctx.click("Contact Us", tag="a", exact=True)
            yield ctx.type(COMMENT_FIELD, f"I would like a refund for the {kind} of order {number}: it broke after "
                                          f"three days of use. Please refund ${item['price'] * item['qty']:.2f}.")
            yield ctx.exit("")
            return
        yield ctx.go_back()
    yield ctx.exit("N/A")


# -- Fill the contact form for a refund, with the order number and SKU (url + program_html) --


def _sku_instances(conn):
    for item, kind in pick(_unique_kinds(conn, lambda i: i["increment_id"]), 16, salt=53):
        number = str(int(item["increment_id"]))
        yield {"product": kind, "order_id": number}, program_html_eval(
            ("last", COMMENT_LOCATOR, {"fuzzy_match": ["refund", "broke after three days of use", number, item["sku"]]}),
            reference_url=f"{SHOPPING}/contact", note="GOLD in PRED")


def _sku_solve(ctx) -> Iterator[str]:
    kind, number = ctx.instantiation["product"], ctx.instantiation["order_id"]
    yield from view_order(ctx, f"{int(number):09d}")
    item = _find_item(ctx, kind)
    yield ctx.click("Contact Us", tag="a", exact=True)
    yield ctx.type(COMMENT_FIELD, f"Please refund the {kind} of order #{number} (SKU {item['sku']}): it broke after "
                                  "three days of use, just three days.")
    yield ctx.exit("")


# -- Ask for a coupon through Contact Us (url_match) ---------------------------------------

COUPON_REASONS = (
    "my refund is supposed to be replaced by a coupon",
    "my order arrived two weeks late",
    "a product in my last order arrived damaged",
    "I have been a loyal customer for over a year",
    "the item I wanted went on sale right after I bought it",
    "my package was left at the wrong address",
    "the shop sent me the wrong size",
    "I was charged twice for the same order",
    "my order was missing an item",
    "the discount code in your newsletter did not work",
    "my birthday is next week",
    "the shipping took longer than promised",
)


def _coupon_instances(conn):
    for reason in COUPON_REASONS:
        yield {"reason": reason}, url_match_eval(f"{SHOPPING}/contact", "GOLD in PRED")


def _coupon_solve(ctx) -> Iterator[str]:
    yield ctx.click("Contact Us", tag="a", exact=True)
    yield ctx.type(COMMENT_FIELD, f"Hello, could you send me a coupon? The reason: {ctx.instantiation['reason']}.")
    yield ctx.exit("")


FAMILIES: list[TaskFamily] = [
    family("refund_message_draft", 'Draft a refund message via their "contact us" form for the {{product}} I bought '
           "{{time}}. It broke after three days of use. The shop requires the order id, the reason and the amount to "
           "refund in the message. Don't submit yet", "content", _draft_instances, _draft_solve),
    family("refund_message_with_sku", 'Fill the "contact us" form in the site for a refund on the {{product}} I bought, '
           "stating that it broke after just three days of use. Also, ensure to include the order number #{{order_id}} "
           "and the product SKU. Don't submit yet, I will check.", "content", _sku_instances, _sku_solve),
    family("coupon_request", "Draft an email to the shop owner via their contact us function for a coupon as {{reason}}",
           "navigation", _coupon_instances, _coupon_solve),
]
