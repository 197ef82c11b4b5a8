"""Shopping cart, two-step checkout (shipping, then review and payment) and the wish list."""

from __future__ import annotations

from urllib.parse import quote

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for

from ..webapp import db, login_required, world
from . import store
from .data import PAYMENT_METHOD, SHIPPING_METHODS
from .phrases import US_STATES

bp = Blueprint("cart", __name__)

ADDRESS_FIELDS = ("firstname", "lastname", "street1", "street2", "city", "region", "postcode", "country", "telephone")
REQUIRED_ADDRESS_FIELDS = ("firstname", "lastname", "street1", "city", "region", "postcode", "country", "telephone")


def safe_return(url: str | None, fallback: str) -> str:
    """A same-site path to go back to (never an absolute or protocol-relative URL)."""
    return url if url and url.startswith("/") and not url.startswith("//") else fallback


def _login_first(return_to: str):
    flash("Please sign in first.", "error")
    return redirect(f"{store.LOGIN_PATH}?next={quote(return_to)}")


def _remove_own_item(table: str, field: str, message: str, back: str):
    """Delete the customer's row of ``table`` whose id the form field ``field`` holds, then go to ``back``."""
    customer = store.require_customer()
    db().execute(f"DELETE FROM {table} WHERE id = ? AND customer_id = ?", (request.form.get(field, type=int), customer["id"]))
    flash(message, "success")
    return redirect(url_for(back))


def shipping_cost(method: str, lines: list[dict]) -> int:
    _, per_item, per_order = SHIPPING_METHODS[method]
    return per_item * sum(line["qty"] for line in lines) + per_order


@bp.post("/checkout/cart/add/")
def cart_add():
    product = db().execute("SELECT * FROM products WHERE id = ?", (request.form.get("product", type=int),)).fetchone()
    if product is None:
        abort(404)
    product_url = url_for("catalog.catalog_page", path=product["url_key"])
    back = safe_return(request.form.get("return_url"), product_url)
    customer = store.customer()
    if customer is None:
        return _login_first(back)
    chosen = []
    for name, choices in store.product_options(product["id"]):
        value = request.form.get(f"option_{name}", "")
        if value not in choices:
            flash("You need to choose options for your item.", "error")
            return redirect(product_url)
        chosen.append(f"{name}: {value}")
    qty = store.parse_quantity(request.form.get("qty"))
    if qty is None:
        flash("Please enter a quantity greater than 0.", "error")
        return redirect(product_url)
    store.add_to_cart(customer["id"], product["id"], ", ".join(chosen), qty, world().now().isoformat(" "))
    flash(f"You added {product['name']} to your shopping cart.", "success")
    return redirect(back)


@bp.get("/checkout/cart/")
@login_required(store.LOGIN_PATH)
def cart():
    customer = store.require_customer()
    lines = store.cart_lines(customer["id"])
    return render_template("cart.html", lines=lines, subtotal=sum(line["row_total"] for line in lines))


@bp.post("/checkout/cart/updateItemQty/")
@login_required(store.LOGIN_PATH)
def cart_update():
    customer = store.require_customer()
    qty = store.parse_quantity(request.form.get("qty"))
    if qty is None:
        flash("Please enter a quantity greater than 0.", "error")
    else:
        db().execute("UPDATE cart_items SET qty = ? WHERE id = ? AND customer_id = ?",
                     (qty, request.form.get("item_id", type=int), customer["id"]))
        flash("Your shopping cart has been updated.", "success")
    return redirect(url_for("cart.cart"))


@bp.post("/checkout/cart/delete/")
@login_required(store.LOGIN_PATH)
def cart_delete():
    return _remove_own_item("cart_items", "item_id", "The item has been removed from your shopping cart.", "cart.cart")


@bp.get("/checkout/")
@login_required(store.LOGIN_PATH)
def checkout_shipping():
    customer = store.require_customer()
    lines = store.cart_lines(customer["id"])
    if not lines:
        return redirect(url_for("cart.cart"))
    saved = db().execute("SELECT * FROM checkout_shipping WHERE customer_id = ?", (customer["id"],)).fetchone()
    address = saved or store.default_address(customer["id"], "shipping")
    values = {name: (address[name] if address else "") for name in ADDRESS_FIELDS}
    values.setdefault("country", "United States")
    methods = [(name, label, shipping_cost(name, lines)) for name, (label, _, _) in SHIPPING_METHODS.items()]
    chosen = saved["shipping_method"] if saved else next(iter(SHIPPING_METHODS))
    return render_template("checkout_shipping.html", values=values, methods=methods, chosen=chosen,
                           states=US_STATES, lines=lines, error=None)


@bp.post("/checkout/shipping/")
@login_required(store.LOGIN_PATH)
def checkout_save_shipping():
    customer = store.require_customer()
    lines = store.cart_lines(customer["id"])
    if not lines:
        return redirect(url_for("cart.cart"))
    values = {name: (request.form.get(name) or "").strip() for name in ADDRESS_FIELDS}
    method = request.form.get("shipping_method", "")
    missing = [name for name in REQUIRED_ADDRESS_FIELDS if not values[name]]
    if missing or method not in SHIPPING_METHODS:
        methods = [(name, label, shipping_cost(name, lines)) for name, (label, _, _) in SHIPPING_METHODS.items()]
        error = "Please fill in every required field and choose a shipping method."
        return render_template("checkout_shipping.html", values=values, methods=methods, chosen=method,
                               states=US_STATES, lines=lines, error=error), 400
    db().execute("DELETE FROM checkout_shipping WHERE customer_id = ?", (customer["id"],))
    db().execute(
        f"INSERT INTO checkout_shipping (customer_id, {', '.join(ADDRESS_FIELDS)}, shipping_method)"
        f" VALUES (?, {', '.join('?' for _ in ADDRESS_FIELDS)}, ?)",
        (customer["id"], *(values[name] for name in ADDRESS_FIELDS), method),
    )
    return redirect(url_for("cart.checkout_payment"))


