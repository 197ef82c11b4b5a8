"""One site registry: every embedded site is one folder plus one line of ``webarena_sites.SITES``, and
everything else (addresses, placeholders, the served apps, the homepage, the suite's families and
their ``func:`` helpers) follows from that line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import webarena_gym
from webarena_gym.evaluators.functions import registered_functions
from webarena_gym.sites import SITE_MODULES, app_for, data_sites, default_base_url, get_site
from webarena_gym.sites.webapp import WORLD_KEY
from webarena_gym.sites.world import World
from webarena_gym.suites.embedded import all_families, family_modules
from webarena_gym.webarena_sites import EMBEDDED_SITES, PLACEHOLDERS, SITE_ADDRESSES, SITE_VARIABLES, SITES


def test_every_embedded_site_of_the_registry_is_wired():
    assert tuple(SITE_MODULES) == EMBEDDED_SITES == (
        "shopping", "shopping_admin", "reddit", "gitlab", "map", "wikipedia", "homepage")
    assert set(SITES) == set(EMBEDDED_SITES)  # every WebArena site is embedded
    families = all_families()
    helpers = set(registered_functions())
    world = World()
    for name in EMBEDDED_SITES:
        site = get_site(name)
        assert site.name == name and SITE_MODULES[name] == f"webarena_gym.sites.{name}"
        assert (site.default_port, site.url_prefix) == SITE_ADDRESSES[name] == (SITES[name].port, SITES[name].path)
        assert default_base_url(name).startswith(f"http://127.0.0.1:{SITES[name].port}")
        assert PLACEHOLDERS[name] == f"__{name.upper()}__" and SITE_VARIABLES[name] == f"WA_{name.upper()}"
        assert (name in data_sites()) == (site.build_database is not None)
        client = app_for(name).test_client()
        client.environ_base[WORLD_KEY] = world
        assert client.get("/").status_code in (200, 302)
    homepage = app_for("homepage").test_client()
    homepage.environ_base[WORLD_KEY] = world
    listed = homepage.get("/").get_data(as_text=True)
    assert all(get_site(name).title in listed for name in data_sites())
    # each data site brings its own families, which name only helpers the suite has registered
    for name in data_sites():
        assert f"webarena_gym.sites.{name}.families" in family_modules()
        assert any(family.sites == (name,) for family in families)
    assert {"shopping_latest_order_url", "gitlab_member_role", "map_route_engine", "reddit_newest_post_url",
            "shopping_admin_latest_order_url"} <= helpers


def test_importing_a_sites_families_registers_no_helper():
    code = textwrap.dedent("""
        import webarena_gym.sites.gitlab.families as families
        from webarena_gym.evaluators.functions import registered_functions
        print(sorted(families.FUNCTIONS), [n for n in registered_functions() if n in families.FUNCTIONS])
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['gitlab_member_role', 'gitlab_newest_project_url'] []"


TOY_SITE = '''
"""A note board: the smallest embedded site, added as the contributor guide says."""

from __future__ import annotations

import sqlite3

from flask import Blueprint, Flask, redirect, render_template, request, url_for

from ..spec import SiteSpec
from ..webapp import create_site_app, db

bp = Blueprint("board", __name__)


@bp.get("/")
def index() -> str:
    return render_template("index.html", notes=db().execute("SELECT id, text FROM notes ORDER BY id").fetchall())


@bp.get("/note/<int:note_id>")
def note(note_id: int) -> str:
    row = db().execute("SELECT text FROM notes WHERE id = ?", (note_id,)).fetchone()
    return render_template("index.html", notes=[(note_id, row[0])])


@bp.post("/notes")
def add():
    cur = db().execute("INSERT INTO notes (text) VALUES (?)", (request.form["text"],))
    return redirect(url_for("board.note", note_id=cur.lastrowid))


def create_app() -> Flask:
    app = create_site_app("board", __name__)
    app.register_blueprint(bp)
    return app


def build_database(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    conn.executemany("INSERT INTO notes (text) VALUES (?)", [("welcome",), ("rules",)])


SITE = SiteSpec(name="board", title="Note Board", create_app=create_app, build_database=build_database)
'''

