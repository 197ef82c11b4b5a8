"""Post listings: the front page, a forum's page and search, each sortable and paginated."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for

from ..webapp import db
from .common import current_uid, forum_or_404, is_subscribed, page_number, subscribed_forums
from .queries import SORTS, list_submissions, user_votes

bp = Blueprint("listing", __name__)

SORT_PATHS = "any(" + ",".join(SORTS) + ")"


def _sort(path_sort: str | None) -> str:
    """Sort from the path (``/f/books/top``) or the query (``?sort=top``); hot by default."""
    sort = path_sort or request.args.get("sort", "hot")
    if sort not in SORTS:
        abort(404)
    return sort


def _listing_context(rows: list, has_next: bool, page: int, sort: str) -> dict:
    uid = current_uid()
    return {
        "submissions": rows,
        "votes": user_votes(db(), "submission_votes", "submission_id", uid, [r["id"] for r in rows]),
        "page": page,
        "has_next": has_next,
        "sort": sort,
        "sorts": SORTS,
    }


@bp.get("/")
@bp.get(f"/<{SORT_PATHS}:path_sort>")
def front(path_sort: str | None = None):
    sort, page = _sort(path_sort), page_number()
    rows, has_next = list_submissions(db(), sort=sort, page=page)
    return render_template(
        "front.html",
        subscriptions=subscribed_forums(current_uid()),
        sort_url=lambda s: url_for("listing.front", path_sort=s),
        **_listing_context(rows, has_next, page, sort),
    )


@bp.get("/f/<forum_name>")
@bp.get(f"/f/<forum_name>/<{SORT_PATHS}:path_sort>")
def forum(forum_name: str, path_sort: str | None = None):
    forum = forum_or_404(forum_name)
    if forum["name"] != forum_name:
        return redirect(url_for("listing.forum", forum_name=forum["name"], path_sort=path_sort, **request.args))
    sort, page = _sort(path_sort), page_number()
    rows, has_next = list_submissions(db(), where="s.forum_id = ?", params=(forum["id"],), sort=sort, page=page)
    return render_template(
        "forum.html",
        forum=forum,
        subscribed=is_subscribed(forum["id"], current_uid()),
        sort_url=lambda s: url_for("listing.forum", forum_name=forum["name"], path_sort=s),
        **_listing_context(rows, has_next, page, sort),
    )


@bp.get("/search")
def search():
    query = request.args.get("q", "").strip()
    sort, page = _sort(None), page_number()
    rows, has_next = [], False
    if query:
        pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows, has_next = list_submissions(
            db(),
            where="(s.title LIKE ? ESCAPE '\\' OR s.body LIKE ? ESCAPE '\\')",
            params=(pattern, pattern),
            sort=sort,
            page=page,
        )
    return render_template(
        "search.html",
        query=query,
        sort_url=lambda s: url_for("listing.search", q=query, sort=s),
        **_listing_context(rows, has_next, page, sort),
    )
