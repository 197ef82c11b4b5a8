"""The embedded map: search, place pages, nearby, directions, notes, isolation and a browser run."""

from __future__ import annotations

import re
import sqlite3
from itertools import pairwise
from urllib.parse import unquote

import pytest

from webarena_gym.sites import World, app_for
from webarena_gym.sites.map.data import build_database
from webarena_gym.sites.server import SiteServer
from webarena_gym.sites.webapp import WORLD_KEY


def text_of(response) -> str:
    """The page's visible text, whitespace collapsed."""
    html = response.get_data(as_text=True)
    html = re.sub(r"(?s)<(style|script)[^>]*>.*?</\1>", " ", html)
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").replace("&amp;", "&").split())


@pytest.fixture
def client(site_client):
    return site_client("map")


def place_id(client, name: str) -> int:
    response = client.get("/search", query_string={"query": name}, follow_redirects=True)
    match = re.search(r'href="/node/(\d+)">' + re.escape(name).replace("'", "(?:'|&#39;)") + "<", response.get_data(as_text=True))
    assert match, f"{name} not found by search"
    return int(match.group(1))


def follow_route(client, engine: str, origin: str, destination: str):
    """Submit the directions form; returns (canonical url, route page)."""
    response = client.get("/directions", query_string={"engine": engine, "route_from": origin, "route_to": destination})
    assert response.status_code == 302
    url = response.headers["Location"]
    return url, client.get(url)


def summary(page) -> tuple[str, str]:
    match = re.search(r"Distance: ([\d.]+k?m)\. Time: ([^.]+)\.", text_of(page))
    assert match, text_of(page)[:2000]
    return match.group(1), match.group(2)


# -- home, search, place pages -----------------------------------------------------------
def test_home_links_to_search_directions_notes_and_featured_places(client):
    page = client.get("/")
    assert page.status_code == 200
    body = text_of(page)
    for text in ("Directions", "Map notes", "About", "Carnegie Mellon University", "Restaurants"):
        assert text in body
    assert 'aria-label="Search"' in page.get_data(as_text=True)
    about = text_of(client.get("/about"))
    assert re.search(r"\d{3} places on \d+ named roads", about)


def test_pages_carry_the_real_maps_controls(client):
    """Icon-only controls named by title, the layers and map key panels, a directions shortcut by the search."""
    from webarena_gym.observation import simplify_html

    html = client.get("/").get_data(as_text=True)
    assert 'role="toolbar" aria-label="Map controls"' in html
    for tag, name in (("button", "Zoom In"), ("button", "Zoom Out"), ("button", "Show My Location"),
                      ("a", "Find directions")):
        assert re.search(rf'<{tag} [^>]*title="{name}" aria-label="{name}">[^<]{{0,8}}</{tag}>', html), name
    assert '<summary title="Layers" aria-label="Layers"></summary>' in html and "Humanitarian" in html
    assert '<summary title="Map Key" aria-label="Map Key"></summary>' in html
    # the panels are closed: their options are not part of what an agent reads until opened
    observation = simplify_html(html).text
    assert "Zoom In" in observation and "Humanitarian" not in observation
    origin, destination = "Carnegie Mellon University", "PNC Park"
    route = client.get("/directions", query_string={"engine": "fossgis_osrm_car", "route_from": origin,
                                                      "route_to": destination}, follow_redirects=True)
    page = route.get_data(as_text=True)
    reverse = re.search(r'<a href="([^"]+)" class="reverse_directions" title="Reverse Directions"', page)
    reversed_page = client.get(reverse.group(1).replace("&amp;", "&")).get_data(as_text=True)
    assert re.search(rf'name="route_from" type="text" size="60" value="{destination},', reversed_page)


def test_search_finds_places_by_name_alias_and_address(client):
    for query in ("Carnegie Mellon University", "carnegie mellon", "CMU"):
        html = client.get("/search", query_string={"query": query}, follow_redirects=True).get_data(as_text=True)
        assert re.findall(r'href="/node/\d+">([^<]+)</a>', html)[0] == "Carnegie Mellon University", query
    cmu = client.get(f"/node/{place_id(client, 'Carnegie Mellon University')}")
    street = re.search(r"Street (\d+ [A-Z][\w ]+?) Neighbourhood", text_of(cmu)).group(1)
    assert "Carnegie Mellon University" in text_of(client.get("/search", query_string={"query": street}, follow_redirects=True))
    assert "No results found." in text_of(client.get("/search?query=zzzz+nowhere", follow_redirects=True))


