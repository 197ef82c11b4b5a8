"""Compare Products: the customer's comparison list, side by side."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from ..webapp import db, login_required, world
from . import store

bp = Blueprint("compare", __name__)

#: Magento keeps a comparison list short enough to read side by side.
COMPARE_LIMIT = 4


@bp.get("/catalog/product_compare/")
@login_required(store.LOGIN_PATH)
def compare_list():
    customer = store.require_customer()
    items = db().execute(
        f"SELECT ci.id AS item_id, {store.PRODUCT_COLUMNS} FROM compare_items ci JOIN products p ON p.id = ci.product_id"
        " JOIN categories c ON c.id = p.category_id WHERE ci.customer_id = ? ORDER BY ci.added_at, ci.id",
        (customer["id"],),
    ).fetchall()
    return render_template("compare.html", items=items,
                           options={item["id"]: store.product_options(item["id"]) for item in items})


@bp.post("/catalog/product_compare/add/")
def compare_add():
    product = db().execute("SELECT * FROM products WHERE id = ?", (request.form.get("product", type=int),)).fetchone()
    if product is None:
        abort(404)
    customer = store.customer()
    if customer is None:
        flash("Please sign in first.", "error")
        return redirect(store.LOGIN_PATH)
    count = db().execute("SELECT COUNT(*) FROM compare_items WHERE customer_id = ?", (customer["id"],)).fetchone()[0]
    if count >= COMPARE_LIMIT:
        flash(f"You can compare up to {COMPARE_LIMIT} products. Remove one from the comparison list first.", "error")
        return redirect(url_for("compare.compare_list"))
    db().execute("INSERT OR IGNORE INTO compare_items (customer_id, product_id, added_at) VALUES (?, ?, ?)",
                 (customer["id"], product["id"], world().now().isoformat(" ")))
    flash(f"You added product {product['name']} to the comparison list.", "success")
    return redirect(url_for("compare.compare_list"))


@bp.post("/catalog/product_compare/remove/")
@login_required(store.LOGIN_PATH)
def compare_remove():
    customer = store.require_customer()
    db().execute("DELETE FROM compare_items WHERE id = ? AND customer_id = ?", (request.form.get("item", type=int),
                                                                                customer["id"]))
    flash("You removed the product from the comparison list.", "success")
    return redirect(url_for("compare.compare_list"))
