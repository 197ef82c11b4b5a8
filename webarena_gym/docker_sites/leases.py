"""Who holds which replica: the lease service's book, without HTTP or docker.

A replica is ``free`` (pristine, nobody on it), ``shared`` (reading episodes on it, still
pristine), ``leased`` (a writing episode on it), ``dirty`` (a writing episode returned
it, or its holder died: waiting to be recycled) or ``booting`` (being recycled). A
writing episode only ever gets a ``free`` replica; reading episodes join a ``shared``
one before they take a ``free`` one, which keeps pristine ones for writers. A dirty replica
goes back to ``free`` only through :meth:`LeaseBook.recycled`.

>>> book = LeaseBook({"reddit": ["http://h:10999", "http://h:11999"]})
>>> lease = book.acquire(["reddit"], writes=True, holder="w1", ttl=60)
>>> lease.replicas, book.counts(["reddit"])["reddit"]["leased"]
({'reddit': 1}, 1)
>>> book.release(lease.lease_id, dirty=True)
[('reddit', 1)]
>>> book.replica("reddit", 1).state
'dirty'
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

STATES = ("free", "shared", "leased", "dirty", "booting")


@dataclass
class Replica:
    """One copy of a site."""

    site: str
    index: int
    url: str
    state: str = "free"
    holders: dict[str, str] = field(default_factory=dict)  # lease id -> holder
    since: float = 0.0
    recycled: int = 0
    auth_dir: str = ""

    @property
    def name(self) -> str:
        return f"{self.site}-{self.index}"

    def row(self) -> dict[str, Any]:
        return {"replica": self.name, "site": self.site, "index": self.index, "url": self.url, "state": self.state,
                "holders": sorted(set(self.holders.values())), "leases": len(self.holders),
                "since": self.since, "recycled": self.recycled}


@dataclass
class LeaseRecord:
    lease_id: str
    holder: str
    writes: bool
    ttl: float
    expires: float
    replicas: dict[str, int]


class LeaseBook:
    """The replicas of each site and the leases on them; thread-safe.

    Args:
        urls: Site URL of each replica, per site (replica ``i`` is ``urls[site][i - 1]``).
        auth_dirs: Login state folder of each replica, per site (same order), if any.
        clock: Seconds, monotonic (tests pass their own).
    """

    def __init__(self, urls: Mapping[str, list[str]], auth_dirs: Mapping[str, list[str]] | None = None,
                 clock: Any = time.monotonic):
        self._clock = clock
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._leases: dict[str, LeaseRecord] = {}
        self._replicas: dict[str, list[Replica]] = {
            site: [Replica(site, index, url, since=clock(), auth_dir=((auth_dirs or {}).get(site) or [""] * len(list_))[index - 1])
                   for index, url in enumerate(list_, start=1)]
            for site, list_ in urls.items()
        }

    @property
    def sites(self) -> list[str]:
        return list(self._replicas)

    def replica(self, site: str, index: int) -> Replica:
        return self._replicas[site][index - 1]

    def missing(self, sites: list[str]) -> list[str]:
        return [site for site in sites if site not in self._replicas]

    def acquire(self, sites: list[str], *, writes: bool, holder: str, ttl: float) -> LeaseRecord | None:
        """A lease on one replica of each site (all or none); None when some site has none to give."""
        with self._lock:
            chosen = {}
            for site in dict.fromkeys(sites):
                pool = self._replicas[site]
                if writes:
                    candidates = [r for r in pool if r.state == "free"]
                else:
                    candidates = [r for r in pool if r.state == "shared"] or [r for r in pool if r.state == "free"]
                if not candidates:
                    return None
                chosen[site] = min(candidates, key=lambda r: (-len(r.holders), r.index))
            now = self._clock()
            lease = LeaseRecord(f"L{next(self._ids)}", holder, writes, ttl, now + ttl,
                                {site: replica.index for site, replica in chosen.items()})
            for replica in chosen.values():
                if not replica.holders:
                    replica.since = now
                replica.holders[lease.lease_id] = holder
                replica.state = "leased" if writes else "shared"
            self._leases[lease.lease_id] = lease
            return lease

    def heartbeat(self, lease_id: str) -> bool:
        with self._lock:
            lease = self._leases.get(lease_id)
            if lease is None:
                return False
            lease.expires = self._clock() + lease.ttl
            return True

    def release(self, lease_id: str, *, dirty: bool) -> list[tuple[str, int]] | None:
        """Return a lease; returns the replicas that now need recycling (None: no such lease)."""
        with self._lock:
            lease = self._leases.pop(lease_id, None)
            if lease is None:
                return None
            return self._let_go(lease, dirty)

    def expire(self) -> list[tuple[str, int]]:
        """Drop the leases whose holder stopped beating; their replicas are recycled (the holder
        may have written before it died, whatever its task)."""
        now = self._clock()
        with self._lock:
            dead = [lease for lease in self._leases.values() if lease.expires <= now]
            out: list[tuple[str, int]] = []
            for lease in dead:
                del self._leases[lease.lease_id]
                out += self._let_go(lease, dirty=True)
            return out

    def _let_go(self, lease: LeaseRecord, dirty: bool) -> list[tuple[str, int]]:
        out = []
        now = self._clock()
        for site, index in lease.replicas.items():
            replica = self.replica(site, index)
            replica.holders.pop(lease.lease_id, None)
            if dirty and replica.state != "booting":
                replica.state = "dirty"
            if replica.state == "dirty":
                if not replica.holders:  # readers sharing it finish first
                    replica.since = now
                    out.append((site, index))
            elif not replica.holders:
                replica.state, replica.since = "free", now
        return out

    def recycling(self, site: str, index: int) -> None:
        with self._lock:
            replica = self.replica(site, index)
            replica.state, replica.since = "booting", self._clock()

    def recycled(self, site: str, index: int, *, ok: bool = True) -> None:
        """The replica is pristine again (or, ``ok=False``, its recycling failed: it stays dirty)."""
        with self._lock:
            replica = self.replica(site, index)
            replica.state, replica.since = ("free" if ok else "dirty"), self._clock()
            replica.recycled += ok

    def counts(self, sites: list[str]) -> dict[str, dict[str, int]]:
        with self._lock:
            return {site: {state: sum(r.state == state for r in self._replicas[site]) for state in STATES}
                    for site in dict.fromkeys(sites)}

    def rows(self) -> list[dict[str, Any]]:
        now = self._clock()
        with self._lock:
            return [replica.row() | {"for_s": round(now - replica.since, 1)}
                    for pool in self._replicas.values() for replica in pool]
