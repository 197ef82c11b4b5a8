"""Catalog > Products: the products grid and the product edit form."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..webapp import db
from .helpers import (
    PAGE_SIZES,
    admin_required,
    one_or_404,
    paginate,
    parse_number,
    per_page,
    redirect_to_canonical,
    sort_clause,
    url_with,
)
from .names import CATEGORIES

bp = Blueprint("catalog", __name__)

PRODUCT_FIELDS = {"search": "text", "category": "text", "status": "text", "stock": "text", "price_from": "number",
                  "price_to": "number", "qty_from": "number", "qty_to": "number", "sort": "text", "dir": "text",
                  "page": "page", "limit": "limit"}
PRODUCT_MASS_ACTIONS = {"delete": "Delete", "enable": "Enable", "disable": "Disable"}
PRODUCT_SORTS = {"id": "id", "name": "name", "sku": "sku", "category": "category", "price": "price", "qty": "qty",
                 "status": "status"}
CATEGORY_NAMES = [c[0] for c in CATEGORIES]


def product_filters() -> tuple[str, list, list[tuple[str, str]]]:
    clauses, args, active = [], [], []
    keyword = request.args.get("search", "").strip()
    if keyword:
        clauses.append("(name LIKE ? OR sku LIKE ?)")
        args += [f"%{keyword}%"] * 2
        active.append(("Keyword", keyword))
    category = request.args.get("category", "")
    if category in CATEGORY_NAMES:
        clauses.append("category = ?")
        args.append(category)
        active.append(("Category", category))
    status = request.args.get("status", "")
    if status in ("1", "2"):
        clauses.append("status = ?")
        args.append(int(status))
        active.append(("Status", "Enabled" if status == "1" else "Disabled"))
    stock = request.args.get("stock", "")
    if stock in ("0", "1"):
        clauses.append("is_in_stock = ?")
        args.append(int(stock))
        active.append(("Stock Status", "In Stock" if stock == "1" else "Out of Stock"))
    for name, column, op, label in (("price_from", "price", ">=", "Price from"), ("price_to", "price", "<=", "Price to"),
                                    ("qty_from", "qty", ">=", "Quantity from"), ("qty_to", "qty", "<=", "Quantity to")):
        number = parse_number(request.args.get(name))
        if number is not None:
            clauses.append(f"{column} {op} ?")
            args.append(number)
            active.append((label, f"{number:g}"))
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", args, active


def _form_errors(form: dict[str, str], product_id: int) -> list[str]:
    errors = []
    if not form["name"]:
        errors.append("Product Name is required.")
    if not form["sku"]:
        errors.append("SKU is required.")
    price = parse_number(form["price"])
    if price is None or price < 0:
        errors.append("Please enter a valid price (a number of 0 or more).")
    if form["special_price"] and (parse_number(form["special_price"]) is None or parse_number(form["special_price"]) < 0):
        errors.append("Please enter a valid special price.")
    if not form["qty"].lstrip("-").isdigit() or int(form["qty"]) < 0:
        errors.append("Please enter a valid quantity (a whole number of 0 or more).")
    clash = db().execute("SELECT name, sku FROM product WHERE (name = ? OR sku = ?) AND id != ?",
                         (form["name"], form["sku"], product_id)).fetchone()
    if clash:
        errors.append("Another product already uses this name or SKU.")
    return errors


@bp.get("/admin/catalog/product/")
@admin_required
def products() -> str | Response:
    bounce = redirect_to_canonical(PRODUCT_FIELDS)
    if bounce:
        return bounce
    where, args, active = product_filters()
    key, direction, order_by = sort_clause(PRODUCT_SORTS, "id", "asc")
    page = paginate(f"SELECT * FROM product{where}", args, order_by, per_page())
    return render_template("products.html", page=page, active=active, sort=key, direction=direction,
                           categories=CATEGORY_NAMES, args=request.args,
                           url_with=lambda **kw: url_with(PRODUCT_FIELDS, **kw), page_sizes=PAGE_SIZES,
                           limit=per_page(), actions=PRODUCT_MASS_ACTIONS, return_to=request.full_path.rstrip("?"))


@bp.post("/admin/catalog/product/massAction/")
@admin_required
def products_mass_action() -> Response:
    """Delete, enable or disable the selected products."""
    ids = [int(v) for v in request.form.getlist("selected") if v.isdigit()]
    action = request.form.get("massaction", "")
    back = request.form.get("return_to", "")
    back = back if back.startswith("/admin/catalog/product/") else url_for("catalog.products")
    if not ids or action not in PRODUCT_MASS_ACTIONS:
        flash("Please select products and an action.", "error")
        return redirect(back)
    marks = ",".join("?" * len(ids))
    if action == "delete":
        count = db().execute(f"DELETE FROM product WHERE id IN ({marks})", ids).rowcount
        flash(f"A total of {count} record(s) have been deleted.", "success")
    else:
        count = db().execute(f"UPDATE product SET status = ? WHERE id IN ({marks})",
                             [1 if action == "enable" else 2, *ids]).rowcount
        flash(f"A total of {count} record(s) have been updated.", "success")
    return redirect(back)


@bp.get("/admin/catalog/product/edit/id/<int:product_id>/")
@admin_required
def product_edit(product_id: int) -> str:
    product = one_or_404("SELECT * FROM product WHERE id = ?", (product_id,))
    return render_template("product_edit.html", product=dict(product), categories=CATEGORY_NAMES, errors=[],
                           modal=request.args.get("modal", ""))


@bp.post("/admin/catalog/product/delete/id/<int:product_id>/")
@admin_required
def product_delete(product_id: int) -> Response:
    product = one_or_404("SELECT name FROM product WHERE id = ?", (product_id,))
    db().execute("DELETE FROM product WHERE id = ?", (product_id,))
    flash(f"You deleted the product {product['name']}.", "success")
    return redirect(url_for("catalog.products"))


@bp.post("/admin/catalog/product/save/id/<int:product_id>/")
@admin_required
def product_save(product_id: int) -> str | Response | tuple[str, int]:
    product = one_or_404("SELECT * FROM product WHERE id = ?", (product_id,))
    form = {key: request.form.get(f"product[{key}]", "").strip() for key in
            ("name", "sku", "price", "special_price", "description", "size", "color", "category")}
    form["qty"] = request.form.get("product[quantity_and_stock_status][qty]", "").strip()
    form["is_in_stock"] = request.form.get("product[quantity_and_stock_status][is_in_stock]", "1")
    form["status"] = request.form.get("product[status]", "1")
    form["sale"] = request.form.get("product[sale]", "0")
    errors = _form_errors(form, product_id)
    if errors:
        shown = dict(product) | {"name": form["name"], "sku": form["sku"], "description": form["description"]}
        return render_template("product_edit.html", product=shown, categories=CATEGORY_NAMES, errors=errors,
                               modal=""), 400
    special = parse_number(form["special_price"]) if form["special_price"] else None
    db().execute(
        "UPDATE product SET name = ?, sku = ?, price = ?, special_price = ?, on_sale = ?, qty = ?, is_in_stock = ?, "
        "status = ?, description = ?, sizes = ?, colors = ?, category = ? WHERE id = ?",
        (form["name"], form["sku"], round(parse_number(form["price"]), 2), special, 1 if form["sale"] == "1" else 0,
         int(form["qty"]), 1 if form["is_in_stock"] == "1" else 0, 2 if form["status"] == "2" else 1,
         form["description"], _tidy_list(form["size"]), _tidy_list(form["color"]),
         form["category"] if form["category"] in CATEGORY_NAMES else product["category"], product_id))
    flash("You saved the product.", "success")
    return redirect(url_for("catalog.product_edit", product_id=product_id))


def _tidy_list(text: str) -> str:
    """``"S,M , L"`` -> ``"S, M, L"`` (option values as one comma-separated list)."""
    return ", ".join(part.strip() for part in text.split(",") if part.strip())
