"""Schema and deterministic seed data of the code host.

Everything comes from ``random.Random(SEED)`` walking the fixed vocabulary in
:mod:`.seed_text` in a fixed order, so every machine builds the same database.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import sqlite3

from . import seed_text as text

SEED = 8023
#: The seeded data ends the day before the world clock starts (2023-06-01).
DATA_END = dt.datetime(2023, 5, 31, 18, 0)
DATA_START = dt.datetime(2022, 3, 1, 9, 0)

#: Access levels, as GitLab numbers them.
ROLES = {10: "Guest", 20: "Reporter", 30: "Developer", 40: "Maintainer", 50: "Owner"}

SCHEMA = """
CREATE TABLE users (
    id INTEGER PRIMARY KEY, username TEXT UNIQUE NOT NULL, name TEXT NOT NULL,
    email TEXT NOT NULL, password TEXT NOT NULL, bio TEXT NOT NULL DEFAULT '',
    location TEXT NOT NULL DEFAULT '', website TEXT NOT NULL DEFAULT '',
    status_message TEXT NOT NULL DEFAULT '', feed_token TEXT NOT NULL, created_at TEXT NOT NULL,
    busy INTEGER NOT NULL DEFAULT 0, timezone TEXT NOT NULL DEFAULT 'UTC', pronouns TEXT NOT NULL DEFAULT '',
    pronunciation TEXT NOT NULL DEFAULT '', public_email TEXT NOT NULL DEFAULT '', job_title TEXT NOT NULL DEFAULT '',
    organization TEXT NOT NULL DEFAULT '', private_profile INTEGER NOT NULL DEFAULT 0, discord TEXT NOT NULL DEFAULT '',
    linkedin TEXT NOT NULL DEFAULT '', skype TEXT NOT NULL DEFAULT '', twitter TEXT NOT NULL DEFAULT ''
);
CREATE TABLE groups (id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL);
CREATE TABLE projects (
    id INTEGER PRIMARY KEY, namespace TEXT NOT NULL, path TEXT NOT NULL, name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '', visibility TEXT NOT NULL, readme TEXT NOT NULL DEFAULT '',
    default_branch TEXT NOT NULL DEFAULT 'main', creator_id INTEGER NOT NULL,
    created_at TEXT NOT NULL, last_activity_at TEXT NOT NULL, UNIQUE (namespace, path)
);
CREATE TABLE members (
    project_id INTEGER NOT NULL, user_id INTEGER NOT NULL, access_level INTEGER NOT NULL,
    created_at TEXT NOT NULL, PRIMARY KEY (project_id, user_id)
);
CREATE TABLE stars (user_id INTEGER NOT NULL, project_id INTEGER NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (user_id, project_id));
CREATE TABLE follows (follower_id INTEGER NOT NULL, followee_id INTEGER NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (follower_id, followee_id));
CREATE TABLE labels (
    id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, name TEXT NOT NULL, color TEXT NOT NULL,
    description TEXT NOT NULL, UNIQUE (project_id, name)
);
CREATE TABLE issues (
    id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, iid INTEGER NOT NULL, title TEXT NOT NULL,
    description TEXT NOT NULL, state TEXT NOT NULL, author_id INTEGER NOT NULL, assignee_id INTEGER,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, closed_at TEXT, due_date TEXT, milestone_id INTEGER,
    UNIQUE (project_id, iid)
);
CREATE TABLE milestones (
    id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, title TEXT NOT NULL, description TEXT NOT NULL DEFAULT '',
    due_date TEXT, state TEXT NOT NULL DEFAULT 'active', UNIQUE (project_id, title)
);
CREATE TABLE issue_subscriptions (
    issue_id INTEGER NOT NULL, user_id INTEGER NOT NULL, subscribed INTEGER NOT NULL, PRIMARY KEY (issue_id, user_id)
);
CREATE TABLE issue_labels (issue_id INTEGER NOT NULL, label_id INTEGER NOT NULL, PRIMARY KEY (issue_id, label_id));
CREATE TABLE merge_requests (
    id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, iid INTEGER NOT NULL, title TEXT NOT NULL,
    description TEXT NOT NULL, state TEXT NOT NULL, author_id INTEGER NOT NULL, assignee_id INTEGER,
    source_branch TEXT NOT NULL, target_branch TEXT NOT NULL, created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL, merged_at TEXT, UNIQUE (project_id, iid)
);
CREATE TABLE branches (
    id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, name TEXT NOT NULL, author_name TEXT NOT NULL,
    last_commit TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (project_id, name)
);
CREATE TABLE files (
    id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, branch TEXT NOT NULL, path TEXT NOT NULL, content TEXT NOT NULL,
    last_commit TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (project_id, branch, path)
);
CREATE TABLE mr_reviewers (mr_id INTEGER NOT NULL, user_id INTEGER NOT NULL, PRIMARY KEY (mr_id, user_id));
CREATE TABLE notes (
    id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, noteable_type TEXT NOT NULL,
    noteable_id INTEGER NOT NULL, author_id INTEGER NOT NULL, body TEXT NOT NULL,
    system INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL
);
CREATE TABLE commits (
    id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, sha TEXT NOT NULL, branch TEXT NOT NULL,
    author_name TEXT NOT NULL, author_email TEXT NOT NULL, message TEXT NOT NULL, committed_at TEXT NOT NULL
);
CREATE TABLE todos (
    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, project_id INTEGER NOT NULL, author_id INTEGER NOT NULL,
    target_type TEXT NOT NULL, target_id INTEGER NOT NULL, action TEXT NOT NULL, state TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE access_tokens (
    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, name TEXT NOT NULL, token TEXT NOT NULL,
    scopes TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT, revoked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE award_emoji (id INTEGER PRIMARY KEY, note_id INTEGER NOT NULL, user_id INTEGER NOT NULL, name TEXT NOT NULL);
CREATE INDEX issues_project ON issues (project_id, state);
CREATE INDEX mrs_project ON merge_requests (project_id, state);
CREATE INDEX commits_project ON commits (project_id, branch, committed_at);
CREATE INDEX notes_target ON notes (noteable_type, noteable_id);
"""

TOKEN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789_"


def stamp(moment: dt.datetime) -> str:
    """The storage format of every timestamp (sorts as text)."""
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def slugify(name: str) -> str:
    """A project path from a name, the way GitLab's new-project form suggests it."""
    slug = re.sub(r"[^a-z0-9_.-]+", "-", name.strip().lower()).strip("-.")
    return slug or "project"


def random_token(rng: random.Random, length: int = 20) -> str:
    return "".join(rng.choice(TOKEN_ALPHABET) for _ in range(length))


def build_database(conn: sqlite3.Connection) -> None:
    """Create the schema and fill it with the seed data."""
    conn.executescript(SCHEMA)
    _Seeder(conn, random.Random(SEED)).run()


class _Seeder:
    """Fills the tables in a fixed order; one instance per build."""

    def __init__(self, conn: sqlite3.Connection, rng: random.Random):
        self.conn = conn
        self.rng = rng
        self.user_ids: dict[str, int] = {}
        self.people: dict[int, tuple[str, str]] = {}  # user id -> (name, email)

    def run(self) -> None:
        self.seed_users()
        externals = self.external_authors()
        for path, name, description in text.GROUPS:
            self.conn.execute("INSERT INTO groups (path, name, description) VALUES (?, ?, ?)", (path, name, description))
        for spec in text.PROJECTS:
            self.seed_project(*spec, externals=externals)
        self.seed_stars()
        self.seed_follows()
        self.seed_todos()
        # Later additions draw from their own stream, so the data above stays as it was.
        self.rng = random.Random(SEED + 1)
        self.seed_busy_threads()
        self.seed_review_replies()
        self.seed_awards()
        self.seed_milestones_and_due_dates()
        self.seed_branches()
        self.spread_top_stars()
        self.seed_files()

    def random_time(self, start: dt.datetime, end: dt.datetime = DATA_END) -> dt.datetime:
        span = max(int((end - start).total_seconds()) // 60, 1)
        return start + dt.timedelta(minutes=self.rng.randrange(span))

    # -- people ---------------------------------------------------------------------------

    def seed_users(self) -> None:
        used_names = {text.DEFAULT_USER[1], "Administrator"}
        accounts = [text.DEFAULT_USER, ("root", "Administrator")]
        for username in text.USERNAMES[1:]:
            while True:
                name = f"{self.rng.choice(text.FIRST_NAMES)} {self.rng.choice(text.LAST_NAMES)}"
                if name not in used_names:
                    used_names.add(name)
                    break
            accounts.append((username, name))
        for username, name in accounts:
            if username == "byteblaze":
                email, password = "byteblaze@gmail.com", "hello1234"
            elif username == "root":
                email, password = "admin@example.com", "webarena1234"
            else:
                local = name.lower().replace(" ", ".")
                email, password = f"{local}@{self.rng.choice(text.EMAIL_DOMAINS)}", "password1234"
            created = self.random_time(dt.datetime(2022, 1, 3), dt.datetime(2022, 2, 28))
            bio = self.rng.choice(text.BIOS)
            location = self.rng.choice(text.CITIES)
            cursor = self.conn.execute(
                "INSERT INTO users (username, name, email, password, bio, location, feed_token, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (username, name, email, password, bio, location, random_token(self.rng), stamp(created)),
            )
            self.user_ids[username] = cursor.lastrowid
            self.people[cursor.lastrowid] = (name, email)

    def external_authors(self) -> list[tuple[str, str]]:
        """Commit authors with no account here (imported history)."""
        taken = {name for name, _ in self.people.values()}
        authors = []
        while len(authors) < text.EXTERNAL_CONTRIBUTORS:
            name = f"{self.rng.choice(text.FIRST_NAMES)} {self.rng.choice(text.LAST_NAMES)}"
            if name in taken:
                continue
            taken.add(name)
            handle = name.lower().replace(" ", "")
            authors.append((name, f"{handle}@users.noreply.github.com"))
        return authors

    # -- projects -------------------------------------------------------------------------

    def seed_project(
        self, namespace: str, path: str, description: str, visibility: str, popularity: int, size: int,
        *, externals: list[tuple[str, str]],
    ) -> None:
        rng = self.rng
        created = self.random_time(DATA_START, dt.datetime(2022, 9, 1))
        owner_id = self.user_ids.get(namespace) or self.user_ids[rng.choice(text.USERNAMES[1:20])]
        readme = _readme(path, description, namespace)
        project_id = self.conn.execute(
            "INSERT INTO projects (namespace, path, name, description, visibility, readme, creator_id,"
            " created_at, last_activity_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (namespace, path, path, description, visibility, readme, owner_id, stamp(created), stamp(created)),
        ).lastrowid
        members = self.seed_members(project_id, namespace, owner_id, size, created)
        labels = self.seed_labels(project_id, size)
        last = [created]
        last.append(self.seed_commits(project_id, members, externals, size, created))
        last.append(self.seed_issues(project_id, members, labels, size, created))
        last.append(self.seed_merge_requests(project_id, members, size, created))
        self.conn.execute("UPDATE projects SET last_activity_at = ? WHERE id = ?", (stamp(max(last)), project_id))

    def seed_members(self, project_id: int, namespace: str, owner_id: int, size: int, created: dt.datetime) -> list[int]:
        rng = self.rng
        members = {owner_id: 50}
        if namespace in ("a11yproject", "primer"):
            members[self.user_ids["byteblaze"]] = 40  # as in WebArena, byteblaze maintains these
        candidates = [uid for name, uid in self.user_ids.items() if name not in ("byteblaze", "root")]
        if namespace == "byteblaze":
            extra = rng.randint(0, 4)
        else:
            extra = rng.randint(2, 3 + 2 * size)
        for uid in rng.sample(candidates, extra):
            members.setdefault(uid, rng.choice((10, 20, 30, 30, 30, 40)))
        for uid, level in members.items():
            self.conn.execute(
                "INSERT INTO members (project_id, user_id, access_level, created_at) VALUES (?, ?, ?, ?)",
                (project_id, uid, level, stamp(self.random_time(created, created + dt.timedelta(days=120)))),
            )
        return list(members)

    def seed_labels(self, project_id: int, size: int) -> list[tuple[int, str]]:
        chosen = list(text.LABELS[:3]) + self.rng.sample(text.LABELS[3:], 3 + size)
        labels = []
        for name, color, description in chosen:
            cursor = self.conn.execute(
                "INSERT INTO labels (project_id, name, color, description) VALUES (?, ?, ?, ?)",
                (project_id, name, color, description),
            )
            labels.append((cursor.lastrowid, name))
        return labels

    def fill(self, template: str) -> str:
        rng = self.rng
        title = template.format(
            c=rng.choice(text.COMPONENTS), f=rng.choice(text.FEATURES), h=rng.choice(text.HOWTOS),
            d=rng.choice(text.DEPENDENCIES), n=rng.randint(2, 9),
        )
        return title[0].upper() + title[1:]

    def seed_commits(self, project_id: int, members: list[int], externals: list, size: int, created: dt.datetime) -> dt.datetime:
        rng = self.rng
        authors = [self.people[uid] for uid in members] + rng.sample(externals, rng.randint(0, 3))
        # Skewed weights: most projects have one clear top contributor, like real repositories.
        weights = [rng.paretovariate(1.2) for _ in authors]
        count = rng.randint(8, 12) + size * rng.randint(8, 18)
        times = sorted(self.random_time(created) for _ in range(count))
        for moment in times:
            name, email = rng.choices(authors, weights)[0]
            sha = "".join(rng.choice("0123456789abcdef") for _ in range(40))
            self.conn.execute(
                "INSERT INTO commits (project_id, sha, branch, author_name, author_email, message, committed_at)"
                " VALUES (?, ?, 'main', ?, ?, ?, ?)",
                (project_id, sha, name, email, self.fill(rng.choice(text.COMMIT_TEMPLATES)), stamp(moment)),
            )
        return times[-1]

    def seed_issues(self, project_id: int, members: list[int], labels: list, size: int, created: dt.datetime) -> dt.datetime:
        rng = self.rng
        label_ids = {name: lid for lid, name in labels}
        everyone = list(self.user_ids.values())
        count = rng.randint(3, 6) + size * rng.randint(4, 14)
        titles: set[str] = set()
        latest = created
        for iid in range(1, count + 1):
            template, usual_label = rng.choice(text.ISSUE_TEMPLATES)
            title = self.fill(template)
            while title in titles:
                template, usual_label = rng.choice(text.ISSUE_TEMPLATES)
                title = self.fill(template)
            titles.add(title)
            opened = self.random_time(created)
            author = rng.choice(everyone if rng.random() < 0.5 else members)
            assignee = rng.choice(members) if rng.random() < 0.6 else None
            closed = rng.random() < 0.4
            closed_at = self.random_time(opened) if closed else None
            body = rng.choice(text.ISSUE_BODIES).format(c=rng.choice(text.COMPONENTS))
            issue_id = self.conn.execute(
                "INSERT INTO issues (project_id, iid, title, description, state, author_id, assignee_id,"
                " created_at, updated_at, closed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (project_id, iid, title, body, "closed" if closed else "opened", author, assignee,
                 stamp(opened), stamp(closed_at or opened), stamp(closed_at) if closed_at else None),
            ).lastrowid
            names = {usual_label} if usual_label in label_ids and rng.random() < 0.8 else set()
            names.update(rng.sample(sorted(label_ids), rng.choice((0, 0, 1, 1, 2))))
            for name in sorted(names):
                self.conn.execute("INSERT INTO issue_labels VALUES (?, ?)", (issue_id, label_ids[name]))
            last_note = self.seed_notes(project_id, "issue", issue_id, members, opened, rng.choice((0, 0, 1, 1, 2, 3, 5)))
            latest = max(latest, closed_at or opened, last_note)
        return latest

    def seed_merge_requests(self, project_id: int, members: list[int], size: int, created: dt.datetime) -> dt.datetime:
        rng = self.rng
        byteblaze = self.user_ids["byteblaze"]
        count = rng.randint(2, 4) + size * rng.randint(1, 5)
        latest = created
        for iid in range(1, count + 1):
            title = self.fill(rng.choice(text.MR_TEMPLATES))
            opened = self.random_time(created)
            author = rng.choice(members)
            state = rng.choice(("opened", "opened", "merged", "merged", "closed"))
            ended = self.random_time(opened, min(opened + dt.timedelta(days=30), DATA_END)) if state != "opened" else None
            branch = re.sub(r"[^a-z0-9]+", "-", title.lower().replace("draft:", "")).strip("-")[:40] + f"-{iid}"
            mr_id = self.conn.execute(
                "INSERT INTO merge_requests (project_id, iid, title, description, state, author_id, assignee_id,"
                " source_branch, target_branch, created_at, updated_at, merged_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'main', ?, ?, ?)",
                (project_id, iid, title, f"This merge request: {title[0].lower() + title[1:]}.", state, author,
                 author if rng.random() < 0.7 else None, branch, stamp(opened), stamp(ended or opened),
                 stamp(ended) if state == "merged" else None),
            ).lastrowid
            others = [uid for uid in members if uid != author]
            reviewers = set(rng.sample(others, min(len(others), rng.choice((0, 1, 1, 2)))))
            if byteblaze in others and state == "opened" and rng.random() < 0.5:
                reviewers.add(byteblaze)
            for uid in sorted(reviewers):
                self.conn.execute("INSERT INTO mr_reviewers VALUES (?, ?)", (mr_id, uid))
            last_note = self.seed_notes(project_id, "merge_request", mr_id, members, opened, rng.choice((0, 1, 2, 3)))
            latest = max(latest, ended or opened, last_note)
        return latest

    def seed_notes(self, project_id: int, kind: str, target: int, members: list[int], after: dt.datetime, count: int) -> dt.datetime:
        moment = after
        for _ in range(count):
            moment = self.random_time(moment, min(moment + dt.timedelta(days=20), DATA_END))
            body = self.rng.choice(text.COMMENTS).format(c=self.rng.choice(text.COMPONENTS))
            self.conn.execute(
                "INSERT INTO notes (project_id, noteable_type, noteable_id, author_id, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (project_id, kind, target, self.rng.choice(members), body, stamp(moment)),
            )
        return moment

    def seed_busy_threads(self) -> None:
        """Long discussions, as popular issues have: 15-40 notes, about a third of them system notes."""
        rng = self.rng
        issues = self.conn.execute(
            "SELECT i.id, i.project_id, i.created_at FROM issues i ORDER BY i.id"
        ).fetchall()
        for issue_id, project_id, created in rng.sample(issues, 40):
            members = [r[0] for r in self.conn.execute("SELECT user_id FROM members WHERE project_id = ?", (project_id,))]
            labels = [r[0] for r in self.conn.execute("SELECT name FROM labels WHERE project_id = ?", (project_id,))]
            usernames = {uid: name for name, uid in self.user_ids.items()}
            start = dt.datetime.strptime(created, "%Y-%m-%d %H:%M:%S")
            count = rng.randint(15, 26)
            times = sorted(self.random_time(start) for _ in range(count))
            for moment in times:
                author = rng.choice(members)
                if rng.random() < 0.35:
                    body = rng.choice((
                        f"added ~{rng.choice(labels)} label", f"removed ~{rng.choice(labels)} label",
                        f"changed milestone to %v{rng.randint(1, 4)}.{rng.randint(0, 9)}",
                        f"assigned to @{usernames[rng.choice(members)]}", "changed the description",
                        f"mentioned in merge request !{rng.randint(1, 30)}", f"marked this issue as related to #{rng.randint(1, 60)}",
                        f"changed due date to {self.random_time(moment):%B %-d, %Y}",
                    ))
                    system = 1
                else:
                    body, system = rng.choice(text.COMMENTS).format(c=rng.choice(text.COMPONENTS)), 0
                self.conn.execute(
                    "INSERT INTO notes (project_id, noteable_type, noteable_id, author_id, body, system, created_at)"
                    " VALUES (?, 'issue', ?, ?, ?, ?, ?)",
                    (project_id, issue_id, author, body, system, stamp(moment)),
                )
            self.conn.execute("UPDATE issues SET updated_at = MAX(updated_at, ?) WHERE id = ?", (stamp(times[-1]), issue_id))
            self.conn.execute(
                "UPDATE projects SET last_activity_at = MAX(last_activity_at, ?) WHERE id = ?", (stamp(times[-1]), project_id)
            )

    def seed_review_replies(self) -> None:
        """On about half of the open merge requests byteblaze reviews, the author has the last word."""
        rng = self.rng
        rows = self.conn.execute(
            "SELECT m.id, m.project_id, m.author_id, m.created_at, (SELECT MAX(created_at) FROM notes n"
            " WHERE n.noteable_type = 'merge_request' AND n.noteable_id = m.id) FROM merge_requests m"
            " JOIN mr_reviewers r ON r.mr_id = m.id WHERE r.user_id = ? AND m.state = 'opened' ORDER BY m.id",
            (self.user_ids["byteblaze"],),
        ).fetchall()
        for mr_id, project_id, author, created, last in rows:
            after = dt.datetime.strptime(last or created, "%Y-%m-%d %H:%M:%S")
            if rng.random() < 0.35 and after < DATA_END:
                moment = self.random_time(after)
                self.conn.execute(
                    "INSERT INTO notes (project_id, noteable_type, noteable_id, author_id, body, created_at)"
                    " VALUES (?, 'merge_request', ?, ?, ?, ?)",
                    (project_id, mr_id, author, rng.choice(text.AUTHOR_REPLIES), stamp(moment)),
                )
                self.conn.execute("UPDATE merge_requests SET updated_at = MAX(updated_at, ?) WHERE id = ?", (stamp(moment), mr_id))

    def seed_awards(self) -> None:
        """Emoji reactions on about a third of the comments."""
        rng = self.rng
        everyone = list(self.user_ids.values())
        for (note_id,) in self.conn.execute("SELECT id FROM notes WHERE system = 0 ORDER BY id").fetchall():
            if rng.random() < 0.3:
                for uid in rng.sample(everyone, rng.randint(1, 4)):
                    name = rng.choice(("thumbsup", "thumbsup", "thumbsup", "heart", "tada", "eyes", "rocket", "thumbsdown"))
                    self.conn.execute("INSERT INTO award_emoji (note_id, user_id, name) VALUES (?, ?, ?)", (note_id, uid, name))

    def seed_milestones_and_due_dates(self) -> None:
        """Two to four milestones a project; some issues planned into one, some with a due date."""
        rng = self.rng
        for (project_id,) in self.conn.execute("SELECT id FROM projects ORDER BY id").fetchall():
            ids = []
            for number in range(rng.randint(2, 4)):
                due = dt.date(2023, 1, 15) + dt.timedelta(days=60 * number + rng.randint(0, 30))
                ids.append(self.conn.execute(
                    "INSERT INTO milestones (project_id, title, description, due_date, state) VALUES (?, ?, ?, ?, ?)",
                    (project_id, f"v{number + 1}.0", f"Release {number + 1}.0", due.isoformat(),
                     "closed" if due < DATA_END.date() - dt.timedelta(days=90) else "active"),
                ).lastrowid)
            for issue_id, state in self.conn.execute(
                "SELECT id, state FROM issues WHERE project_id = ? ORDER BY id", (project_id,)
            ).fetchall():
                milestone = rng.choice(ids) if rng.random() < 0.4 else None
                due = None
                if state == "opened" and rng.random() < 0.25:
                    due = (dt.date(2023, 6, 1) + dt.timedelta(days=rng.randint(0, 240))).isoformat()
                self.conn.execute("UPDATE issues SET milestone_id = ?, due_date = ? WHERE id = ?", (milestone, due, issue_id))

    def seed_branches(self) -> None:
        """Every project's branches: main, the source branches of open merge requests, and a few
        feature branches nobody has opened a merge request for yet."""
        rng = self.rng
        for project_id, created in self.conn.execute("SELECT id, created_at FROM projects ORDER BY id").fetchall():
            start = dt.datetime.strptime(created, "%Y-%m-%d %H:%M:%S")
            names = ["main"] + [r[0] for r in self.conn.execute(
                "SELECT source_branch FROM merge_requests WHERE project_id = ? AND state = 'opened' ORDER BY iid", (project_id,))]
            names += rng.sample(text.FEATURE_BRANCHES, rng.randint(2, 4))
            people = [self.people[r[0]] for r in self.conn.execute(
                "SELECT user_id FROM members WHERE project_id = ? ORDER BY user_id", (project_id,))]
            for name in dict.fromkeys(names):
                self.conn.execute(
                    "INSERT INTO branches (project_id, name, author_name, last_commit, updated_at) VALUES (?, ?, ?, ?, ?)",
                    (project_id, name, rng.choice(people)[0], self.fill(rng.choice(text.COMMIT_TEMPLATES)),
                     stamp(self.random_time(start))),
                )

    def spread_top_stars(self) -> None:
        """The most starred public projects get distinct star counts (a "top N" is then well defined),
        and byteblaze has not starred the top three yet."""
        me = self.user_ids["byteblaze"]
        top = [r[0] for r in self.conn.execute(
            "SELECT p.id FROM projects p WHERE p.visibility = 'public' ORDER BY"
            " (SELECT COUNT(*) FROM stars s WHERE s.project_id = p.id) DESC, p.id LIMIT 12")]
        self.conn.execute(f"DELETE FROM stars WHERE user_id = ? AND project_id IN ({','.join('?' * 3)})", (me, *top[:3]))
        count = lambda pid: self.conn.execute("SELECT COUNT(*) FROM stars WHERE project_id = ?", (pid,)).fetchone()[0]  # noqa: E731
        for higher, lower in reversed(list(zip(top, top[1:], strict=False))):
            fans = [uid for uid in self.user_ids.values() if uid != me and not self.conn.execute(
                "SELECT 1 FROM stars WHERE user_id = ? AND project_id = ?", (uid, higher)).fetchone()]
            while count(higher) <= count(lower) and fans:
                self.conn.execute(
                    "INSERT INTO stars VALUES (?, ?, ?)", (fans.pop(0), higher, stamp(self.random_time(dt.datetime(2022, 6, 1))))
                )

    def seed_files(self) -> None:
        """Each project's repository on main: its README and a few usual files (no randomness needed)."""
        for project_id, path, description, readme, namespace, created in self.conn.execute(
            "SELECT id, path, description, readme, namespace, created_at FROM projects ORDER BY id"
        ).fetchall():
            files = {
                "README.md": readme,
                "LICENSE": f"MIT License\n\nCopyright (c) 2022 {namespace}\n\nPermission is hereby granted, free of charge, "
                           "to any person obtaining a copy of this software, to deal in the software without restriction.",
                "CONTRIBUTING.md": f"# Contributing to {path}\n\nOpen an issue first, then a merge request against main.",
                ".gitignore": "node_modules/\n*.log\n.DS_Store\n",
                "docs/setup.md": f"# Setup\n\n{description}\n\nRun the install script, then the tests.",
            }
            for name, content in files.items():
                self.conn.execute(
                    "INSERT INTO files (project_id, branch, path, content, last_commit, updated_at) VALUES (?, 'main', ?, ?, ?, ?)",
                    (project_id, name, content, "Initial commit", created),
                )

    # -- social -------------------------------------------------------------------------

    def seed_stars(self) -> None:
        rng = self.rng
        projects = self.conn.execute("SELECT id, visibility FROM projects ORDER BY id").fetchall()
        popularity = {(ns, path): pop for ns, path, _, _, pop, _ in text.PROJECTS}
        paths = self.conn.execute("SELECT id, namespace, path FROM projects ORDER BY id").fetchall()
        weight = {pid: popularity[(ns, path)] for pid, ns, path in paths}
        for uid in self.user_ids.values():
            for pid, visibility in projects:
                if visibility == "public" and rng.random() < weight[pid] / 14:
                    self.conn.execute(
                        "INSERT INTO stars VALUES (?, ?, ?)", (uid, pid, stamp(self.random_time(dt.datetime(2022, 6, 1))))
                    )

    def seed_follows(self) -> None:
        ids = list(self.user_ids.values())
        for uid in ids:
            for other in self.rng.sample(ids, self.rng.randint(0, 5)):
                if other != uid:
                    self.conn.execute(
                        "INSERT INTO follows VALUES (?, ?, ?)", (uid, other, stamp(self.random_time(DATA_START)))
                    )

    def seed_todos(self) -> None:
        """byteblaze's to-do list: assigned issues and review requests, a few already done."""
        me = self.user_ids["byteblaze"]
        rows = self.conn.execute(
            "SELECT project_id, author_id, 'Issue', id, 'assigned', created_at FROM issues WHERE assignee_id = ? AND state = 'opened'"
            " UNION ALL SELECT m.project_id, m.author_id, 'MergeRequest', m.id, 'review_requested', m.created_at"
            " FROM merge_requests m JOIN mr_reviewers r ON r.mr_id = m.id WHERE r.user_id = ? AND m.state = 'opened'"
            " ORDER BY 6, 4",
            (me, me),
        ).fetchall()
        for project_id, author, kind, target, action, created in rows:
            state = "done" if self.rng.random() < 0.25 else "pending"
            self.conn.execute(
                "INSERT INTO todos (user_id, project_id, author_id, target_type, target_id, action, state, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (me, project_id, author, kind, target, action, state, created),
            )


def _readme(path: str, description: str, namespace: str) -> str:
    return (
        f"# {path}\n\n{description}\n\n## Installation\n\n"
        f"Clone the repository and follow the steps in CONTRIBUTING.md.\n\n"
        f"## Contributing\n\nIssues and merge requests are welcome. Please read the code of conduct first.\n\n"
        f"## License\n\nMIT, see LICENSE. Maintained by {namespace}."
    )
