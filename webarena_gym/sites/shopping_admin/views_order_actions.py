"""Actions on one order: invoice, ship (with tracking), cancel, hold, comment, edit an address."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..webapp import db, world
from .data import STATUSES, increment_id, stamp
from .helpers import admin_required, money, one_or_404
from .names import CARRIERS
from .views_sales import order_context

bp = Blueprint("order_actions", __name__)

CARRIER_TITLES = dict(CARRIERS)
ADDRESS_FIELDS = (("firstname", "First Name"), ("lastname", "Last Name"), ("street", "Street Address"),
                  ("city", "City"), ("region", "State/Province"), ("postcode", "Zip/Postal Code"),
                  ("country", "Country"), ("telephone", "Phone Number"))


def can_invoice(order, invoices) -> bool:
    return not invoices and order["status"] in ("pending", "processing")


def can_ship(order, shipments) -> bool:
    return not shipments and order["status"] in ("pending", "processing")


def can_cancel(order, invoices, shipments) -> bool:
    return not invoices and not shipments and order["status"] in ("pending", "holded", "fraud")


def _add_history(order_id: int, status: str, comment: str, notified: bool) -> None:
    db().execute("INSERT INTO order_status_history (order_id, created_at, status, comment, is_customer_notified) "
                 "VALUES (?,?,?,?,?)", (order_id, stamp(world().now()), status, comment, int(notified)))


def _next_number(table: str) -> str:
    current = db().execute(f"SELECT COALESCE(MAX(CAST(increment_id AS INTEGER)), 0) FROM {table}").fetchone()[0]
    return increment_id(current + 1)


def _documents(order_id: int) -> tuple:
    conn = db()
    order = one_or_404("SELECT * FROM sales_order WHERE id = ?", (order_id,))
    invoices = conn.execute("SELECT id FROM invoice WHERE order_id = ?", (order_id,)).fetchall()
    shipments = conn.execute("SELECT id FROM shipment WHERE order_id = ?", (order_id,)).fetchall()
    return order, invoices, shipments


def _back(order_id: int) -> Response:
    return redirect(url_for("sales.order_view", order_id=order_id))


@bp.post("/admin/sales/order/cancel/order_id/<int:order_id>/")
@admin_required
def order_cancel(order_id: int) -> Response:
    order, invoices, shipments = _documents(order_id)
    if not can_cancel(order, invoices, shipments):
        flash("You have not canceled the item.", "error")
        return _back(order_id)
    db().execute("UPDATE sales_order SET status = 'canceled' WHERE id = ?", (order_id,))
    _add_history(order_id, "canceled", "Order canceled.", False)
    flash("You canceled the order.", "success")
    return _back(order_id)


@bp.post("/admin/sales/order/email/order_id/<int:order_id>/")
@admin_required
def order_send_email(order_id: int) -> Response:
    """Resend the order confirmation (nothing is mailed from the embedded store; the order is unchanged)."""
    _documents(order_id)
    flash("You sent the order email.", "success")
    return _back(order_id)


@bp.post("/admin/sales/order/hold/order_id/<int:order_id>/")
@admin_required
def order_hold(order_id: int) -> Response:
    order, _, _ = _documents(order_id)
    if order["status"] not in ("pending", "processing"):
        flash("You have not put the order on hold.", "error")
        return _back(order_id)
    db().execute("UPDATE sales_order SET status = 'holded' WHERE id = ?", (order_id,))
    _add_history(order_id, "holded", f"Order put on hold (was {order['status']}).", False)
    flash("You put the order on hold.", "success")
    return _back(order_id)


@bp.post("/admin/sales/order/unhold/order_id/<int:order_id>/")
@admin_required
def order_unhold(order_id: int) -> Response:
    order, invoices, shipments = _documents(order_id)
    if order["status"] != "holded":
        flash("The order was not on hold.", "error")
        return _back(order_id)
    status = "processing" if invoices or shipments else "pending"
    db().execute("UPDATE sales_order SET status = ? WHERE id = ?", (status, order_id))
    _add_history(order_id, status, "Order released from hold.", False)
    flash("You released the order from holding status.", "success")
    return _back(order_id)


@bp.post("/admin/sales/order/addComment/order_id/<int:order_id>/")
@admin_required
def order_comment(order_id: int) -> Response:
    order, _, _ = _documents(order_id)
    comment = request.form.get("comment", "").strip()
    if not comment:
        flash("Please enter a comment.", "error")
        return _back(order_id)
    status = request.form.get("status", order["status"])
    if status != order["status"]:
        flash(f"The order is {STATUSES.get(order['status'], order['status'])}: a comment keeps that status "
              f"(got {status!r}); use the order's actions (Hold, Invoice, Ship, Cancel) to change it.", "error")
        return _back(order_id)
    _add_history(order_id, order["status"], comment, bool(request.form.get("is_customer_notified")))
    flash("You added a comment to the order.", "success")
    return _back(order_id)


@bp.route("/admin/sales/order_invoice/new/order_id/<int:order_id>/", methods=["GET", "POST"])
@admin_required
def invoice_new(order_id: int) -> str | Response:
    order, invoices, shipments = _documents(order_id)
    if not can_invoice(order, invoices):
        flash("The order does not allow an invoice to be created.", "error")
        return _back(order_id)
    if request.method == "GET":
        return render_template("invoice_new.html", **order_context(order_id))
    number = _next_number("invoice")
    db().execute("INSERT INTO invoice (increment_id, order_id, created_at, grand_total, state) VALUES (?,?,?,?,?)",
                 (number, order_id, stamp(world().now()), order["grand_total"], "Paid"))
    status = "complete" if shipments else "processing"
    db().execute("UPDATE sales_order SET status = ? WHERE id = ?", (status, order_id))
    comment = f"Invoice #{number} created. Captured amount of {money(order['grand_total'])}."
    extra = request.form.get("comment", "").strip()
    _add_history(order_id, status, f"{comment} {extra}".strip(), bool(request.form.get("send_email")))
    flash("The invoice has been created.", "success")
    return _back(order_id)


@bp.route("/admin/admin/order_shipment/new/order_id/<int:order_id>/", methods=["GET", "POST"])
@admin_required
def shipment_new(order_id: int) -> str | Response:
    order, invoices, shipments = _documents(order_id)
    if not can_ship(order, shipments):
        flash("The order does not allow a shipment to be created.", "error")
        return _back(order_id)
    if request.method == "GET":
        return render_template("shipment_new.html", carriers=CARRIERS, **order_context(order_id))
    number = _next_number("shipment")
    now = stamp(world().now())
    cursor = db().execute("INSERT INTO shipment (increment_id, order_id, created_at, total_qty) VALUES (?,?,?,?)",
                          (number, order_id, now, order["total_qty"]))
    comment = f"Shipment #{number} created."
    tracking = request.form.get("number", "").strip()
    if tracking:
        comment += " " + _add_track(order_id, cursor.lastrowid, now)
    extra = request.form.get("comment", "").strip()
    status = "complete" if invoices else "processing"
    db().execute("UPDATE sales_order SET status = ? WHERE id = ?", (status, order_id))
    _add_history(order_id, status, f"{comment} {extra}".strip(), bool(request.form.get("send_email")))
    flash("The shipment has been created.", "success")
    return _back(order_id)


@bp.post("/admin/admin/order_shipment/addTrack/order_id/<int:order_id>/")
@admin_required
def shipment_add_track(order_id: int) -> Response:
    order, _, shipments = _documents(order_id)
    if not shipments or not request.form.get("number", "").strip():
        flash("Please enter a tracking number for a shipped order.", "error")
        return _back(order_id)
    now = stamp(world().now())
    _add_history(order_id, order["status"], _add_track(order_id, shipments[-1]["id"], now), False)
    flash("The tracking number has been added.", "success")
    return _back(order_id)


@bp.route("/admin/sales/order/address/address_id/<int:address_id>/", methods=["GET", "POST"])
@admin_required
def order_address(address_id: int) -> str | Response:
    address = one_or_404("SELECT * FROM order_address WHERE id = ?", (address_id,))
    if request.method == "GET":
        return render_template("order_address.html", address=address, fields=ADDRESS_FIELDS)
    values = {name: request.form.get(name, "").strip() for name, _ in ADDRESS_FIELDS}
    missing = [label for name, label in ADDRESS_FIELDS if not values[name]]
    if missing:
        flash(f"Please fill in: {', '.join(missing)}.", "error")
        return render_template("order_address.html", address=values | {"id": address_id,
                               "order_id": address["order_id"], "address_type": address["address_type"]},
                               fields=ADDRESS_FIELDS), 400
    db().execute(f"UPDATE order_address SET {', '.join(f'{n} = ?' for n in values)} WHERE id = ?",
                 (*values.values(), address_id))
    flash("You updated the order address.", "success")
    return _back(address["order_id"])


def _add_track(order_id: int, shipment_id: int, now: str) -> str:
    """Insert the tracking number from the form; returns the history line that announces it."""
    carrier = request.form.get("carrier", "custom")
    if carrier not in CARRIER_TITLES:
        carrier = "custom"
    title = request.form.get("title", "").strip() or CARRIER_TITLES[carrier]
    number = request.form.get("number", "").strip()
    db().execute("INSERT INTO shipment_track (shipment_id, order_id, carrier, title, number, created_at) "
                 "VALUES (?,?,?,?,?,?)", (shipment_id, order_id, carrier, title, number, now))
    return f"Tracking number {number} for {title} assigned."


@bp.post("/admin/sales/order/massAction/")
@admin_required
def orders_mass_action() -> Response:
    """Cancel, hold or unhold the selected orders; those the action does not apply to are left as they are."""
    ids = [int(v) for v in request.form.getlist("selected") if v.isdigit()]
    action = request.form.get("massaction", "")
    back = request.form.get("return_to", "")
    back = back if back.startswith("/admin/sales/order/") else url_for("sales.orders")
    if not ids or action not in ("cancel", "hold", "unhold"):
        flash("Please select orders and an action.", "error")
        return redirect(back)
    done = 0
    for order_id in ids:
        order, invoices, shipments = _documents(order_id)
        if action == "cancel" and can_cancel(order, invoices, shipments):
            new, comment = "canceled", "Order canceled."
        elif action == "hold" and order["status"] in ("pending", "processing"):
            new, comment = "holded", f"Order put on hold (was {order['status']})."
        elif action == "unhold" and order["status"] == "holded":
            new, comment = "processing" if invoices or shipments else "pending", "Order released from hold."
        else:
            continue
        db().execute("UPDATE sales_order SET status = ? WHERE id = ?", (new, order_id))
        _add_history(order_id, new, comment, False)
        done += 1
    skipped = len(ids) - done
    flash(f"{done} order(s) have been updated." + (f" {skipped} order(s) cannot be changed." if skipped else ""),
          "success" if done else "error")
    return redirect(back)
