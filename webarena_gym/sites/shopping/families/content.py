"""Content-changing families: wish list, product reviews, buying, the address book."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator

from ....sites.shopping.phrases import PLACES, SECOND_LINES, STREET_NAMES, US_STATES
from ....sites.shopping.store import rating_percent
from ....tasks.families import TaskFamily, program_html_eval
from .common import (
    CHOICE_SEED,
    SHOPPING,
    category_names,
    category_parent,
    checkout_cart,
    checkout_product,
    emma_id,
    emma_items,
    every_listed_product,
    family,
    first_listed_product,
    kind_of,
    listed_products,
    month_phrase,
    open_category,
    open_listed_product,
    open_product,
    open_row_order,
    orders_in_month,
    pick,
    products_under,
    rows,
    sort_listing,
    viewed_items,
)

WISHLIST_LOCATOR = "document.querySelector('.products-grid.wishlist').outerText"
ORDER_ITEMS_LOCATOR = "document.querySelector('.order-details-items.ordered').outerText"

# -- Add a product to the wish list (literal URL) -----------------------------------------


def _wishlist_instances(conn):
    candidates = rows(conn, "SELECT name FROM products WHERE id NOT IN (SELECT product_id FROM wishlist_items) ORDER BY id")
    for product in pick(candidates, 20, salt=21):
        yield {"product": product["name"]}, program_html_eval((f"{SHOPPING}/wishlist/", WISHLIST_LOCATOR,
                                                     {"must_include": [product["name"]]}))


def _wishlist_solve(ctx) -> Iterator[str]:
    yield from open_product(ctx, ctx.instantiation["product"])
    yield ctx.click("Add to Wish List", tag="button", exact=True)
    yield ctx.exit("")


# -- Rate a recent purchase (url "last", func: locators) ----------------------------------

NICKNAMES = ("Emma Lopez", "EmmaL", "emma_shops", "Emma L.", "LopezFamily", "E. Lopez")


def _rate_instances(conn):
    bought = rows(conn, "SELECT i.name, i.sku, MAX(o.created_at) AS last FROM order_items i JOIN orders o ON o.id = i.order_id"
                        " WHERE o.customer_id = ? AND o.status = 'Complete' GROUP BY i.product_id"
                        " ORDER BY last DESC, i.product_id LIMIT 20", emma_id(conn))
    rng = random.Random(CHOICE_SEED + 23)
    for product in bought:
        stars, nickname = rng.randint(1, 5), rng.choice(NICKNAMES)
        locator = "func:shopping_latest_review_field(__page__, '{sku}', '{field}')"
        yield ({"product": product["name"], "num_star": stars, "nickname": nickname},
               program_html_eval(("last", locator.format(sku=product["sku"], field="rating"), {"must_include": [str(stars * 20)]}),
                       ("last", locator.format(sku=product["sku"], field="nickname"), {"must_include": [nickname]})))


def _rate_solve(ctx) -> Iterator[str]:
    stars = int(ctx.instantiation["num_star"])
    yield from open_product(ctx, ctx.instantiation["product"])
    yield ctx.check(f"{stars} star" + ("s" if stars != 1 else ""))
    yield ctx.type("Nickname", ctx.instantiation["nickname"])
    yield ctx.type("Summary", f"{stars} out of 5")
    yield ctx.type("Review", f"I give this purchase {stars} out of 5 stars.")
    yield ctx.click("Submit Review", tag="button", exact=True)
    yield ctx.exit("")


# -- Buy the cheapest product of a category (func: URL) -----------------------------------


def _cheapest_instances(conn):
    names = category_names(conn)
    latest = rows(conn, "SELECT id FROM orders WHERE customer_id = ? ORDER BY created_at DESC LIMIT 1", emma_id(conn))[0]
    already = {row["sku"] for row in rows(conn, "SELECT sku FROM order_items WHERE order_id = ?", latest["id"])}
    candidates = []
    for category in rows(conn, "SELECT id FROM categories ORDER BY id"):
        cheapest = rows(conn, "WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT c.id FROM categories c"
                              " JOIN tree ON c.parent_id = tree.id) SELECT sku, price FROM products"
                              " WHERE category_id IN (SELECT id FROM tree) ORDER BY price LIMIT 2", category["id"])
        if cheapest[0]["price"] < cheapest[1]["price"] and cheapest[0]["sku"] not in already:
            candidates.append((names[category["id"]][0], cheapest[0]["sku"]))
    for name, sku in pick(candidates, 20, salt=25):
        yield {"category": name}, program_html_eval(("func:shopping_latest_order_url()", ORDER_ITEMS_LOCATOR, {"must_include": [sku]}))


def _cheapest_solve(ctx) -> Iterator[str]:
    name = ctx.instantiation["category"]
    yield from open_category(ctx, name, category_parent(ctx, name))
    yield from sort_listing(ctx, "Price", "Ascending")
    yield ctx.click(first_listed_product(ctx), tag="a", exact=True)
    yield from checkout_product(ctx)
    yield ctx.exit("")


# -- Update the address after a move (literal URL, two targets) ---------------------------

STATE_CODES = {code: name for name, code in US_STATES}


def _address_instances(conn):
    rng = random.Random(CHOICE_SEED + 27)
    current = rows(conn, "SELECT street1 FROM addresses WHERE customer_id = ?", emma_id(conn))[0]["street1"]
    seen = {current}
    codes = {name: code for name, code in US_STATES}
    while len(seen) < 21:
        street = f"{rng.randint(10, 990)} {rng.choice(STREET_NAMES)}"
        if street in seen:
            continue
        seen.add(street)
        second = rng.choice(("",) + SECOND_LINES)
        city, state, postcode = rng.choice(PLACES)
        parts = [street] + ([second] if second else []) + [city, codes[state], postcode]
        required = {"must_include": [street] + ([second] if second else []) + [f"{city}, {state}, {postcode}"]}
        yield {"address": ", ".join(parts)}, program_html_eval(
            (f"{SHOPPING}/customer/address/", "document.querySelector('.box.box-address-billing > .box-content').outerText",
             required),
            (f"{SHOPPING}/customer/address/", "document.querySelector('.box.box-address-shipping > .box-content').outerText",
             required),
        )


def _address_solve(ctx) -> Iterator[str]:
    parts = [part.strip() for part in ctx.instantiation["address"].split(",")]
    street, second, (city, code, postcode) = parts[0], parts[1:-3], parts[-3:]
    yield ctx.click("My Account", tag="a", exact=True)
    yield ctx.click("Address Book", tag="a", exact=True)
    yield ctx.click("Change Billing Address", tag="a", exact=True)
    yield ctx.type("Street Address", street)
    yield ctx.type("Street Address: Line 2", second[0] if second else "")
    yield ctx.type("City", city)
    yield ctx.select("State/Province", STATE_CODES[code])
    yield ctx.type("Zip/Postal Code", postcode)
    yield ctx.click("Save Address", tag="button", exact=True)
    yield ctx.exit("")


# -- Reorder something cancelled in a month (func: URL) ------------------------------------


def latest_order_skus(conn) -> set[str]:
    """SKUs of Emma's newest order: a task whose answer is among them would be solved by doing nothing."""
    latest = rows(conn, "SELECT id FROM orders WHERE customer_id = ? ORDER BY created_at DESC LIMIT 1", emma_id(conn))[0]
    return {row["sku"] for row in rows(conn, "SELECT sku FROM order_items WHERE order_id = ?", latest["id"])}


