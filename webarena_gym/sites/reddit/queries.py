"""SQL and small pure helpers shared by the forum's seed code, views and task families."""

from __future__ import annotations

import datetime as dt
import math
import re
import sqlite3
from collections.abc import Iterable

#: Rows per listing page (comments, forums).
PAGE_SIZE = 20
#: Posts per listing page: Postmill lists 25 submissions a page.
SUBMISSIONS_PER_PAGE = 25

#: Listing sorts: URL name -> (label, ORDER BY clause).
SORTS: dict[str, tuple[str, str]] = {
    "hot": ("Hot", "s.ranking DESC, s.id DESC"),
    "new": ("New", "s.created_at DESC, s.id DESC"),
    "top": ("Top", "score DESC, s.created_at DESC, s.id DESC"),
    "comments": ("Most commented", "comment_count DESC, s.created_at DESC, s.id DESC"),
}

#: Periods of the top and most-commented listings (``?t=``): key -> (label, days back from the world's start).
TIME_FILTERS: dict[str, tuple[str, int | None]] = {
    "day": ("Past 24 hours", 1),
    "week": ("Past week", 7),
    "month": ("Past month", 30),
    "year": ("Past year", 365),
    "all": ("All time", None),
}

TIME_FORMAT = "%Y-%m-%d %H:%M:%S"

SUBMISSION_COLUMNS = """
    s.id, s.title, s.url, s.body, s.created_at, s.edited_at, s.upvotes, s.downvotes,
    s.upvotes - s.downvotes AS score, f.name AS forum, u.username AS author,
    (SELECT COUNT(*) FROM comments c WHERE c.submission_id = s.id) AS comment_count
"""
SUBMISSION_FROM = "submissions s JOIN forums f ON f.id = s.forum_id JOIN users u ON u.id = s.user_id"


def slugify(title: str) -> str:
    """URL slug of a post title, like Postmill's: lowercase words joined by dashes, at most ~60 chars.

    >>> slugify("Is Dune worth it in 2023?")
    'is-dune-worth-it-in-2023'
    """
    words = re.findall(r"[a-z0-9]+", title.lower())
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > 60 and slug:
            break
        slug = candidate
    return slug or "-"


def post_path(forum: str, submission_id: int, title: str) -> str:
    """Canonical path of a post page."""
    return f"/f/{forum}/{submission_id}/{slugify(title)}"


def comment_path(forum: str, submission_id: int, comment_id: int) -> str:
    """Permalink path of a comment (its subtree and reply form)."""
    return f"/f/{forum}/{submission_id}/-/comment/{comment_id}"


def hot_ranking(created_at: str, score: int) -> int:
    """Postmill-style hot rank: newer and better-scored posts rank higher.

    One order of magnitude of score is worth 12.5 hours of age.
    """
    seconds = int(dt.datetime.strptime(created_at, TIME_FORMAT).timestamp() - 1_500_000_000)
    sign = 1 if score > 0 else -1 if score < 0 else 0
    return seconds + sign * int(45000 * math.log10(max(abs(score), 1)))


def format_count(n: int) -> str:
    """Thousands separators, as the pages print counts.

    >>> format_count(12345)
    '12,345'
    """
    return f"{n:,}"


def list_submissions(
    conn: sqlite3.Connection, *, where: str = "1", params: Iterable = (), sort: str = "hot", page: int = 1
) -> tuple[list[sqlite3.Row], bool]:
    """One page of posts and whether a next page exists."""
    order = SORTS[sort][1]
    rows = conn.execute(
        f"SELECT {SUBMISSION_COLUMNS} FROM {SUBMISSION_FROM} WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?",
        (*params, SUBMISSIONS_PER_PAGE + 1, (page - 1) * SUBMISSIONS_PER_PAGE),
    ).fetchall()
    return rows[:SUBMISSIONS_PER_PAGE], len(rows) > SUBMISSIONS_PER_PAGE


def get_submission(conn: sqlite3.Connection, submission_id: int) -> sqlite3.Row | None:
    return conn.execute(
        f"SELECT {SUBMISSION_COLUMNS}, s.user_id FROM {SUBMISSION_FROM} WHERE s.id = ?", (submission_id,)
    ).fetchone()


def user_id(conn: sqlite3.Connection, username: str | None) -> int | None:
    if username is None:
        return None
    row = conn.execute("SELECT id FROM users WHERE username = ?", (username,)).fetchone()
    return row["id"] if row else None


def user_votes(conn: sqlite3.Connection, table: str, column: str, uid: int | None, ids: list[int]) -> dict[int, int]:
    """{item id: +1/-1} for the items the user voted on."""
    if uid is None or not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        f"SELECT {column}, choice FROM {table} WHERE user_id = ? AND {column} IN ({marks})", (uid, *ids)
    )
    return {row[0]: row[1] for row in rows}


def forum_summaries(conn: sqlite3.Connection) -> list[tuple]:
    """(id, name, title, subscriber count, post count) of every forum, alphabetical as /forums lists them."""
    return conn.execute(
        "SELECT f.id, f.name, f.title, f.subscriber_count,"
        " (SELECT COUNT(*) FROM submissions s WHERE s.forum_id = f.id) FROM forums f ORDER BY f.name COLLATE NOCASE"
    ).fetchall()


def forum_posts(conn: sqlite3.Connection, forum_id: int, sort: str) -> list[tuple]:
    """(id, title, author, score, comment count, forum) of a forum's posts in a listing's order."""
    return conn.execute(
        "SELECT s.id, s.title, u.username, s.upvotes - s.downvotes AS score,"
        " (SELECT COUNT(*) FROM comments c WHERE c.submission_id = s.id) AS comment_count, f.name"
        f" FROM {SUBMISSION_FROM} WHERE s.forum_id = ? ORDER BY {SORTS[sort][1]}",
        (forum_id,),
    ).fetchall()
