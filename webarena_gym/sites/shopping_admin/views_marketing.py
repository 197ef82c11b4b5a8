"""Marketing: product reviews (grid, pending queue, mass actions, edit) and the search terms report."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..webapp import db
from .data import REVIEW_STATUSES
from .helpers import (
    SHORT_PAGE_SIZES,
    admin_required,
    one_or_404,
    paginate,
    parse_date,
    per_page,
    redirect_to_canonical,
    sort_clause,
    url_with,
)

bp = Blueprint("marketing", __name__)

#: URL slug -> stored review status.
REVIEW_STATUS_SLUGS = {s.lower().replace(" ", "_"): s for s in REVIEW_STATUSES}
REVIEW_FIELDS = {"status": "text", "product": "text", "nickname": "text", "title": "text", "detail": "text",
                 "rating": "text", "created_from": "date", "created_to": "date", "sort": "text", "dir": "text",
                 "page": "page", "limit": "short_limit"}
REVIEW_SORTS = {"id": "id", "created_at": "created_at", "status": "status", "title": "title", "nickname": "nickname",
                "rating": "rating", "product_name": "product_name"}
REVIEW_GRID_SQL = """SELECT r.*, p.name AS product_name, p.sku AS product_sku FROM review r
JOIN product p ON p.id = r.product_id"""
MASS_ACTIONS = {"approved": "Update Status to Approved", "pending": "Update Status to Pending",
                "not_approved": "Update Status to Not Approved", "delete": "Delete"}
#: The store's rating kinds (code, label) in Magento's order; ``rating`` is the review's own star rating,
#: the others are votes kept in ``review_vote``.
RATING_KINDS = (("quality", "Quality"), ("value", "Value"), ("price", "Price"), ("rating", "Rating"))
#: The store views a review can be shown on (value -> name); this store has one.
STORE_VIEWS = {"1": "Default Store View"}
TERM_FIELDS = {"search": "text", "sort": "text", "dir": "text", "page": "page"}
TERM_SORTS = {"query_text": "query_text", "num_results": "num_results", "uses": "uses", "updated_at": "updated_at"}


def review_filters(fixed_status: str | None) -> tuple[str, list, list[tuple[str, str]]]:
    clauses, args, active = [], [], []
    status = fixed_status or REVIEW_STATUS_SLUGS.get(request.args.get("status", ""))
    if status:
        clauses.append("status = ?")
        args.append(status)
        active.append(("Status", status))
    for name, column, label in (("product", "product_name", "Product"), ("nickname", "nickname", "Nickname"),
                                ("title", "title", "Title"), ("detail", "detail", "Review")):
        text = request.args.get(name, "").strip()
        if text:
            clauses.append(f"{column} LIKE ?")
            args.append(f"%{text}%")
            active.append((label, text))
    rating = request.args.get("rating", "")
    if rating in ("1", "2", "3", "4", "5"):
        clauses.append("rating = ?")
        args.append(int(rating))
        active.append(("Rating", f"{rating} star{'s' if rating != '1' else ''}"))
    for name, op, suffix, label in (("created_from", ">=", " 00:00:00", "Created from"),
                                    ("created_to", "<=", " 23:59:59", "Created to")):
        date = parse_date(request.args.get(name))
        if date:
            clauses.append(f"created_at {op} ?")
            args.append(date.isoformat() + suffix)
            active.append((label, f"{date.month}/{date.day}/{date.year}"))
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", args, active


def _review_grid(fixed_status: str | None, title: str) -> str | Response:
    fields = {k: v for k, v in REVIEW_FIELDS.items() if not (fixed_status and k == "status")}
    bounce = redirect_to_canonical(fields)
    if bounce:
        return bounce
    where, args, active = review_filters(fixed_status)
    key, direction, order_by = sort_clause(REVIEW_SORTS, "created_at")
    page = paginate(f"SELECT * FROM ({REVIEW_GRID_SQL}){where}", args, order_by, per_page(SHORT_PAGE_SIZES))
    return render_template("reviews.html", page=page, active=active, sort=key, direction=direction, title=title,
                           fixed_status=fixed_status, statuses=REVIEW_STATUS_SLUGS, actions=MASS_ACTIONS,
                           page_sizes=SHORT_PAGE_SIZES, limit=per_page(SHORT_PAGE_SIZES),
                           args=request.args, return_to=request.full_path.rstrip("?"),
                           url_with=lambda **kw: url_with(fields, **kw))


def _safe_return(target: str | None) -> str:
    if target and target.startswith("/admin/review/product") and not target.startswith("//"):
        return target
    return url_for("marketing.reviews")


@bp.get("/admin/review/product/")
@admin_required
def reviews() -> str | Response:
    return _review_grid(None, "Reviews")


@bp.get("/admin/review/product/pending/")
@admin_required
def reviews_pending() -> str | Response:
    return _review_grid("Pending", "Pending Reviews")


@bp.post("/admin/review/product/massUpdateStatus/")
@admin_required
def reviews_mass_action() -> Response:
    ids = [int(v) for v in request.form.getlist("reviews") if v.isdigit()]
    action = request.form.get("massaction", "")
    if not ids or action not in MASS_ACTIONS:
        flash("Please select reviews and an action.", "error")
        return redirect(_safe_return(request.form.get("return_to")))
    marks = ",".join("?" * len(ids))
    if action == "delete":
        count = db().execute(f"DELETE FROM review WHERE id IN ({marks})", ids).rowcount
        db().execute(f"DELETE FROM review_vote WHERE review_id IN ({marks})", ids)
        flash(f"A total of {count} record(s) have been deleted.", "success")
    else:
        count = db().execute(f"UPDATE review SET status = ? WHERE id IN ({marks})",
                             [REVIEW_STATUS_SLUGS[action], *ids]).rowcount
        flash(f"A total of {count} record(s) have been updated.", "success")
    return redirect(_safe_return(request.form.get("return_to")))


@bp.get("/admin/review/product/edit/id/<int:review_id>/")
@admin_required
def review_edit(review_id: int) -> str:
    review = one_or_404(f"SELECT * FROM ({REVIEW_GRID_SQL}) WHERE id = ?", (review_id,))
    votes = dict(db().execute("SELECT rating_code, value FROM review_vote WHERE review_id = ?", (review_id,)).fetchall())
    return render_template("review_edit.html", review=review, statuses=REVIEW_STATUS_SLUGS, votes=votes,
                           RATING_KINDS=RATING_KINDS, modal=request.args.get("modal", ""))


@bp.post("/admin/review/product/save/id/<int:review_id>/")
@admin_required
def review_save(review_id: int) -> Response:
    one_or_404("SELECT id FROM review WHERE id = ?", (review_id,))
    status = REVIEW_STATUS_SLUGS.get(request.form.get("status_id", ""))
    nickname = request.form.get("nickname", "").strip()
    title = request.form.get("title", "").strip()
    detail = request.form.get("detail", "").strip()
    if not (status and nickname and title and detail):
        flash("Please fill in the status, nickname, summary and review.", "error")
        return redirect(url_for("marketing.review_edit", review_id=review_id))
    if not any(store in STORE_VIEWS for store in request.form.getlist("stores")):
        flash("Please select at least one store view in Visibility (Default Store View) for the review.", "error")
        return redirect(url_for("marketing.review_edit", review_id=review_id))
    rating = request.form.get("rating", "")
    db().execute("UPDATE review SET status = ?, nickname = ?, title = ?, detail = ?, "
                 "rating = COALESCE(?, rating) WHERE id = ?",
                 (status, nickname, title, detail, int(rating) if rating in ("1", "2", "3", "4", "5") else None,
                  review_id))
    for code, _ in RATING_KINDS:
        vote = request.form.get(f"vote_{code}", "")
        if code != "rating" and vote in ("1", "2", "3", "4", "5"):
            db().execute("INSERT OR REPLACE INTO review_vote (review_id, rating_code, value) VALUES (?, ?, ?)",
                         (review_id, code, int(vote)))
    flash("You saved the review.", "success")
    return redirect(url_for("marketing.review_edit", review_id=review_id))


@bp.post("/admin/review/product/delete/id/<int:review_id>/")
@admin_required
def review_delete(review_id: int) -> Response:
    one_or_404("SELECT id FROM review WHERE id = ?", (review_id,))
    db().execute("DELETE FROM review WHERE id = ?", (review_id,))
    db().execute("DELETE FROM review_vote WHERE review_id = ?", (review_id,))
    flash("The review has been deleted.", "success")
    return redirect(url_for("marketing.reviews"))


@bp.get("/admin/search/term/report/")
@admin_required
def search_terms() -> str | Response:
    bounce = redirect_to_canonical(TERM_FIELDS)
    if bounce:
        return bounce
    keyword = request.args.get("search", "").strip()
    where, args = (" WHERE query_text LIKE ?", [f"%{keyword}%"]) if keyword else ("", [])
    key, direction, order_by = sort_clause(TERM_SORTS, "uses")
    page = paginate(f"SELECT * FROM search_term{where}", args, order_by)
    return render_template("search_terms.html", page=page, sort=key, direction=direction, args=request.args,
                           url_with=lambda **kw: url_with(TERM_FIELDS, **kw))
