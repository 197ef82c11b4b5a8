"""A process-wide cache of observations keyed by the page's HTML.

Simplifying is most of a step on the direct backend, and rollouts revisit the same pages
(four rollouts of a task open the same start page and mostly the same pages after it), so
the envs of a process share one cache: the observation of an HTML already simplified, with
the same settings, is returned without walking the page again. Entries are immutable
(:func:`frozen_observation`), so sharing them between envs and threads is safe; the cache
is bounded by an estimate of the bytes its entries hold and evicts the least recently used.

The size comes from ``WA_OBSERVATION_CACHE_MB`` (default 64; 0 turns the cache off) or
:func:`configure_observation_cache`.

>>> cache = ObservationCache(max_bytes=1 << 20)
>>> first = cache.simplify("<html><body><a href='/a'>Go</a></body></html>", well_formed=True)
>>> second = cache.simplify("<html><body><a href='/a'>Go</a></body></html>", well_formed=True)
>>> first is second, cache.stats()["hits"]
(True, 1)
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import Any

from .model import PageObservation
from .parsing import parse_html, parse_html5
from .simplify import simplify_document

logger = logging.getLogger(__name__)

DEFAULT_CACHE_MB = 64
#: A rough per-element overhead (the Element, its tuple slot, its attribute mapping).
ELEMENT_OVERHEAD = 400
ENTRY_OVERHEAD = 200


class FrozenAttributes(dict):
    """An element's attributes that refuse changes (a cached observation is shared)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("A cached observation's attributes are read-only; copy them with dict(...) to change them.")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]
    __ior__ = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenAttributes, (dict(self),))


def frozen_observation(page: PageObservation) -> PageObservation:
    """The same observation with a tuple of elements and read-only attributes."""
    elements = tuple(
        element if isinstance(element.attributes, FrozenAttributes)
        else replace(element, attributes=FrozenAttributes(element.attributes), options=tuple(element.options))
        for element in page.elements
    )
    return PageObservation(text=page.text, elements=elements, title=page.title)  # type: ignore[arg-type]


def observation_bytes(page: PageObservation) -> int:
    """An estimate of the memory an observation holds (its strings, one byte a character, plus overheads)."""
    total = ENTRY_OVERHEAD + len(page.text) + len(page.title)
    for element in page.elements:
        total += ELEMENT_OVERHEAD + len(element.text) + len(element.label) + len(element.key)
        total += sum(len(name) + len(value) for name, value in element.attributes.items())
        total += sum(len(option) for option in element.options)
    return total


def html_key(html: str, *settings: Hashable) -> tuple[Hashable, ...]:
    """The cache key of ``html`` simplified with ``settings``: a 128-bit digest, not the HTML itself."""
    digest = hashlib.blake2b(html.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    return (digest, len(html), *settings)


class ObservationCache:
    """An LRU cache of immutable observations, bounded by bytes; safe to share between threads.

    Args:
        max_bytes: The most the entries may hold (estimated by :func:`observation_bytes`);
            0 keeps nothing.
    """

    def __init__(self, max_bytes: int):
        if max_bytes < 0:
            raise ValueError(f"max_bytes must be >= 0 (0 turns the cache off), got {max_bytes}.")
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[Hashable, ...], tuple[PageObservation, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.bytes = 0
        self.hits = self.misses = self.evictions = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get_or_compute(self, key: tuple[Hashable, ...], compute: Callable[[], PageObservation]) -> PageObservation:
        """The cached observation for ``key``, else ``compute()`` frozen and stored."""
        if self.max_bytes == 0:
            return frozen_observation(compute())
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return entry[0]
            self.misses += 1
        page = frozen_observation(compute())  # outside the lock: other envs' lookups go on meanwhile
        size = observation_bytes(page)
        if size > self.max_bytes:
            return page
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._entries[key] = (page, size)
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.bytes -= dropped
                self.evictions += 1
        return page

    def simplify(self, html: str, *, well_formed: bool = False, order_navigation: bool = True) -> PageObservation:
        """:func:`~webarena_gym.observation.simplify_html`, through the cache."""
        def compute() -> PageObservation:
            root = parse_html(html) if well_formed else parse_html5(html)
            return PageObservation(text="") if root is None else simplify_document(root, order_navigation=order_navigation)

        return self.get_or_compute(html_key(html, "html", well_formed, order_navigation), compute)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0
            self.hits = self.misses = self.evictions = 0

    def stats(self) -> dict[str, int]:
        """Entries, bytes held, the bound, hits, misses and evictions so far."""
        with self._lock:
            return {"entries": len(self._entries), "bytes": self.bytes, "max_bytes": self.max_bytes,
                    "hits": self.hits, "misses": self.misses, "evictions": self.evictions}


_cache_lock = threading.Lock()
_cache: ObservationCache | None = None


def _default_max_bytes() -> int:
    raw = os.environ.get("WA_OBSERVATION_CACHE_MB", "").strip()
    if not raw:
        return DEFAULT_CACHE_MB << 20
    try:
        megabytes = float(raw)
    except ValueError:
        megabytes = -1.0
    if megabytes < 0:
        logger.warning("WA_OBSERVATION_CACHE_MB=%r is not a size in MB (a number >= 0; 0 turns the cache off); "
                       "using %d MB.", raw, DEFAULT_CACHE_MB)
        return DEFAULT_CACHE_MB << 20
    return int(megabytes * (1 << 20))


def observation_cache() -> ObservationCache:
    """The process-wide cache the backends share."""
    global _cache
    with _cache_lock:
        if _cache is None:
            _cache = ObservationCache(_default_max_bytes())
        return _cache


def configure_observation_cache(max_bytes: int) -> ObservationCache:
    """Replace the process-wide cache with an empty one of ``max_bytes`` (0 turns caching off)."""
    global _cache
    with _cache_lock:
        _cache = ObservationCache(max_bytes)
        return _cache
