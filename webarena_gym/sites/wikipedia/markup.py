"""Rendering article markup to HTML, article URLs, and full-text search over the articles."""

from __future__ import annotations

import re
import sqlite3
from urllib.parse import quote

from markupsafe import Markup, escape

from .data import BOOK, plain

_LINK = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")
_BOLD = re.compile(r"'''(.+?)'''")
_TOKEN = re.compile(r"[\w'-]+")
#: Characters kiwix-serve leaves unescaped in article paths.
_SAFE = ",()'"


def article_path(title: str) -> str:
    """Where kiwix-serve serves an article: ``/<book>/A/Title_With_Underscores``."""
    return f"/{BOOK}/A/{quote(title.replace(' ', '_'), safe=_SAFE)}"


def title_of(path_name: str) -> str:
    """The article title a URL names (underscores read as spaces)."""
    return path_name.replace("_", " ").strip()


def render(text: str) -> Markup:
    """Article markup as HTML: ``[[Title|text]]`` links, ``'''bold'''``; everything else escaped."""
    out, last = [], 0
    for match in _LINK.finditer(text):
        out.append(_bold(str(escape(text[last:match.start()]))))
        target, shown = match.group(1), match.group(2) or match.group(1)
        out.append(f'<a href="{escape(article_path(target))}" title="{escape(target)}">{escape(shown)}</a>')
        last = match.end()
    out.append(_bold(str(escape(text[last:]))))
    return Markup("".join(out))


def _bold(html: str) -> str:
    return _BOLD.sub(r"<b>\1</b>", html.replace("&#39;&#39;&#39;", "'''"))


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def search(conn: sqlite3.Connection, pattern: str) -> list[tuple[sqlite3.Row, str, int]]:
    """Articles holding every word of ``pattern``: (article, snippet, word count), best first.

    Title matches rank before text matches; ties keep title order, so results never change.
    """
    wanted = tokens(pattern)
    if not wanted:
        return []
    found = []
    for article in conn.execute("SELECT * FROM articles ORDER BY title"):
        body = [article["lead"]] + [r[0] for r in conn.execute(
            "SELECT heading || '. ' || body FROM sections WHERE article_id = ? ORDER BY position", (article["id"],))]
        body += [f"{r[0]}: {r[1]}" for r in conn.execute(
            "SELECT label, value FROM infobox WHERE article_id = ? ORDER BY position", (article["id"],))]
        text = plain(" ".join(body))
        title_words, words = tokens(article["title"]), tokens(text)
        if not all(w in title_words or w in words for w in wanted):
            continue
        score = (sum(w in title_words for w in wanted), sum(words.count(w) for w in wanted))
        found.append((score, article, _snippet(text, wanted), len(words)))
    found.sort(key=lambda item: (-item[0][0], -item[0][1]))
    return [(article, snippet, count) for _score, article, snippet, count in found]


def _snippet(text: str, wanted: list[str]) -> str:
    """About 30 words of ``text`` around the first searched word."""
    words = text.split()
    first = next((i for i, w in enumerate(words) if any(t in tokens(w) for t in wanted)), 0)
    start = max(0, first - 10)
    return ("... " if start else "") + " ".join(words[start:start + 30]) + (" ..." if start + 30 < len(words) else "")
