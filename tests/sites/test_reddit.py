"""The embedded forum (WebArena's reddit/Postmill) driven through real requests."""

from __future__ import annotations

import re

import lxml.html
import pytest

from webarena_gym.sites import World, app_for
from webarena_gym.sites.webapp import WORLD_KEY

USER = "MarvelsGrantMan136"


def html(response):
    assert response.status_code == 200, (response.status_code, response.headers.get("Location"))
    return lxml.html.fromstring(response.get_data(as_text=True))


def texts(doc, css):
    return [el.text_content().strip() for el in doc.cssselect(css)]


def points(doc, css=".submission__vote .vote__net-score"):
    return [int(t.split()[0]) for t in texts(doc, css)]


def first_post_href(client, path):
    return html(client.get(path)).cssselect(".submission__title a")[0].get("href")


@pytest.fixture
def forum(site_client):
    return site_client("reddit", USER)


@pytest.fixture
def anonymous(site_client):
    return site_client("reddit")


def own_post_path(client):
    return first_post_href(client, f"/user/{USER}")


# --- navigation, sorting, pagination ------------------------------------------------


def test_front_page_sorts_by_path_and_query(anonymous):
    new = html(anonymous.get("/new"))
    dates = texts(new, ".submission__info time")
    assert len(dates) == 25 and dates == sorted(dates, reverse=True)  # Postmill lists 25 posts a page
    assert texts(html(anonymous.get("/?sort=new")), ".submission__title a") == texts(new, ".submission__title a")
    top = points(html(anonymous.get("/top")))
    assert top == sorted(top, reverse=True) and top[0] > 100
    assert anonymous.get("/?sort=sideways").status_code == 404


def test_pagination_moves_through_listings(anonymous):
    first = html(anonymous.get("/new"))
    second = html(anonymous.get(first.cssselect("a[rel=next]")[0].get("href")))
    assert set(texts(first, ".submission__title a")).isdisjoint(texts(second, ".submission__title a"))
    assert texts(second, ".submission__info time")[0] <= texts(first, ".submission__info time")[-1]
    assert second.cssselect("a[rel=prev]")[0].get("href") == "/new"
    assert anonymous.get("/new?page=0").status_code == 404
    assert "There are no posts here." in anonymous.get("/new?page=999").get_data(as_text=True)


def test_forum_list_orders_by_name_and_subscribers(anonymous):
    by_name = texts(html(anonymous.get("/forums")), ".forum-list td:first-child a")
    assert len(by_name) == 20 and by_name == sorted(by_name, key=str.lower)
    rest = texts(html(anonymous.get("/forums?page=2")), ".forum-list td:first-child a")
    assert len(by_name) + len(rest) >= 20 + 5
    doc = html(anonymous.get("/forums/by_subscribers"))
    counts = [int(t.replace(",", "")) for t in texts(doc, ".forum-list td:nth-child(3)")]
    assert counts == sorted(counts, reverse=True)


def test_forum_page_has_sidebar_and_sorts(anonymous):
    doc = html(anonymous.get("/f/books/top"))
    assert texts(doc, ".forum__title") == ["books"]
    assert texts(doc, ".forum-sidebar__description") == ["Discussion of books, authors and reading."]
    assert re.fullmatch(r"[\d,]+ subscribers", texts(doc, ".forum-sidebar__subscribers")[0])
    assert "No spoilers in titles" in texts(doc, ".forum-sidebar__rules li")
    top = points(doc)
    assert top == sorted(top, reverse=True)
    assert anonymous.get("/f/BOOKS/new").headers["Location"] == "/f/books/new"
    assert anonymous.get("/f/no_such_forum").status_code == 404


def test_post_page_shows_post_and_threaded_comments(anonymous):
    path = first_post_href(anonymous, "/f/gaming/comments")
    doc = html(anonymous.get(path))
    assert texts(doc, "h1.submission__title") and texts(doc, ".submission__info a")[1] == "gaming"
    comments = doc.cssselect(".comments > .comment")
    replies = doc.cssselect(".comment__replies .comment")
    assert comments and replies
    reply = replies[0]
    parent = reply.getparent().getparent()
    parent_author = parent.cssselect(".comment__info a")[0].text_content()
    assert f"replied to {parent_author}" in reply.cssselect(".comment__info")[0].text_content()
    short = "/".join(path.split("/")[:4])
    assert anonymous.get(short).headers["Location"] == path


