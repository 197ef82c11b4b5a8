"""Schema and deterministic seed data of the forum (users, forums, posts, comments, votes)."""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import sqlite3

from .content import (
    BIO_CITIES,
    BIO_TEMPLATES,
    BODY_SENTENCES,
    COMMENT_SENTENCES,
    FORUMS,
    IMAGE_HOST,
    LINK_DOMAINS,
    NAME_ADJECTIVES,
    NAME_NOUNS,
    PICTURE_FORUM,
    PICTURE_TITLES,
    TITLE_TEMPLATES,
)
from .queries import TIME_FORMAT, hot_ranking, slugify

SEED = 9999
DEFAULT_USER = ("MarvelsGrantMan136", "test1234")
N_USERS = 80
DEFAULT_USER_POSTS = 14
#: Link posts without a body that the default account also shared (a separate random stream, so the
#: rest of the seed stays as it was).
DEFAULT_USER_LINK_POSTS = 12
DEFAULT_USER_COMMENTS = 30
#: Posts whose threads run long (30 to 80 comments), as the busiest threads of the real forum do.
LONG_THREADS = 16
DATA_START = dt.datetime(2022, 1, 1)
DATA_END = dt.datetime(2023, 5, 31, 23, 0)

SCHEMA = """
CREATE TABLE users (
    id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,
    biography TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL
);
CREATE TABLE forums (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE, title TEXT NOT NULL,
    description TEXT NOT NULL, sidebar TEXT NOT NULL, created_at TEXT NOT NULL,
    creator_id INTEGER NOT NULL REFERENCES users(id), subscriber_count INTEGER NOT NULL
);
CREATE TABLE moderators (
    forum_id INTEGER NOT NULL REFERENCES forums(id), user_id INTEGER NOT NULL REFERENCES users(id),
    PRIMARY KEY (forum_id, user_id)
);
CREATE TABLE subscriptions (
    user_id INTEGER NOT NULL REFERENCES users(id), forum_id INTEGER NOT NULL REFERENCES forums(id),
    PRIMARY KEY (user_id, forum_id)
);
CREATE TABLE submissions (
    id INTEGER PRIMARY KEY, forum_id INTEGER NOT NULL REFERENCES forums(id),
    user_id INTEGER NOT NULL REFERENCES users(id), title TEXT NOT NULL, url TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL, edited_at TEXT,
    upvotes INTEGER NOT NULL, downvotes INTEGER NOT NULL, ranking INTEGER NOT NULL
);
CREATE TABLE comments (
    id INTEGER PRIMARY KEY, submission_id INTEGER NOT NULL REFERENCES submissions(id),
    parent_id INTEGER REFERENCES comments(id), user_id INTEGER NOT NULL REFERENCES users(id),
    body TEXT NOT NULL, created_at TEXT NOT NULL, edited_at TEXT,
    upvotes INTEGER NOT NULL, downvotes INTEGER NOT NULL
);
CREATE TABLE submission_votes (
    user_id INTEGER NOT NULL, submission_id INTEGER NOT NULL, choice INTEGER NOT NULL,
    PRIMARY KEY (user_id, submission_id)
);
CREATE TABLE comment_votes (
    user_id INTEGER NOT NULL, comment_id INTEGER NOT NULL, choice INTEGER NOT NULL,
    PRIMARY KEY (user_id, comment_id)
);
CREATE INDEX submissions_forum ON submissions(forum_id);
CREATE INDEX submissions_user ON submissions(user_id);
CREATE INDEX comments_submission ON comments(submission_id);
CREATE INDEX comments_user ON comments(user_id);
"""


def hash_password(password: str) -> str:
    return hashlib.sha256(f"postmill:{password}".encode()).hexdigest()


def _stamp(moment: dt.datetime) -> str:
    return moment.strftime(TIME_FORMAT)


def _moment(rng: random.Random, start: dt.datetime, end: dt.datetime) -> dt.datetime:
    return start + dt.timedelta(seconds=rng.randrange(int((end - start).total_seconds())))


