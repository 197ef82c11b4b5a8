"""Shared pieces of the store's task families: task dicts, queries, func helpers, oracle steps."""

from __future__ import annotations

import datetime as dt
import random
import re
import sqlite3
from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from ....sites.shopping.data import DEFAULT_EMAIL
from ....tasks.families import single_site_family, string_match_eval

if TYPE_CHECKING:
    from ....tasks.oracle import OracleContext

SHOPPING = "__SHOPPING__"
#: Fixed seed for choosing which instances a family lists (deterministic across runs).
CHOICE_SEED = 7771

# -- task dicts --------------------------------------------------------------------------


#: ``family(name, template, kind, instances, solve)``: a store family; ``instances(conn)`` yields
#: (instantiation, eval[, start_url]).
family = partial(single_site_family, "shopping", start_url=SHOPPING)
#: The store's string_match evals carry an empty ``string_note``.
answer = partial(string_match_eval, string_note="")


# -- queries -----------------------------------------------------------------------------


def rows(conn: sqlite3.Connection, sql: str, *args: Any) -> list[sqlite3.Row]:
    """Rows as ``sqlite3.Row`` without touching the shared connection's row factory."""
    cursor = conn.cursor()
    cursor.row_factory = sqlite3.Row
    return cursor.execute(sql, args).fetchall()


def emma_id(conn: sqlite3.Connection) -> int:
    return rows(conn, "SELECT id FROM customers WHERE email = ?", DEFAULT_EMAIL)[0]["id"]


def pick(items: list[Any], count: int, salt: int = 0) -> list[Any]:
    """A deterministic sample of ``count`` items, kept in their original order."""
    if len(items) <= count:
        return list(items)
    chosen = set(random.Random(CHOICE_SEED + salt).sample(range(len(items)), count))
    return [item for index, item in enumerate(items) if index in chosen]


def category_names(conn: sqlite3.Connection) -> dict[int, tuple[str, str | None]]:
    """Category id -> (its name, its parent's name or None)."""
    found = rows(conn, "SELECT c.id, c.name, p.name AS parent FROM categories c LEFT JOIN categories p ON p.id = c.parent_id")
    return {row["id"]: (row["name"], row["parent"]) for row in found}


# -- func: helpers for program_html --------------------------------------------------------


def _store(page: Any) -> sqlite3.Connection:
    if page is None or page.world is None:
        raise ValueError("this helper reads the embedded store; use the official shopping helpers on the real site")
    return page.world.connection("shopping")


def latest_order_url(page: Any) -> str:
    """URL of Emma Lopez's newest order (the one the agent just placed)."""
    conn = _store(page)
    order = conn.execute(
        "SELECT o.id FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.email = ?"
        " ORDER BY o.created_at DESC, o.id DESC LIMIT 1",
        (DEFAULT_EMAIL,),
    ).fetchone()
    base = page.site_urls.get("shopping", "").rstrip("/")
    return f"{base}/sales/order/view/order_id/{order[0]}/" if order else ""


def latest_review_field(page: Any, sku: str, field: str) -> str:
    """A field of a product's newest review: ``rating`` (as a percentage), ``nickname``, ``summary``, ``body``."""
    if field not in ("rating", "nickname", "summary", "body"):
        raise ValueError(f"unknown review field {field!r}")
    review = _store(page).execute(
        f"SELECT r.{field} FROM reviews r JOIN products p ON p.id = r.product_id WHERE p.sku = ?"
        " ORDER BY r.created_at DESC, r.id DESC LIMIT 1",
        (sku,),
    ).fetchone()
    if review is None:
        return ""
    return str(review[0] * 20) if field == "rating" else str(review[0])


# -- oracle steps --------------------------------------------------------------------------


def open_product(ctx: OracleContext, name: str) -> Iterator[str]:
    """Search the store for a product by name and open its page."""
    yield ctx.search("Search", name)
    yield ctx.click(name, tag="a", exact=True)


def category_parent(ctx: OracleContext, name: str) -> str | None:
    """The category's parent, read from the home page's Shop by Category list."""
    match = re.search(r"<li><a id=\"\d+\">([^<]+)</a>\s*<ul>((?:(?!</ul>).)*?<a id=\"\d+\">" + re.escape(name) + "</a>)",
                      ctx.page.text, re.DOTALL)
    return match.group(1) if match else None


def open_category(ctx: OracleContext, name: str, parent: str | None) -> Iterator[str]:
    """Top category from the menu, then the subcategory from the sidebar."""
    yield ctx.click(parent or name, tag="a", exact=True)
    if parent:
        yield ctx.click(name, tag="a", exact=True)


