"""Forum families that write a new post (url_match on the forum, program_html on the post).

Several intents name a topic but not the forum, as WebArena-Lite's do ("post my question in a
subreddit where I'm likely to get an answer"). The suitable forums are computed from the data:
every forum holding a post whose title or body mentions the topic (what the site's search
finds). The url check accepts any of them; the oracle searches the topic and posts in the
forum with the most hits.
"""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from collections.abc import Iterator

from ....sites.reddit.content import FORUMS
from ....tasks.families import TaskFamily, program_html_eval
from ....tasks.task import any_of
from .common import REDDIT, family, listing, open_forum

POST_URL = "func:reddit_get_post_url('__last_url__')"
POST_TEXT = "document.querySelector('.submission__inner').outerText"

QUESTIONS = ("is {t} worth the hype", "where should a beginner start with {t}",
             "what do people get wrong about {t}", "is {t} still worth it this year")
STARTER_QUESTIONS = ("what should I know before getting into it", "which mistakes should I avoid early on",
                     "how much time does it take to get good", "is it worth it for a complete beginner")
REVIEWS = ("can't stop it", "a slow start but worth it", "the best thing I read this year",
           "not for me, sadly", "I cried at the end", "beautifully written")
PRICES = ("$50", "$100", "$150", "$200", "$300", "$500")
DATES = ("July 8th", "August 12th", "September 3rd", "October 21st", "November 5th", "December 9th",
         "January 14th", "February 2nd", "March 18th", "April 27th", "May 30th", "June 16th")
#: (forum, product category) pairs for the buying-advice family; kept only when the forum exists.
CATEGORIES = (("headphones", "open-back headphones"), ("headphones", "wireless earbuds"),
              ("gadgets", "e-ink tablets"), ("gadgets", "robot vacuums"), ("consoles", "retro consoles"),
              ("photography", "prime lenses"), ("photography", "film cameras"), ("Fitness", "running shoes"),
              ("Fitness", "kettlebells"), ("DIY", "power tools"), ("food", "cast iron pans"),
              ("music", "vinyl turntables"), ("programming", "mechanical keyboards"), ("Art", "watercolor paints"))


def suitable_forums(conn: sqlite3.Connection, topic: str) -> list[str]:
    """Forums with a post whose title or body mentions ``topic`` (as the site's search matches it)."""
    pattern = f"%{topic}%"
    return [r[0] for r in conn.execute(
        "SELECT DISTINCT f.name FROM submissions s JOIN forums f ON f.id = s.forum_id"
        " WHERE s.title LIKE ? OR s.body LIKE ? ORDER BY f.name COLLATE NOCASE", (pattern, pattern))]