def _usernames(rng: random.Random) -> list[str]:
    names: list[str] = []
    while len(names) < N_USERS:
        adj, noun = rng.choice(NAME_ADJECTIVES), rng.choice(NAME_NOUNS)
        pattern = rng.randrange(5)
        name = [
            f"{adj}{noun}{rng.randint(2, 999)}",
            f"{adj.lower()}_{noun.lower()}",
            f"The{adj}{noun}",
            f"{noun}{adj}{rng.randint(1980, 2005)}",
            f"{adj}_{noun}_{rng.randint(1, 99)}",
        ][pattern]
        if name not in names and name != DEFAULT_USER[0]:
            names.append(name)
    return names


def _seed_users(conn: sqlite3.Connection, rng: random.Random) -> list[int]:
    names = _usernames(rng)
    names.insert(rng.randrange(10, 30), DEFAULT_USER[0])
    ids = []
    for name in names:
        bio = ""
        if name != DEFAULT_USER[0] and rng.random() < 0.65:
            a, b = rng.sample(FORUMS, 2)
            bio = rng.choice(BIO_TEMPLATES).format(a=a[1], b=b[1], city=rng.choice(BIO_CITIES))
        joined = _moment(rng, dt.datetime(2018, 1, 1), DATA_START)
        cur = conn.execute(
            "INSERT INTO users (username, password_hash, biography, created_at) VALUES (?, ?, ?, ?)",
            (name, hash_password(DEFAULT_USER[1] if name == DEFAULT_USER[0] else f"{name}-pw"), bio, _stamp(joined)),
        )
        ids.append(cur.lastrowid)
    return ids


def _seed_forums(conn: sqlite3.Connection, rng: random.Random, users: list[int]) -> list[int]:
    subscribers = {uid: rng.sample(range(len(FORUMS)), rng.randint(2, 7)) for uid in users}
    counts = [sum(i in chosen for chosen in subscribers.values()) for i in range(len(FORUMS))]
    used: set[int] = set()
    forum_ids = []
    for i, (name, title, _kind, description, sidebar, _topics) in enumerate(FORUMS):
        total = counts[i] + int(rng.lognormvariate(7.5, 1.1))
        while total in used:  # distinct counts keep "by subscribers" unambiguous
            total += 1
        used.add(total)
        created = _moment(rng, dt.datetime(2016, 1, 1), dt.datetime(2021, 6, 1))
        cur = conn.execute(
            "INSERT INTO forums (name, title, description, sidebar, created_at, creator_id, subscriber_count)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (name, title, description, "\n".join(f"* {line}" for line in sidebar), _stamp(created),
             rng.choice(users), total),
        )
        forum_ids.append(cur.lastrowid)
    extra = random.Random(SEED + 2)  # a stream of its own: the rest of the seed stays as it was
    for forum_id in forum_ids:
        creator = conn.execute("SELECT creator_id FROM forums WHERE id = ?", (forum_id,)).fetchone()[0]
        others = extra.sample([u for u in users if u != creator], extra.randint(1, 3))
        conn.executemany("INSERT INTO moderators (forum_id, user_id) VALUES (?, ?)",
                         [(forum_id, uid) for uid in [creator, *others]])
    for uid, chosen in subscribers.items():
        conn.executemany(
            "INSERT INTO subscriptions (user_id, forum_id) VALUES (?, ?)", [(uid, forum_ids[i]) for i in sorted(chosen)]
        )
    return forum_ids


def _votes(rng: random.Random, scale: float, negative_share: float) -> tuple[int, int]:
    up = min(int(rng.paretovariate(1.3) * scale), 9000)
    if rng.random() < negative_share:
        return up, up + rng.randint(1, 6)
    return up, int(up * rng.uniform(0, 0.3)) + rng.randint(0, 2)