def test_search_finds_posts_by_title(anonymous):
    doc = html(anonymous.get("/search?q=Piranesi"))
    titles = texts(doc, ".submission__title a")
    assert titles and all("Piranesi" in t for t in titles)
    assert "No posts match" in anonymous.get("/search?q=zzzqqq").get_data(as_text=True)


# --- accounts -------------------------------------------------------------------------


def test_login_required_pages_redirect_to_login(anonymous):
    for path in ("/submit", "/create_forum", "/forums/subscribed", f"/user/{USER}/edit_biography"):
        response = anonymous.get(path)
        assert response.status_code == 302 and response.headers["Location"].startswith(f"/login?next={path}")
    response = anonymous.post("/sv/1", data={"choice": "1", "next": "/f/books"})
    assert response.headers["Location"] == "/login?next=/f/books"


def test_login_and_logout(anonymous):
    bad = anonymous.post("/login", data={"_username": USER, "_password": "wrong"})
    assert "Invalid username or password." in bad.get_data(as_text=True)
    good = anonymous.post("/login?next=/submit", data={"_username": USER, "_password": "test1234"})
    assert good.headers["Location"] == "/submit"
    assert USER in texts(html(anonymous.get("/")), ".site-nav a")
    anonymous.post("/logout")
    assert "Log in" in texts(html(anonymous.get("/")), ".site-nav a")


def test_registration_creates_an_account(anonymous):
    taken = anonymous.post("/registration", data={"username": USER, "password": "12345678", "password_repeat": "12345678"})
    assert "That username is taken." in taken.get_data(as_text=True)
    anonymous.post("/registration", data={"username": "new_reader", "password": "secret123", "password_repeat": "secret123"})
    assert "new_reader" in texts(html(anonymous.get("/")), ".site-nav a")


def test_profile_tabs_and_biography(forum):
    doc = html(forum.get(f"/user/{USER}"))
    assert texts(doc, ".submission__info a")  # his own posts
    tabs = texts(doc, ".tabs a")
    n_comments = int(re.search(r"\((\d+)\)", tabs[1]).group(1))
    assert n_comments >= 20 and len(texts(html(forum.get(f"/user/{USER}/comments")), ".comment")) == 20
    forum.post(f"/user/{USER}/edit_biography", data={"biography": "Robots read here."})
    assert texts(html(forum.get(f"/user/{USER}")), ".user-bio__biography") == ["Robots read here."]
    assert forum.get("/user/TheGentleComet/edit_biography").status_code == 403


# --- writes ---------------------------------------------------------------------------


def test_votes_toggle_and_switch(forum):
    path = first_post_href(forum, "/f/space/new")
    before = points(html(forum.get(path)))[0]
    forum.post("/sv/" + path.split("/")[3], data={"choice": "1", "next": path})
    doc = html(forum.get(path))
    assert texts(doc, ".submission__vote button") == ["", ""], "vote buttons are icons named by aria-label"
    assert doc.cssselect(".submission__vote .vote__up")[0].get("title") == "Retract upvote"
    assert points(doc)[0] == before + 1
    assert doc.cssselect("div.submission__vote form")[0].get("class") == "vote vote--user-upvoted"
    forum.post("/sv/" + path.split("/")[3], data={"choice": "-1", "next": path})
    doc = html(forum.get(path))
    assert doc.cssselect(".submission__vote .vote__down")[0].get("title") == "Retract downvote"
    assert points(doc)[0] == before - 1
    assert doc.cssselect("div.submission__vote form")[0].get("class") == "vote vote--user-downvoted"
    forum.post("/sv/" + path.split("/")[3], data={"choice": "-1", "next": path})
    doc = html(forum.get(path))
    assert [b.get("aria-label") for b in doc.cssselect(".submission__vote button")] == ["Upvote", "Downvote"]
    assert [b.get("title") for b in doc.cssselect(".submission__vote button")] == ["Upvote", "Downvote"]
    assert points(doc)[0] == before and doc.cssselect("div.submission__vote form")[0].get("class") == "vote"


