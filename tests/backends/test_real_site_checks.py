"""Real sites set up in part or wrongly: errors that name the fix, raised before an episode starts.

A real HTTP server on loopback stands in for a WebArena site: it answers any page with a
small forum page that shows who is signed in (from a session cookie), and a few paths with
an error status. The env runs on it as it would on the real sites (suite webarena-lite, the
Playwright backend, saved login states from ``WA_AUTH_DIR``).
"""

from __future__ import annotations

import json
import warnings

import gymnasium as gym
import pytest
from werkzeug.utils import redirect
from werkzeug.wrappers import Request, Response

from webarena_gym.backends.playwright_sites import RealSites
from webarena_gym.env import WebArenaEnv
from webarena_gym.errors import ConfigurationError, InfrastructureError, LoginStateError, SiteUnavailableError
from webarena_gym.suites import loading
from webarena_gym.webarena_sites import SITE_VARIABLES

from .real_markup_site import serving_wsgi

SESSION_COOKIE = "standin_session"
ERROR_PAGES = {"/missing": 404, "/down": 503}


class StandInSite:
    """A site on loopback that records the paths it was asked for."""

    def __init__(self) -> None:
        self.requested: list[str] = []

    @Request.application
    def app(self, request: Request) -> Response:
        self.requested.append(request.path)
        if request.path == "/moved":
            return redirect("/missing")
        if request.path in ERROR_PAGES:
            return Response("<h1>Error</h1>", status=ERROR_PAGES[request.path], mimetype="text/html")
        user = request.cookies.get(SESSION_COOKIE)
        who = f"<p>Signed in as {user}</p>" if user else '<a href="/login">Log in</a>'
        return Response(f"<!DOCTYPE html><html><head><title>Forum</title></head><body><h1>Forum</h1>{who}"
                        '<a href="/forums">Forums</a></body></html>', mimetype="text/html")


def serving(site: StandInSite):
    """Serve ``site`` on a free loopback port; a context manager that yields its base URL."""
    return serving_wsgi(site.app, "stand-in-site")


@pytest.fixture
def stand_in():
    site = StandInSite()
    with serving(site) as url:
        site.url = url
        yield site


@pytest.fixture
def no_sites_configured(monkeypatch):
    for site, variable in SITE_VARIABLES.items():
        monkeypatch.delenv(variable, raising=False)
        monkeypatch.delenv(site.upper(), raising=False)


def task(task_id: int, start_path: str, *, sites=("reddit",), require_login=False, storage_state=None) -> dict:
    return {
        "task_id": task_id, "sites": list(sites), "require_login": require_login, "storage_state": storage_state,
        "start_url": f"__{sites[0].upper()}__{start_path}", "intent": "look around",
        "eval": {"eval_types": ["string_match"], "reference_answers": {"exact_match": "never"}},
    }


def save_state(folder, name: str, user: str, host: str = "127.0.0.1") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    cookie = {"name": SESSION_COOKIE, "value": user, "domain": host, "path": "/", "expires": -1,
              "httpOnly": False, "secure": False, "sameSite": "Lax"}
    (folder / name).write_text(json.dumps({"cookies": [cookie], "origins": []}))


# -- saved login states (no browser needed to read them) --------------------------------------


def test_a_missing_login_state_names_the_files_and_the_login_command(tmp_path):
    sites = RealSites({"gitlab": "http://127.0.0.1:1", "reddit": "http://127.0.0.1:2"}, storage_state_dir=tmp_path)
    save_state(tmp_path, "reddit_state.json", "MarvelsGrantMan136")
    with pytest.raises(LoginStateError) as raised:
        sites.storage_state(("gitlab", "reddit"), "./.auth/gitlab.reddit_state.json")
    message = str(raised.value)
    assert isinstance(raised.value, InfrastructureError)
    assert str(tmp_path / "gitlab.reddit_state.json") in message and str(tmp_path / "gitlab_state.json") in message
    assert f"`webarena-gym sites login gitlab reddit --auth-dir {tmp_path}`" in message
    save_state(tmp_path, "gitlab_state.json", "byteblaze")  # both per-site states: merged, as before
    state = sites.storage_state(("gitlab", "reddit"), "./.auth/gitlab.reddit_state.json")
    assert sorted(cookie["value"] for cookie in state["cookies"]) == ["MarvelsGrantMan136", "byteblaze"]


def test_only_the_sites_a_state_names_need_one(tmp_path):
    sites = RealSites({"map": "http://127.0.0.1:1", "shopping": "http://127.0.0.1:2"}, storage_state_dir=tmp_path)
    # WebArena's map tasks require login and name no state (the map has no accounts): nothing to miss
    assert sites.storage_state(("map",), None) == {"cookies": [], "origins": []}
    # a shopping+reddit task names reddit's state only
    with pytest.raises(LoginStateError, match=r"sites login reddit --auth-dir"):
        sites.storage_state(("shopping", "reddit"), "./.auth/reddit_state.json")


def test_an_unreadable_login_state_says_to_save_it_again(tmp_path):
    (tmp_path / "reddit_state.json").write_text("{not json")
    with pytest.raises(LoginStateError, match=r"is not readable JSON .*`webarena-gym sites login --force"):
        RealSites({"reddit": "http://127.0.0.1:1"}, storage_state_dir=tmp_path).storage_state(
            ("reddit",), "./.auth/reddit_state.json")


# -- through the env, in Chromium -------------------------------------------------------------


