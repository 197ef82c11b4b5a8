"""A project's issues: list with filters, issue page, comments, state, labels, assignee, new issue."""

from __future__ import annotations

import datetime as dt

from flask import Blueprint, abort, redirect, request, url_for

from ..webapp import db
from .notes import add_note, discussion, post_comment, wants_preview
from .queries import (
    me,
    me_required,
    now_stamp,
    paginate,
    project_members,
    project_or_404,
    require_level,
    signed_in,
    touch_project,
)
from .views_project import render_project

bp = Blueprint("issues", __name__)

#: Issue sorts (GitLab's query values) -> (label, ORDER BY).
ISSUE_SORTS = {
    "created_date": ("Created date", "i.created_at DESC, i.iid DESC"),
    "created_asc": ("Oldest created", "i.created_at ASC, i.iid ASC"),
    "updated_desc": ("Updated date", "i.updated_at DESC, i.iid DESC"),
    "title_asc": ("Title", "i.title COLLATE NOCASE"),
}


def issue_or_404(project_id: int, iid: int):
    row = db().execute(
        "SELECT i.*, u.name AS author_name, u.username AS author_username, a.name AS assignee_name,"
        " a.username AS assignee_username, ms.title AS milestone_title FROM issues i JOIN users u ON u.id = i.author_id"
        " LEFT JOIN users a ON a.id = i.assignee_id LEFT JOIN milestones ms ON ms.id = i.milestone_id"
        " WHERE i.project_id = ? AND i.iid = ?",
        (project_id, iid),
    ).fetchone()
    if row is None:
        abort(404)
    return row


def labels_by_issue(issue_ids: list[int]) -> dict[int, list[str]]:
    result: dict[int, list[str]] = {issue_id: [] for issue_id in issue_ids}
    if issue_ids:
        marks = ",".join("?" * len(issue_ids))
        for row in db().execute(
            f"SELECT il.issue_id, l.name FROM issue_labels il JOIN labels l ON l.id = il.label_id"
            f" WHERE il.issue_id IN ({marks}) ORDER BY l.name",
            issue_ids,
        ):
            result[row["issue_id"]].append(row["name"])
    return result


@bp.get("/<namespace>/<project>/-/issues")
def issues(namespace: str, project: str):
    row = project_or_404(namespace, project)
    state = request.args.get("state", "opened")
    if state not in ("opened", "closed", "all"):
        state = "opened"
    sort = request.args.get("sort", "created_date")
    if sort not in ISSUE_SORTS:
        sort = "created_date"
    label_names = [name for name in request.args.getlist("label_name[]") if name]
    assignee = request.args.get("assignee_username", "").strip()
    search = request.args.get("search", "").strip()
    conditions, args = ["i.project_id = ?"], [row["id"]]
    for name in label_names:
        conditions.append(
            "EXISTS (SELECT 1 FROM issue_labels il JOIN labels l ON l.id = il.label_id"
            " WHERE il.issue_id = i.id AND l.name = ?)"
        )
        args.append(name)
    if assignee == "None":
        conditions.append("i.assignee_id IS NULL")
    elif assignee:
        conditions.append("a.username = ?")
        args.append(assignee)
    if search:
        conditions.append("(i.title LIKE ? OR i.description LIKE ?)")
        args += [f"%{search}%"] * 2
    base = " AND ".join(conditions)
    joins = "FROM issues i JOIN users u ON u.id = i.author_id LEFT JOIN users a ON a.id = i.assignee_id"
    tallies = db().execute(
        f"SELECT i.state, COUNT(*) AS n {joins} WHERE {base} GROUP BY i.state", tuple(args)
    ).fetchall()
    tally = {t["state"]: t["n"] for t in tallies}
    tally["all"] = sum(tally.values())
    state_sql = "" if state == "all" else " AND i.state = ?"
    page = paginate(
        f"SELECT i.*, u.name AS author_name, a.name AS assignee_name, a.username AS assignee_username,"
        f" (SELECT COUNT(*) FROM notes n WHERE n.noteable_type = 'issue' AND n.noteable_id = i.id AND n.system = 0) AS note_count"
        f" {joins} WHERE {base}{state_sql} ORDER BY {ISSUE_SORTS[sort][1]}",
        tuple(args) + ((state,) if state != "all" else ()),
    )
    labels = db().execute("SELECT * FROM labels WHERE project_id = ? ORDER BY name", (row["id"],)).fetchall()
    return render_project(
        "issues.html", row, "issues", page=page, state=state, sort=sort, sorts=ISSUE_SORTS, tally=tally,
        label_names=label_names, assignee=assignee, search=search, labels=labels,
        tab_urls={
            key: url_for("issues.issues", namespace=namespace, project=project, **_filters(label_names, assignee, search, sort), state=key)
            for key in ("opened", "closed", "all")
        },
        members=project_members(row["id"]), issue_labels=labels_by_issue([i["id"] for i in page.rows]),
    )


