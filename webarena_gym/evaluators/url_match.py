"""``url_match``: the URL the episode ended on against the task's reference URL.

Default mode ``"vab"``: VisualAgentBench's ``URLExactEvaluator`` exactly:

- both URLs are cleaned: every ``localhost`` becomes ``127.0.0.1`` and one trailing ``/``
  is removed; nothing else (no strip, no decoding, no case folding);
- the reference may list alternatives separated by ``" |OR| "``;
- ``url_note`` absent or ``"EXACT"``: the cleaned URL equals one cleaned alternative
  (so ``.../issues/719?``, ``.../719#`` and ``.../719//`` are not ``.../719``);
- ``"GOLD in PRED"``: one cleaned alternative is a raw substring of the cleaned URL
  (``label_name[]=x`` is not ``label_name%5B%5D=x``).

Mode ``"lenient"`` judges by the parsed URL instead (the README lists the rules): EXACT
ignores query parameter order, percent-encoding, the case of scheme and host and a
trailing ``/`` of the path (also before ``?``); GOLD in PRED needs the same scheme and
host, the reference's path as the URL's path or a parent of it (whole segments), and the
reference's query parameters among the URL's. Paths are compared as a browser resolves
them: dot segments removed (RFC 3986 ``remove_dot_segments``, also when written ``%2e``,
and ``\\`` read as ``/`` as browsers do), then split into segments at ``/`` only, so an
encoded ``%2F`` stays inside its segment (``/todos%2Fchild`` is not below ``/todos``, and
``/todos/../../admin`` is ``/admin``). Neither mode accepts a reference carried inside a
query value (``/?redirect_to=<percent-encoded reference>``); lenient mode also refuses the
raw form (``login?next=http://...``) and a path that merely starts with the reference's
last segment (``/issues/7190`` for ``/issues/719``), which that code accepts.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote, urlsplit

from ..tasks.task import alternatives_of
from .modes import EvaluationMode


def clean_url(url: str) -> str:
    """VisualAgentBench's URL cleaning: ``localhost`` -> ``127.0.0.1``, one trailing ``/`` removed.

    >>> clean_url("http://localhost:7770/checkout/")
    'http://127.0.0.1:7770/checkout'
    >>> clean_url("http://localhost:7770/a//")
    'http://127.0.0.1:7770/a/'
    """
    url = str(url).replace("localhost", "127.0.0.1")
    return url[:-1] if url.endswith("/") else url


#: A percent-encoded octet; the unreserved ones (RFC 3986 section 2.3) denote their character.
_ESCAPE = re.compile("%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
#: What browsers drop from anywhere in a URL (the URL Standard's ASCII tab or newline).
_TAB_OR_NEWLINE = re.compile("[\t\n\r]")


def remove_dot_segments(path: str) -> str:
    """RFC 3986 section 5.2.4: ``.`` and ``..`` segments resolved; ``..`` above the root is dropped.

    >>> remove_dot_segments("/dashboard/todos/../../../../admin")
    '/admin'
    >>> remove_dot_segments("/a/./b/c/..")
    '/a/b/'
    """
    segments = path.split("/")
    output: list[str] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == ".." and (index > 0 or path.startswith("/")):
            if len(output) > 1:
                output.pop()
        elif segment not in (".", ".."):
            output.append(segment)
            continue
        if last:
            output.append("")  # "/a/b/.." is the directory "/a/"
    return "/".join(output)


def path_segments(path: str) -> tuple[str, ...]:
    """The segments of a URL path as a browser resolves it, each decoded, trailing empty ones dropped.

    Only a literal ``/`` (or ``\\``, which browsers read as ``/`` in http URLs) separates
    segments: ``%2F`` is a character of its segment, never a separator.

    >>> path_segments("/dashboard/todos%2F..%2F..%2Fother")
    ('', 'dashboard', 'todos/../../other')
    >>> path_segments("/f/%2e%2e/b%20c/")
    ('', 'b c')
    """
    path = _ESCAPE.sub(lambda m: chr(int(m[1], 16)) if chr(int(m[1], 16)) in _UNRESERVED else m[0], path)
    segments = remove_dot_segments(path.replace("\\", "/")).split("/")
    while segments and not segments[-1]:
        segments.pop()
    return tuple(unquote(segment) for segment in segments)


def _parts(url: str) -> tuple[str, str, tuple[str, ...], list[tuple[str, str]], str]:
    parts = urlsplit(_TAB_OR_NEWLINE.sub("", url).strip())
    return (
        parts.scheme.lower(),
        parts.netloc.lower(),
        path_segments(parts.path),
        sorted(parse_qsl(parts.query, keep_blank_values=True)),
        unquote(parts.fragment),
    )


def same_url(a: str, b: str) -> bool:
    """Whether two cleaned URLs open the same page (query order, encoding, case of host ignored).

    >>> same_url("HTTP://H/a/?x=1&y=%5B2%5D", "http://h/a?y=[2]&x=1")
    True
    >>> same_url("http://h/a?x=1", "http://h/a?x=2")
    False
    """
    return a == b or _parts(a) == _parts(b)


def contains_page(url: str, reference: str) -> bool:
    """Lenient GOLD in PRED: ``url`` is the reference's page or below it, with its query parameters.

    >>> contains_page("http://h/f/books/new?page=2", "http://h/f/books")
    True
    >>> contains_page("http://h/login?next=http://h/f/books", "http://h/f/books")
    False
    """
    scheme, host, path, query, fragment = _parts(url)
    ref_scheme, ref_host, ref_path, ref_query, ref_fragment = _parts(reference)
    if not ref_scheme and not ref_host:  # a relative reference: only a raw substring can tell
        return reference in url
    if (scheme, host) != (ref_scheme, ref_host):
        return False
    if path[: len(ref_path)] != ref_path:  # the reference's page or below it, by whole resolved segments
        return False
    remaining = list(query)
    for item in ref_query:
        if item not in remaining:
            return False
        remaining.remove(item)
    return not ref_fragment or ref_fragment == fragment


def url_match(
    url: str | None, reference: str, url_note: str | None = None, *, evaluation: EvaluationMode = "vab"
) -> bool:
    """Whether the final ``url`` satisfies the reference URL under ``url_note``.

    >>> url_match("http://localhost:9999/f/books/", "http://127.0.0.1:9999/f/books")
    True
    >>> url_match("http://127.0.0.1:9999/f/books?sort=new", "http://127.0.0.1:9999/f/books", "GOLD in PRED")
    True
    >>> url_match("http://127.0.0.1:9999/f/books?sort=new", "http://127.0.0.1:9999/f/books")
    False
    """
    if url is None:
        return False
    pred = clean_url(url)
    references = [clean_url(r) for r in alternatives_of(reference)]
    rule = "EXACT" if url_note is None else url_note
    lenient = evaluation == "lenient"
    if rule == "EXACT":
        if lenient:
            return any(same_url(pred, ref) for ref in references if ref.strip())
        return pred in references
    if rule == "GOLD in PRED":
        if lenient:
            return any(contains_page(pred, ref) for ref in references if ref.strip())
        return any(ref in pred for ref in references)
    raise ValueError(f"Unknown url_note {url_note!r}; expected 'EXACT' or 'GOLD in PRED'.")
