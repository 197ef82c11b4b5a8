"""The reference site's pages: the library, articles, and search, at kiwix-serve's paths."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request

from ..webapp import db
from .data import BOOK, MAIN_PAGE
from .markup import article_path, search, title_of

bp = Blueprint("wiki", __name__)

#: Search results per page (kiwix-serve's default page length).
PAGE_LENGTH = 25


@bp.get("/")
def library() -> str:
    count = db().execute("SELECT count(*) FROM articles").fetchone()[0]
    return render_template("library.html", count=count, main=article_path(MAIN_PAGE))


@bp.get(f"/{BOOK}/")
@bp.get(f"/{BOOK}")
def book() -> Any:
    return redirect(article_path(MAIN_PAGE))


@bp.get(f"/{BOOK}/A/<path:name>")
def article(name: str) -> Any:
    conn = db()
    row = conn.execute("SELECT * FROM articles WHERE title = ?", (title_of(name),)).fetchone()
    if row is None:
        abort(404)
    infobox = conn.execute("SELECT label, value FROM infobox WHERE article_id = ? ORDER BY position",
                           (row["id"],)).fetchall()
    sections = conn.execute("SELECT heading, body FROM sections WHERE article_id = ? ORDER BY position",
                            (row["id"],)).fetchall()
    tables = [(t["caption"], json.loads(t["rows"])) for t in conn.execute(
        "SELECT caption, rows FROM tables WHERE article_id = ? ORDER BY position", (row["id"],))]
    return render_template("article.html", article=row, infobox=infobox, sections=sections, tables=tables)


@bp.get("/search")
def search_page() -> str:
    pattern = request.args.get("pattern", "").strip()
    try:
        start = max(0, int(request.args.get("start", "0")))
    except ValueError:
        start = 0
    results = search(db(), pattern) if pattern else []
    shown = results[start:start + PAGE_LENGTH]
    return render_template("search.html", pattern=pattern, results=shown, total=len(results), start=start,
                           page_length=PAGE_LENGTH, book=BOOK)


def not_found(_error: Exception) -> tuple[str, int]:
    return render_template("not_found.html", path=request.path), 404