def test_comment_votes(forum):
    path = first_post_href(forum, "/f/gaming/comments")
    comment = html(forum.get(path)).cssselect(".comment")[0]
    before = int(comment.cssselect(".vote__net-score")[0].text_content().split()[0])
    response = forum.post("/cv/" + comment.get("id").split("-")[1], data={"choice": "1", "next": path})
    assert response.headers["Location"] == path
    comment = html(forum.get(path)).cssselect(f"#{comment.get('id')}")[0]
    assert int(comment.cssselect(".vote__net-score")[0].text_content().split()[0]) == before + 1


def test_submit_text_and_link_posts(forum):
    empty = forum.post("/submit/books", data={"title": "", "body": "x", "forum": "books"})
    assert "The title cannot be empty." in empty.get_data(as_text=True)
    response = forum.post("/submit", data={"title": "A quiet book club", "body": "Line one.\nLine two.", "forum": "books"})
    doc = html(forum.get(response.headers["Location"]))
    assert texts(doc, ".submission__title") == ["A quiet book club"]
    assert texts(doc, ".submission__body p") == ["Line one.", "Line two."]
    assert texts(html(forum.get("/f/books/new")), ".submission__title a")[0] == "A quiet book club"
    link = forum.post("/submit", data={"url": "https://example.org/x", "title": "A link", "forum": "news"})
    assert re.fullmatch(r"/f/news/\d+/a-link", link.headers["Location"])
    assert texts(html(forum.get(link.headers["Location"])), ".submission__link a") == ["https://example.org/x"]


def test_comment_reply_and_edit(forum):
    path = first_post_href(forum, "/f/movies/comments")
    forum.post(path.rsplit("/", 1)[0] + "/-/comment", data={"body": "Top-level words"})
    doc = html(forum.get(path))
    mine = [c for c in doc.cssselect(".comments > .comment") if "Top-level words" in c.text_content()]
    assert mine and mine[0].cssselect(".comment__info a")[0].text_content() == USER
    target = next(a.get("href") for a in doc.cssselect(".comment .comment__nav a") if a.text == "Reply")  # 1st comment
    page = html(forum.get(target))
    assert page.cssselect("label")[-1].text_content().startswith("Reply to ")
    forum.post(target, data={"body": "A nested answer"})
    replies = html(forum.get(target)).cssselect(".comment__replies .comment__body")
    assert "A nested answer" in [r.text_content().strip() for r in replies]
    edit = [a.get("href") for a in html(forum.get(path)).cssselect(".comment__nav a") if a.text == "Edit"][0]
    forum.post(edit, data={"body": "Edited words"})
    assert "Edited words" in forum.get(path).get_data(as_text=True)
    others = [c for c in doc.cssselect(".comment") if c.cssselect(".comment__info a")[0].text_content() != USER]
    other_id = others[0].get("id").split("-")[1]
    assert forum.get(f"{path.rsplit('/', 1)[0]}/-/comment/{other_id}/edit").status_code == 403


def test_cannot_edit_or_delete_other_peoples_posts(forum):
    rows = html(forum.get("/f/news/new")).cssselect(".submission")
    other = next(r for r in rows if r.cssselect(".submission__info a")[0].text_content() != USER)
    base = other.cssselect(".submission__title a")[0].get("href").rsplit("/", 1)[0]
    assert forum.get(base + "/-/edit").status_code == 403
    assert forum.post(base + "/-/delete").status_code == 403
    assert not html(forum.get(base, follow_redirects=True)).cssselect(".submission__actions")


def test_edit_and_delete_own_post(forum):
    path = own_post_path(forum)
    base = path.rsplit("/", 1)[0]
    form = html(forum.get(base + "/-/edit"))
    body = form.cssselect("#submission_body")[0].text_content()
    title = form.cssselect("#submission_title")[0].get("value")
    forum.post(base + "/-/edit", data={"title": title, "body": body + "\nEDIT: thanks all", "url": ""})
    doc = html(forum.get(path))
    assert texts(doc, ".submission__body p")[-1] == "EDIT: thanks all" and "(edited" in texts(doc, ".submission__info")[0]
    forum_name = path.split("/")[2]
    assert forum.post(base + "/-/delete").headers["Location"] == f"/f/{forum_name}"
    assert forum.get(path).status_code == 404
    assert title not in forum.get(f"/user/{USER}").get_data(as_text=True)