TOY_TEMPLATE = """<html><body><h1>Note Board</h1>
<ul>{% for id, text in notes %}<li>{{ text }}</li>{% endfor %}</ul>
<form method="post" action="{{ site_url('board', '/notes') }}">
<input name="text" aria-label="Note"><button type="submit">Save</button></form></body></html>
"""

TOY_FAMILIES = '''
"""The note board's one task family."""

from __future__ import annotations

from ...tasks.families import program_html_eval, single_site_family


def latest_note_url(page) -> str:
    newest = page.world.connection("board").execute("SELECT max(id) FROM notes").fetchone()[0]
    return f"{page.site_urls['board']}/note/{newest}"


def instances(conn):
    for word in ("apples", "pears", "plums"):
        yield {"text": word}, program_html_eval(("func:board_latest_note_url()", "", {"must_include": [word]}))


def solve(ctx):
    yield ctx.type("Note", ctx.instantiation["text"])
    yield ctx.click("Save")
    yield ctx.exit("Saved.")


FAMILIES = [single_site_family("board", "add_note", "Add a note saying {{text}}", "content", instances, solve,
                               start_url="__BOARD__", require_login=False)]
FUNCTIONS = {"board_latest_note_url": latest_note_url}
'''

TOY_CHECK = '''
import json
import webarena_gym
from webarena_gym.env import WebArenaEnv
from webarena_gym.oracle_runner import play
from webarena_gym.sites import app_for, data_sites, default_base_url
from webarena_gym.sites.webapp import WORLD_KEY
from webarena_gym.sites.world import World
from webarena_gym.suites.embedded import embedded_tasks, family_of, family_task_ids

ids = family_task_ids("train", ["board.add_note"])
env = WebArenaEnv(suite="embedded", split="train", backend="direct", task_ids=ids)
task = next(t for t in env.tasks if t.task_id == ids[0])
episode = play(env, ids[0], family_of(ids[0], "train").solve, task.to_dict())
env.close()
homepage = app_for("homepage").test_client()
homepage.environ_base[WORLD_KEY] = World()
print(json.dumps({
    "package": webarena_gym.__file__, "url": default_base_url("board"), "data_site": "board" in data_sites(),
    "tasks": len(ids), "start_url": task.start_url, "reward": episode.reward,
    "on_homepage": "Note Board" in homepage.get("/").get_data(as_text=True),
    "test_split_unchanged": len(embedded_tasks("test")),
}))
'''


def test_a_new_site_is_one_folder_plus_one_registry_line(tmp_path: Path):
    """A copy of the package with a note board added as the guide says (its folder, one line in SITES):
    it is served, listed on the homepage, its tasks join the train split, and its oracle earns the reward
    through its own func: helper."""
    package = Path(webarena_gym.__file__).parent
    copy = tmp_path / "webarena_gym"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    site = copy / "sites" / "board"
    (site / "templates").mkdir(parents=True)
    (site / "__init__.py").write_text(TOY_SITE, encoding="utf-8")
    (site / "templates" / "index.html").write_text(TOY_TEMPLATE, encoding="utf-8")
    (site / "families.py").write_text(TOY_FAMILIES, encoding="utf-8")
    registry = copy / "webarena_sites.py"
    text = registry.read_text(encoding="utf-8")
    line = '    "homepage": Site(4399),\n'
    assert text.count(line) == 1
    registry.write_text(text.replace(line, '    "board": Site(7010),\n' + line), encoding="utf-8")

    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", TOY_CHECK], capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["package"] == str(copy / "__init__.py")
    assert result["url"] == "http://127.0.0.1:7010" and result["data_site"] and result["on_homepage"]
    assert result["tasks"] == 3 and result["start_url"].startswith("http://127.0.0.1:7010")
    assert result["reward"] == 1.0
    assert result["test_split_unchanged"] == 165
