"""Forum families that vote on posts (program_html on the post pages, as WebArena-Lite checks them)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

from ....sites.reddit.queries import forum_posts, forum_summaries
from ....tasks.families import TaskFamily, program_html_eval
from .common import USER, family, listing, open_forum, open_user_of, post_url, voted_by_user

#: WebArena-Lite's vote check: the class of the first form in the post's vote box.
VOTE_CLASS_LOCATOR = "document.querySelector('div.submission__vote').querySelector('form').getAttribute('class')"
VOTED = {"Upvote": "vote vote--user-upvoted", "Downvote": "vote vote--user-downvoted"}


def vote_target(row: tuple, action: str) -> tuple[str, str, dict]:
    """A program_html target: the post at ``row`` (a forum_posts row) carries the user's ``action``."""
    return post_url(row), VOTE_CLASS_LOCATOR, {"must_include": [VOTED[action]]}


def _upvote_newest(conn: sqlite3.Connection):
    voted = voted_by_user(conn)
    for fid, forum, *_ in forum_summaries(conn):
        newest = forum_posts(conn, fid, "new")[0]
        if newest[0] not in voted and newest[2] != USER:
            yield {"subreddit": forum}, program_html_eval(vote_target(newest, "Upvote"))


def _solve_upvote_newest(ctx) -> Iterator[str]:
    yield from open_forum(ctx, ctx.instantiation["subreddit"], "new")
    yield ctx.click_element(listing(ctx)[0]["up"])
    yield ctx.exit("Done")


def _downvote_top(conn: sqlite3.Connection):
    voted = voted_by_user(conn)
    for i, (fid, forum, *_) in enumerate(forum_summaries(conn)):
        k = (1, 2, 3)[i % 3]
        posts = forum_posts(conn, fid, "top")
        top = posts[:k]
        if len(posts) <= k or posts[k - 1][3] == posts[k][3]:
            continue  # the top-k boundary is a tie
        if any(p[0] in voted or p[2] == USER for p in top):
            continue
        yield {"k": k, "subreddit": forum}, program_html_eval(*(vote_target(p, "Downvote") for p in top))


def _solve_downvote_top(ctx) -> Iterator[str]:
    yield from open_forum(ctx, ctx.instantiation["subreddit"], "top")
    targets = [row["title"].text for row in listing(ctx)[: int(ctx.instantiation["k"])]]
    for title in targets:  # each vote re-sorts the listing: find the post again by its title
        row = next(r for r in listing(ctx) if r["title"].text == title)
        yield ctx.click_element(row["down"])
    yield ctx.exit("Done")


def _all_by_user(action: str):
    def instances(conn: sqlite3.Connection):
        voted = voted_by_user(conn)
        pairs = conn.execute(
            "SELECT u.username, f.name, f.id FROM submissions s JOIN users u ON u.id = s.user_id"
            " JOIN forums f ON f.id = s.forum_id WHERE u.username != ? GROUP BY u.id, f.id"
            " HAVING COUNT(*) BETWEEN 2 AND 4 ORDER BY f.name COLLATE NOCASE, u.username",
            (USER,),
        ).fetchall()
        for n, (user, forum, fid) in enumerate(pairs):
            if n % 2 != (action == "Downvote"):
                continue  # alternate pairs between liking and disliking
            posts = [p for p in forum_posts(conn, fid, "new") if p[2] == user]
            if not any(p[0] in voted for p in posts):
                yield {"user": user, "subreddit": forum}, program_html_eval(*(vote_target(p, action) for p in posts))

    return instances


def _solve_all_by_user(button: str):
    def solve(ctx) -> Iterator[str]:
        user, forum = ctx.instantiation["user"], ctx.instantiation["subreddit"]
        yield from open_user_of(ctx, forum, user)
        done: set[str] = set()
        while True:  # the profile lists every forum: vote on this forum's rows, page by page
            row = next((r for r in listing(ctx) if r["forum"].text == forum and r["title"].text not in done), None)
            if row is not None:
                done.add(row["title"].text)
                yield ctx.click_element(row[button])
            elif ctx.find_all("Next page", tag="a", exact=True):
                yield ctx.click("Next page", tag="a", exact=True)
            else:
                break
        yield ctx.exit("Done")

    return solve


FAMILIES: list[TaskFamily] = [
    family("upvote_newest", "Upvote the newest post in {{subreddit}} subreddit",
           "content", _upvote_newest, _solve_upvote_newest),
    family("downvote_top", "Thumbs down the top {{k}} post ever in {{subreddit}}.",
           "content", _downvote_top, _solve_downvote_top),
    family("like_all_by_user", "Like all submissions created by {{user}} in subreddit {{subreddit}}",
           "content", _all_by_user("Upvote"), _solve_all_by_user("up")),
    family("dislike_all_by_user", "DisLike all submissions created by {{user}} in subreddit {{subreddit}}",
           "content", _all_by_user("Downvote"), _solve_all_by_user("down")),
]
