"""Forum families that change content or settings (program_html)."""

from __future__ import annotations

import re

from ....sites.reddit.queries import comment_path, forum_posts, forum_summaries, post_path
from ....tasks.families import TaskFamily, program_html_eval
from .common import (
    REDDIT,
    USER,
    family,
    listing,
    open_forum,
    open_post,
    post_url,
    subscribed_forums,
    unique_first,
    voted_by_user,
)
from .voting import vote_target

# -- content changes (program_html) ------------------------------------------------------

BIO_PHRASES = ("Big fan of {a} and {b}.", "Here mostly for {a}; sometimes {b}.", "{a} by day, {b} by night.")


def _edit_bio(conn):
    forums = forum_summaries(conn)
    for i in range(12):
        a, b = forums[i][2], forums[(i + 9) % len(forums)][2]
        bio = BIO_PHRASES[i % len(BIO_PHRASES)].format(a=a, b=b)
        yield {"content": bio}, program_html_eval(
            (f"{REDDIT}/user/{USER}", "document.querySelector('.user-bio__biography').outerText", {"exact_match": bio}))


def _solve_edit_bio(ctx):
    yield ctx.click(USER, tag="a", exact=True)
    yield ctx.click("Edit biography", tag="a", exact=True)
    yield ctx.type("Biography", ctx.instantiation["content"])
    yield ctx.click("Save", tag="button", exact=True)
    yield ctx.exit("Done")


def _vote_post(conn):
    voted = voted_by_user(conn)
    for i, (fid, forum, *_) in enumerate(forum_summaries(conn)):
        action, which, sort = ("Upvote", "newest", "new") if i % 2 == 0 else ("Downvote", "top", "top")
        post = unique_first(forum_posts(conn, fid, sort), 3) if sort == "top" else forum_posts(conn, fid, sort)[0]
        if post and post[0] not in voted:
            yield {"action": action, "which": which, "forum": forum}, program_html_eval(vote_target(post, action))


def _solve_vote_post(ctx):
    sort = "new" if ctx.instantiation["which"] == "newest" else "top"
    yield from open_forum(ctx, ctx.instantiation["forum"], sort)
    yield ctx.click_element(listing(ctx)[0]["title"])
    yield ctx.click(ctx.instantiation["action"], tag="button", exact=True)
    yield ctx.exit("Done")


REPLIES = ("Thanks {user}, that helped a lot!", "Good point, {user}. I had not thought of that.",
           "I agree with you, {user}.", "Could you say more about that, {user}?")


def _reply_to_comment(conn):
    rows = conn.execute(
        "SELECT s.id, s.title, u.username, MIN(c.id), f.name FROM comments c JOIN users u ON u.id = c.user_id"
        " JOIN submissions s ON s.id = c.submission_id JOIN forums f ON f.id = s.forum_id"
        " WHERE u.username != ? AND s.id % 19 = 4 GROUP BY s.id, u.id HAVING COUNT(*) = 1 ORDER BY s.id, MIN(c.id)",
        (USER,),
    ).fetchall()
    seen: set[int] = set()
    for sid, title, user, cid, forum in rows:
        if sid in seen:
            continue  # one comment per post: the first by a user who commented there once
        seen.add(sid)
        content = REPLIES[len(seen) % len(REPLIES)].format(user=user)
        yield ({"user": user, "title": title, "content": content},
               program_html_eval((REDDIT + comment_path(forum, sid, cid), "", {"must_include": [content]})),
               REDDIT + post_path(forum, sid, title))


def _solve_reply_to_comment(ctx):
    user = ctx.instantiation["user"]
    start = next(i for i, e in enumerate(ctx.elements) if e.tag == "button" and e.text == "Post comment")
    author = next(i for i, e in enumerate(ctx.elements) if i > start and e.tag == "a" and e.text == user)
    reply = next(e for e in ctx.elements[author:] if e.tag == "a" and e.text == "Reply")
    yield ctx.click_element(reply)
    yield ctx.type(f"Reply to {user}", ctx.instantiation["content"])
    yield ctx.click("Post reply", tag="button", exact=True)
    yield ctx.exit("Done")


