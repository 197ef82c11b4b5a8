"""My Orders: the paginated order history, one order's details, and reorder."""

from __future__ import annotations

import math

from flask import Blueprint, flash, redirect, render_template, request, url_for

from ..webapp import db, login_required, world
from . import store

bp = Blueprint("orders", __name__)

ORDERS_PER_PAGE = 10
#: The order view's tabs: (``?tab=`` value, label); a complete order has been invoiced and shipped.
ORDER_TABS = (("items", "Items Ordered"), ("invoice", "Invoices"), ("shipment", "Order Shipments"))


@bp.get("/sales/order/history/")
@login_required(store.LOGIN_PATH)
def order_history():
    customer = store.require_customer()
    total = db().execute("SELECT COUNT(*) FROM orders WHERE customer_id = ?", (customer["id"],)).fetchone()[0]
    pages = max(1, math.ceil(total / ORDERS_PER_PAGE))
    page = min(max(1, request.args.get("p", 1, type=int) or 1), pages)
    orders = db().execute(
        "SELECT * FROM orders WHERE customer_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
        (customer["id"], ORDERS_PER_PAGE, (page - 1) * ORDERS_PER_PAGE),
    ).fetchall()
    return render_template(
        "order_history.html", orders=orders, page=page, pages=pages, total=total,
        first=(page - 1) * ORDERS_PER_PAGE + 1 if total else 0, last=min(total, page * ORDERS_PER_PAGE),
        page_url=lambda number: url_for("orders.order_history", p=number) if number > 1 else url_for("orders.order_history"),
    )


@bp.get("/sales/order/view/order_id/<int:order_id>/")
@login_required(store.LOGIN_PATH)
def order_view(order_id: int):
    order = store.customer_order(order_id, store.require_customer()["id"])
    items = db().execute("SELECT * FROM order_items WHERE order_id = ? ORDER BY id", (order_id,)).fetchall()
    tab = request.args.get("tab") if request.args.get("tab") in {key for key, _ in ORDER_TABS} else "items"
    return render_template("order_view.html", order=order, items=items, tabs=ORDER_TABS, tab=tab,
                           shipped=order["status"] == "Complete")


@bp.get("/sales/order/print/order_id/<int:order_id>/")
@login_required(store.LOGIN_PATH)
def order_print(order_id: int):
    """Print Order: the order's items and information without the account's navigation."""
    order = store.customer_order(order_id, store.require_customer()["id"])
    items = db().execute("SELECT * FROM order_items WHERE order_id = ? ORDER BY id", (order_id,)).fetchall()
    return render_template("order_view.html", order=order, items=items, tabs=ORDER_TABS, tab="items",
                           shipped=order["status"] == "Complete", print_view=True)


@bp.post("/sales/order/reorder/order_id/<int:order_id>/")
@login_required(store.LOGIN_PATH)
def order_reorder(order_id: int):
    customer = store.require_customer()
    store.customer_order(order_id, customer["id"])
    items = db().execute("SELECT * FROM order_items WHERE order_id = ? ORDER BY id", (order_id,)).fetchall()
    now = world().now().isoformat(" ")
    for item in items:
        store.add_to_cart(customer["id"], item["product_id"], item["options"], item["qty"], now)
    flash("The items of your order have been added to your shopping cart.", "success")
    return redirect(url_for("cart.cart"))
