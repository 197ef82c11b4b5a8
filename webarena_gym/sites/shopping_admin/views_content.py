"""Content: CMS pages (grid, edit, new) and Design > Themes (grid and theme preview)."""

from __future__ import annotations

import re

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..webapp import db, world
from .data import stamp
from .helpers import admin_required, one_or_404, paginate, redirect_to_canonical, sort_clause, url_with

bp = Blueprint("content", __name__)

PAGE_FIELDS = {"search": "text", "status": "text", "sort": "text", "dir": "text", "page": "page"}
PAGE_SORTS = {"id": "id", "title": "title", "identifier": "identifier", "is_active": "is_active",
              "created_at": "created_at", "updated_at": "updated_at"}
#: Preview colours of the themes, by id (a store header in the theme's palette).
THEME_COLOURS = ("#ffffff", "#1979c3", "#2e7d32", "#0d47a1", "#8bc34a", "#616161", "#ff7043", "#263238", "#ef6c00",
                 "#455a64")


def _page_form() -> tuple[dict[str, object], list[str]]:
    values = {"title": request.form.get("title", "").strip(),
              "identifier": request.form.get("identifier", "").strip().lower(),
              "content": request.form.get("content", "").strip(),
              "is_active": 1 if request.form.get("is_active", "1") == "1" else 0}
    errors = []
    if not values["title"]:
        errors.append("Page Title is required.")
    if not re.fullmatch(r"[a-z0-9][a-z0-9\-/]*", str(values["identifier"])):
        errors.append("URL Key must use lowercase letters, digits and dashes.")
    return values, errors


@bp.get("/admin/cms/page/")
@admin_required
def cms_pages() -> str | Response:
    bounce = redirect_to_canonical(PAGE_FIELDS)
    if bounce:
        return bounce
    clauses, args = [], []
    keyword = request.args.get("search", "").strip()
    if keyword:
        clauses.append("(title LIKE ? OR identifier LIKE ?)")
        args += [f"%{keyword}%"] * 2
    if request.args.get("status") in ("0", "1"):
        clauses.append("is_active = ?")
        args.append(int(request.args["status"]))
    where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
    key, direction, order_by = sort_clause(PAGE_SORTS, "id", "asc")
    page = paginate(f"SELECT * FROM cms_page{where}", args, order_by)
    return render_template("cms_pages.html", page=page, sort=key, direction=direction, args=request.args,
                           url_with=lambda **kw: url_with(PAGE_FIELDS, **kw))


@bp.get("/admin/cms/page/edit/page_id/<int:page_id>/")
@admin_required
def cms_page_edit(page_id: int) -> str:
    return render_template("cms_page_edit.html", cms=one_or_404("SELECT * FROM cms_page WHERE id = ?", (page_id,)),
                           errors=[])


@bp.get("/admin/cms/page/new/")
@admin_required
def cms_page_new() -> str:
    blank = {"id": None, "title": "", "identifier": "", "content": "", "is_active": 1}
    return render_template("cms_page_edit.html", cms=blank, errors=[])


@bp.post("/admin/cms/page/save/")
@bp.post("/admin/cms/page/save/page_id/<int:page_id>/")
@admin_required
def cms_page_save(page_id: int | None = None) -> str | Response | tuple[str, int]:
    if page_id is not None:
        one_or_404("SELECT id FROM cms_page WHERE id = ?", (page_id,))
    values, errors = _page_form()
    clash = db().execute("SELECT 1 FROM cms_page WHERE identifier = ? AND id IS NOT ?",
                         (values["identifier"], page_id)).fetchone()
    if clash:
        errors.append("Another page uses this URL Key.")
    if errors:
        return render_template("cms_page_edit.html", cms=values | {"id": page_id}, errors=errors), 400
    now = stamp(world().now())
    if page_id is None:
        page_id = db().execute("INSERT INTO cms_page (title, identifier, content, is_active, created_at, updated_at) "
                               "VALUES (?,?,?,?,?,?)", (*values.values(), now, now)).lastrowid
    else:
        db().execute("UPDATE cms_page SET title = ?, identifier = ?, content = ?, is_active = ?, updated_at = ? "
                     "WHERE id = ?", (*values.values(), now, page_id))
    flash("You saved the page.", "success")
    return redirect(url_for("content.cms_page_edit", page_id=page_id))


@bp.get("/admin/admin/system_design_theme/")
@admin_required
def themes() -> str:
    rows = db().execute("SELECT * FROM theme ORDER BY id").fetchall()
    return render_template("themes.html", themes=rows)


@bp.get("/admin/admin/system_design_theme/edit/id/<int:theme_id>/")
@admin_required
def theme_edit(theme_id: int) -> str:
    theme = one_or_404("SELECT * FROM theme WHERE id = ?", (theme_id,))
    colour = THEME_COLOURS[(theme_id - 1) % len(THEME_COLOURS)]
    products = db().execute("SELECT name, price FROM product WHERE status = 1 ORDER BY views DESC LIMIT 4").fetchall()
    return render_template("theme_edit.html", theme=theme, colour=colour, products=products)
