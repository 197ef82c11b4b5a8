"""Forum families that ask for information (string_match) or a page (url_match)."""

from __future__ import annotations

import re

from ....sites.reddit.content import FORUMS
from ....sites.reddit.queries import SUBMISSIONS_PER_PAGE, forum_posts, forum_summaries
from ....tasks.families import TaskFamily, string_match_eval, url_match_eval
from ....tasks.task import any_of
from .common import REDDIT, family, listing, open_forum, open_post, unique_first

# -- information seeking (string_match) --------------------------------------------------


def _top_post_title(conn):
    for fid, forum, *_ in forum_summaries(conn):
        top = unique_first(forum_posts(conn, fid, "top"), 3)
        if top:
            yield {"forum": forum}, string_match_eval(exact_match=top[1])


def _solve_top_post_title(ctx):
    yield from open_forum(ctx, ctx.instantiation["forum"], "top")
    yield ctx.exit(listing(ctx)[0]["title"].text)


def _latest_poster(conn):
    for fid, forum, *_ in forum_summaries(conn):
        yield {"forum": forum}, string_match_eval(exact_match=forum_posts(conn, fid, "new")[0][2])


def _solve_latest_poster(ctx):
    yield from open_forum(ctx, ctx.instantiation["forum"], "new")
    yield ctx.exit(listing(ctx)[0]["author"].text)


def _subscriber_count(conn):
    for _fid, forum, _title, count, _n in forum_summaries(conn):
        shown = any_of(f"{count:,}", str(count))
        yield {"forum": forum}, string_match_eval(must_include=[shown])


def _solve_subscriber_count(ctx):
    yield from open_forum(ctx, ctx.instantiation["forum"])
    yield ctx.exit(ctx.search_text(r"([\d,]+) subscribers?"))


def _comment_count(conn):
    rows = conn.execute(
        "SELECT s.title, f.name, (SELECT COUNT(*) FROM comments c WHERE c.submission_id = s.id) FROM submissions s"
        " JOIN forums f ON f.id = s.forum_id WHERE s.id % 23 = 5 ORDER BY s.id"
    ).fetchall()
    for title, forum, count in rows:
        yield {"title": title, "forum": forum}, string_match_eval(must_include=[str(count)])


def _solve_comment_count(ctx):
    yield from open_post(ctx, ctx.instantiation["title"])
    yield ctx.exit(ctx.search_text(r"<h2>(\d+) comments?</h2>"))


def _negative_comments(conn):
    for fid, forum, *_ in forum_summaries(conn):
        author = forum_posts(conn, fid, "new")[0][2]
        count = conn.execute(
            "SELECT COUNT(*) FROM comments c JOIN users u ON u.id = c.user_id"
            " WHERE u.username = ? AND c.downvotes > c.upvotes", (author,)
        ).fetchone()[0]
        yield {"forum": forum}, string_match_eval(must_include=[str(count)])


def _solve_negative_comments(ctx):
    yield from open_forum(ctx, ctx.instantiation["forum"], "new")
    yield ctx.click_element(listing(ctx)[0]["author"])
    yield ctx.click_element(next(e for e in ctx.elements if e.tag == "a" and e.text.startswith("Comments (")))
    count = len(re.findall(r"· -\d+ points?", ctx.page.text))
    while ctx.find_all("Next page", tag="a", exact=True):
        yield ctx.click("Next page", tag="a", exact=True)
        count += len(re.findall(r"· -\d+ points?", ctx.page.text))
    yield ctx.exit(str(count))


def _top_author_bio(conn):
    for fid, forum, *_ in forum_summaries(conn):
        top = unique_first(forum_posts(conn, fid, "top"), 3)
        bio = top and conn.execute("SELECT biography FROM users WHERE username = ?", (top[2],)).fetchone()[0]
        if bio:
            yield {"forum": forum}, string_match_eval(fuzzy_match=[bio])


def _solve_top_author_bio(ctx):
    yield from open_forum(ctx, ctx.instantiation["forum"], "top")
    yield ctx.click_element(listing(ctx)[0]["author"])
    yield ctx.exit(ctx.search_text(r"<h2>About [^<]+</h2>\s*<p>([^<]+)</p>"))