def test_search_paginates_and_sorts(client):
    first = text_of(client.get("/search?query=restaurants"))
    total = int(re.search(r"(\d+) results", first).group(1))
    assert total >= 40 and "Page 1 of" in first and "Next page" in first
    second = text_of(client.get("/search?query=restaurants&page=2"))
    assert "showing 21-40" in second and "Previous page" in second
    by_name = client.get("/search?query=restaurants&sort=name").get_data(as_text=True)
    names = re.findall(r'href="/node/\d+">([^<]+)</a> \(Restaurant\)', by_name)
    assert names == sorted(names) and len(names) == 20


def test_search_url_keeps_the_typed_text_as_the_real_search_box_does(client):
    """The real map's script opens /search?query=<encodeURIComponent(typed)>: no canonical form."""
    response = client.get("/search?query=cafe+near+cmu")
    assert response.status_code == 302 and response.headers["Location"] == "/search?query=cafe%20near%20cmu"
    assert client.get("/search?query=cafe%20near%20cmu").status_code == 200
    typed = client.get("/search", query_string={"query": "Hotels near Carnegie Music"})
    assert typed.headers["Location"] == "/search?query=Hotels%20near%20Carnegie%20Music"
    odd = client.get("/search", query_string={"query": "Rita's (Café)", "sort": "name"})
    assert odd.headers["Location"] == "/search?query=Rita%27s%20(Caf%C3%A9)&sort=name"
    assert client.get(odd.headers["Location"]).status_code == 200


def test_near_search_is_sorted_by_distance(client):
    body = text_of(client.get("/search?query=cafe+near+cmu", follow_redirects=True))
    assert "Cafes near Carnegie Mellon University" in body
    metres = [float(v) * (1000 if unit == "km" else 1) for v, unit in re.findall(r"([\d.]+)(k?m) away", body)]
    assert len(metres) == 20 and metres == sorted(metres)
    assert "(Restaurant)" not in body
    page2 = client.get("/search?query=cafes%20near%20Carnegie%20Mellon%20University&page=2")
    assert page2.status_code == 200 and "Previous page" in text_of(page2)
    by_name = client.get("/search?query=cafes+near+CMU&sort=name")
    assert by_name.headers["Location"] == "/search?query=cafes%20near%20CMU&sort=name"
    names = re.findall(r'href="/node/\d+">([^<]+)</a> \(Cafe\)', client.get(by_name.headers["Location"]).get_data(as_text=True))
    assert len(names) == 20 and names == sorted(names)


def test_place_page_shows_address_zip_coordinates_and_hours(client, world):
    row = world.connection("map").execute(
        "SELECT * FROM places WHERE opening_hours != '' AND category = 'cafe' ORDER BY id LIMIT 1"
    ).fetchone()
    body = text_of(client.get(f"/node/{row['id']}"))
    assert row["name"] in body
    assert f"Zip code {row['zip']}" in body
    assert f"Coordinates {row['lat']:.5f}, {row['lon']:.5f}" in body
    assert f"Opening hours {row['opening_hours']}" in body
    assert f"{row['housenumber']} {row['street']}" in body
    alias = client.get(f"/place/{row['id']}")
    assert alias.status_code == 302 and alias.headers["Location"].endswith(f"/node/{row['id']}")
    assert client.get("/node/999999").status_code == 404


def test_whats_nearby_filters_by_category(client):
    cmu = place_id(client, "Carnegie Mellon University")
    body = text_of(client.get(f"/node/{cmu}/nearby?category=hotel"))
    assert "What's nearby Carnegie Mellon University" in body
    rows = re.findall(r"(Hotel) [^<]*?PA \d{5} ([\d.]+)(k?m)", body)
    assert rows and all(kind == "Hotel" for kind, *_ in rows)
    metres = [float(v) * (1000 if unit == "km" else 1) for _, v, unit in rows]
    assert metres == sorted(metres)
    everything = text_of(client.get(f"/node/{cmu}/nearby"))
    assert "Page 1 of" in everything