def _reorder_instances(conn):
    already = latest_order_skus(conn)
    canceled = [i for i in emma_items(conn) if i["status"] == "Canceled"]
    by_month: dict[str, list[str]] = {}
    for item in canceled:
        by_month.setdefault(month_phrase(item["created_at"]), []).append(kind_of(item["name"], item["brand"]).lower())
    for item in canceled:
        kind, month = kind_of(item["name"], item["brand"]).lower(), month_phrase(item["created_at"])
        if by_month[month].count(kind) == 1 and item["sku"] not in already:
            yield ({"product": kind, "time": f"in {month}"},
                   program_html_eval(("func:shopping_latest_order_url()", ORDER_ITEMS_LOCATOR,
                                      {"must_include": [item["sku"]]})))


def _reorder_solve(ctx) -> Iterator[str]:
    kind = ctx.instantiation["product"]
    month = dt.datetime.strptime(ctx.instantiation["time"].removeprefix("in "), "%B %Y")
    candidates = yield from orders_in_month(ctx, month.year, month.month)
    for number, _date, _total, status in candidates:
        if status != "Canceled":
            continue
        yield from open_row_order(ctx, number)
        if any(kind in item["name"].lower() for item in viewed_items(ctx)):
            yield ctx.click("Reorder", tag="button", exact=True)
            yield from checkout_cart(ctx)
            yield ctx.exit("")
            return
        yield ctx.go_back()
    yield ctx.exit("N/A")


# -- Buy the highest rated product of a category within a budget (func: URL) ---------------

BUDGETS = ((0, 20), (10, 30), (20, 50), (25, 75), (50, 100), (100, 200), (0, 50), (30, 60), (0, 100), (100, 300))


def _budget_phrase(low: int, high: int) -> str:
    return f"under {high}" if low == 0 else f"between {low} and {high}"


def _top_rated_instances(conn):
    candidates = []
    for category in rows(conn, "SELECT id, name FROM categories ORDER BY id"):
        products = products_under(conn, category["id"])
        for low, high in BUDGETS:
            inside = [p for p in products if low * 100 <= p["price"] <= high * 100]
            if any(p["price"] in (low * 100, high * 100) for p in inside):
                continue  # a price on a bound: "between" would be ambiguous
            rated = sorted((rating_percent(p["rating_average"]), p["sku"]) for p in inside if p["review_count"])
            if len(rated) >= 2 and rated[-1][0] > rated[-2][0] and rated[-1][1] not in latest_order_skus(conn):
                candidates.append((category["name"], _budget_phrase(low, high), rated[-1][1]))
    seen = set()
    for name, budget, sku in pick(candidates, 40, salt=71):
        if name in seen:
            continue  # one budget per category keeps the instances about different shelves
        seen.add(name)
        yield ({"product_category": name, "dollar_value": budget},
               program_html_eval(("func:shopping_latest_order_url()", ORDER_ITEMS_LOCATOR, {"must_include": [sku]})))


