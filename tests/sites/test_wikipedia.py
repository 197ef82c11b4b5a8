"""The embedded reference site: kiwix-serve's paths, articles with infobox and contents, lists, search."""

from __future__ import annotations

import re

import pytest

from webarena_gym.sites.wikipedia.articles import ARTICLES, KINDS, LISTS
from webarena_gym.sites.world import pristine_database

BOOK = "/wikipedia_en_all_maxi_2022-05"


def text_of(response) -> str:
    html = re.sub(r"(?s)<(style|script)[^>]*>.*?</\1>", " ", response.get_data(as_text=True))
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").replace("&amp;", "&").split())


@pytest.fixture
def client(site_client):
    return site_client("wikipedia")


def test_an_article_has_infobox_contents_sections_and_links(client):
    response = client.get(f"{BOOK}/A/Carnegie_Mellon_University")
    html, text = response.get_data(as_text=True), text_of(response)
    assert response.status_code == 200
    assert "Established 1900" in text and "Founder Andrew Carnegie" in text
    assert 'class="infobox"' in html and 'id="toc"' in html and html.count("<details open") == 3
    assert f'href="{BOOK}/A/Andrew_Carnegie"' in html and f'href="{BOOK}/A/Schenley_Park"' in html
    # every internal link of every article leads to an article
    for target in set(re.findall(rf'href="({BOOK}/A/[^"]+)"', html)):
        assert client.get(target.replace("&#39;", "'")).status_code == 200, target


def test_every_link_of_every_article_resolves(client):
    for article in ARTICLES:
        for target in re.findall(r"\[\[([^\]|]+)", article.lead + "".join(b for _h, b in article.sections)
                                 + "".join(v for _l, v in article.infobox)):
            assert client.get(f"{BOOK}/A/{target.replace(' ', '_')}").status_code == 200, (article.title, target)


def test_lists_agree_with_the_articles_they_list(client):
    for kind, (title, year_label, _plural) in LISTS.items():
        text = text_of(client.get(f"{BOOK}/A/{title.replace(' ', '_')}"))
        members = [a for a in ARTICLES if KINDS.get(a.title) == kind]
        assert len(members) >= 3
        for member in members:
            year = re.search(r"\d{4}", dict(member.infobox).get(year_label) or dict(member.infobox)["Opened"])[0]
            assert f"{member.title} {year}" in text, (title, member.title)
    sports = text_of(client.get(f"{BOOK}/A/Sports_in_Pittsburgh"))
    assert "Pittsburgh Penguins Ice hockey National Hockey League (NHL) PPG Paints Arena 1967" in sports


def test_places_of_the_lists_exist_on_the_map():
    """The reference site writes about the map's places: every listed place but a few is a map place."""
    names = {row[0] for row in pristine_database("map").execute("SELECT name FROM places")}
    listed = [t for t, kind in KINDS.items() if kind != "team"]
    assert {t for t in listed if t not in names} == {"Highland Park (Pittsburgh)"}


def test_search_ranks_titles_first_and_says_when_nothing_matches(client):
    text = text_of(client.get("/search", query_string={"content": "wikipedia_en_all_maxi_2022-05", "pattern": "museum"}))
    first = re.search(r'Results 1-\d+ of (\d+) for "museum" (.+?) ', text)
    assert int(first[1]) >= 8 and "Museum" in text.split('"museum"')[1][:80]
    assert "from Wikipedia" in text
    nothing = text_of(client.get("/search", query_string={"pattern": "zeppelin"}))
    assert 'No results were found for "zeppelin"' in nothing


def test_unknown_article_is_not_found_and_the_book_opens_its_main_page(client):
    assert client.get(f"{BOOK}/A/No_such_article").status_code == 404
    response = client.get(f"{BOOK}/")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"{BOOK}/A/Main_Page")
    assert "List of museums in Pittsburgh" in text_of(client.get(f"{BOOK}/A/Main_Page"))


@pytest.mark.parametrize("backend", ["direct", pytest.param("playwright", marks=pytest.mark.slow)])
def test_the_sites_family_is_solved_by_searching_and_reading_the_infobox(backend):
    from webarena_gym.sites.wikipedia.families import FAMILIES

    from ..tasks.family_checks import check_instances, check_oracle_solves, check_wrong_answers_earn_nothing

    (family,) = FAMILIES
    items = family.instantiate(pristine_database)
    check_instances(family, items, start_url="__WIKIPEDIA__", require_login=False)
    assert len(items) >= 10
    episodes = check_oracle_solves(family, items[:2], backend=backend)
    assert any("Search" in action for action in episodes[0].actions)
    if backend == "direct":
        check_wrong_answers_earn_nothing(items[:1])
