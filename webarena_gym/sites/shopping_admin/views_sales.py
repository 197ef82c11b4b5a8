"""Sales: the orders grid, the order view, and the invoices grid (actions live in views_order_actions)."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from werkzeug.wrappers import Response

from ..webapp import db
from .data import STATUSES
from .helpers import (
    PAGE_SIZES,
    admin_required,
    one_or_404,
    paginate,
    parse_date,
    parse_number,
    per_page,
    redirect_to_canonical,
    sort_clause,
    url_with,
)

bp = Blueprint("sales", __name__)

ORDER_FIELDS = {"search": "text", "status": "text", "created_from": "date", "created_to": "date",
                "total_from": "number", "total_to": "number", "customer": "text", "sort": "text", "dir": "text",
                "page": "page", "limit": "limit"}
ORDER_MASS_ACTIONS = {"cancel": "Cancel", "hold": "Hold", "unhold": "Unhold"}
ORDER_SORTS = {"increment_id": "increment_id", "created_at": "created_at", "bill_to": "bill_to",
               "ship_to": "ship_to", "grand_total": "grand_total", "status": "status"}
ORDER_GRID_SQL = """
SELECT o.id, o.increment_id, o.created_at, o.customer_name, o.customer_email, o.status, o.grand_total,
       b.firstname || ' ' || b.lastname AS bill_to, s.firstname || ' ' || s.lastname AS ship_to
FROM sales_order o
JOIN order_address b ON b.order_id = o.id AND b.address_type = 'billing'
JOIN order_address s ON s.order_id = o.id AND s.address_type = 'shipping'
"""

#: The order view's tabs (``?tab=``), Magento's order view sections.
ORDER_TABS = {"info": "Information", "invoices": "Invoices", "creditmemos": "Credit Memos", "shipments": "Shipments",
              "history": "Comments History"}
INVOICE_FIELDS = {"search": "text", "created_from": "date", "created_to": "date", "sort": "text", "dir": "text",
                  "page": "page"}
INVOICE_SORTS = {"increment_id": "increment_id", "created_at": "created_at", "order_increment_id": "order_increment_id",
                 "bill_to": "bill_to", "grand_total": "grand_total"}
INVOICE_GRID_SQL = """
SELECT i.id, i.increment_id, i.created_at, i.grand_total, i.state, o.id AS order_id,
       o.increment_id AS order_increment_id, o.created_at AS order_created_at,
       b.firstname || ' ' || b.lastname AS bill_to