@bp.route("/<namespace>/<project>/-/issues/new", methods=["GET", "POST"])
@signed_in
def new_issue(namespace: str, project: str):
    row, user = project_or_404(namespace, project), me_required()
    labels = db().execute("SELECT * FROM labels WHERE project_id = ? ORDER BY name", (row["id"],)).fetchall()
    members = project_members(row["id"])
    milestones = milestones_of(row["id"])
    form = {key: request.form.get(key, "").strip() for key in ("title", "description", "due_date")}
    errors: list[str] = []
    if request.method == "POST":
        if not form["title"]:
            errors.append("Title can't be blank.")
        if form["due_date"] and parse_due_date(form["due_date"]) is None:
            errors.append(f"Due date {form['due_date']!r} is not a date; use YYYY-MM-DD.")
        assignee = _member_id(members, request.form.get("assignee_username", ""))
        if not errors:
            moment = now_stamp()
            iid = db().execute("SELECT COALESCE(MAX(iid), 0) + 1 FROM issues WHERE project_id = ?", (row["id"],)).fetchone()[0]
            milestone = request.form.get("milestone_id", type=int)
            milestone = milestone if any(m["id"] == milestone for m in milestones) else None
            issue_id = db().execute(
                "INSERT INTO issues (project_id, iid, title, description, state, author_id, assignee_id, created_at,"
                " updated_at, due_date, milestone_id) VALUES (?, ?, ?, ?, 'opened', ?, ?, ?, ?, ?, ?)",
                (row["id"], iid, form["title"], form["description"], user["id"], assignee, moment, moment,
                 parse_due_date(form["due_date"]), milestone),
            ).lastrowid
            for label in labels:
                if request.form.get(f"label_{label['id']}"):
                    db().execute("INSERT INTO issue_labels VALUES (?, ?)", (issue_id, label["id"]))
            touch_project(row["id"], moment)
            return redirect(url_for("issues.issue_page", namespace=namespace, project=project, iid=iid))
    return render_project(
        "new_issue.html", row, "issues", labels=labels, members=members, milestones=milestones, form=form, errors=errors
    )


@bp.get("/<namespace>/<project>/-/issues/<int:iid>")
def issue_page(namespace: str, project: str, iid: int):
    row = project_or_404(namespace, project)
    issue = issue_or_404(row["id"], iid)
    labels = db().execute(
        "SELECT l.*, EXISTS (SELECT 1 FROM issue_labels il WHERE il.label_id = l.id AND il.issue_id = ?) AS applied"
        " FROM labels l WHERE l.project_id = ? ORDER BY l.name",
        (issue["id"], row["id"]),
    ).fetchall()
    note_url = url_for("issues.issue_note", namespace=namespace, project=project, iid=iid)
    edit = request.args.get("edit", "")
    query = request.args.get("q", "").strip().lower()
    members = project_members(row["id"])
    choices = {
        "assignee": [m for m in members if not query or query in m["username"].lower() or query in m["name"].lower()],
        "labels": [label for label in labels if not query or query in label["name"].lower()],
        "milestone": [m for m in milestones_of(row["id"]) if not query or query in m["title"].lower()],
    }
    return render_project(
        "issue.html", row, "issues", issue=issue, labels=labels, members=members, edit=edit, query=query,
        choices=choices, subscribed=is_subscribed(issue), participants=participants(issue),
        **discussion("issue", issue["id"], note_url, namespace, project),
    )