@bp.get("/checkout/payment/")
@login_required(store.LOGIN_PATH)
def checkout_payment():
    customer = store.require_customer()
    lines = store.cart_lines(customer["id"])
    shipping = db().execute("SELECT * FROM checkout_shipping WHERE customer_id = ?", (customer["id"],)).fetchone()
    if not lines or shipping is None:
        return redirect(url_for("cart.checkout_shipping"))
    subtotal = sum(line["row_total"] for line in lines)
    cost = shipping_cost(shipping["shipping_method"], lines)
    return render_template("checkout_payment.html", lines=lines, shipping=shipping, subtotal=subtotal,
                           shipping_amount=cost, total=subtotal + cost, payment_method=PAYMENT_METHOD)


@bp.post("/checkout/placeOrder/")
@login_required(store.LOGIN_PATH)
def place_order():
    customer = store.require_customer()
    lines = store.cart_lines(customer["id"])
    shipping = db().execute("SELECT * FROM checkout_shipping WHERE customer_id = ?", (customer["id"],)).fetchone()
    if not lines or shipping is None:
        return redirect(url_for("cart.checkout_shipping"))
    subtotal = sum(line["row_total"] for line in lines)
    cost = shipping_cost(shipping["shipping_method"], lines)
    order_id = db().execute("SELECT COALESCE(MAX(id), 0) + 1 FROM orders").fetchone()[0]
    db().execute(
        "INSERT INTO orders VALUES (?, ?, ?, ?, 'Pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (order_id, f"{order_id:09d}", customer["id"], world().now().isoformat(" "), subtotal, cost, subtotal + cost,
         shipping["shipping_method"], PAYMENT_METHOD, f"{shipping['firstname']} {shipping['lastname']}",
         shipping["street1"], shipping["street2"], shipping["city"], shipping["region"], shipping["postcode"],
         shipping["country"], shipping["telephone"]),
    )
    db().executemany(
        "INSERT INTO order_items (order_id, product_id, sku, name, options, price, qty) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(order_id, line["product_id"], line["sku"], line["name"], line["options"], line["price"], line["qty"])
         for line in lines],
    )
    db().execute("DELETE FROM cart_items WHERE customer_id = ?", (customer["id"],))
    db().execute("DELETE FROM checkout_shipping WHERE customer_id = ?", (customer["id"],))
    session["last_order_id"] = order_id
    return redirect(url_for("cart.checkout_success"))


@bp.get("/checkout/onepage/success/")
@login_required(store.LOGIN_PATH)
def checkout_success():
    customer = store.require_customer()
    order_id = session.get("last_order_id")
    order = db().execute("SELECT * FROM orders WHERE id = ? AND customer_id = ?", (order_id, customer["id"])).fetchone()
    if order is None:
        return redirect(url_for("cart.cart"))
    return render_template("checkout_success.html", order=order)


@bp.get("/wishlist/")
@login_required(store.LOGIN_PATH)
def wishlist():
    customer = store.require_customer()
    items = db().execute(
        "SELECT w.id, w.added_at, p.id AS product_id, p.name, p.price, p.url_key FROM wishlist_items w"
        " JOIN products p ON p.id = w.product_id WHERE w.customer_id = ? ORDER BY w.added_at, w.id",
        (customer["id"],),
    ).fetchall()
    return render_template("wishlist.html", items=items)


@bp.post("/wishlist/index/add/")
def wishlist_add():
    product = db().execute("SELECT * FROM products WHERE id = ?", (request.form.get("product", type=int),)).fetchone()
    if product is None:
        abort(404)
    customer = store.customer()
    if customer is None:
        return _login_first(url_for("catalog.catalog_page", path=product["url_key"]))
    db().execute(
        "INSERT OR IGNORE INTO wishlist_items (customer_id, product_id, added_at) VALUES (?, ?, ?)",
        (customer["id"], product["id"], world().now().isoformat(" ")),
    )
    flash(f"{product['name']} has been added to your Wish List.", "success")
    return redirect(url_for("cart.wishlist"))


@bp.post("/wishlist/index/remove/")
@login_required(store.LOGIN_PATH)
def wishlist_remove():
    return _remove_own_item("wishlist_items", "item", "The item has been removed from your Wish List.", "cart.wishlist")


@bp.post("/wishlist/index/cart/")
@login_required(store.LOGIN_PATH)
def wishlist_to_cart():
    customer = store.require_customer()
    item = db().execute(
        "SELECT w.id AS item_id, p.id AS product_id, p.name, p.url_key FROM wishlist_items w"
        " JOIN products p ON p.id = w.product_id WHERE w.id = ? AND w.customer_id = ?",
        (request.form.get("item", type=int), customer["id"]),
    ).fetchone()
    if item is None:
        abort(404)
    if store.product_options(item["product_id"]):
        flash("You need to choose options for your item.", "error")
        return redirect(url_for("catalog.catalog_page", path=item["url_key"]))
    store.add_to_cart(customer["id"], item["product_id"], "", 1, world().now().isoformat(" "))
    db().execute("DELETE FROM wishlist_items WHERE id = ?", (item["item_id"],))
    flash(f"You added {item['name']} to your shopping cart.", "success")
    return redirect(url_for("cart.cart"))
