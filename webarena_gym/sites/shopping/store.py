"""Queries and formatting shared by the store's views."""

from __future__ import annotations

import datetime as dt
import sqlite3
from typing import Any

from flask import abort

from ..webapp import current_user, db

LOGIN_PATH = "/customer/account/login/"


def money(cents: int | None) -> str:
    """``$1,234.56`` from cents."""
    return f"${(cents or 0) / 100:,.2f}"


def short_date(value: str) -> str:
    """Magento's list date, ``3/11/23``."""
    moment = dt.datetime.fromisoformat(value)
    return f"{moment.month}/{moment.day}/{moment.strftime('%y')}"


def long_date(value: str) -> str:
    """``March 11, 2023``."""
    moment = dt.datetime.fromisoformat(value)
    return f"{moment.strftime('%B')} {moment.day}, {moment.year}"


def customer() -> sqlite3.Row | None:
    """The logged-in customer's row, or None."""
    email = current_user()
    if email is None:
        return None
    return db().execute("SELECT * FROM customers WHERE email = ?", (email,)).fetchone()


def require_customer() -> sqlite3.Row:
    """The logged-in customer (views behind ``login_required`` only); 403 if the account vanished."""
    row = customer()
    if row is None:
        abort(403)
    return row


def top_categories() -> list[sqlite3.Row]:
    return db().execute("SELECT * FROM categories WHERE parent_id IS NULL ORDER BY position").fetchall()


def child_categories(category_id: int) -> list[sqlite3.Row]:
    return db().execute("SELECT * FROM categories WHERE parent_id = ? ORDER BY position", (category_id,)).fetchall()


def category_trail(category_id: int) -> list[sqlite3.Row]:
    """The category and its ancestors, root first (for breadcrumbs)."""
    trail = []
    current = db().execute("SELECT * FROM categories WHERE id = ?", (category_id,)).fetchone()
    while current is not None:
        trail.insert(0, current)
        if current["parent_id"] is None:
            break
        current = db().execute("SELECT * FROM categories WHERE id = ?", (current["parent_id"],)).fetchone()
    return trail


PRODUCT_COLUMNS = """p.*, c.position AS category_position,
    (SELECT COUNT(*) FROM reviews r WHERE r.product_id = p.id) AS review_count,
    (SELECT AVG(rating) FROM reviews r WHERE r.product_id = p.id) AS rating_average,
    (SELECT COUNT(*) FROM product_options o WHERE o.product_id = p.id) AS option_count"""


def products_in_category(category_id: int) -> list[dict[str, Any]]:
    """Products of a category and of all its descendants (Magento's anchor categories)."""
    rows = db().execute(
        f"""WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT c.id FROM categories c JOIN tree ON c.parent_id = tree.id)
            SELECT {PRODUCT_COLUMNS} FROM products p JOIN categories c ON c.id = p.category_id
            WHERE p.category_id IN (SELECT id FROM tree)""",
        (category_id,),
    ).fetchall()
    return [dict(row) for row in rows]


def most_reviewed_products(limit: int) -> list[dict[str, Any]]:
    """The ``limit`` products with the most reviews (ties: lowest id first), as ``all_products`` sorted so would
    give them, without computing every product's columns."""
    rows = db().execute(
        f"""SELECT {PRODUCT_COLUMNS} FROM products p JOIN categories c ON c.id = p.category_id
            WHERE p.id IN (SELECT product_id FROM reviews GROUP BY product_id ORDER BY COUNT(*) DESC, product_id
                           LIMIT ?)""", (limit,)).fetchall()
    products = sorted((dict(row) for row in rows), key=lambda p: (-p["review_count"], p["id"]))
    if len(products) < limit:  # fewer reviewed products than asked: the unreviewed ones by id
        rest = db().execute(
            f"""SELECT {PRODUCT_COLUMNS} FROM products p JOIN categories c ON c.id = p.category_id
                WHERE p.id NOT IN (SELECT product_id FROM reviews) ORDER BY p.id LIMIT ?""",
            (limit - len(products),)).fetchall()
        products += [dict(row) for row in rest]
    return products


def all_products() -> list[dict[str, Any]]:
    rows = db().execute(f"SELECT {PRODUCT_COLUMNS} FROM products p JOIN categories c ON c.id = p.category_id").fetchall()
    return [dict(row) for row in rows]


def rating_percent(average: float | None) -> int | None:
    """Magento's rating summary: the average of 1-5 stars as a percentage."""
    return None if average is None else round(average * 20)


def product_options(product_id: int) -> list[tuple[str, list[str]]]:
    rows = db().execute(
        "SELECT name, choices FROM product_options WHERE product_id = ? ORDER BY position", (product_id,)
    ).fetchall()
    return [(row["name"], row["choices"].split("\n")) for row in rows]