def milestones_of(project_id: int):
    return db().execute(
        "SELECT * FROM milestones WHERE project_id = ? ORDER BY state, due_date, title", (project_id,)
    ).fetchall()


def is_subscribed(issue) -> bool:
    """Whether the viewer gets notifications: their own choice, else on for the author and the assignee."""
    viewer = me()
    if viewer is None:
        return False
    row = db().execute(
        "SELECT subscribed FROM issue_subscriptions WHERE issue_id = ? AND user_id = ?", (issue["id"], viewer["id"])
    ).fetchone()
    return bool(row["subscribed"]) if row else viewer["id"] in (issue["author_id"], issue["assignee_id"])


def participants(issue):
    """Everyone who wrote on the issue, the author first."""
    return db().execute(
        "SELECT u.username, u.name FROM users u WHERE u.id = ? OR u.id IN (SELECT author_id FROM notes"
        " WHERE noteable_type = 'issue' AND noteable_id = ? AND system = 0) ORDER BY u.id = ? DESC, u.username COLLATE NOCASE",
        (issue["author_id"], issue["id"], issue["author_id"]),
    ).fetchall()


def parse_due_date(text: str) -> str | None:
    """``2030-1-3`` or ``2030-01-03`` -> ``2030-01-03``; None for anything else."""
    try:
        return dt.date(*(int(part) for part in text.strip().split("-"))).isoformat()
    except (TypeError, ValueError):
        return None


@bp.post("/<namespace>/<project>/-/issues/<int:iid>/subscription")
@signed_in
def issue_subscription(namespace: str, project: str, iid: int):
    """The sidebar's notifications switch."""
    row, user = project_or_404(namespace, project), me_required()
    issue = issue_or_404(row["id"], iid)
    db().execute(
        "INSERT OR REPLACE INTO issue_subscriptions VALUES (?, ?, ?)",
        (issue["id"], user["id"], int(request.form.get("subscribed") == "1")),
    )
    return redirect(url_for("issues.issue_page", namespace=namespace, project=project, iid=iid))


@bp.post("/<namespace>/<project>/-/issues/<int:iid>/notes")
@signed_in
def issue_note(namespace: str, project: str, iid: int):
    if wants_preview():
        return issue_page(namespace, project, iid)
    row, user = project_or_404(namespace, project), me_required()
    post_comment("issue", row["id"], issue_or_404(row["id"], iid)["id"], user["id"])
    return redirect(url_for("issues.issue_page", namespace=namespace, project=project, iid=iid) + "#notes")


@bp.post("/<namespace>/<project>/-/issues/<int:iid>/state")
@signed_in
def issue_state(namespace: str, project: str, iid: int):
    row, user = project_or_404(namespace, project), me_required()
    issue = issue_or_404(row["id"], iid)
    if issue["author_id"] != user["id"]:
        require_level(row, 20)
    target = "closed" if request.form.get("state_event") == "close" else "opened"
    if target != issue["state"]:
        moment = add_note(row["id"], "issue", issue["id"], user["id"], "closed" if target == "closed" else "reopened", system=True)
        db().execute(
            "UPDATE issues SET state = ?, updated_at = ?, closed_at = ? WHERE id = ?",
            (target, moment, moment if target == "closed" else None, issue["id"]),
        )
    return redirect(url_for("issues.issue_page", namespace=namespace, project=project, iid=iid))


