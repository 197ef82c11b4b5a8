"""Worlds: isolation across many concurrent worlds, instant reset, the on-disk pristine cache; apps and servers under threads and bad addresses."""

from __future__ import annotations

import socket
import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from webarena_gym.errors import ConfigurationError
from webarena_gym.sites import World, app_for
from webarena_gym.sites.server import SiteServer
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


def test_a_site_server_that_cannot_bind_says_why_and_leaves_the_process_running():
    """A taken port or an unknown host is a ConfigurationError naming the site, not werkzeug's exit."""
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        with pytest.raises(ConfigurationError, match=rf"Cannot serve map on 127\.0\.0\.1:{port}: .*--ephemeral"):
            SiteServer(sites=["homepage", "map"], ports={"homepage": 0, "map": port}).start()
    with pytest.raises(ConfigurationError, match=r"Cannot serve homepage on no-such-host\.invalid:0: .*--host"):
        SiteServer(sites=["homepage"], host="no-such-host.invalid", ephemeral=True).start()
    # The port the first attempt bound for homepage was let go: serving works at once, and so does IPv6's loopback.
    with SiteServer(sites=["homepage"], ephemeral=True) as server:
        assert server.base_urls["homepage"].startswith("http://127.0.0.1:")
    if socket.has_ipv6:
        try:
            socket.create_server(("::1", 0), family=socket.AF_INET6).close()
        except OSError:
            return  # no IPv6 loopback on this machine
        with SiteServer(sites=["homepage"], host="::1", ephemeral=True) as server:
            url = server.base_urls["homepage"]
            assert url.startswith("http://[::1]:")
            with urllib.request.urlopen(url, timeout=30) as response:
                assert response.status == 200


def test_threads_that_ask_for_an_app_at_once_share_one():
    """In a fresh process (no app built yet) 16 threads ask for each site's app together: one app each, no error
    (building them side by side once crashed in werkzeug's route compilation: CPython 3.11's ast is not
    thread-safe)."""
    code = """if True:
        import threading
        from webarena_gym.sites.spec import SITE_MODULES, app_for
        for name in SITE_MODULES:
            start, apps, errors = threading.Barrier(16), [], []
            def ask():
                start.wait()
                try:
                    apps.append(app_for(name))
                except BaseException as exc:
                    errors.append(repr(exc))
            threads = [threading.Thread(target=ask) for _ in range(16)]
            for t in threads: t.start()
            for t in threads: t.join()
            assert not errors, errors
            assert len(apps) == 16 and len({id(a) for a in apps}) == 1, name
        print("ok")
    """
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