def _top_rated_solve(ctx) -> Iterator[str]:
    name, budget = ctx.instantiation["product_category"], ctx.instantiation["dollar_value"]
    bounds = [int(n) for n in re.findall(r"\d+", budget)]
    low, high = (0, bounds[0]) if budget.startswith("under") else bounds
    yield from open_category(ctx, name, category_parent(ctx, name))
    if low:
        yield ctx.type("Min Price", str(low))
    yield ctx.type("Max Price", str(high))
    yield ctx.click("Apply", tag="button", exact=True)
    listed = yield from every_listed_product(ctx)
    page, best = max((entry for entry in listed if entry[1][1] is not None), key=lambda entry: entry[1][1])
    yield from open_listed_product(ctx, page, best[0], listed[-1][0])
    yield from checkout_product(ctx)
    yield ctx.exit("")


# -- Buy the best rated of a category with 5+ reviews, cheapest on a tie (func: URL) -------


def _well_reviewed_instances(conn):
    for category in pick(rows(conn, "SELECT id, name FROM categories ORDER BY id"), 24, salt=75):
        ranked = sorted((-rating_percent(p["rating_average"]), p["price"], p["sku"])
                        for p in products_under(conn, category["id"]) if p["review_count"] >= 5)
        if len(ranked) >= 2 and ranked[0][:2] != ranked[1][:2] and ranked[0][2] not in latest_order_skus(conn):
            yield ({"category": category["name"]},
                   program_html_eval(("func:shopping_latest_order_url()", ORDER_ITEMS_LOCATOR,
                                      {"must_include": [ranked[0][2]]})))


def _well_reviewed_solve(ctx) -> Iterator[str]:
    name = ctx.instantiation["category"]
    yield from open_category(ctx, name, category_parent(ctx, name))
    listed = yield from every_listed_product(ctx)
    page, best = min((entry for entry in listed if entry[1][2] >= 5), key=lambda entry: (-entry[1][1], entry[1][3]))
    yield from open_listed_product(ctx, page, best[0], listed[-1][0])
    yield from checkout_product(ctx)
    yield ctx.exit("")


# -- Add some kind of product to the wish list (literal URL, the kind's words) --------------


def _kind_wishlist_instances(conn):
    listed = " ".join(r["name"] for r in rows(conn, "SELECT p.name FROM wishlist_items w JOIN products p"
                                                     " ON p.id = w.product_id")).lower()
    kinds = []
    for product in rows(conn, "SELECT name, brand FROM products ORDER BY id"):
        kind = kind_of(product["name"], product["brand"]).lower()
        # whole words as the page's tokenizer sees them ("cross-cut" stays one word)
        words = [w for w in (w.strip(",.()") for w in kind.split()) if len(w) > 2 and w not in ("for", "and", "with")]
        if kind not in [k for k, _ in kinds] and not all(w in listed for w in words):
            kinds.append((kind, words))
    for kind, words in pick(kinds, 20, salt=73):
        yield {"product": kind}, program_html_eval((f"{SHOPPING}/wishlist/", WISHLIST_LOCATOR, {"must_include": words}))


def _kind_wishlist_solve(ctx) -> Iterator[str]:
    kind = ctx.instantiation["product"]
    yield ctx.search("Search", kind)
    yield ctx.click(next(p[0] for p in listed_products(ctx) if kind in p[0].lower()), tag="a", exact=True)
    yield ctx.click("Add to Wish List", tag="button", exact=True)
    yield ctx.exit("")


FAMILIES: list[TaskFamily] = [
    family("add_to_wishlist", "Add {{product}} to my wish list", "content", _wishlist_instances, _wishlist_solve),
    family("rate_purchase", "Rate my recent purchase of {{product}} with {{num_star}} stars, using my nickname {{nickname}}",
           "content", _rate_instances, _rate_solve),
    family("buy_cheapest_in_category", "Buy the cheapest product from the {{category}} category.", "content",
           _cheapest_instances, _cheapest_solve),
    family("update_address", "I recently moved, my address is {{address}}, update my information on OneStopShopping "
           "accordingly", "content", _address_instances, _address_solve),
    family("reorder_cancelled", "I previously ordered some {{product}} {{time}} and later cancelled. Can you reorder it "
           "for me?", "content", _reorder_instances, _reorder_solve),
    family("buy_top_rated_in_budget", "Buy the highest rated product from the {{product_category}} category within a "
           "budget {{dollar_value}}.", "content", _top_rated_instances, _top_rated_solve),
    family("buy_best_rated_well_reviewed", 'Buy the best rating product from "{{category}}" category with at least 5 '
           "reviews and the product is least expensive", "content", _well_reviewed_instances, _well_reviewed_solve),
    family("add_kind_to_wishlist", "Add a {{product}} to my wish list.", "content", _kind_wishlist_instances,
           _kind_wishlist_solve),
]