def _forum_names(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM forums")}


def _topics(conn: sqlite3.Connection, index: int) -> Iterator[tuple[str, list[str]]]:
    """(topic, suitable forums) per forum: its ``index``-th topic, when the search finds it."""
    names = _forum_names(conn)
    for name, _title, _kind, _description, _sidebar, topics in FORUMS:
        if name in names and len(topics) > index:
            forums = suitable_forums(conn, topics[index])
            if forums:
                yield topics[index], forums


def _post_eval(forums: list[str], *contents: dict) -> dict:
    return program_html_eval(*((POST_URL, POST_TEXT, c) for c in contents),
                             reference_url=any_of(*(f"{REDDIT}/f/{f}" for f in forums)), note="GOLD in PRED")


def _write_post(ctx, title: str, body: str = "") -> Iterator[str]:
    """On a forum page: its submit link, the form, submit."""
    forum = ctx.search_text(r"Submit a post to ([\w]+)")
    yield ctx.click(f"Submit a post to {forum}", tag="a", exact=True)
    yield ctx.type("Title", title)
    if body:
        yield ctx.type("Body", body)
    yield ctx.click("Create submission", tag="button", exact=True)


def _to_topic_forum(ctx, topic: str) -> Iterator[str]:
    """Search the topic and open the forum that holds most of the hits."""
    yield ctx.search("Search query", topic)
    counts = Counter(row["forum"].text for row in listing(ctx))
    best = max(counts, key=lambda name: (counts[name], -list(counts).index(name)))
    yield ctx.click_element(next(row["forum"] for row in listing(ctx) if row["forum"].text == best))


# -- the topic names no forum ----------------------------------------------------------------


def _question_anywhere(conn):
    for i, (topic, forums) in enumerate(_topics(conn, 0)):
        question = QUESTIONS[i % len(QUESTIONS)].format(t=topic)
        yield {"question": question}, _post_eval(forums, {"must_include": [question]})


def _solve_question_anywhere(ctx):
    question = ctx.instantiation["question"]
    topic = next(m[1] for q in QUESTIONS if (m := re.fullmatch(re.escape(q).replace(r"\{t\}", "(.+)"), question)))
    yield from _to_topic_forum(ctx, topic)
    yield from _write_post(ctx, question)
    yield ctx.exit("Done")


def _question_on_topic(conn):
    for i, (topic, forums) in enumerate(_topics(conn, 1)):
        question = STARTER_QUESTIONS[i % len(STARTER_QUESTIONS)]
        yield {"topic": topic, "question": question}, _post_eval(forums, {"must_include": [question]})


def _solve_question_on_topic(ctx):
    yield from _to_topic_forum(ctx, ctx.instantiation["topic"])
    yield from _write_post(ctx, ctx.instantiation["question"], f"About {ctx.instantiation['topic']}.")
    yield ctx.exit("Done")


def _discussion(conn):
    for topic, forums in _topics(conn, 2):
        yield {"topic": topic}, _post_eval(forums, {"must_include": ["your opinion", topic]})


def _solve_discussion(ctx):
    topic = ctx.instantiation["topic"]
    yield from _to_topic_forum(ctx, topic)
    yield from _write_post(ctx, f"Discussion: {topic}", "your opinion")
    yield ctx.exit("Done")


# -- the forum is named ------------------------------------------------------------------------


def _book_review(conn):
    books = next(topics for name, *_rest, topics in FORUMS if name == "books")
    if "books" not in _forum_names(conn):
        return
    for i, book in enumerate(books):
        review = REVIEWS[i % len(REVIEWS)]
        yield {"book": book, "content": review}, _post_eval(["books"], {"must_include": [book, review]})


def _solve_book_review(ctx):
    yield from open_forum(ctx, "books")
    yield from _write_post(ctx, f"Review: {ctx.instantiation['book']}", ctx.instantiation["content"])
    yield ctx.exit("Done")


def _recommendations(conn):
    names = _forum_names(conn)
    for i, (forum, category) in enumerate(CATEGORIES):
        if forum in names:
            price = PRICES[i % len(PRICES)]
            words = [price.lstrip("$"), *category.split()]
            yield ({"category": category, "price": price, "subreddit": f"r/{forum}"},
                   _post_eval([forum], {"must_include": words}))


def _solve_recommendations(ctx):
    category, price = ctx.instantiation["category"], ctx.instantiation["price"]
    yield from open_forum(ctx, ctx.instantiation["subreddit"].removeprefix("r/"))
    yield from _write_post(ctx, f"Recommendations for {category} under {price}?",
                           f"I am looking for {category} within a budget of {price}. What would you pick?")
    yield ctx.exit("Done")


def _meetup(conn):
    names = _forum_names(conn)
    rows = [(name, topics[3]) for name, *_rest, topics in FORUMS if name in names]
    for i, (forum, interest) in enumerate(rows[:12]):
        date = DATES[i % len(DATES)]
        yield ({"interest": interest, "date": date, "subreddit": forum},
               _post_eval([forum], {"fuzzy_match": [interest, date, "virtual meetup"]}))


def _solve_meetup(ctx):
    values = ctx.instantiation
    yield from open_forum(ctx, values["subreddit"])
    yield from _write_post(ctx, f"Virtual meetup for {values['interest']} enthusiasts on {values['date']}",
                           f"Join our virtual meetup on {values['date']}: everyone who loves {values['interest']}"
                           " is welcome.")
    yield ctx.exit("Done")


#: Forums the picture posts are re-posted to, in turn.
REPOST_FORUMS = ("photography", "Art", "travel", "food", "DIY", "gaming", "AskReddit", "Pittsburgh")
#: WebArena-Lite's check of a re-posted image: every link and source in the post.
LINKS_LOCATOR = ("[...document.querySelector('.submission__inner').querySelectorAll('[href],[src]')]"
                 ".map(elem => elem.getAttribute('href') || elem.getAttribute('src')).join(' ')")


def _repost_image(conn):
    names = _forum_names(conn)
    targets = [name for name in REPOST_FORUMS if name in names]
    rows = conn.execute(
        "SELECT s.title, s.url FROM submissions s JOIN forums f ON f.id = s.forum_id"
        " WHERE f.name = 'pics' AND s.url LIKE '%.jpg' ORDER BY s.id").fetchall()
    for i, (title, url) in enumerate(rows):
        forum = targets[i % len(targets)]
        yield ({"content": title[0].lower() + title[1:], "subreddit": forum},
               program_html_eval((POST_URL, POST_TEXT, {"must_include": ["from /f/pics"]}),
                                 (POST_URL, LINKS_LOCATOR, {"must_include": [url.rsplit("/", 1)[1]]}),
                                 reference_url=f"{REDDIT}/f/{forum}", note="GOLD in PRED"),
               f"{REDDIT}/f/pics")


def _solve_repost_image(ctx):
    yield ctx.click(ctx.instantiation["content"], tag="a", exact=True)
    title = ctx.search_text(r"<h1>(?:<a[^>]*>)?([^<]+)")
    image = ctx.search_text(r'Link: <a id="\d+">([^<]+)</a>')
    yield ctx.click("Submit", tag="a", exact=True)
    yield ctx.type("URL (for a link post)", image)
    yield ctx.type("Title", f"{title} (re-post)")
    yield ctx.type("Body", "from /f/pics")
    yield ctx.select("Forum", ctx.instantiation["subreddit"])
    yield ctx.click("Create submission", tag="button", exact=True)
    yield ctx.exit("Done")


def _machine_learning(conn):
    for (name,) in conn.execute("SELECT name FROM forums ORDER BY name COLLATE NOCASE").fetchall()[:14]:
        if name != "MachineLearning":
            yield {"subreddit": name}, _post_eval([name], {"fuzzy_match": ["machine learning", "help"]})


def _solve_machine_learning(ctx):
    forum = ctx.instantiation["subreddit"]
    yield from open_forum(ctx, forum)
    yield from _write_post(ctx, f"How could machine learning help {forum}?",
                           "Machine learning could help here by sorting, searching and summarising what we share.")
    yield ctx.exit("Done")


FAMILIES: list[TaskFamily] = [
    family("question_anywhere", "Post my question, \"{{question}}\", in a subreddit where I'm likely to get an answer",
           "content", _question_anywhere, _solve_question_anywhere),
    family("question_on_topic", 'Find a subreddit focused on topics related to {{topic}}, and post my question,'
           ' "{{question}}" there', "content", _question_on_topic, _solve_question_on_topic),
    family("discussion_post", 'Create a discussion post about "{{topic}}" in a relevant subreddit and ask users'
           ' for their opinions with the simple prompt, "your opinion"', "content", _discussion, _solve_discussion),
    family("book_review", 'Post a review of my recent reading "{{book}}" in the r/books with my comment "{{content}}".',
           "content", _book_review, _solve_book_review),
    family("product_recommendations", "Ask for product recommendations for {{category}} within a budget of"
           " {{price}} in {{subreddit}}", "content", _recommendations, _solve_recommendations),
    family("virtual_meetup", "Post a notice on a virtual meetup for {{interest}} enthusiasts on {{date}} in the"
           " {{subreddit}} subreddit", "content", _meetup, _solve_meetup),
    family("repost_image", 'Re-post the image of {{content}} in this page to {{subreddit}} subreddit and note'
           ' "from /f/pics"', "content", _repost_image, _solve_repost_image),
    family("machine_learning_help", "Post in {{subreddit}} subreddit about what could machine learning help the"
           " correpong field.", "content", _machine_learning, _solve_machine_learning),
]