SIDEBARS = (["Rules", "Events", "FAQ"], ["Welcome", "Weekly threads", "Resources"], ["Guides", "Meetups", "Wiki"])


def _create_forum(conn):
    taken = {r[0].lower() for r in conn.execute("SELECT name FROM forums")}
    for i, (_fid, forum, title, *_) in enumerate(forum_summaries(conn)[:15]):
        name = f"{forum.lower()}_club"
        if name in taken:
            continue
        description = f"A friendly corner for {title.lower()} fans"
        sidebar = SIDEBARS[i % len(SIDEBARS)]
        edit = f"{REDDIT}/f/{name}/edit"
        yield {"name": name, "description": description, "sidebar_list": str(sidebar)}, program_html_eval(
            (edit, "document.querySelector('#forum_description').value", {"must_include": [description]}),
            (edit, "document.querySelector('#forum_sidebar').value", {"must_include": sidebar}))


def _solve_create_forum(ctx):
    values = ctx.instantiation
    yield ctx.click("Create forum", tag="a", exact=True)
    yield ctx.type("Name", values["name"])
    yield ctx.type("Title", values["name"].replace("_", " ").title())
    yield ctx.type("Description", values["description"])
    yield ctx.type("Sidebar", "\n".join(re.findall(r"'([^']+)'", values["sidebar_list"])))
    yield ctx.click("Create forum", tag="button", exact=True)
    yield ctx.exit("Done")


def _post_in_forum(conn):
    for _fid, forum, title, *_ in forum_summaries(conn):
        post_title = f"Looking for {title.lower()} recommendations"
        body = f"What should a newcomer to {title.lower()} start with?"
        yield {"forum": forum, "title": post_title, "body": body}, program_html_eval(
            (f"func:reddit_newest_post_url('{USER}')", "document.querySelector('.submission__inner').outerText",
             {"must_include": [post_title, body]}),
            reference_url=f"{REDDIT}/f/{forum}", note="GOLD in PRED")


def _solve_post_in_forum(ctx):
    values = ctx.instantiation
    yield from open_forum(ctx, values["forum"])
    yield ctx.click(f"Submit a post to {values['forum']}", tag="a", exact=True)
    yield ctx.type("Title", values["title"])
    yield ctx.type("Body", values["body"])
    yield ctx.click("Create submission", tag="button", exact=True)
    yield ctx.exit("Done")


def _subscribe_from_thread(conn):
    already = subscribed_forums(conn)
    for fid, forum, *_ in forum_summaries(conn):
        top = unique_first(forum_posts(conn, fid, "top"), 3)
        if top and forum not in already:
            yield {"forum": forum}, program_html_eval(
                ("last", "document.querySelector('.forum-card button').outerText", {"exact_match": "Unsubscribe"}),
                reference_url=post_url(top), note="EXACT")


def _solve_subscribe_from_thread(ctx):
    yield from open_forum(ctx, ctx.instantiation["forum"], "top")
    yield ctx.click_element(listing(ctx)[0]["title"])
    yield ctx.click("Subscribe", tag="button", exact=True)
    yield ctx.exit("Done")


def _subscribe_trending(conn):
    already = subscribed_forums(conn)
    for _fid, forum, *_ in forum_summaries(conn):
        if forum not in already:
            yield {"subreddit": forum}, program_html_eval(
                (f"{REDDIT}/", 'document.querySelector("#sidebar > section").outerText', {"must_include": [forum]}),
                reference_url=f"{REDDIT}/f/{forum}", note="GOLD in PRED")


def _solve_subscribe_trending(ctx):
    yield from open_forum(ctx, ctx.instantiation["subreddit"], "hot")
    yield ctx.click_element(listing(ctx)[0]["title"])
    yield ctx.click("Subscribe", tag="button", exact=True)
    yield ctx.exit("Done")


COMMENTS = ("Interesting read, thanks for sharing.", "???", "Does anyone have a source for this?",
            "Bookmarking this one.", "This deserves more attention.", "Well said.", "I learned something today.",
            "Can't wait to see where this goes.", "Great post!", "Following this thread.", "Totally agree.",
            "Not convinced, to be honest.")