def _seed_submissions(conn: sqlite3.Connection, rng: random.Random, users: list[int], forums: list[int]) -> list[dict]:
    weights = [rng.paretovariate(1.5) for _ in users]
    default_uid = _default_user_id(conn)
    posts: list[dict] = []
    titles: set[str] = set()
    for forum_id, (_name, _title, kind, _d, _s, topics) in zip(forums, FORUMS, strict=True):
        combos = [(t, topic) for t in TITLE_TEMPLATES[kind] for topic in topics]
        rng.shuffle(combos)
        for template, topic in combos[: rng.randint(14, 34)]:
            title = template.format(t=topic)
            title = title[0].upper() + title[1:]
            if title in titles:
                continue
            titles.add(title)
            is_link = rng.random() < (0.45 if kind == "news" else 0.12)
            body = " ".join(s.format(t=topic) for s in rng.sample(BODY_SENTENCES, rng.randint(2, 4)))
            url = f"https://{rng.choice(LINK_DOMAINS)}/{rng.randint(2022, 2023)}/{slugify(title)}" if is_link else ""
            up, down = _votes(rng, 6, 0.06)
            posts.append({
                "forum_id": forum_id, "user_id": rng.choices(users, weights)[0], "title": title,
                "url": url, "body": "" if is_link and rng.random() < 0.6 else body, "topic": topic,
                "created": _moment(rng, DATA_START, DATA_END), "up": up, "down": down,
            })
    text_posts = [p for p in posts if not p["url"]]
    for post in rng.sample(text_posts, DEFAULT_USER_POSTS):
        post["user_id"] = default_uid
    bare_links = [p for p in posts if p["url"] and not p["body"]]
    for post in random.Random(SEED + 1).sample(bare_links, DEFAULT_USER_LINK_POSTS):
        post["user_id"] = default_uid
    posts.sort(key=lambda p: p["created"])
    for post in posts:
        created = _stamp(post["created"])
        cur = conn.execute(
            "INSERT INTO submissions (forum_id, user_id, title, url, body, created_at, upvotes, downvotes, ranking)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (post["forum_id"], post["user_id"], post["title"], post["url"], post["body"], created,
             post["up"], post["down"], hot_ranking(created, post["up"] - post["down"])),
        )
        post["id"] = cur.lastrowid
    return posts


def _seed_comments(conn: sqlite3.Connection, rng: random.Random, users: list[int], posts: list[dict]) -> None:
    weights = [rng.paretovariate(1.2) for _ in users]
    comments: list[dict] = []
    for post in posts:
        thread: list[dict] = []
        for _ in range(min(int(rng.expovariate(1 / 4.6)), 24)):
            parent = None
            if thread and rng.random() < 0.55:
                parent = rng.choice([c for c in thread if c["depth"] < 5] or [None])
            after = parent["created"] if parent else post["created"]
            created = min(after + dt.timedelta(minutes=rng.randint(3, 60 * 72)), DATA_END + dt.timedelta(minutes=59))
            sentences = rng.sample(COMMENT_SENTENCES, rng.randint(1, 2))
            up, down = _votes(rng, 1.5, 0.14)
            comment = {
                "post": post["id"], "parent": parent, "user_id": rng.choices(users, weights)[0],
                "body": " ".join(s.format(t=post["topic"]) for s in sentences), "created": created,
                "up": up, "down": down, "depth": parent["depth"] + 1 if parent else 0,
            }
            thread.append(comment)
        comments.extend(thread)
    default_uid = _default_user_id(conn)
    for comment in rng.sample(comments, DEFAULT_USER_COMMENTS):
        comment["user_id"] = default_uid
    comments.extend(_long_threads(posts, users, weights))
    # Ids follow time, as in the real forum; a reply is always newer than its parent.
    comments.sort(key=lambda c: (c["created"], c["depth"]))
    for comment in comments:
        parent_id = comment["parent"]["id"] if comment["parent"] else None
        cur = conn.execute(
            "INSERT INTO comments (submission_id, parent_id, user_id, body, created_at, upvotes, downvotes)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (comment["post"], parent_id, comment["user_id"], comment["body"], _stamp(comment["created"]),
             comment["up"], comment["down"]),
        )
        comment["id"] = cur.lastrowid


def _long_threads(posts: list[dict], users: list[int], weights: list[float]) -> list[dict]:
    """30 to 80 more comments on a few posts, drawn from a stream of their own (the rest of the seed stays)."""
    rng = random.Random(SEED + 3)
    comments: list[dict] = []
    # posts whose id is 4 mod 19 keep their short threads: a reply task picks its comments there
    for post in rng.sample([p for p in posts if p["id"] % 19 != 4], LONG_THREADS):
        thread: list[dict] = []
        for _ in range(rng.randint(30, 80)):
            parent = None
            if thread and rng.random() < 0.6:
                parent = rng.choice([c for c in thread if c["depth"] < 5] or [None])
            after = parent["created"] if parent else post["created"]
            created = min(after + dt.timedelta(minutes=rng.randint(3, 60 * 48)), DATA_END + dt.timedelta(minutes=59))
            up, down = _votes(rng, 1.5, 0.14)
            thread.append({
                "post": post["id"], "parent": parent, "user_id": rng.choices(users, weights)[0],
                "body": " ".join(s.format(t=post["topic"]) for s in rng.sample(COMMENT_SENTENCES, rng.randint(1, 2))),
                "created": created, "up": up, "down": down, "depth": parent["depth"] + 1 if parent else 0,
            })
        comments.extend(thread)
    return comments


