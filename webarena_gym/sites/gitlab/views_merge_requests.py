"""A project's merge requests: list, page with discussion, comments, merge/close/reopen."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request, url_for

from ..webapp import db
from .notes import add_note, discussion, post_comment, wants_preview
from .queries import (
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

bp = Blueprint("merge_requests", __name__)

MR_STATES = ("opened", "merged", "closed", "all")


def merge_request_or_404(project_id: int, iid: int):
    row = db().execute(
        "SELECT m.*, u.name AS author_name, u.username AS author_username, a.name AS assignee_name,"
        " a.username AS assignee_username FROM merge_requests m JOIN users u ON u.id = m.author_id"
        " LEFT JOIN users a ON a.id = m.assignee_id WHERE m.project_id = ? AND m.iid = ?",
        (project_id, iid),
    ).fetchone()
    if row is None:
        abort(404)
    return row


def reviewers_by_mr(mr_ids: list[int]) -> dict[int, list]:
    result: dict[int, list] = {mr_id: [] for mr_id in mr_ids}
    if mr_ids:
        marks = ",".join("?" * len(mr_ids))
        for row in db().execute(
            f"SELECT r.mr_id, u.name, u.username FROM mr_reviewers r JOIN users u ON u.id = r.user_id"
            f" WHERE r.mr_id IN ({marks}) ORDER BY u.username COLLATE NOCASE",
            mr_ids,
        ):
            result[row["mr_id"]].append(row)
    return result


@bp.get("/<namespace>/<project>/-/merge_requests")
def merge_requests(namespace: str, project: str):
    row = project_or_404(namespace, project)
    state = request.args.get("state", "opened")
    if state not in MR_STATES:
        state = "opened"
    search = request.args.get("search", "").strip()
    conditions, args = ["m.project_id = ?"], [row["id"]]
    if search:
        conditions.append("m.title LIKE ?")
        args.append(f"%{search}%")
    for arg, sql in (
        ("author_username", "u.username = ?"),
        ("reviewer_username", "m.id IN (SELECT mr_id FROM mr_reviewers r JOIN users ru ON ru.id = r.user_id WHERE ru.username = ?)"),
    ):
        if request.args.get(arg):
            conditions.append(sql)
            args.append(request.args[arg])
    base = " AND ".join(conditions)
    joins = "FROM merge_requests m JOIN users u ON u.id = m.author_id"
    tally = {r["state"]: r["n"] for r in db().execute(
        f"SELECT m.state, COUNT(*) AS n {joins} WHERE {base} GROUP BY m.state", tuple(args)
    )}
    tally["all"] = sum(tally.values())
    state_sql = "" if state == "all" else " AND m.state = ?"
    page = paginate(
        f"SELECT m.*, u.name AS author_name {joins} WHERE {base}{state_sql} ORDER BY m.created_at DESC, m.iid DESC",
        tuple(args) + ((state,) if state != "all" else ()),
    )
    return render_project(
        "merge_requests.html", row, "merge_requests", page=page, state=state, tally=tally, search=search,
        reviewers=reviewers_by_mr([m["id"] for m in page.rows]),
    )


@bp.route("/<namespace>/<project>/-/merge_requests/new", methods=["GET", "POST"])
@signed_in
def new_merge_request(namespace: str, project: str):
    """Open a merge request from one branch into another, with an assignee and reviewers."""
    row, user = project_or_404(namespace, project), me_required()
    branches = [b["name"] for b in db().execute("SELECT name FROM branches WHERE project_id = ? ORDER BY name = 'main' DESC, name", (row["id"],))]
    members = project_members(row["id"])
    source = request.values.get("source_branch", "")
    form = {
        "source_branch": source, "target_branch": request.values.get("target_branch", row["default_branch"]),
        "title": request.form.get("title", "").strip() or (source.replace("-", " ").replace("/", ": ").capitalize() if source else ""),
        "description": request.form.get("description", "").strip(),
        "assignee_username": request.form.get("assignee_username", ""),
        "reviewer_username": request.form.get("reviewer_username", ""),
    }
    errors: list[str] = []
    if request.method == "POST":
        if form["source_branch"] not in branches or form["target_branch"] not in branches:
            errors.append("Select a source branch and a target branch of this project.")
        elif form["source_branch"] == form["target_branch"]:
            errors.append("The source branch and the target branch must differ.")
        if not form["title"]:
            errors.append("Title can't be blank.")
        if not errors:
            moment = now_stamp()
            by_name = {m["username"]: m["id"] for m in members}
            iid = db().execute(
                "SELECT COALESCE(MAX(iid), 0) + 1 FROM merge_requests WHERE project_id = ?", (row["id"],)
            ).fetchone()[0]
            mr_id = db().execute(
                "INSERT INTO merge_requests (project_id, iid, title, description, state, author_id, assignee_id, source_branch,"
                " target_branch, created_at, updated_at) VALUES (?, ?, ?, ?, 'opened', ?, ?, ?, ?, ?, ?)",
                (row["id"], iid, form["title"], form["description"], user["id"], by_name.get(form["assignee_username"]),
                 form["source_branch"], form["target_branch"], moment, moment),
            ).lastrowid
            if form["reviewer_username"] in by_name:
                db().execute("INSERT INTO mr_reviewers VALUES (?, ?)", (mr_id, by_name[form["reviewer_username"]]))
            touch_project(row["id"], moment)
            return redirect(url_for("merge_requests.merge_request_page", namespace=namespace, project=project, iid=iid))
    return render_project(
        "new_merge_request.html", row, "merge_requests", branches=branches, members=members, form=form, errors=errors
    )


@bp.get("/<namespace>/<project>/-/merge_requests/<int:iid>")
def merge_request_page(namespace: str, project: str, iid: int):
    row = project_or_404(namespace, project)
    mr = merge_request_or_404(row["id"], iid)
    note_url = url_for("merge_requests.merge_request_note", namespace=namespace, project=project, iid=iid)
    return render_project(
        "merge_request.html", row, "merge_requests", mr=mr, reviewers=reviewers_by_mr([mr["id"]])[mr["id"]],
        **discussion("merge_request", mr["id"], note_url, namespace, project),
    )


@bp.post("/<namespace>/<project>/-/merge_requests/<int:iid>/notes")
@signed_in
def merge_request_note(namespace: str, project: str, iid: int):
    if wants_preview():
        return merge_request_page(namespace, project, iid)
    row, user = project_or_404(namespace, project), me_required()
    post_comment("merge_request", row["id"], merge_request_or_404(row["id"], iid)["id"], user["id"])
    return redirect(url_for("merge_requests.merge_request_page", namespace=namespace, project=project, iid=iid) + "#notes")


@bp.post("/<namespace>/<project>/-/merge_requests/<int:iid>/state")
@signed_in
def merge_request_state(namespace: str, project: str, iid: int):
    row = project_or_404(namespace, project)
    mr = merge_request_or_404(row["id"], iid)
    event = request.form.get("state_event")
    # Merging needs a maintainer; closing or reopening one's own merge request does not.
    user = require_level(row, 40) if event == "merge" or mr["author_id"] != me_required()["id"] else me_required()
    allowed = {("opened", "merge"): "merged", ("opened", "close"): "closed", ("closed", "reopen"): "opened"}
    target = allowed.get((mr["state"], event))
    if target is None:
        abort(400)
    moment = add_note(row["id"], "merge_request", mr["id"], user["id"], {"merged": "merged", "closed": "closed", "opened": "reopened"}[target], system=True)
    db().execute(
        "UPDATE merge_requests SET state = ?, updated_at = ?, merged_at = ? WHERE id = ?",
        (target, moment, moment if target == "merged" else None, mr["id"]),
    )
    return redirect(url_for("merge_requests.merge_request_page", namespace=namespace, project=project, iid=iid))