def _post_views(conn):
    rows = conn.execute(
        "SELECT s.title, f.name FROM submissions s JOIN forums f ON f.id = s.forum_id WHERE s.id % 41 = 7 ORDER BY s.id"
    ).fetchall()
    for title, forum in rows:
        yield {"title": title, "forum": forum}, string_match_eval(fuzzy_match="N/A")


def _solve_post_views(ctx):
    yield from open_post(ctx, ctx.instantiation["title"])
    if re.search(r"\bviews?\b", ctx.text(), re.I):
        raise AssertionError("the post page shows a view count; the task would be achievable")
    yield ctx.exit("N/A")


def _most_commented_of_top(conn):
    for i, (fid, forum, *_) in enumerate(forum_summaries(conn)):
        number = (3, 5)[i % 2]
        posts = forum_posts(conn, fid, "top")
        if len(posts) <= number or posts[number - 1][3] == posts[number][3]:
            continue  # the top-n boundary is a tie
        best = unique_first(sorted(posts[:number], key=lambda p: -p[4]), 4)
        if best:
            yield {"number": number, "forum": forum}, string_match_eval(must_include=[best[1]])


def _solve_most_commented_of_top(ctx):
    yield from open_forum(ctx, ctx.instantiation["forum"], "top")
    top = listing(ctx)[: int(ctx.instantiation["number"])]
    yield ctx.exit(max(top, key=lambda p: p["comments"])["title"].text)


def _top_posts_about(conn):
    topics = {name: forum_topics for name, *_rest, forum_topics in FORUMS}
    for i, (fid, forum, *_) in enumerate(forum_summaries(conn)):
        number = (10, 5)[i % 2]
        posts = forum_posts(conn, fid, "top")
        if len(posts) <= number or posts[number - 1][3] == posts[number][3]:
            continue  # the top-n boundary is a tie
        for topic in topics.get(forum, []):
            about = [p for p in posts[:number] if topic.lower() in p[1].lower()]
            if len(about) == 1:
                description = f"is there any post that talks about {topic}? If so, tell me who posted it"
                yield ({"number": number, "subreddit": forum, "description": description},
                       string_match_eval(must_include=[about[0][2]]))
                break


def _solve_top_posts_about(ctx):
    topic = re.search(r"talks about (.+)\? If so", ctx.instantiation["description"])[1]
    yield from open_forum(ctx, ctx.instantiation["subreddit"], "top")
    rows = listing(ctx)[: int(ctx.instantiation["number"])]
    yield ctx.exit(next(r for r in rows if topic.lower() in r["title"].text.lower())["author"].text)


def _forum_post_count(conn):
    for _fid, forum, _title, _subs, count in forum_summaries(conn):
        yield {"forum": forum}, string_match_eval(must_include=[str(count)])


def _solve_forum_post_count(ctx):
    forum = ctx.instantiation["forum"]
    yield ctx.click("Forums", tag="a", exact=True)
    row = rf'<a id="\d+">{re.escape(forum)}</a></td> <td>[^<]*</td> <td>[\d,]+</td> <td>([\d,]+)</td>'
    while not re.search(row, ctx.page.text):
        yield ctx.click("Next page", tag="a", exact=True)
    yield ctx.exit(ctx.search_text(row))


def _bigger_forum(conn):
    forums = forum_summaries(conn)
    pairs: set[frozenset] = set()
    for i, (_fid, forum_a, _t, subs_a, _n) in enumerate(forums):
        _fid, forum_b, _t, subs_b, _n = forums[(i * 7 + 3) % len(forums)]
        if forum_a != forum_b and frozenset((forum_a, forum_b)) not in pairs:
            pairs.add(frozenset((forum_a, forum_b)))
            winner = forum_a if subs_a > subs_b else forum_b
            yield {"forum_a": forum_a, "forum_b": forum_b}, string_match_eval(exact_match=winner)


