"""Content-changing families: wish list, product reviews, buying, the address book."""

from __future__ import annotations

import random
from collections.abc import Iterator

from ....sites.shopping.phrases import PLACES, SECOND_LINES, STREET_NAMES, US_STATES
from ....tasks.families import TaskFamily, program_html_eval
from .common import (
    CHOICE_SEED,
    SHOPPING,
    category_names,
    category_parent,
    emma_id,
    family,
    first_listed_product,
    open_category,
    open_product,
    pick,
    rows,
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
    yield ctx.select("Sort By", "Price")
    yield ctx.select("Direction", "Ascending")
    yield ctx.click("Sort", tag="button", exact=True)
    yield ctx.click(first_listed_product(ctx), tag="a", exact=True)
    for select in [e for e in ctx.elements if e.tag == "select" and e.options[:1] == ("Choose an Option...",)]:
        yield ctx.select(select.label, select.options[1])
    yield ctx.click("Add to Cart", tag="button", exact=True)
    yield ctx.click("My Cart", tag="a")
    yield ctx.click("Proceed to Checkout", tag="a", exact=True)
    yield ctx.click("Next", tag="button", exact=True)
    yield ctx.click("Place Order", tag="button", exact=True)
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


FAMILIES: list[TaskFamily] = [
    family("add_to_wishlist", "Add {{product}} to my wish list", "content", _wishlist_instances, _wishlist_solve),
    family("rate_purchase", "Rate my recent purchase of {{product}} with {{num_star}} stars, using my nickname {{nickname}}",
           "content", _rate_instances, _rate_solve),
    family("buy_cheapest_in_category", "Buy the cheapest product from the {{category}} category.", "content",
           _cheapest_instances, _cheapest_solve),
    family("update_address", "I recently moved, my address is {{address}}, update my information on OneStopShopping "
           "accordingly", "content", _address_instances, _address_solve),
]
