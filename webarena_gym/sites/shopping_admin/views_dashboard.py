"""Sign in and out of the admin, and its dashboard."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..webapp import current_user, db, login_user, logout_user
from .helpers import admin_required

bp = Blueprint("dashboard", __name__)


def _safe_next(target: str | None) -> str:
    """Only follow same-site paths after login (no open redirects)."""
    if target and target.startswith("/admin") and not target.startswith("//"):
        return target
    return url_for("dashboard.dashboard")


@bp.route("/admin", methods=["GET", "POST"])
def login() -> str | Response:
    if request.method == "POST":
        username = request.form.get("username", "").strip()
        password = request.form.get("password", "")
        row = db().execute("SELECT username FROM admin_user WHERE username = ? AND password = ?",
                           (username, password)).fetchone()
        if row is None:
            error = "The account sign-in was incorrect or your account is disabled temporarily."
            return render_template("login.html", error=error, username=username), 401
        login_user(row["username"])
        return redirect(_safe_next(request.args.get("next")))
    if current_user() is not None:
        return redirect(_safe_next(request.args.get("next")))
    return render_template("login.html", error=None, username="")


@bp.get("/")
def root() -> Response:
    return redirect(url_for("dashboard.login"))


@bp.get("/admin/admin/auth/logout/")
def logout() -> Response:
    logout_user()
    return redirect(url_for("dashboard.login"))


@bp.get("/admin/admin/")
@bp.get("/admin/admin/dashboard/")
@admin_required
def dashboard() -> str:
    conn = db()
    lifetime = conn.execute("SELECT COALESCE(SUM(grand_total), 0), COUNT(*) FROM sales_order "
                            "WHERE status != 'canceled'").fetchone()
    last_orders = conn.execute("SELECT * FROM sales_order ORDER BY created_at DESC, id DESC LIMIT 5").fetchall()
    bestsellers = conn.execute(
        "SELECT p.id, p.name, p.price, SUM(i.qty) AS qty FROM order_item i JOIN sales_order o ON o.id = i.order_id "
        "JOIN product p ON p.id = i.product_id WHERE o.status != 'canceled' GROUP BY p.id "
        "ORDER BY qty DESC, p.name LIMIT 5").fetchall()
    most_viewed = conn.execute("SELECT id, name, price, views FROM product ORDER BY views DESC, name LIMIT 5").fetchall()
    top_terms = conn.execute("SELECT * FROM search_term ORDER BY uses DESC, query_text LIMIT 5").fetchall()
    last_terms = conn.execute("SELECT * FROM search_term ORDER BY updated_at DESC, id DESC LIMIT 5").fetchall()
    new_customers = conn.execute("SELECT * FROM customer ORDER BY created_at DESC, id DESC LIMIT 5").fetchall()
    average = lifetime[0] / lifetime[1] if lifetime[1] else 0.0
    return render_template("dashboard.html", lifetime_sales=lifetime[0], average_order=average,
                           last_orders=last_orders, bestsellers=bestsellers, most_viewed=most_viewed,
                           top_terms=top_terms, last_terms=last_terms, new_customers=new_customers)