def default_address(customer_id: int, kind: str = "billing") -> sqlite3.Row | None:
    column = "is_default_billing" if kind == "billing" else "is_default_shipping"
    return db().execute(
        f"SELECT * FROM addresses WHERE customer_id = ? AND {column} = 1 ORDER BY id LIMIT 1", (customer_id,)
    ).fetchone()


def cart_lines(customer_id: int) -> list[dict[str, Any]]:
    rows = db().execute(
        "SELECT ci.*, p.name, p.sku, p.price, p.url_key FROM cart_items ci JOIN products p ON p.id = ci.product_id"
        " WHERE ci.customer_id = ? ORDER BY ci.id",
        (customer_id,),
    ).fetchall()
    return [dict(row, row_total=row["price"] * row["qty"]) for row in rows]


def cart_count(customer_id: int) -> int:
    row = db().execute("SELECT COALESCE(SUM(qty), 0) FROM cart_items WHERE customer_id = ?", (customer_id,)).fetchone()
    return row[0]


def compare_count(customer_id: int) -> int:
    return db().execute("SELECT COUNT(*) FROM compare_items WHERE customer_id = ?", (customer_id,)).fetchone()[0]


def compare_preview(customer_id: int) -> list[sqlite3.Row]:
    """The customer's compare list for the sidebar's Compare Products block, oldest first."""
    return db().execute(
        "SELECT ci.id AS item_id, p.name, p.url_key FROM compare_items ci JOIN products p ON p.id = ci.product_id"
        " WHERE ci.customer_id = ? ORDER BY ci.id", (customer_id,),
    ).fetchall()


def wishlist_preview(customer_id: int, limit: int = 3) -> tuple[int, list[sqlite3.Row]]:
    """(item count, the last ``limit`` items added) for the sidebar's My Wish List block."""
    total = db().execute("SELECT COUNT(*) FROM wishlist_items WHERE customer_id = ?", (customer_id,)).fetchone()[0]
    rows = db().execute(
        "SELECT w.id AS item_id, p.name, p.price, p.url_key FROM wishlist_items w JOIN products p ON p.id = w.product_id"
        " WHERE w.customer_id = ? ORDER BY w.added_at DESC, w.id DESC LIMIT ?", (customer_id, limit),
    ).fetchall()
    return total, rows


def recently_ordered(customer_id: int, limit: int = 3) -> list[sqlite3.Row]:
    """The products of the customer's latest orders, newest first, for the sidebar's Recently Ordered block."""
    return db().execute(
        "SELECT p.name, p.url_key, MAX(o.created_at) AS ordered_at FROM order_items i JOIN orders o ON o.id = i.order_id"
        " JOIN products p ON p.id = i.product_id WHERE o.customer_id = ? GROUP BY p.id"
        " ORDER BY ordered_at DESC, MAX(i.id) DESC LIMIT ?", (customer_id, limit),
    ).fetchall()


def related_products(product: sqlite3.Row, limit: int = 4) -> list[dict[str, Any]]:
    """Other products of the same category, by catalog position, for the product page's Related Products."""
    others = [item for item in products_in_category(product["category_id"]) if item["id"] != product["id"]]
    return sorted(others, key=lambda item: (item["position"], item["id"]))[:limit]


def add_to_cart(customer_id: int, product_id: int, options: str, qty: int, now: str) -> None:
    """Add ``qty`` of a product (with its chosen options) to the cart, merging identical lines."""
    existing = db().execute(
        "SELECT id FROM cart_items WHERE customer_id = ? AND product_id = ? AND options = ?", (customer_id, product_id, options)
    ).fetchone()
    if existing:
        db().execute("UPDATE cart_items SET qty = qty + ? WHERE id = ?", (qty, existing["id"]))
    else:
        db().execute(
            "INSERT INTO cart_items (customer_id, product_id, options, qty, added_at) VALUES (?, ?, ?, ?, ?)",
            (customer_id, product_id, options, qty, now),
        )


def is_subscribed(email: str) -> bool:
    return db().execute("SELECT 1 FROM newsletter_subscribers WHERE email = ?", (email.lower(),)).fetchone() is not None


def customer_order(order_id: int, customer_id: int) -> sqlite3.Row:
    """One of the customer's orders, or 404 (other people's orders do not exist for them)."""
    order = db().execute("SELECT * FROM orders WHERE id = ? AND customer_id = ?", (order_id, customer_id)).fetchone()
    if order is None:
        abort(404)
    return order


def parse_quantity(raw: str | None, default: int = 1) -> int | None:
    """A positive integer quantity from form input, or None when it is not one."""
    try:
        value = int((raw or str(default)).strip())
    except ValueError:
        return None
    return value if 0 < value <= 10000 else None
