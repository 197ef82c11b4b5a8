"""Worlds: isolation across many concurrent worlds, instant reset, the on-disk pristine cache."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from webarena_gym.sites import World, app_for
from webarena_gym.sites.webapp import WORLD_KEY, login_cookie
from webarena_gym.sites.world import WorldPool, cache_dir


def bio_of(world: World) -> str:
    row = world.connection("reddit").execute("SELECT biography FROM users WHERE username = 'MarvelsGrantMan136'").fetchone()
    return row[0] or ""


def write_bio(world: World, text: str) -> int:
    client = app_for("reddit").test_client()
    client.environ_base[WORLD_KEY] = world
    client.set_cookie(*login_cookie("reddit", "MarvelsGrantMan136"))
    response = client.post("/user/MarvelsGrantMan136/edit_biography", data={"biography": text})
    return response.status_code


def test_eight_concurrent_worlds_never_see_each_other():
    pool = WorldPool()
    worlds = [pool.acquire() for _ in range(8)]
    pristine = bio_of(worlds[0])
    with ThreadPoolExecutor(8) as executor:
        codes = list(executor.map(lambda iw: write_bio(iw[1], f"bio of world {iw[0]}"), enumerate(worlds)))
    assert all(code in (200, 302, 303) for code in codes)
    assert [bio_of(w) for w in worlds] == [f"bio of world {i}" for i in range(8)]
    fresh = World()
    assert bio_of(fresh) == pristine
    worlds[3].reset()
    assert bio_of(worlds[3]) == pristine and bio_of(worlds[4]) == "bio of world 4"
    assert len(pool) == 8
    pool.release(worlds[0])
    assert len(pool) == 7 and pool.acquire() is worlds[0] and bio_of(worlds[0]) == pristine


def test_reset_only_copies_written_databases():
    world = World()
    world.connection("map")
    world.connection("reddit")
    assert not world.is_dirty()
    write_bio(world, "changed")
    assert world.is_dirty()
    world.reset()
    assert not world.is_dirty()
    assert world.memory_bytes() > 100_000


def test_pristine_databases_are_cached_on_disk_for_other_processes():
    World().connection("gitlab")
    cached = sorted(p.name for p in cache_dir().glob("gitlab-*.sqlite"))
    assert cached
    code = "from webarena_gym.sites import World; w = World(); print(w.connection('gitlab').execute('SELECT COUNT(*) FROM projects').fetchone()[0])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert int(out) >= 30
