"""Worlds: isolated, instantly resettable copies of the embedded sites' data.

Every env owns a :class:`World`. A world holds one in-memory SQLite database per data
site, copied from a pristine snapshot the first time the site is touched. Reset copies
the snapshot back only into databases that were written since the last reset (SQLite's
``total_changes`` tells), which keeps resets in the millisecond range.

Pristine snapshots are built once per process from the sites' seed code and cached on
disk, keyed by a hash of that code, so later processes load them in milliseconds.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib
import logging
import os
import secrets
import sqlite3
import threading
from functools import cache
from pathlib import Path

from .spec import SITE_MODULES, get_site

logger = logging.getLogger(__name__)

#: The date the embedded worlds live on; WebArena's data was frozen around then.
WORLD_START = dt.datetime(2023, 6, 1, 9, 0, 0)


def cache_dir() -> Path:
    """Where pristine databases are cached (``$WEBARENA_GYM_CACHE`` or ``~/.cache/webarena-gym``)."""
    root = os.environ.get("WEBARENA_GYM_CACHE") or Path.home() / ".cache" / "webarena-gym"
    return Path(root)


#: Where a site keeps its task families (a package or a module), left out of its seed hash.
_FAMILIES = ("families", "families.py")


def _source_hash(site: str) -> str:
    """Hash of the code that decides a site's seed data (every .py file of its package but its task families,
    which only read the data: editing a family keeps the cached database)."""
    spec = get_site(site)
    digest = hashlib.sha256(site.encode())
    package_dir = Path(importlib.import_module(SITE_MODULES[site]).__file__).parent
    code = [path for path in package_dir.rglob("*.py") if path.relative_to(package_dir).parts[0] not in _FAMILIES]
    for path in sorted(code) + [Path(p) for p in spec.source_files]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@cache
def pristine_database(database: str) -> sqlite3.Connection:
    """The read-only pristine snapshot of one site's database (built or loaded once per process)."""
    spec = get_site(database)
    if spec.build_database is None:
        raise KeyError(f"the embedded site {database!r} has no database")
    path = cache_dir() / f"{database}-{_source_hash(database)}.sqlite"
    pristine = sqlite3.connect(":memory:", check_same_thread=False)
    if path.exists():
        with sqlite3.connect(path) as on_disk:
            on_disk.backup(pristine)
        return pristine
    logger.info("Building the pristine %s database (cached at %s)", database, path)
    spec.build_database(pristine)
    pristine.commit()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with sqlite3.connect(tmp) as on_disk:
            pristine.backup(on_disk)
        on_disk.close()
        tmp.replace(path)
    except OSError as exc:  # a read-only home only costs rebuild time
        logger.warning("Could not cache the pristine %s database at %s: %s", database, path, exc)
    return pristine


class World:
    """One isolated copy of every embedded site's data.

    >>> world = World()
    >>> world.token != World().token
    True
    """

    def __init__(self, token: str | None = None):
        self.token = token or secrets.token_hex(8)
        self.lock = threading.RLock()
        self._connections: dict[str, sqlite3.Connection] = {}
        self._clean_changes: dict[str, int] = {}
        self._clock_ticks = 0

    def connection(self, database: str) -> sqlite3.Connection:
        """This world's connection to a database (``shopping``, ``reddit``, ``gitlab``, ``map``)."""
        conn = self._connections.get(database)
        if conn is None:
            conn = sqlite3.connect(":memory:", check_same_thread=False)
            conn.row_factory = sqlite3.Row
            pristine_database(database).backup(conn)
            self._connections[database] = conn
            self._clean_changes[database] = conn.total_changes
        return conn

    def reset(self) -> None:
        """Restore pristine data in every database written since the last reset."""
        with self.lock:
            for database, conn in self._connections.items():
                if conn.in_transaction:
                    conn.rollback()
                if conn.total_changes != self._clean_changes[database]:
                    pristine_database(database).backup(conn)
                    self._clean_changes[database] = conn.total_changes
            self._clock_ticks = 0

    def is_dirty(self) -> bool:
        """Whether any database was written since the last reset."""
        return any(c.total_changes != self._clean_changes[d] for d, c in self._connections.items())

    def now(self) -> dt.datetime:
        """The world's clock: starts at :data:`WORLD_START`, one minute per call, reset with the world."""
        self._clock_ticks += 1
        return WORLD_START + dt.timedelta(minutes=self._clock_ticks)

    def memory_bytes(self) -> int:
        """Bytes held by this world's databases (pages in use)."""
        total = 0
        for conn in self._connections.values():
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            size = conn.execute("PRAGMA page_size").fetchone()[0]
            total += pages * size
        return total

    def close(self) -> None:
        for conn in self._connections.values():
            conn.close()
        self._connections.clear()


class WorldPool:
    """Worlds by token, for servers and vector envs that host many worlds in one process."""

    def __init__(self) -> None:
        self._worlds: dict[str, World] = {}
        self._free: list[World] = []
        self._lock = threading.Lock()

    def acquire(self) -> World:
        """A pristine world, reusing a released one when there is one."""
        with self._lock:
            world = self._free.pop() if self._free else World()
            self._worlds[world.token] = world
        world.reset()
        return world

    def add(self, world: World) -> None:
        """Host a world created elsewhere (an env's) under its token."""
        with self._lock:
            self._worlds[world.token] = world

    def discard(self, world: World) -> None:
        """Stop hosting a world (its owner closes it)."""
        with self._lock:
            self._worlds.pop(world.token, None)

    def release(self, world: World) -> None:
        with self._lock:
            if self._worlds.pop(world.token, None) is not None:
                self._free.append(world)

    def get(self, token: str) -> World | None:
        with self._lock:
            return self._worlds.get(token)

    def __len__(self) -> int:
        return len(self._worlds)
