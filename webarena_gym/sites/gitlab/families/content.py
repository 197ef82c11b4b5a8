"""Content families with WebArena-Lite's own templates (program_html): profile, projects, members.

Their checks read the pages the way Lite's do: the profile's ``[itemprop="url"]``, the
project's ``.visibility-icon`` title, the members page's whole text or its role column
(through WebArena's own ``gitlab_get_project_memeber_role`` helper).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator

from ....tasks.families import TaskFamily, program_html_eval
from ....tasks.oracle import OracleContext
from .common import GITLAB, USER, Instances, family, open_section, rng_for

#: Homepages people set on their profile, for the homepage family.
HOMEPAGES = (
    "https://egg.tart.com", "https://helloworld.com", "https://byteblaze.dev", "https://a11y.coffee",
    "https://snakepeople.net", "https://blaze.codes", "https://dotfiles.garden", "https://webring.club",
    "https://inclusive.design", "https://prism.solarized.io", "https://timeit.tools", "https://bytes.blog",
)

#: Names of new empty repositories, as Lite's intents give them.
EMPTY_REPOS = (
    "awesome_llm_reading", "llm_bulk_inference", "web_agent_index", "chatgpt_prompts", "webagent_bench",
    "vim-cheatsheet", "nova", "rl_notes", "hello_world_rust", "agent_traces", "kb_scripts", "paper-reading-list",
)

#: Project name fixed by Lite's "Create a new {{scope}} project "awesome-llms" ..." template.
AWESOME_LLMS = "awesome-llms"

INVITE_ROLES = ("guest", "reporter", "developer", "maintainer")


def _own_projects(conn: sqlite3.Connection) -> list[tuple[int, str]]:
    return conn.execute("SELECT id, path FROM projects WHERE namespace = ? ORDER BY id", (USER,)).fetchall()


def _outsiders(conn: sqlite3.Connection, project_id: int | None) -> list[tuple[str, str]]:
    """(username, full name) of people who are not members of the project (everyone but byteblaze and root)."""
    return conn.execute(
        "SELECT username, name FROM users WHERE username NOT IN (?, 'root') AND id NOT IN"
        " (SELECT user_id FROM members WHERE project_id = ?) ORDER BY id",
        (USER, project_id if project_id is not None else -1),
    ).fetchall()


def _members_url(path: str) -> str:
    return f"{GITLAB}/{USER}/{path}/-/project_members"


def _role_target(path: str, username: str, role: str) -> tuple[str, str, dict]:
    return (_members_url(path), f"func:gitlab_get_project_memeber_role(__page__, '{username}')", {"must_include": [role]})


def _open_invite(ctx: OracleContext, repo: str) -> Iterator[str]:
    yield from open_section(ctx, repo, "Members")
    yield ctx.click("Invite members", tag="a", exact=True)


def _invite(ctx: OracleContext, people: str, role: str | None = None) -> Iterator[str]:
    yield ctx.type("Username or email address", people)
    if role:
        yield ctx.select("Select a role", role)
    yield ctx.click("Invite", tag="button", exact=True)


# -- set the homepage URL (Lite template 331) ------------------------------------------


def _instances_homepage(conn: sqlite3.Connection) -> Instances:
    current = conn.execute("SELECT website FROM users WHERE username = ?", (USER,)).fetchone()[0]
    return [
        ({"url": url}, program_html_eval((
            f"{GITLAB}/{USER}", "document.querySelector('.profile-header [itemprop=\"url\"]').outerText",
            {"exact_match": url.split("://", 1)[-1]},
        )))
        for url in HOMEPAGES if url != current
    ]


def _solve_homepage(ctx: OracleContext) -> Iterator[str]:
    yield ctx.click("Edit profile", tag="a", exact=True)
    yield ctx.type("Website url", ctx.instantiation["url"])
    yield ctx.click("Update profile settings", tag="button", exact=True)
    yield ctx.exit("")


# -- a new, empty repository (Lite template 292) ------------------------------------------


def _instances_empty_repo(conn: sqlite3.Connection) -> Instances:
    taken = {r[0].lower() for r in conn.execute("SELECT path FROM projects WHERE namespace = ?", (USER,))}
    return [
        ({"project_name": name}, program_html_eval((f"{GITLAB}/{USER}/{name}", "", {"must_include": [name]})))
        for name in EMPTY_REPOS if name.lower() not in taken
    ]


def _solve_empty_repo(ctx: OracleContext) -> Iterator[str]:
    yield ctx.click("New project", tag="a", exact=True)
    yield ctx.type("Project name", ctx.instantiation["project_name"])
    yield ctx.check("Initialize repository with a README")  # checked by default: an empty repository has none
    yield ctx.click("Create project", tag="button", exact=True)
    yield ctx.exit("")


# -- invite someone to the dotfiles as a guest (Lite template 294) ------------------------


def _instances_dotfiles_guest(conn: sqlite3.Connection) -> Instances:
    project = conn.execute("SELECT id FROM projects WHERE namespace = ? AND path = 'dotfiles'", (USER,)).fetchone()
    return [
        ({"name": name}, program_html_eval(_role_target("dotfiles", username, "Guest")))
        for username, name in _outsiders(conn, project[0])
    ][:16]


def _solve_dotfiles_guest(ctx: OracleContext) -> Iterator[str]:
    yield from _open_invite(ctx, "dotfiles")
    yield from _invite(ctx, ctx.instantiation["name"], "Guest")
    yield ctx.exit("")


# -- invite collaborators by name (Lite template 293) -------------------------------------


def _instances_collaborators(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("invite_collaborators"), []
    for project_id, path in _own_projects(conn):
        people = rng.sample(_outsiders(conn, project_id), 2)
        names = " and ".join(name for _username, name in people)
        out.append(({"collaborator_account_list": names, "repo": path}, program_html_eval(
            (_members_url(path), "", {"must_include": [f"@{username}" for username, _name in people]}),
        )))
    return out


def _solve_collaborators(ctx: OracleContext) -> Iterator[str]:
    yield from _open_invite(ctx, ctx.instantiation["repo"])
    yield from _invite(ctx, ctx.instantiation["collaborator_account_list"], "Developer")
    yield ctx.exit("")


# -- add users with a role (Lite template 351) --------------------------------------------


def _instances_add_with_role(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("add_members_role"), []
    for project_id, path in _own_projects(conn):
        usernames = [username for username, _name in rng.sample(_outsiders(conn, project_id), 2)]
        role = rng.choice(INVITE_ROLES)
        targets = [_role_target(path, username, role.capitalize()) for username in usernames]
        out.append(({"repo": path, "role": role, "user_list": repr(usernames)}, program_html_eval(*targets)))
    return out


def _solve_add_with_role(ctx: OracleContext) -> Iterator[str]:
    usernames = ctx.instantiation["user_list"].strip("[]").replace("'", "")
    yield from _open_invite(ctx, ctx.instantiation["repo"])
    yield from _invite(ctx, usernames, ctx.instantiation["role"].capitalize())
    yield ctx.exit("")


# -- a new project with members (Lite template 332) ---------------------------------------


def _instances_project_with_members(conn: sqlite3.Connection) -> Instances:
    if conn.execute("SELECT 1 FROM projects WHERE namespace = ? AND path = ?", (USER, AWESOME_LLMS)).fetchone():
        return []
    rng, out, seen = rng_for("project_with_members"), [], set()
    usernames = [username for username, _name in _outsiders(conn, None)]
    while len(out) < 12:
        scope = ("public", "private", "internal")[len(out) % 3]
        people = tuple(rng.sample(usernames, 3))
        if (scope, people) in seen:
            continue
        seen.add((scope, people))
        out.append(({"scope": scope, "account_list": ", ".join(people)}, program_html_eval(
            (f"{GITLAB}/{USER}/{AWESOME_LLMS}", "document.querySelector('.visibility-icon').getAttribute('title')",
             {"must_include": [scope]}),
            (_members_url(AWESOME_LLMS), "", {"must_include": [f"@{username}" for username in people]}),
        )))
    return out


def _solve_project_with_members(ctx: OracleContext) -> Iterator[str]:
    yield ctx.click("New project", tag="a", exact=True)
    yield ctx.type("Project name", AWESOME_LLMS)
    yield ctx.check(ctx.instantiation["scope"].capitalize())
    yield ctx.click("Create project", tag="button", exact=True)
    yield ctx.click("Members", tag="a", exact=True)
    yield ctx.click("Invite members", tag="a", exact=True)
    yield from _invite(ctx, ctx.instantiation["account_list"], "Developer")
    yield ctx.exit("")


# -- star the most starred projects (Lite template 354) ----------------------------------

NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight")


def _instances_star_top(conn: sqlite3.Connection) -> Instances:
    """Top N by stars among the projects byteblaze can see, for N where the N-th and (N+1)-th differ
    and byteblaze has not starred all of them yet; N in words and in digits, as people write it."""
    ranked = conn.execute(
        "SELECT p.path, (SELECT COUNT(*) FROM stars s WHERE s.project_id = p.id) AS n,"
        " EXISTS (SELECT 1 FROM stars s JOIN users u ON u.id = s.user_id WHERE s.project_id = p.id AND u.username = ?)"
        " FROM projects p WHERE p.visibility != 'private' OR p.id IN (SELECT m.project_id FROM members m JOIN users u"
        " ON u.id = m.user_id WHERE u.username = ?) ORDER BY n DESC, p.id",
        (USER, USER),
    ).fetchall()
    out = []
    for style in ("word", "digit"):
        for count, word in enumerate(NUMBER_WORDS, start=1):
            top = ranked[:count]
            if ranked[count - 1][1] == ranked[count][1] or all(starred for _path, _n, starred in top):
                continue
            out.append(({"number": word if style == "word" else str(count)}, program_html_eval(
                (f"{GITLAB}/users/{USER}/starred", "", {"must_include": [path for path, _n, _starred in top]}),
            )))
    return out


def _solve_star_top(ctx: OracleContext) -> Iterator[str]:
    number = ctx.instantiation["number"]
    count = int(number) if number.isdigit() else NUMBER_WORDS.index(number) + 1
    yield ctx.click("Explore", tag="a", exact=True)
    yield ctx.click("Most starred", tag="a", exact=True)
    names = re.findall(r'<a id="\d+">([^<]+ / [^<]+)</a>', ctx.page.text)[:count]
    for name in names:
        yield ctx.search("Search GitLab", name.split(" / ")[1])
        yield ctx.click(name, tag="a", exact=True)
        if ctx.find_all("Star", tag="button", exact=True):
            yield ctx.click("Star", tag="button", exact=True)
    yield ctx.exit("")


# -- a private project from a template, with members (Lite template 2100) ------------------

#: (project name, template) pairs, as Lite's intents pair them.
TEMPLATE_PROJECTS = (
    ("web_agent_android_xl", "Android"), ("agi_index", "Ruby on Rails"), ("planner_app", "iOS (Swift)"),
    ("llm_api", "NodeJS Express"), ("spring_shop", "Spring"), ("docs_site", "Pages/Hugo"), ("blog_jekyll", "Pages/Jekyll"),
    ("inventory_svc", ".NET Core"), ("micro_gateway", "Go Micro"), ("landing_page", "Pages/Plain HTML"),
    ("lambda_tools", "Serverless Framework/JS"), ("survey_portal", "Django"),
)


def _instances_template_project(conn: sqlite3.Connection) -> Instances:
    taken = {r[0].lower() for r in conn.execute("SELECT path FROM projects WHERE namespace = ?", (USER,))}
    rng, out = rng_for("template_project"), []
    usernames = [username for username, _name in _outsiders(conn, None)]
    for name, template in TEMPLATE_PROJECTS:
        if name in taken:
            continue
        people = rng.sample(usernames, 3)
        out.append(({"project_name": name, "template": template, "account_list": ", ".join(people)}, program_html_eval(
            (f"{GITLAB}/{USER}/{name}", "document.querySelector('.visibility-icon').getAttribute('title')",
             {"must_include": ["Private"]}),
            (f"{GITLAB}/{USER}/{name}/-/commits", "", {"must_include": [f"Initialized from '{template}' project template"]}),
            (_members_url(name), "", {"must_include": [f"@{username}" for username in people]}),
        )))
    return out


def _solve_template_project(ctx: OracleContext) -> Iterator[str]:
    yield ctx.click("New project", tag="a", exact=True)
    yield ctx.click("Create from template", tag="a", exact=True)
    yield ctx.check(ctx.instantiation["template"])
    yield ctx.type("Project name", ctx.instantiation["project_name"])
    yield ctx.check("Private")
    yield ctx.click("Create project", tag="button", exact=True)
    yield ctx.click("Members", tag="a", exact=True)
    yield ctx.click("Invite members", tag="a", exact=True)
    yield from _invite(ctx, ctx.instantiation["account_list"], "Developer")
    yield ctx.exit("")


# -- a new repository file (the embedded suite's own template) -----------------------------

#: (file name, content) pairs people add to their repositories.
NEW_FILES = (
    ("urls.txt", "https://a11yproject.com"), ("docs/faq.md", "# FAQ"), ("notes/todo.md", "- fix the build"),
    ("CHANGELOG.md", "## 1.0.0 - first release"), ("AUTHORS", "Byte Blaze"), ("car/urls.txt", "https://example.com/cars"),
    ("scripts/setup.sh", "echo setting up"), ("docs/roadmap.md", "# Roadmap"), ("CODEOWNERS", "* @byteblaze"),
    ("SECURITY.md", "Report issues by email"), ("ideas.txt", "dark mode for everything"), ("config/app.yml", "debug: false"),
    ("docs/usage.md", "Run it with no arguments"),
)


def _instances_new_file(conn: sqlite3.Connection) -> Instances:
    out = []
    for (project_id, path), (name, content) in zip(_own_projects(conn), NEW_FILES, strict=False):
        if conn.execute("SELECT 1 FROM files WHERE project_id = ? AND path = ?", (project_id, name)).fetchone():
            continue
        out.append(({"filename": name, "repo": path, "content": content}, program_html_eval(
            (f"{GITLAB}/{USER}/{path}/-/raw/main/{name}", "", {"must_include": [content]}),
        )))
    return out


def _solve_new_file(ctx: OracleContext) -> Iterator[str]:
    yield from open_section(ctx, ctx.instantiation["repo"], "Repository")
    yield ctx.click("New file", tag="a", exact=True)
    yield ctx.type("File name", ctx.instantiation["filename"])
    yield ctx.type("Content", ctx.instantiation["content"])
    yield ctx.click("Commit changes", tag="button", exact=True)
    yield ctx.exit("")


CONTENT_FAMILIES: list[TaskFamily] = [
    family("homepage_url", "set the homepage URL on my GitLab profile to {{url}}", "content", _instances_homepage, _solve_homepage),
    family("empty_repo", "Set up a new, empty repository with the name {{project_name}}?", "content",
           _instances_empty_repo, _solve_empty_repo),
    family("dotfiles_guest", "{{name}} wants to check my dotfile configurations. Please invite him to the repo as a guest.",
           "content", _instances_dotfiles_guest, _solve_dotfiles_guest),
    family("invite_collaborators", "Invite {{collaborator_account_list}} as collaborator to {{repo}} repo", "content",
           _instances_collaborators, _solve_collaborators),
    family("add_members_role", "Add the following users to my {{repo}} as {{role}}: {{user_list}}", "content",
           _instances_add_with_role, _solve_add_with_role),
    family("project_with_members", 'Create a new {{scope}} project "awesome-llms" and add {{account_list}} as members',
           "content", _instances_project_with_members, _solve_project_with_members),
    family("star_top_projects", "Star the top {{number}} most stared repos in Gitlab", "content",
           _instances_star_top, _solve_star_top),
    family("template_project", "Start a private project {{project_name}} with {{template}} template and add {{account_list}} as members",
           "content", _instances_template_project, _solve_template_project),
    family("new_file", 'Add a file named {{filename}} to my {{repo}} repo with the content "{{content}}"', "content",
           _instances_new_file, _solve_new_file),
]