# -- directions --------------------------------------------------------------------------
def test_directions_form_redirects_to_the_osm_route_url(client, world):
    cmu = world.connection("map").execute("SELECT lat, lon FROM places WHERE name = 'Carnegie Mellon University'").fetchone()
    url, page = follow_route(client, "fossgis_osrm_foot", "CMU", "University of Pittsburgh")
    assert url.startswith(f"/directions?engine=fossgis_osrm_foot&route={cmu['lat']:.5f}%2C{cmu['lon']:.5f}%3B")
    html = page.get_data(as_text=True)
    assert 'value="fossgis_osrm_foot" selected' in html
    assert re.search(r'id="route_from"[^>]*value="Carnegie Mellon University, ', html)
    assert re.search(r'id="route_to"[^>]*value="University of Pittsburgh, ', html)
    body = text_of(page)
    assert "1. Head " in body and "Arrive at University of Pittsburgh" in body
    distance, duration = summary(page)
    assert re.fullmatch(r"\d+ min|\d+h \d+min", duration)
    reverse = re.search(r'href="([^"]+)">Reverse directions', html).group(1)
    assert summary(client.get(unquote(reverse).replace("&amp;", "&")))  # the way back exists too


def test_modes_differ_and_respect_road_rules(client, world):
    conn = world.connection("map")
    times = {}
    for engine in ("fossgis_osrm_car", "fossgis_osrm_bike", "fossgis_osrm_foot"):
        _url, page = follow_route(client, engine, "Randyland", "Frick Park")
        times[engine] = summary(page)
        body = text_of(page)
        if engine != "fossgis_osrm_car":
            assert "(I-376)" not in body and "(I-579)" not in body  # expressways are for cars only
        if engine == "fossgis_osrm_bike":
            assert "Steps" not in body
    minutes = {e: _minutes(t) for e, (_d, t) in times.items()}
    assert minutes["fossgis_osrm_car"] < minutes["fossgis_osrm_bike"] < minutes["fossgis_osrm_foot"]
    # One-way streets: somewhere the car route there and back differ in length.
    names = [r[0] for r in conn.execute("SELECT name FROM places WHERE category = 'hotel' ORDER BY id LIMIT 6")]
    lengths = set()
    for a, b in pairwise(names):
        there = summary(follow_route(client, "fossgis_osrm_car", a, b)[1])[0]
        back = summary(follow_route(client, "fossgis_osrm_car", b, a)[1])[0]
        lengths.add(there != back)
    assert True in lengths


def _minutes(duration: str) -> int:
    hours = re.search(r"(\d+)h", duration)
    mins = re.search(r"(\d+) ?min", duration)
    return (int(hours.group(1)) * 60 if hours else 0) + int(mins.group(1))


def test_directions_errors_are_shown_not_raised(client):
    page = client.get("/directions?engine=fossgis_osrm_car&route_from=qqqq+nowhere&route_to=CMU")
    assert page.status_code == 200 and "Could not find 'qqqq nowhere'." in text_of(page)
    page = client.get("/directions?engine=fossgis_osrm_car&route_from=&route_to=CMU")
    assert "Enter both a start" in text_of(page)
    assert "not valid" in text_of(client.get("/directions?route=abc"))
    prefilled = client.get("/directions?route_to=Carnegie+Mellon+University")
    assert 'value="Carnegie Mellon University"' in prefilled.get_data(as_text=True)
    assert "Enter both" not in text_of(prefilled)


# -- notes (the map's writes) ------------------------------------------------------------
def add_note(client, node: int, text: str):
    return client.post("/note/new", data={"node": str(node), "text": text})


def test_add_note_shows_on_note_place_and_list_pages(client):
    cmu = place_id(client, "Carnegie Mellon University")
    form = client.get(f"/note/new?node={cmu}")
    assert "Describe the problem" in text_of(form)
    response = add_note(client, cmu, "The main entrance is closed for repairs.")
    assert response.status_code == 302
    note = client.get(response.headers["Location"])
    body = text_of(note)
    assert "Status: Unresolved" in body and "The main entrance is closed for repairs." in body
    assert "Place: Carnegie Mellon University" in body and "Created by anonymous on 2023-06-01" in body
    assert "The main entrance is closed for repairs." in text_of(client.get(f"/node/{cmu}"))
    new_id = response.headers["Location"].rsplit("/", 1)[1]
    first_row = text_of(client.get("/notes")).split("Created ", 1)[1]
    assert first_row.startswith(f"Note #{new_id} Carnegie Mellon University The main entrance is closed")
    assert add_note(client, cmu, "   ").status_code == 400
    assert client.get("/note/new?node=999999").status_code == 404


