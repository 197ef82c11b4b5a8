"""``url_match``: the URL the episode ended on against the task's reference URL.

Follows WebArena-Lite's evaluator (VisualAgentBench):

- both URLs are cleaned: ``localhost`` -> ``127.0.0.1``, one trailing ``/`` removed;
- the reference may list alternatives separated by ``" |OR| "``;
- ``url_note`` ``"EXACT"`` (the default when absent): the URL equals one alternative;
  ``"GOLD in PRED"``: one alternative is a substring of the URL.

Deliberate differences, each one only accepting URLs that open the same page:

- EXACT compares query strings as sets of decoded parameters, so ``?a=1&b=2`` equals
  ``?b=2&a=1`` and ``label_name%5B%5D=x`` equals ``label_name[]=x`` (the official test
  compares the raw strings, so it depends on the order a site or a browser writes them);
  scheme and host compare case-insensitively and a trailing ``/`` of the path is ignored
  even before a query (``/issues/?x=1`` equals ``/issues?x=1``).
- GOLD in PRED also accepts the substring after percent-decoding both URLs.

Pass ``strict=True`` for the official behaviour exactly.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, unquote, urlsplit

OR = " |OR| "


def clean_url(url: str) -> str:
    """WebArena's URL cleaning.

    >>> clean_url("http://localhost:7770/checkout/")
    'http://127.0.0.1:7770/checkout'
    """
    url = str(url).strip().replace("localhost", "127.0.0.1")
    return url[:-1] if url.endswith("/") else url


def _comparable(url: str) -> tuple[str, str, str, tuple[tuple[str, str], ...], str]:
    parts = urlsplit(url)
    path = unquote(parts.path)
    if path.endswith("/"):
        path = path[:-1]
    query = tuple(sorted(parse_qsl(parts.query, keep_blank_values=True)))
    return parts.scheme.lower(), parts.netloc.lower(), path, query, unquote(parts.fragment)


def same_url(a: str, b: str) -> bool:
    """Whether two cleaned URLs open the same page (query parameter order and encoding ignored).

    >>> same_url("http://h/a/?x=1&y=%5B2%5D", "http://h/a?y=[2]&x=1")
    True
    >>> same_url("http://h/a?x=1", "http://h/a?x=2")
    False
    """
    return a == b or _comparable(a) == _comparable(b)


def url_match(url: str | None, reference: str, url_note: str | None = None, *, strict: bool = False) -> bool:
    """Whether the final ``url`` satisfies the reference URL under ``url_note``.

    >>> url_match("http://localhost:9999/f/books/", "http://127.0.0.1:9999/f/books")
    True
    >>> url_match("http://127.0.0.1:9999/f/books?sort=new", "http://127.0.0.1:9999/f/books", "GOLD in PRED")
    True
    >>> url_match("http://127.0.0.1:9999/f/books?sort=new", "http://127.0.0.1:9999/f/books")
    False
    """
    if not url or not url.strip():
        return False
    pred = clean_url(url)
    references = [clean_url(r) for r in reference.split(OR) if r.strip()]
    rule = url_note or "EXACT"
    if rule == "EXACT":
        if strict:
            return pred in references
        return any(same_url(pred, ref) for ref in references)
    if rule == "GOLD in PRED":
        if any(ref in pred for ref in references):
            return True
        return not strict and any(unquote(ref) in unquote(pred) for ref in references)
    raise ValueError(f"Unknown url_note {url_note!r}; expected 'EXACT' or 'GOLD in PRED'.")
