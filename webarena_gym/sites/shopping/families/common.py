"""Shared pieces of the store's task families: task dicts, queries, func helpers, oracle steps."""

from __future__ import annotations

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