def test_create_and_edit_forum(forum):
    data = {"name": "sci_fi", "title": "Science fiction", "description": "Rockets and robots", "sidebar": "New\nClassic"}
    assert forum.post("/create_forum", data=data).headers["Location"] == "/f/sci_fi"
    duplicate = forum.post("/create_forum", data=data).get_data(as_text=True)
    assert "A forum named sci_fi already exists." in duplicate
    doc = html(forum.get("/f/sci_fi"))
    assert texts(doc, ".forum-sidebar__description") == ["Rockets and robots"]
    assert texts(doc, ".forum-sidebar__rules li") == ["New", "Classic"]
    forum.post("/f/sci_fi/edit", data={"title": "SF", "description": "Space stuff", "sidebar": "New\nClassic\nMovies"})
    edit = html(forum.get("/f/sci_fi/edit"))
    assert edit.cssselect("#forum_description")[0].text_content() == "Space stuff"
    assert edit.cssselect("#forum_sidebar")[0].text_content() == "New\nClassic\nMovies"
    assert forum.get("/f/books/edit").status_code == 403
    assert forum.post("/create_forum", data=data | {"name": "x y"}).status_code == 200


def test_subscribe_and_unsubscribe(forum):
    subscribed = texts(html(forum.get("/forums/subscribed")), ".subscribed-forums a")
    name = next(n for n in ("space", "books", "news", "Art") if n not in subscribed)
    count = lambda: int(texts(html(forum.get(f"/f/{name}")), ".forum-sidebar__subscribers")[0].split()[0].replace(",", ""))  # noqa: E731
    before = count()
    forum.post(f"/f/{name}/subscribe", data={"next": f"/f/{name}"})
    assert count() == before + 1
    assert name in texts(html(forum.get("/")), "#sidebar > section li")
    assert "Unsubscribe" in texts(html(forum.get(f"/f/{name}")), ".forum-sidebar button")
    forum.post(f"/f/{name}/unsubscribe")
    assert count() == before and name not in texts(html(forum.get("/forums/subscribed")), ".subscribed-forums a")


# --- worlds ---------------------------------------------------------------------------


def test_worlds_are_isolated_and_reset(forum, world):
    forum.post(f"/user/{USER}/edit_biography", data={"biography": "Only in this world"})
    other = World()
    try:
        client = app_for("reddit").test_client()
        client.environ_base[WORLD_KEY] = other
        assert "Only in this world" not in client.get(f"/user/{USER}").get_data(as_text=True)
    finally:
        other.close()
    assert "Only in this world" in forum.get(f"/user/{USER}").get_data(as_text=True)
    world.reset()
    assert "Only in this world" not in forum.get(f"/user/{USER}").get_data(as_text=True)
    assert not world.is_dirty()


def test_seed_data_is_large_enough(world):
    conn = world.connection("reddit")
    counts = {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("forums", "submissions", "comments", "users")}
    assert counts["forums"] >= 20 and counts["submissions"] >= 500 and counts["comments"] >= 2000 and counts["users"] >= 60
    dates = conn.execute("SELECT MIN(created_at), MAX(created_at) FROM comments").fetchone()
    assert dates[0] >= "2022" and dates[1] < "2023-06"


# --- browser --------------------------------------------------------------------------


@pytest.mark.browser
def test_browser_reads_follows_and_posts(browser_page, site_server):
    page, _world = browser_page("reddit", USER)
    base = site_server.base_urls["reddit"]
    page.goto(f"{base}/forums")
    page.get_by_role("link", name="books", exact=True).click()
    page.wait_for_url(f"{base}/f/books")
    page.get_by_role("link", name="Submit a post to books").click()
    page.get_by_label("Title").fill("Hello from a real browser")
    page.get_by_label("Body").fill("Typed in Chromium.")
    page.get_by_role("button", name="Create submission").click()
    page.wait_for_url(re.compile(r".*/f/books/\d+/hello-from-a-real-browser"))
    assert page.locator(".submission__body").inner_text() == "Typed in Chromium."