def _solve_bigger_forum(ctx):
    names = (ctx.instantiation["forum_a"], ctx.instantiation["forum_b"])
    yield ctx.click("Forums", tag="a", exact=True)
    yield ctx.click("By subscribers", tag="a", exact=True)
    while True:
        found = [e for e in ctx.elements if e.tag == "a" and e.text in names]
        if found:
            yield ctx.exit(found[0].text)
            return
        yield ctx.click("Next page", tag="a", exact=True)


# -- navigation (url_match) --------------------------------------------------------------


def _forum_top(conn):
    for _fid, forum, *_ in forum_summaries(conn):
        yield {"forum": forum}, url_match_eval(any_of(f"{REDDIT}/f/{forum}/top", f"{REDDIT}/f/{forum}?sort=top"), "EXACT")


def _solve_forum_top(ctx):
    yield from open_forum(ctx, ctx.instantiation["forum"], "top")
    yield ctx.exit("Done")


def _most_commented_author(conn):
    for fid, forum, *_ in forum_summaries(conn):
        best = unique_first(forum_posts(conn, fid, "comments"), 4)
        if best:
            user = best[2]
            yield {"forum": forum}, url_match_eval(any_of(f"{REDDIT}/user/{user}", f"{REDDIT}/user/{user}/submissions"), "EXACT")


def _solve_most_commented_author(ctx):
    yield from open_forum(ctx, ctx.instantiation["forum"], "comments")
    yield ctx.click_element(listing(ctx)[0]["author"])
    yield ctx.exit("Done")


def _second_page_new(conn):
    for _fid, forum, _title, _subs, count in forum_summaries(conn):
        if count > SUBMISSIONS_PER_PAGE:
            yield {"forum": forum}, url_match_eval(f"{REDDIT}/f/{forum}/new?page=2", "GOLD in PRED")


def _solve_second_page_new(ctx):
    yield from open_forum(ctx, ctx.instantiation["forum"], "new")
    yield ctx.click("Next page", tag="a", exact=True)
    yield ctx.exit("Done")


FAMILIES: list[TaskFamily] = [
    family("top_post_title", "What is the title of the top post of all time in the {{forum}} forum?",
           "information", _top_post_title, _solve_top_post_title),
    family("latest_poster", "Who made the latest post in the {{forum}} forum?",
           "information", _latest_poster, _solve_latest_poster),
    family("subscriber_count", "How many subscribers does the {{forum}} forum have?",
           "information", _subscriber_count, _solve_subscriber_count),
    family("comment_count", 'How many comments does the post "{{title}}" in the {{forum}} forum have?',
           "information", _comment_count, _solve_comment_count),
    family("negative_comments", "Tell me the count of comments that have received more downvotes than upvotes"
           " for the user who made the latest post on the {{forum}} forum.",
           "information", _negative_comments, _solve_negative_comments),
    family("top_author_bio", "What does the author of the top post of all time in the {{forum}} forum"
           " say about themselves in their biography?",
           "information", _top_author_bio, _solve_top_author_bio),
    family("post_views", 'How many times has the post "{{title}}" in the {{forum}} forum been viewed?',
           "information", _post_views, _solve_post_views),
    family("most_commented_of_top", "Among the top {{number}} posts of all time in the {{forum}} forum,"
           " which one has the most comments? Give its title.",
           "information", _most_commented_of_top, _solve_most_commented_of_top),
    family("top_posts_about", 'Among the top {{number}} post in "{{subreddit}}" forum, {{description}}',
           "information", _top_posts_about, _solve_top_posts_about),
    family("forum_post_count", "How many posts are there in the {{forum}} forum?",
           "information", _forum_post_count, _solve_forum_post_count),
    family("bigger_forum", "Which forum has more subscribers, {{forum_a}} or {{forum_b}}?",
           "information", _bigger_forum, _solve_bigger_forum),
    family("forum_sorted_top", "Show me the posts of the {{forum}} forum sorted by top",
           "navigation", _forum_top, _solve_forum_top),
    family("most_commented_author", "Open the profile of the user who wrote the most commented post"
           " in the {{forum}} forum",
           "navigation", _most_commented_author, _solve_most_commented_author),
    family("second_page_new", "Show me the second page of the newest posts in the {{forum}} forum",
           "navigation", _second_page_new, _solve_second_page_new),
]
