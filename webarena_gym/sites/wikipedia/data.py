"""Schema and seed data of the reference site: the written articles and the lists built from them."""

from __future__ import annotations

import json
import re
import sqlite3

from .articles import ARTICLES, KINDS, LISTS, Article

#: The ZIM file name kiwix-serve gives WebArena's Wikipedia; pages live under ``/<BOOK>/A/<Title>``.
BOOK = "wikipedia_en_all_maxi_2022-05"
MAIN_PAGE = "Main Page"

SCHEMA = """
CREATE TABLE articles (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, description TEXT NOT NULL,
    lead TEXT NOT NULL, kind TEXT NOT NULL DEFAULT '');
CREATE TABLE infobox (article_id INTEGER NOT NULL REFERENCES articles(id), position INTEGER NOT NULL,
    label TEXT NOT NULL, value TEXT NOT NULL);
CREATE TABLE sections (article_id INTEGER NOT NULL REFERENCES articles(id), position INTEGER NOT NULL,
    heading TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE tables (article_id INTEGER NOT NULL REFERENCES articles(id), position INTEGER NOT NULL,
    caption TEXT NOT NULL, rows TEXT NOT NULL);
CREATE INDEX infobox_article ON infobox(article_id);
CREATE INDEX sections_article ON sections(article_id);
"""

_LINK = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")


def plain(text: str) -> str:
    """Article markup as plain text: ``[[A|b]]`` -> ``b``, bold marks dropped."""
    return _LINK.sub(lambda m: m.group(2) or m.group(1), text).replace("'''", "")


def year_of(value: str) -> str:
    """The first four-digit year in an infobox value ("" for none)."""
    match = re.search(r"\b(1[5-9]\d\d|20\d\d)\b", value)
    return match.group(1) if match else ""


def build_database(conn: sqlite3.Connection) -> None:
    """Create the schema and insert every article (deterministic: fixed data in a fixed order)."""
    conn.executescript(SCHEMA)
    for article in ARTICLES:
        _insert(conn, article, KINDS.get(article.title, ""))
    for kind, (title, year_label, plural) in LISTS.items():
        members = [a for a in ARTICLES if KINDS.get(a.title) == kind]
        rows = [["Name", year_label, "Type", "Founder or namesake"]]
        for member in sorted(members, key=lambda a: a.title):
            box = dict(member.infobox)
            person = box.get("Founder") or box.get("Named after") or ""
            rows.append([f"[[{member.title}]]", year_of(box.get(year_label) or box.get("Opened") or
                                                        box.get("Established", "")),
                         box.get("Type", ""), person])
        lead = (f"This is a list of {plural} in [[Pittsburgh]], Pennsylvania, with the year each "
                f"{'was founded' if year_label == 'Established' else 'opened'}.")
        _insert(conn, Article(title, f"Wikimedia list article ({plural})", lead), "list",
                tables=[(f"{plural.capitalize()} in Pittsburgh", rows)])
    teams = [a for a in ARTICLES if KINDS.get(a.title) == "team"]
    rows = [["Team", "Sport", "League", "Home venue", "Founded"]]
    for team in teams:
        box = dict(team.infobox)
        rows.append([f"[[{team.title}]]", box["Sport"], box["League"], box["Home venue"], box["Founded"]])
    _insert(conn, Article("Sports in Pittsburgh", "Overview of sports in Pittsburgh, Pennsylvania",
                          "[[Pittsburgh]] has teams in three of the major professional leagues and a major college "
                          "football program; the city's fans are known for their loyalty."),
            "list", sections=[("Venues", "The baseball and football teams play on the "
                                         "[[North Shore (Pittsburgh)|North Shore]], the hockey team Downtown. See "
                                         "[[List of sports venues in Pittsburgh]].")],
            tables=[("Current teams", rows)])
    _insert(conn, _main_page(), "")


def _main_page() -> Article:
    lists = [title for title, _label, _plural in LISTS.values()] + ["Sports in Pittsburgh"]
    return Article(
        MAIN_PAGE, "Welcome to the offline encyclopedia",
        "Welcome to this offline copy of the encyclopedia, a selection of articles about [[Pittsburgh]] and its "
        "people, places and teams.",
        sections=(("Featured article", "[[Carnegie Mellon University]] is a private research university founded "
                                       "by [[Andrew Carnegie]] in 1900."),
                  ("Lists", ", ".join(f"[[{title}]]" for title in lists) + ".")),
    )


def _insert(conn: sqlite3.Connection, article: Article, kind: str, *, sections=None, tables=()) -> None:
    cur = conn.execute("INSERT INTO articles (title, description, lead, kind) VALUES (?, ?, ?, ?)",
                       (article.title, article.description, article.lead, kind))
    article_id = cur.lastrowid
    conn.executemany("INSERT INTO infobox VALUES (?, ?, ?, ?)",
                     [(article_id, i, label, value) for i, (label, value) in enumerate(article.infobox)])
    conn.executemany("INSERT INTO sections VALUES (?, ?, ?, ?)",
                     [(article_id, i, h, b) for i, (h, b) in enumerate(sections or article.sections)])
    conn.executemany("INSERT INTO tables VALUES (?, ?, ?, ?)",
                     [(article_id, i, caption, json.dumps(rows)) for i, (caption, rows) in enumerate(tables)])
