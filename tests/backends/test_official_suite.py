"""The official WebArena-Lite suite's plumbing, run against stand-in sites (the embedded ones, served).

The real WebArena sites cannot run here; pointing the WA_* URLs at the embedded sites
exercises everything else of that path: loading the official tasks, resolving their
URLs, Chromium sessions, saved login states, actions, and evaluation.
"""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

from webarena_gym.errors import LoginStateError
from webarena_gym.sites.server import SiteServer
from webarena_gym.sites.webapp import login_cookie

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def stand_in_sites():
    with SiteServer(ephemeral=True) as server:
        yield server


def test_official_task_runs_on_configured_sites_with_saved_login(stand_in_sites, tmp_path, monkeypatch):
    urls = stand_in_sites.base_urls
    for site, url in urls.items():
        monkeypatch.setenv(f"WA_{site.upper()}", url)
    name, value = login_cookie("reddit", "MarvelsGrantMan136")
    state = {"cookies": [{"name": name, "value": value, "domain": "127.0.0.1", "path": "/", "expires": -1,
                          "httpOnly": False, "secure": False, "sameSite": "Lax"}], "origins": []}
    (tmp_path / "reddit_state.json").write_text(json.dumps(state))
    monkeypatch.setenv("WA_AUTH_DIR", str(tmp_path))

    env = gym.make("WebArenaLite-v0", task_ids=[5], max_steps=5)  # WA_* set: the official suite, in Chromium
    try:
        observation, info = env.reset()
        assert info["suite"] == "webarena-lite" and info["backend"] == "playwright"
        assert info["task_id"] == 5 and "downvotes" in info["intent"]
        assert info["url"].startswith(urls["reddit"])
        assert "MarvelsGrantMan136" in observation  # logged in from the saved state
        _, reward, terminated, _, info = env.step('exit(message="I could not find it")')
        assert terminated and reward == 0.0 and set(info["reward_components"]) == {"string_match"}
    finally:
        env.close()


def test_official_task_without_its_saved_login_is_refused_at_reset(stand_in_sites, tmp_path, monkeypatch):
    for site, url in stand_in_sites.base_urls.items():
        monkeypatch.setenv(f"WA_{site.upper()}", url)
    monkeypatch.setenv("WA_AUTH_DIR", str(tmp_path))  # `sites login` never ran: no reddit_state.json

    env = gym.make("WebArenaLite-v0", task_ids=[5], max_steps=5)
    try:
        with pytest.raises(LoginStateError) as raised:  # was: the episode ran logged out, scored 0
            env.reset()
        assert f"no {tmp_path / 'reddit_state.json'}." in str(raised.value)
        assert f"`webarena-gym sites login reddit --auth-dir {tmp_path}`" in str(raised.value)
    finally:
        env.close()
