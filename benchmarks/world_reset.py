"""World reset time, isolation cost and memory per world.

Baselines measured in the same run, side by side:
- rebuild: building a site's database from its seed code (what a naive env would do),
- file copy: loading the cached pristine database file from disk into a fresh connection.

Run: ``.venv/bin/python benchmarks/world_reset.py``
"""

from __future__ import annotations

import sqlite3

from timing import timed

from webarena_gym.sites import World, data_sites, get_site
from webarena_gym.sites.world import cache_dir, pristine_database

DATA_SITES = data_sites()

#: A representative write: what an episode typically changes (a few rows of a big table).
WRITE = "UPDATE {table} SET {column} = {column} WHERE rowid IN (SELECT rowid FROM {table} LIMIT 5)"


def touch(world: World, site: str) -> None:
    """Write a few rows of the site's largest table, as an episode would."""
    conn = world.connection(site)
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")]
    table = max(tables, key=lambda t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0])
    column = conn.execute(f"PRAGMA table_info({table})").fetchall()[-1][1]
    conn.execute(WRITE.format(table=table, column=column))
    conn.commit()



def main() -> None:
    for site in DATA_SITES:
        pristine_database(site)  # build or load the caches first
    world = World()
    for site in DATA_SITES:
        world.connection(site)

    def dirty_reset_one(site: str):
        def run():
            touch(world, site)
            world.reset()
        return run

    def dirty_reset_all():
        for site in DATA_SITES:
            touch(world, site)
        world.reset()

    print(f"{'measure':<44}{'ours (ms)':>12}{'baseline (ms)':>16}{'speed-up':>10}")
    clean = timed(world.reset, 50)
    print(f"{'reset, nothing written':<44}{clean * 1e3:>12.3f}{'':>16}{'':>10}")
    for site in DATA_SITES:
        ours = timed(dirty_reset_one(site), 20) - timed(lambda s=site: touch(world, s), 20)
        rebuild = timed(lambda s=site: get_site(s).build_database(sqlite3.connect(":memory:")), 1)
        path = next(cache_dir().glob(f"{site}-*.sqlite"))

        def file_copy(p=path):
            target = sqlite3.connect(":memory:")
            with sqlite3.connect(p) as source:
                source.backup(target)

        copy = timed(file_copy, 10)
        print(f"{'reset after writes to ' + site:<44}{ours * 1e3:>12.3f}{rebuild * 1e3:>16.1f}{rebuild / ours:>9.0f}x"
              f"   (file copy {copy * 1e3:.1f} ms: {copy / ours:.1f}x)")
    everything = timed(dirty_reset_all, 10)
    print(f"{'reset after writes to all five sites':<44}{everything * 1e3:>12.3f}")
    per_site = {}
    for site in DATA_SITES:
        conn = world.connection(site)
        per_site[site] = conn.execute("PRAGMA page_count").fetchone()[0] * conn.execute("PRAGMA page_size").fetchone()[0]
    print("\nmemory per world (SQLite pages in use):")
    for site, size in per_site.items():
        print(f"  {site:<16}{size / 2**20:8.2f} MiB")
    print(f"  {'total':<16}{world.memory_bytes() / 2**20:8.2f} MiB")


if __name__ == "__main__":
    main()