FROM invoice i JOIN sales_order o ON o.id = i.order_id
JOIN order_address b ON b.order_id = o.id AND b.address_type = 'billing'
"""


def order_filters() -> tuple[str, list, list[tuple[str, str]]]:
    """(WHERE clause, its arguments, the active filters as (label, value)) of the orders grid."""
    clauses, args, active = [], [], []
    keyword = request.args.get("search", "").strip()
    if keyword:
        clauses.append("(increment_id LIKE ? OR bill_to LIKE ? OR ship_to LIKE ? OR customer_email LIKE ?)")
        args += [f"%{keyword}%"] * 4
        active.append(("Keyword", keyword))
    status = request.args.get("status", "")
    if status in STATUSES:
        clauses.append("status = ?")
        args.append(status)
        active.append(("Status", STATUSES[status]))
    for name, op, suffix, label in (("created_from", ">=", " 00:00:00", "Purchase Date from"),
                                    ("created_to", "<=", " 23:59:59", "Purchase Date to")):
        date = parse_date(request.args.get(name))
        if date:
            clauses.append(f"created_at {op} ?")
            args.append(date.isoformat() + suffix)
            active.append((label, f"{date.month}/{date.day}/{date.year}"))
    for name, op, label in (("total_from", ">=", "Grand Total from"), ("total_to", "<=", "Grand Total to")):
        number = parse_number(request.args.get(name))
        if number is not None:
            clauses.append(f"grand_total {op} ?")
            args.append(number)
            active.append((label, f"{number:g}"))
    customer = request.args.get("customer", "").strip()
    if customer:
        clauses.append("(customer_name LIKE ? OR customer_email LIKE ?)")
        args += [f"%{customer}%"] * 2
        active.append(("Customer", customer))
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", args, active


def order_context(order_id: int) -> dict:
    """Everything the order view and the action pages show about one order."""
    conn = db()
    order = one_or_404("SELECT * FROM sales_order WHERE id = ?", (order_id,))
    addresses = {r["address_type"]: r for r in conn.execute("SELECT * FROM order_address WHERE order_id = ?", (order_id,))}
    return {
        "order": order,
        "customer": conn.execute("SELECT * FROM customer WHERE id = ?", (order["customer_id"],)).fetchone(),
        "billing": addresses.get("billing"),
        "shipping": addresses.get("shipping"),
        "items": conn.execute("SELECT * FROM order_item WHERE order_id = ? ORDER BY id", (order_id,)).fetchall(),
        "invoices": conn.execute("SELECT * FROM invoice WHERE order_id = ? ORDER BY id", (order_id,)).fetchall(),
        "shipments": conn.execute("SELECT * FROM shipment WHERE order_id = ? ORDER BY id", (order_id,)).fetchall(),
        "tracks": conn.execute("SELECT * FROM shipment_track WHERE order_id = ? ORDER BY id", (order_id,)).fetchall(),
        "creditmemos": conn.execute("SELECT * FROM creditmemo WHERE order_id = ? ORDER BY id", (order_id,)).fetchall(),
        "history": conn.execute("SELECT * FROM order_status_history WHERE order_id = ? ORDER BY created_at DESC, id DESC",
                                (order_id,)).fetchall(),
    }


@bp.get("/admin/sales/order/")
@admin_required
def orders() -> str | Response:
    bounce = redirect_to_canonical(ORDER_FIELDS)
    if bounce:
        return bounce
    where, args, active = order_filters()
    key, direction, order_by = sort_clause(ORDER_SORTS, "created_at")
    page = paginate(f"SELECT * FROM ({ORDER_GRID_SQL}){where}", args, order_by, per_page())
    return render_template("orders.html", page=page, active=active, sort=key, direction=direction,
                           url_with=lambda **kw: url_with(ORDER_FIELDS, **kw), args=request.args,
                           page_sizes=PAGE_SIZES, limit=per_page(), actions=ORDER_MASS_ACTIONS,
                           return_to=request.full_path.rstrip("?"))


@bp.get("/admin/sales/order/view/order_id/<int:order_id>/")
@admin_required
def order_view(order_id: int) -> str:
    tab = request.args.get("tab", "info")
    return render_template("order_view.html", tab=tab if tab in ORDER_TABS else "info", ORDER_TABS=ORDER_TABS,
                           **order_context(order_id))


@bp.get("/admin/sales/invoice/")
@admin_required
def invoices() -> str | Response:
    bounce = redirect_to_canonical(INVOICE_FIELDS)
    if bounce:
        return bounce
    clauses, args = [], []
    keyword = request.args.get("search", "").strip()
    if keyword:
        clauses.append("(increment_id LIKE ? OR order_increment_id LIKE ? OR bill_to LIKE ?)")
        args += [f"%{keyword}%"] * 3
    for name, op, suffix in (("created_from", ">=", " 00:00:00"), ("created_to", "<=", " 23:59:59")):
        date = parse_date(request.args.get(name))
        if date:
            clauses.append(f"created_at {op} ?")
            args.append(date.isoformat() + suffix)
    where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
    key, direction, order_by = sort_clause(INVOICE_SORTS, "created_at")
    page = paginate(f"SELECT * FROM ({INVOICE_GRID_SQL}){where}", args, order_by)
    return render_template("invoices.html", page=page, sort=key, direction=direction,
                           url_with=lambda **kw: url_with(INVOICE_FIELDS, **kw), args=request.args)


@bp.get("/admin/sales/invoice/view/invoice_id/<int:invoice_id>/")
@admin_required
def invoice_view(invoice_id: int) -> str:
    invoice = one_or_404("SELECT * FROM invoice WHERE id = ?", (invoice_id,))
    return render_template("invoice_view.html", invoice=invoice, **order_context(invoice["order_id"]))