# --- Postmill-like widgets ------------------------------------------------------------


def test_comments_have_headings_collapse_boxes_and_permalink_parent_links(anonymous):
    path = first_post_href(anonymous, "/f/gaming/comments")
    doc = html(anonymous.get(path))
    for comment in doc.cssselect(".comment"):
        assert comment.cssselect("details[open] > summary")[0].get("aria-label") == "Collapse comment"
        assert comment.cssselect("h3.comment__info a")[0].text_content().strip()
        assert comment.cssselect("h3.comment__info time")
        links = {a.text: a.get("href") for a in comment.cssselect(":scope > details > .comment__nav > a")}
        assert links["Permalink"].endswith("/-/comment/" + comment.get("id").split("-")[1])
        nested = comment.getparent().get("class") == "comment__replies"
        assert ("Parent" in links) is nested
        if nested:
            parent_id = comment.getparent().getparent().getparent().get("id").split("-")[1]
            assert links["Parent"].endswith(f"/-/comment/{parent_id}")


def test_long_threads_are_paged(anonymous):
    rows = html(anonymous.get("/comments")).cssselect(".submission")
    count = int(rows[0].cssselect(".submission__nav a")[0].text_content().split()[0])
    assert 30 <= count <= 80 + 24
    path = rows[0].cssselect(".submission__title a")[0].get("href")
    seen, page = 0, html(anonymous.get(path))
    while True:
        seen += len(page.cssselect(".comment"))
        after = page.cssselect("nav[aria-label=Pagination] a[rel=next]")
        if not after:
            break
        page = html(anonymous.get(after[0].get("href")))
    assert seen == count
    assert anonymous.get(path + "?page=99").status_code == 404


def test_top_listing_filters_by_period(anonymous):
    every = texts(html(anonymous.get("/top")), ".submission__info time")
    doc = html(anonymous.get("/top?t=month"))
    assert [a.text_content() for a in doc.cssselect(".time-menu a")][:2] == ["Past 24 hours", "Past week"]
    month = texts(doc, ".submission__info time")
    assert month and all(stamp >= "2023-05-02" for stamp in month) and month != every
    assert texts(html(anonymous.get("/f/news/top?t=day")), ".submission__title a") == []
    assert anonymous.get("/top?t=decade").status_code == 404
    assert not html(anonymous.get("/new")).cssselect(".time-menu")
    tabs = html(anonymous.get("/new")).cssselect("[role=tablist] a[role=tab]")
    assert [t.get("aria-selected") for t in tabs] == ["false", "true", "false", "false"]


def test_forum_picker_filters_forums_on_the_server(forum):
    closed = html(forum.get("/submit"))
    assert closed.cssselect("#forum_query")[0].get("role") == "combobox"
    assert closed.cssselect("[role=listbox]")[0].get("hidden") is not None
    doc = html(forum.get("/submit?forum_query=tech"))
    options = doc.cssselect("[role=listbox] a[role=option]")
    assert [a.text_content() for a in options] == ["technology"]
    chosen = html(forum.get(options[0].get("href")))
    assert chosen.cssselect("#submission_forum option[selected]")[0].get("value") == "technology"
    assert "No forum matches" in forum.get("/submit?forum_query=zzz").get_data(as_text=True)


def test_sidebars_list_the_moderators(anonymous):
    doc = html(anonymous.get("/f/books"))
    moderators = texts(doc, ".forum-moderators li a")
    creator = doc.cssselect(".forum-sidebar__rules a")[0].text_content()
    assert 2 <= len(moderators) <= 4 and moderators[0] == creator
    post = html(anonymous.get(first_post_href(anonymous, "/f/books")))
    assert texts(post, ".forum-moderators li a") == moderators
    assert texts(post, ".forum-card__description") == texts(doc, ".forum-sidebar__description")