def _seed_default_user_votes(conn: sqlite3.Connection, rng: random.Random) -> None:
    """The default account has voted before, as a real account would have."""
    uid = _default_user_id(conn)
    post_ids = [r[0] for r in conn.execute("SELECT id FROM submissions WHERE user_id != ? ORDER BY id", (uid,))]
    for sid in rng.sample(post_ids, 12):
        choice = 1 if rng.random() < 0.75 else -1
        conn.execute("INSERT INTO submission_votes VALUES (?, ?, ?)", (uid, sid, choice))
        column = "upvotes" if choice == 1 else "downvotes"
        conn.execute(f"UPDATE submissions SET {column} = {column} + 1 WHERE id = ?", (sid,))
    for sid, created, score in conn.execute(
        "SELECT id, created_at, upvotes - downvotes FROM submissions WHERE id IN"
        " (SELECT submission_id FROM submission_votes)"
    ).fetchall():
        conn.execute("UPDATE submissions SET ranking = ? WHERE id = ?", (hot_ranking(created, score), sid))


def image_url(title: str) -> str:
    """The address of a picture post's image: a content hash named file, as image hosts name them."""
    return f"https://{IMAGE_HOST}/{hashlib.sha256(title.encode()).hexdigest()}.jpg"


def _seed_pictures(conn: sqlite3.Connection, users: list[int]) -> None:
    """The picture forum and its image posts, from a stream of their own (the rest of the seed stays)."""
    rng = random.Random(SEED + 4)
    name, title, description, sidebar = PICTURE_FORUM
    creator = rng.choice(users)
    forum_id = conn.execute(
        "INSERT INTO forums (name, title, description, sidebar, created_at, creator_id, subscriber_count)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (name, title, description, "\n".join(f"* {line}" for line in sidebar),
         _stamp(_moment(rng, dt.datetime(2016, 1, 1), dt.datetime(2021, 6, 1))), creator, 0),
    ).lastrowid
    conn.executemany("INSERT INTO moderators (forum_id, user_id) VALUES (?, ?)",
                     [(forum_id, uid) for uid in [creator, *rng.sample([u for u in users if u != creator], 2)]])
    fans = rng.sample(users, 12)
    conn.executemany("INSERT INTO subscriptions (user_id, forum_id) VALUES (?, ?)", [(uid, forum_id) for uid in fans])
    taken = {r[0] for r in conn.execute("SELECT subscriber_count FROM forums")}
    count = len(fans) + int(rng.lognormvariate(7.5, 1.1))
    while count in taken:
        count += 1
    conn.execute("UPDATE forums SET subscriber_count = ? WHERE id = ?", (count, forum_id))
    default_uid = _default_user_id(conn)
    for post_title in PICTURE_TITLES:
        created = _stamp(_moment(rng, DATA_START, DATA_END))
        up, down = _votes(rng, 6, 0.06)
        conn.execute(
            "INSERT INTO submissions (forum_id, user_id, title, url, body, created_at, upvotes, downvotes, ranking)"
            " VALUES (?, ?, ?, ?, '', ?, ?, ?, ?)",
            (forum_id, rng.choice([u for u in users if u != default_uid]), post_title, image_url(post_title),
             created, up, down, hot_ranking(created, up - down)),
        )


def _default_user_id(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT id FROM users WHERE username = ?", (DEFAULT_USER[0],)).fetchone()[0]


def build_database(conn: sqlite3.Connection) -> None:
    """Create the forum's schema and fill it with the seeded community."""
    rng = random.Random(SEED)
    conn.executescript(SCHEMA)
    users = _seed_users(conn, rng)
    forums = _seed_forums(conn, rng, users)
    posts = _seed_submissions(conn, rng, users, forums)
    _seed_comments(conn, rng, users, posts)
    _seed_default_user_votes(conn, rng)
    _seed_pictures(conn, users)
    conn.commit()