def open_order_history(ctx: OracleContext) -> Iterator[str]:
    yield ctx.click("My Account", tag="a", exact=True)
    yield ctx.click("My Orders", tag="a", exact=True)


def order_rows(ctx: OracleContext) -> list[tuple[str, str, str, str]]:
    """(order number, date, total, status) of each row of the order history on screen."""
    cells = r"<td>([^<]*)</td>\s*"
    return [(m[0], m[1], m[3], m[4]) for m in re.findall(r"<tr>" + cells * 5, ctx.page.text)]


def has_next_page(ctx: OracleContext) -> bool:
    return bool(ctx.find_all("Next", tag="a", exact=True))


def shown_prices(ctx: OracleContext) -> list[float]:
    """Prices of the listed products (a price alone on its line; filter ranges are links)."""
    return [float(p.replace(",", "")) for p in re.findall(r"^\$([\d,]+\.\d\d)$", ctx.page.text, re.MULTILINE)]


def first_listed_product(ctx: OracleContext) -> str:
    """The link text of the first product in the list on screen."""
    match = re.search(r"<ol>\s*<li><a id=\"\d+\">([^<]+)</a>", ctx.page.text)
    if match is None:
        from ....tasks.oracle import OracleError

        raise OracleError(f"No product list on {ctx.url}")
    return match.group(1)


# -- order history: queries and oracle steps ------------------------------------------------

#: "Today" in the store's WebArena tasks (the seeded orders end in May 2023).
TODAY = dt.date(2023, 6, 12)


def kind_of(name: str, brand: str) -> str:
    """What a product is, without brand and pack size: ``Deep Conditioning Hair Mask``."""
    return name[len(brand):].split(",")[0].strip() if name.startswith(brand) else name.split(",")[0].strip()


