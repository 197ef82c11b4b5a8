"""Post listings: the front page, a forum's page and search, each sortable and paginated."""

from __future__ import annotations

import datetime as dt

from flask import Blueprint, abort, redirect, render_template, request, url_for

from ..webapp import db
from ..world import WORLD_START
from .common import current_uid, forum_moderators, forum_or_404, is_subscribed, page_number, subscribed_forums
from .queries import SORTS, TIME_FILTERS, TIME_FORMAT, list_submissions, user_votes

bp = Blueprint("listing", __name__)

SORT_PATHS = "any(" + ",".join(SORTS) + ")"


def _sort(path_sort: str | None) -> str:
    """Sort from the path (``/f/books/top``) or the query (``?sort=top``); hot by default."""
    sort = path_sort or request.args.get("sort", "hot")
    if sort not in SORTS:
        abort(404)
    return sort


def _time_filter(sort: str) -> tuple[str, str, tuple]:
    """The ``?t=`` period of a top or most-commented listing: (key, extra WHERE clause, its parameters)."""
    key = request.args.get("t", "all")
    if key not in TIME_FILTERS:
        abort(404)
    days = TIME_FILTERS[key][1]
    if sort not in ("top", "comments") or days is None:
        return key, "", ()
    return key, " AND s.created_at >= ?", ((WORLD_START - dt.timedelta(days=days)).strftime(TIME_FORMAT),)


def _time_url(key: str) -> str:
    args = {k: v for k, v in request.args.items() if k not in ("page", "t")}
    if key != "all":
        args["t"] = key
    return url_for(request.endpoint, **(request.view_args or {}), **args)


def _listing_context(rows: list, has_next: bool, page: int, sort: str, period: str = "all") -> dict:
    uid = current_uid()
    return {
        "period": period,
        "periods": TIME_FILTERS,
        "time_url": _time_url,
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
    period, since, params = _time_filter(sort)
    rows, has_next = list_submissions(db(), where="1" + since, params=params, sort=sort, page=page)
    return render_template(
        "front.html",
        subscriptions=subscribed_forums(current_uid()),
        sort_url=lambda s: url_for("listing.front", path_sort=s),
        **_listing_context(rows, has_next, page, sort, period),
    )


@bp.get("/f/<forum_name>")
@bp.get(f"/f/<forum_name>/<{SORT_PATHS}:path_sort>")
def forum(forum_name: str, path_sort: str | None = None):
    forum = forum_or_404(forum_name)
    if forum["name"] != forum_name:
        return redirect(url_for("listing.forum", forum_name=forum["name"], path_sort=path_sort, **request.args))
    sort, page = _sort(path_sort), page_number()
    period, since, params = _time_filter(sort)
    rows, has_next = list_submissions(
        db(), where="s.forum_id = ?" + since, params=(forum["id"], *params), sort=sort, page=page)
    return render_template(
        "forum.html",
        forum=forum,
        moderators=forum_moderators(forum["id"]),
        subscribed=is_subscribed(forum["id"], current_uid()),
        sort_url=lambda s: url_for("listing.forum", forum_name=forum["name"], path_sort=s),
        **_listing_context(rows, has_next, page, sort, period),
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