@pytest.mark.browser
def test_a_task_that_starts_logged_in_without_its_saved_state_is_refused_at_reset(stand_in, tmp_path, monkeypatch):
    auth = tmp_path / "auth"
    monkeypatch.setenv("WA_AUTH_DIR", str(auth))
    env = WebArenaEnv(suite="webarena-lite", site_urls={"reddit": stand_in.url},
                      tasks=[task(1, "/forums", require_login=True, storage_state="./.auth/reddit_state.json")])
    try:
        with pytest.raises(LoginStateError) as raised:  # was: the episode ran logged out
            env.reset()
        assert "`webarena-gym sites login reddit" in str(raised.value)
        assert str(auth / "reddit_state.json") in str(raised.value)
        assert stand_in.requested == []  # refused before the episode started
        save_state(auth, "reddit_state.json", "MarvelsGrantMan136")
        observation, _ = env.reset()
        assert "Signed in as MarvelsGrantMan136" in observation
    finally:
        env.close()


@pytest.mark.browser
def test_a_start_page_that_answers_an_error_status_is_refused_at_reset(stand_in):
    tasks = [task(1, "/missing"), task(2, "/down"), task(3, "/moved"), task(4, "/forums")]
    env = WebArenaEnv(suite="webarena-lite", site_urls={"reddit": stand_in.url}, tasks=tasks)
    try:
        for task_id, status in ((1, 404), (2, 503), (3, 404)):
            with pytest.raises(SiteUnavailableError) as raised:  # was: an episode on the error page
                env.reset(options={"task_id": task_id})
            message = str(raised.value)
            start_url = stand_in.url + tasks[task_id - 1]["start_url"].removeprefix("__REDDIT__")
            assert message.startswith(f"The start page {start_url}")
            assert f"answered HTTP {status}" in message and "`webarena-gym sites status reddit`" in message
        assert f"(redirected to {stand_in.url}/missing)" in message
        observation, info = env.reset(options={"task_id": 4})  # the env is still usable
        assert info["task_id"] == 4 and "Forum" in observation
    finally:
        env.close()


@pytest.mark.browser
def test_with_some_sites_configured_draws_keep_to_their_tasks(stand_in, tmp_path, monkeypatch, no_sites_configured):
    monkeypatch.setattr(loading, "_announced_restrictions", set())  # said once per process: start afresh
    monkeypatch.setenv("WA_REDDIT", stand_in.url)
    monkeypatch.setenv("WA_AUTH_DIR", str(tmp_path))
    save_state(tmp_path, "reddit_state.json", "MarvelsGrantMan136")
    with pytest.warns(UserWarning) as said:
        env = gym.make("WebArenaLite-v0", max_steps=3)  # WA_REDDIT only: the official suite, reddit's tasks
    [warning] = [w for w in said if "Only some WebArena sites are configured" in str(w.message)]
    assert str(warning.message).startswith(
        "Only some WebArena sites are configured: reddit (WA_REDDIT). reset() draws among the 19 of the 165 "
        "webarena-lite test tasks whose sites all have a URL; the other 146 need WA_SHOPPING, WA_SHOPPING_ADMIN, "
        "WA_GITLAB, WA_MAP, WA_WIKIPEDIA")
    try:
        with warnings.catch_warnings(record=True) as again:
            warnings.simplefilter("always")
            gym.make("WebArenaLite-v0", max_steps=3).close()
        assert not [w for w in again if "Only some WebArena sites" in str(w.message)]  # once, not per env
        for seed in range(5):  # was: a draw of another site's task, which raised
            observation, info = env.reset(seed=seed)
            assert info["sites"] == ["reddit"] and info["url"].startswith(stand_in.url)
            assert "Signed in as MarvelsGrantMan136" in observation
        gitlab_task = next(t for t in env.unwrapped.tasks if list(t.sites) == ["gitlab"])
        with pytest.raises(ConfigurationError, match=r"needs the gitlab site\(s\), which have no URL: set WA_GITLAB"):
            env.reset(options={"task_id": gitlab_task.task_id})
    finally:
        env.close()


@pytest.mark.browser
def test_with_no_task_of_the_configured_sites_the_env_says_so(stand_in, monkeypatch, no_sites_configured):
    monkeypatch.setenv("WA_WIKIPEDIA", stand_in.url)  # Lite's wikipedia tasks all need the map too
    with pytest.raises(ConfigurationError) as raised:
        gym.make("WebArenaLite-v0")
    message = str(raised.value)
    assert message.startswith("None of the 165 webarena-lite test tasks can run")
    assert "wikipedia (WA_WIKIPEDIA)" in message and "WA_MAP" in message


@pytest.mark.browser
def test_a_task_id_on_a_site_without_a_url_is_refused_even_when_its_data_names_none(
        stand_in, monkeypatch, no_sites_configured):
    monkeypatch.setenv("WA_MAP", stand_in.url)
    with pytest.warns(UserWarning, match="draws among the 26 of the 165"):
        env = gym.make("WebArenaLite-v0")
    try:
        both = next(t for t in env.unwrapped.tasks if set(t.sites) == {"map", "wikipedia"})
        assert not both.placeholders()  # its URLs are all the map's, but the agent is sent to Wikipedia
        with pytest.raises(ConfigurationError, match=r"needs the wikipedia site\(s\), which have no URL: set WA_WIKIPEDIA"):
            env.reset(options={"task_id": both.task_id})
    finally:
        env.close()