def _reply_to_post(conn):
    rows = conn.execute(
        "SELECT s.id, s.title, f.name FROM submissions s JOIN forums f ON f.id = s.forum_id JOIN users u"
        " ON u.id = s.user_id WHERE u.username != ? AND NOT EXISTS"
        " (SELECT 1 FROM comments c WHERE c.submission_id = s.id) AND s.id % 7 = 3 ORDER BY s.id", (USER,),
    ).fetchall()
    for (sid, title, forum), content in zip(rows, COMMENTS, strict=False):
        url = REDDIT + post_path(forum, sid, title)
        yield ({"position_description": "the post", "content_description": content},
               program_html_eval(("last", "document.querySelector('.comment__body').outerText", {"exact_match": content}),
                                 reference_url=url, note="GOLD in PRED"),
               url)


def _solve_reply_to_post(ctx):
    yield ctx.type("Comment", ctx.instantiation["content_description"])
    yield ctx.click("Post comment", tag="button", exact=True)
    yield ctx.exit("Done")


LINES = ("Every read makes me think again.", "Update: the story has moved on since.", "Still relevant a year later.",
         "Worth reading to the end.", "Thanks to everyone who commented.", "A follow-up is coming soon.",
         "Shared it with my friends too.", "This changed how I see the topic.", "Edit: fixed the link.",
         "I keep coming back to this one.", "Source checked twice.", "More thoughts in the comments.")


def _edit_post_line(conn):
    rows = conn.execute(
        "SELECT s.id, s.title, f.name FROM submissions s JOIN forums f ON f.id = s.forum_id JOIN users u"
        " ON u.id = s.user_id WHERE u.username = ? AND s.body = '' ORDER BY s.id", (USER,),
    ).fetchall()
    for (sid, title, forum), line in zip(rows, LINES, strict=False):
        yield {"post": title, "content": line}, program_html_eval(
            (REDDIT + post_path(forum, sid, title), "document.querySelector('.submission__body').outerText",
             {"exact_match": line}))


def _solve_edit_post_line(ctx):
    yield from open_post(ctx, ctx.instantiation["post"])
    yield ctx.click("Edit", tag="a", exact=True)
    yield ctx.type("Body", ctx.instantiation["content"])
    yield ctx.click("Save", tag="button", exact=True)
    yield ctx.exit("Done")


FAMILIES: list[TaskFamily] = [
    family("edit_bio", 'Change my reddit bio to "{{content}}"',
           "content", _edit_bio, _solve_edit_bio),
    family("vote_post", "{{action}} the {{which}} post in the {{forum}} forum",
           "content", _vote_post, _solve_vote_post),
    family("reply_to_comment", 'Reply to the comment by {{user}} on this post, "{{title}}", with "{{content}}"',
           "content", _reply_to_comment, _solve_reply_to_comment),
    family("create_forum", "Create a new forum named {{name}}, with a description of {{description}},"
           " and include {{sidebar_list}} in the sidebar",
           "content", _create_forum, _solve_create_forum),
    family("post_in_forum", 'Post in the {{forum}} forum with the title "{{title}}" and the body "{{body}}"',
           "content", _post_in_forum, _solve_post_in_forum),
    family("subscribe_from_thread", "Open the thread of the top post of all time in the {{forum}} forum"
           " and subscribe to the forum",
           "content", _subscribe_from_thread, _solve_subscribe_from_thread),
    family("subscribe_trending", 'Open the thread of a trending post on the forum "{{subreddit}}" and subscribe.',
           "content", _subscribe_trending, _solve_subscribe_trending),
    family("reply_to_post", 'Reply to {{position_description}} with my comment "{{content_description}}"',
           "content", _reply_to_post, _solve_reply_to_post),
    family("edit_post_line", 'Edit my post on {{post}} by adding a line to the body that says "{{content}}"',
           "content", _edit_post_line, _solve_edit_post_line),
]