@bp.post("/<namespace>/<project>/-/issues/<int:iid>/edit")
@signed_in
def issue_edit(namespace: str, project: str, iid: int):
    """Sidebar edits: the assignee (one form) or the labels (another form)."""
    row = project_or_404(namespace, project)
    user = require_level(row, 20)
    issue = issue_or_404(row["id"], iid)
    moment = None
    if "assignee_username" in request.form:
        members = project_members(row["id"])
        assignee = _member_id(members, request.form["assignee_username"])
        if assignee != issue["assignee_id"]:
            who = next((m["username"] for m in members if m["id"] == assignee), None)
            moment = add_note(row["id"], "issue", issue["id"], user["id"], f"assigned to @{who}" if who else "removed assignee", system=True)
            db().execute("UPDATE issues SET assignee_id = ? WHERE id = ?", (assignee, issue["id"]))
    if "labels_form" in request.form:
        labels = db().execute("SELECT * FROM labels WHERE project_id = ? ORDER BY name", (row["id"],)).fetchall()
        before = {r["label_id"] for r in db().execute("SELECT label_id FROM issue_labels WHERE issue_id = ?", (issue["id"],))}
        after = {label["id"] for label in labels if request.form.get(f"label_{label['id']}")}
        if before != after:
            db().execute("DELETE FROM issue_labels WHERE issue_id = ?", (issue["id"],))
            for label_id in sorted(after):
                db().execute("INSERT INTO issue_labels VALUES (?, ?)", (issue["id"], label_id))
            names = {label["id"]: label["name"] for label in labels}
            parts = [f"added ~{names[i]}" for i in sorted(after - before)] + [f"removed ~{names[i]}" for i in sorted(before - after)]
            moment = add_note(row["id"], "issue", issue["id"], user["id"], " ".join(parts), system=True)
    if "toggle_label" in request.form:
        label = db().execute(
            "SELECT * FROM labels WHERE id = ? AND project_id = ?", (request.form.get("toggle_label", type=int), row["id"])
        ).fetchone()
        if label is not None:
            applied = db().execute(
                "DELETE FROM issue_labels WHERE issue_id = ? AND label_id = ?", (issue["id"], label["id"])
            ).rowcount
            if not applied:
                db().execute("INSERT INTO issue_labels VALUES (?, ?)", (issue["id"], label["id"]))
            verb = "removed" if applied else "added"
            moment = add_note(row["id"], "issue", issue["id"], user["id"], f"{verb} ~{label['name']} label", system=True)
    if "milestone_id" in request.form:
        milestone = db().execute(
            "SELECT * FROM milestones WHERE id = ? AND project_id = ?", (request.form.get("milestone_id", type=int), row["id"])
        ).fetchone()
        if (milestone["id"] if milestone else None) != issue["milestone_id"]:
            text = f"changed milestone to %{milestone['title']}" if milestone else "removed milestone"
            moment = add_note(row["id"], "issue", issue["id"], user["id"], text, system=True)
            db().execute("UPDATE issues SET milestone_id = ? WHERE id = ?", (milestone["id"] if milestone else None, issue["id"]))
    if "due_date" in request.form:
        due = parse_due_date(request.form["due_date"])
        if due != issue["due_date"]:
            text = f"changed due date to {dt.date.fromisoformat(due):%B} {int(due[8:])}, {due[:4]}" if due else "removed due date"
            moment = add_note(row["id"], "issue", issue["id"], user["id"], text, system=True)
            db().execute("UPDATE issues SET due_date = ? WHERE id = ?", (due, issue["id"]))
    if moment:
        db().execute("UPDATE issues SET updated_at = ? WHERE id = ?", (moment, issue["id"]))
    return redirect(url_for("issues.issue_page", namespace=namespace, project=project, iid=iid))


def _filters(label_names: list[str], assignee: str, search: str, sort: str) -> dict:
    """The list's filters as query arguments, so the state tabs keep them."""
    filters = {"label_name[]": label_names, "assignee_username": assignee, "search": search}
    if sort != "created_date":
        filters["sort"] = sort
    return {key: value for key, value in filters.items() if value}


def _member_id(members, username: str) -> int | None:
    """The id of the project member with that username (None: unassigned or not a member)."""
    return next((m["id"] for m in members if m["username"] == username), None)