def test_comment_resolve_and_reactivate_a_note(client, world):
    note = world.connection("map").execute("SELECT id FROM notes WHERE status = 'open' ORDER BY id LIMIT 1").fetchone()["id"]
    url = f"/note/{note}"
    assert client.post(f"{url}/comment", data={"action": "comment", "text": ""}).status_code == 400
    client.post(f"{url}/comment", data={"action": "comment", "text": "Still wrong today."})
    client.post(f"{url}/comment", data={"action": "close", "text": "Fixed the entrance."})
    body = text_of(client.get(url))
    assert "Status: Resolved" in body
    assert "anonymous commented on 2023-06-01 09:01:00: Still wrong today." in body
    assert "anonymous resolved on 2023-06-01 09:02:00: Fixed the entrance." in body
    assert "Reactivate" in body and "Resolve" not in body.replace("Resolved", "")
    assert client.post(f"{url}/comment", data={"action": "close", "text": ""}).status_code == 409
    client.post(f"{url}/comment", data={"action": "reopen", "text": ""})
    assert "Status: Unresolved" in text_of(client.get(url))


def test_notes_list_filters_sorts_and_paginates(client, world):
    conn = world.connection("map")
    open_count = conn.execute("SELECT count(*) FROM notes WHERE status = 'open'").fetchone()[0]
    body = text_of(client.get("/notes?status=open"))
    rows = body.split("Created ", 1)[1]
    assert f"{open_count} notes." in body and "Unresolved" in rows and "Resolved" not in rows
    oldest = conn.execute("SELECT id FROM notes ORDER BY created_at, id LIMIT 1").fetchone()[0]
    assert text_of(client.get("/notes?sort=oldest")).split("Created ")[1].startswith(f"Note #{oldest} ")
    assert "Page 2 of" in text_of(client.get("/notes?page=2"))


# -- worlds ------------------------------------------------------------------------------
def test_notes_are_isolated_between_worlds_and_reset(client, world):
    cmu = place_id(client, "Carnegie Mellon University")
    add_note(client, cmu, "Only in the first world.")
    other = World()
    try:
        other_client = app_for("map").test_client()
        other_client.environ_base[WORLD_KEY] = other
        assert "Only in the first world." not in text_of(other_client.get(f"/node/{cmu}"))
    finally:
        other.close()
    assert "Only in the first world." in text_of(client.get(f"/node/{cmu}"))
    world.reset()
    assert "Only in the first world." not in text_of(client.get(f"/node/{cmu}"))


def test_seed_data_is_deterministic_and_sized():
    dumps = []
    for _ in range(2):
        conn = sqlite3.connect(":memory:")
        build_database(conn)
        dumps.append(list(conn.iterdump()))
        counts = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("places", "nodes", "segments")}
        assert counts["places"] >= 300 and counts["nodes"] >= 300 and counts["segments"] >= 600
        assert conn.execute("SELECT count(DISTINCT housenumber || street) FROM places").fetchone()[0] == counts["places"]
        conn.close()
    assert dumps[0] == dumps[1]


# -- a real browser ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def site_server():
    """Only the map is served here (``browser_page`` uses it), so other sites' state cannot break this test."""
    with SiteServer(sites=["map"], ephemeral=True) as server:
        yield server


@pytest.mark.browser
def test_browser_search_place_directions_and_note(browser_page, site_server):
    page, world = browser_page()
    base = site_server.base_urls["map"]
    page.goto(base + "/")
    page.fill("input[aria-label=Search]", "Phipps Conservatory")
    page.press("input[aria-label=Search]", "Enter")
    assert page.url == base + "/search?query=Phipps%20Conservatory"  # as the real search box writes it
    page.click("text=Phipps Conservatory and Botanical Gardens")
    assert page.inner_text("h1") == "Phipps Conservatory and Botanical Gardens"
    page.click("text=Directions to here")
    page.fill("#route_from", "Carnegie Mellon University")
    page.select_option("#engine", label="Foot (OSRM)")
    page.click("text=Get directions")
    assert "engine=fossgis_osrm_foot&route=" in page.url
    assert re.search(r"Distance: [\d.]+k?m\. Time: ", page.inner_text("#route_summary"))
    page.go_back()
    page.go_back()
    page.click("text=Add a note here")
    page.fill("#note-text-input", "Greenhouse entrance moved.")
    page.click("text=Add note")
    assert page.inner_text("#note-text") == "Greenhouse entrance moved."
    count = world.connection("map").execute("SELECT count(*) FROM notes WHERE text = 'Greenhouse entrance moved.'")
    assert count.fetchone()[0] == 1
    page.fill("input[aria-label=Search]", "Rita's (Café) near Phipps")
    page.press("input[aria-label=Search]", "Enter")
    assert page.url == base + "/search?query=Rita%27s%20(Caf%C3%A9)%20near%20Phipps"
