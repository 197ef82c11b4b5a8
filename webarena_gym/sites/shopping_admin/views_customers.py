"""Customers > All Customers: the customers grid and the customer edit form."""

from __future__ import annotations

import re

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..webapp import db
from .data import CUSTOMER_GROUPS
from .helpers import (
    PAGE_SIZES,
    admin_required,
    one_or_404,
    paginate,
    per_page,
    redirect_to_canonical,
    sort_clause,
    url_with,
)

bp = Blueprint("customers", __name__)

CUSTOMER_FIELDS = {"search": "text", "group": "text", "sort": "text", "dir": "text", "page": "page", "limit": "limit"}
CUSTOMER_SORTS = {"id": "id", "name": "firstname || ' ' || lastname", "email": "email", "group": "group_name",
                  "phone": "phone", "postcode": "postcode", "city": "city", "region": "region",
                  "created_at": "created_at"}
#: Form field -> (column, label) of the customer edit form.
CUSTOMER_FORM = {"customer[firstname]": ("firstname", "First Name"), "customer[lastname]": ("lastname", "Last Name"),
                 "customer[email]": ("email", "Email"), "customer[group]": ("group_name", "Group"),
                 "address[telephone]": ("phone", "Phone Number"), "address[street]": ("street", "Street Address"),
                 "address[city]": ("city", "City"), "address[region]": ("region", "State/Province"),
                 "address[postcode]": ("postcode", "Zip/Postal Code"), "address[country]": ("country", "Country")}


@bp.get("/admin/customer/index/")
@admin_required
def customers() -> str | Response:
    bounce = redirect_to_canonical(CUSTOMER_FIELDS)
    if bounce:
        return bounce
    clauses, args, active = [], [], []
    keyword = request.args.get("search", "").strip()
    if keyword:
        clauses.append("(firstname || ' ' || lastname LIKE ? OR email LIKE ? OR phone LIKE ? OR city LIKE ? "
                       "OR postcode LIKE ? OR region LIKE ? OR REPLACE(phone, ' ', '') LIKE ?)")
        args += [f"%{keyword}%"] * 6 + [f"%{keyword.replace(' ', '')}%"]
        active.append(("Keyword", keyword))
    group = request.args.get("group", "")
    if group in CUSTOMER_GROUPS:
        clauses.append("group_name = ?")
        args.append(group)
        active.append(("Group", group))
    where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
    key, direction, order_by = sort_clause(CUSTOMER_SORTS, "id", "asc")
    page = paginate(f"SELECT * FROM customer{where}", args, order_by, per_page())
    return render_template("customers.html", page=page, active=active, sort=key, direction=direction,
                           groups=CUSTOMER_GROUPS, args=request.args, page_sizes=PAGE_SIZES, limit=per_page(),
                           url_with=lambda **kw: url_with(CUSTOMER_FIELDS, **kw))


@bp.get("/admin/customer/index/edit/id/<int:customer_id>/")
@admin_required
def customer_edit(customer_id: int) -> str:
    customer = one_or_404("SELECT * FROM customer WHERE id = ?", (customer_id,))
    return _render_edit(dict(customer), [])


@bp.post("/admin/customer/index/save/id/<int:customer_id>/")
@admin_required
def customer_save(customer_id: int) -> str | Response | tuple[str, int]:
    customer = dict(one_or_404("SELECT * FROM customer WHERE id = ?", (customer_id,)))
    values = {column: request.form.get(field, "").strip() for field, (column, _) in CUSTOMER_FORM.items()}
    errors = [f"{label} is required." for field, (column, label) in CUSTOMER_FORM.items()
              if not values[column] and column not in ("street", "region")]
    if values["email"] and not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", values["email"]):
        errors.append("Please enter a valid email address.")
    if values["group_name"] not in CUSTOMER_GROUPS:
        errors.append("Please choose a customer group.")
    clash = db().execute("SELECT 1 FROM customer WHERE email = ? AND id != ?", (values["email"], customer_id)).fetchone()
    if clash:
        errors.append("A customer with the same email address already exists.")
    if errors:
        return _render_edit(customer | values, errors), 400
    db().execute(f"UPDATE customer SET {', '.join(f'{c} = ?' for c in values)} WHERE id = ?",
                 (*values.values(), customer_id))
    flash("You saved the customer.", "success")
    return redirect(url_for("customers.customer_edit", customer_id=customer_id))


def _render_edit(customer: dict, errors: list[str]) -> str:
    conn = db()
    stats = conn.execute("SELECT COUNT(*) AS orders, COALESCE(SUM(CASE WHEN status != 'canceled' THEN grand_total END), 0) "
                         "AS lifetime FROM sales_order WHERE customer_id = ?", (customer["id"],)).fetchone()
    orders = conn.execute("SELECT * FROM sales_order WHERE customer_id = ? ORDER BY created_at DESC LIMIT 10",
                          (customer["id"],)).fetchall()
    return render_template("customer_edit.html", customer=customer, errors=errors, groups=CUSTOMER_GROUPS,
                           form=CUSTOMER_FORM, stats=stats, orders=orders)