def test_post_pages_have_a_breadcrumb_and_profiles_a_tablist(anonymous):
    path = first_post_href(anonymous, "/f/books/new")
    crumbs = html(anonymous.get(path)).cssselect("nav[aria-label=Breadcrumb] a")
    assert [a.text_content() for a in crumbs][:2] == ["Postmill", "books"] and crumbs[2].get("href") == path
    tabs = html(anonymous.get("/user/TheGentleComet/comments")).cssselect("[role=tablist] a[role=tab]")
    assert [t.get("aria-selected") for t in tabs] == ["false", "true"]


def test_every_page_of_the_longest_threads_fits_the_observation_budget(anonymous, world):
    from webarena_gym.observation import simplify_html

    rows = world.connection("reddit").execute(
        "SELECT s.id, f.name FROM submissions s JOIN forums f ON f.id = s.forum_id"
        " WHERE (SELECT COUNT(*) FROM comments c WHERE c.submission_id = s.id) >= 30").fetchall()
    assert len(rows) >= 10
    for sid, forum in rows:
        path, page = f"/f/{forum}/{sid}", 1
        while (response := anonymous.get(f"{path}?page={page}", follow_redirects=True)).status_code == 200:
            assert response.request.args["page"] == str(page)  # the redirect to the post's slug keeps the page
            assert len(simplify_html(response.get_data(as_text=True)).text) < 14_000, (path, page)
            page += 1
            assert page < 10, path
        assert page > 2, path  # long threads span pages


# --- page realism: what the real Postmill pages carry ------------------------------------


def test_listings_show_25_posts_each_naming_its_forum(anonymous, world):
    from webarena_gym.observation import simplify_html

    (name,) = world.connection("reddit").execute(
        "SELECT f.name FROM forums f JOIN submissions s ON s.forum_id = f.id GROUP BY f.id ORDER BY COUNT(*) DESC"
    ).fetchone()
    doc = html(anonymous.get(f"/f/{name}"))
    assert len(doc.cssselect(".submission")) == 25
    forum_links = [row.cssselect("a")[-1] for row in doc.cssselect(".submission__info")]
    assert {(a.text_content(), a.get("href")) for a in forum_links} == {(name, f"/f/{name}")}
    for path in ("/", f"/f/{name}", "/search?q=the"):
        assert len(simplify_html(anonymous.get(path).get_data(as_text=True)).text) < 14_000, path


def test_header_links_lead_to_wiki_notifications_and_messages(forum, anonymous):
    links = {a.text_content(): a.get("href") for a in html(forum.get("/")).cssselect(".site-nav a")}
    pages = {"Wiki": "The wiki has no pages yet.", "Notifications": "You have no notifications.",
             "Messages": "You have no messages."}
    for label, empty_state in pages.items():
        assert empty_state in forum.get(links[label]).get_data(as_text=True)
    assert texts(html(anonymous.get("/")), ".site-nav a")[:3] == ["Postmill", "Forums", "Wiki"]
    assert anonymous.get("/messages").headers["Location"] == "/login?next=/messages"


def test_submit_and_biography_forms_have_formatting_help(forum):
    for path in ("/submit", f"/user/{USER}/edit_biography"):
        doc = html(forum.get(path))
        help_box = doc.cssselect("form details.markdown-help")[0]
        assert help_box.get("open") is not None and help_box.cssselect("summary")[0].text_content() == "Formatting help"
        assert ["**bold**", "bold"] in [[td.text_content() for td in tr.cssselect("td")] for tr in help_box.cssselect("tr")]
        for field in doc.cssselect("[aria-describedby]"):
            assert doc.cssselect("#" + field.get("aria-describedby")), (path, field.get("id"))


def test_biography_page_has_the_settings_navigation(forum):
    doc = html(forum.get(f"/user/{USER}/edit_biography"))
    links = doc.cssselect("nav.settings-nav a")
    assert [a.text_content() for a in links] == ["Biography", "Blocked users", "Hidden forums"]
    assert [a.get("aria-current") for a in links] == ["page", None, None]
    assert "You have not blocked anyone." in forum.get(links[1].get("href")).get_data(as_text=True)
    assert "You have not hidden any forums." in forum.get(links[2].get("href")).get_data(as_text=True)
    assert forum.get("/user/TheGentleComet/hidden_forums").status_code == 403