def emma_orders(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """Emma Lopez's orders, oldest first."""
    return rows(conn, "SELECT * FROM orders WHERE customer_id = ? ORDER BY created_at, id", emma_id(conn))


def emma_items(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """Every line of Emma Lopez's orders with its order's number, date and status and the product's brand."""
    return rows(conn, "SELECT i.*, o.increment_id, o.created_at, o.status, p.brand FROM order_items i"
                      " JOIN orders o ON o.id = i.order_id JOIN products p ON p.id = i.product_id"
                      " WHERE o.customer_id = ? ORDER BY o.created_at, i.id", emma_id(conn))


def month_phrase(created_at: str) -> str:
    """``March 2023`` from a timestamp."""
    return dt.datetime.fromisoformat(created_at).strftime("%B %Y")


def row_date(date: str) -> dt.date:
    """The date of an order history row (``3/25/23``)."""
    month, day, year = (int(part) for part in date.split("/"))
    return dt.date(2000 + year, month, day)


def all_order_rows(ctx: OracleContext) -> Iterator[str]:
    """Open My Orders and read every page of it; returns (generator value) the rows, newest first."""
    yield from open_order_history(ctx)
    found = list(order_rows(ctx))
    while has_next_page(ctx):
        yield ctx.click("Next", tag="a", exact=True)
        found += order_rows(ctx)
    return found


def view_order(ctx: OracleContext, number: str) -> Iterator[str]:
    """From any page: My Orders, the page listing order ``number``, and that order's view."""
    yield from open_order_history(ctx)
    while not any(row[0] == number for row in order_rows(ctx)):
        yield ctx.click("Next", tag="a", exact=True)
    yield ctx.click(f"View Order {number}", tag="a")


def viewed_items(ctx: OracleContext) -> list[dict[str, Any]]:
    """The lines of the order on screen: name, options (dict), sku, price (float) and qty."""
    found = []
    pattern = r"<tr><td>(.*?)</td>\s*<td>(\w+)</td>\s*<td>\$([\d,]+\.\d\d)</td>\s*<td>Ordered: (\d+)</td>"
    for cell, sku, price, qty in re.findall(pattern, ctx.page.text, re.DOTALL):
        options = dict(re.findall(r"<dt>([^<]*)</dt>\s*<dd>([^<]*)</dd>", cell))
        found.append({"name": cell.split("<")[0].strip(), "options": options, "sku": sku,
                      "price": float(price.replace(",", "")), "qty": int(qty)})
    return found


def dollars(amount: float) -> str:
    """``1,234.56`` without the dollar sign."""
    return f"{amount:,.2f}"


def listed_products(ctx: OracleContext) -> list[tuple[str, int | None, int, float]]:
    """(name, rating percent or None, review count, price) of each product in the list on screen."""
    pattern = (r"<li><a id=\"\d+\">([^<]+)</a>\s*(?:Rating: (\d+)% <a id=\"\d+\">(\d+) Reviews?</a>\s*)?"
               r"\$([\d,]+\.\d\d)")
    return [(name, int(rating) if rating else None, int(count or 0), float(price.replace(",", "")))
            for name, rating, count, price in re.findall(pattern, ctx.page.text)]


def products_under(conn: sqlite3.Connection, category_id: int) -> list[sqlite3.Row]:
    """Products of a category and its descendants, with their review count and average rating."""
    return rows(conn, "WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT c.id FROM categories c"
                      " JOIN tree ON c.parent_id = tree.id) SELECT p.*, (SELECT COUNT(*) FROM reviews r"
                      " WHERE r.product_id = p.id) AS review_count, (SELECT AVG(rating) FROM reviews r"
                      " WHERE r.product_id = p.id) AS rating_average FROM products p"
                      " WHERE p.category_id IN (SELECT id FROM tree) ORDER BY p.id", category_id)


def checkout_product(ctx: OracleContext) -> Iterator[str]:
    """On a product page: choose the first value of every option, add to cart, check out and place the order."""
    yield from choose_options(ctx)
    yield from checkout_cart(ctx, add=True)


def choose_options(ctx: OracleContext) -> Iterator[str]:
    """On a product page: pick the first swatch of every option (each pick re-renders the page)."""
    done: set[str] = set()
    while True:
        swatches = [e for e in ctx.elements if e.tag == "a" and e.attributes.get("role") == "radio"
                    and e.label.split(": ", 1)[0] not in done]
        if not swatches:
            return
        done.add(swatches[0].label.split(": ", 1)[0])
        yield ctx.click_element(swatches[0])


def checkout_cart(ctx: OracleContext, add: bool = False) -> Iterator[str]:
    """(Add to cart,) open the cart, check out with the saved address and place the order."""
    if add:
        yield ctx.click("Add to Cart", tag="button", exact=True)
        yield ctx.click("My Cart", tag="a")
    yield ctx.click("Proceed to Checkout", tag="a", exact=True)
    yield ctx.click("Next", tag="button", exact=True)
    yield ctx.click("Place Order", tag="button", exact=True)


def orders_in_month(ctx: OracleContext, year: int, month: int) -> Iterator[str]:
    """Open My Orders and page through the rows of a month; returns (generator value) those rows."""
    yield from open_order_history(ctx)
    found = []
    while True:
        found += [row for row in order_rows(ctx) if (row_date(row[1]).year, row_date(row[1]).month) == (year, month)]
        if any(row_date(row[1]) < dt.date(year, month, 1) for row in order_rows(ctx)) or not has_next_page(ctx):
            return found
        yield ctx.click("Next", tag="a", exact=True)


def open_row_order(ctx: OracleContext, number: str) -> Iterator[str]:
    """View an order from the history page on screen, or through My Orders when it is on another page."""
    if any(row[0] == number for row in order_rows(ctx)):
        yield ctx.click(f"View Order {number}", tag="a")
    else:
        yield from view_order(ctx, number)


def every_listed_product(ctx: OracleContext) -> Iterator[str]:
    """Read every page of the product list on screen (24 a page); returns (generator value) (page, product) pairs."""
    if has_next_page(ctx):
        yield ctx.select("Show", "24")
        yield ctx.click("Go", tag="button", exact=True)
    page, found = 1, [(1, product) for product in listed_products(ctx)]
    while has_next_page(ctx):
        yield ctx.click("Next", tag="a", exact=True)
        page += 1
        found += [(page, product) for product in listed_products(ctx)]
    return found


def open_listed_product(ctx: OracleContext, page: int, name: str, last_page: int) -> Iterator[str]:
    """Open a product of a paginated list, going back to its page first (the reader is on ``last_page``)."""
    if page != last_page:
        yield ctx.click(str(page), tag="a", exact=True)
    yield ctx.click(name, tag="a", exact=True)


def sort_listing(ctx: OracleContext, order: str, direction: str) -> Iterator[str]:
    """Sort the product list on screen: the Sort By select, then the direction arrow when it points the other way.

    ``order`` is the select's option (``Price``); ``direction`` is ``Ascending`` or ``Descending``.
    """
    yield ctx.select("Sort By", order)
    yield ctx.click("Sort", tag="button", exact=True)
    if ctx.find_all(f"Set {direction} Direction", tag="a", exact=True):
        yield ctx.click(f"Set {direction} Direction", tag="a", exact=True)
