"""HTML of a report: summary tables, filters, a per-task comparison and every episode step by step.

Everything is escaped with :func:`html.escape`; the page needs no network (styles, script and
screenshots are inline).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from importlib import resources
from typing import Any

from ..evaluation import EpisodeResult, RunFile, StepRecord, format_difference, format_units
from .summary import (
    RunStats,
    TaskRow,
    family_table,
    run_differences,
    run_labels,
    run_stats,
    site_table,
    task_rows,
)

SINGLE_OUTCOMES = (("all", "all"), ("success", "success"), ("failure", "failure"))
COMPARE_OUTCOMES = (("all", "all"), ("fixed", "fixed"), ("regressed", "regressed"), ("both", "both succeed"),
                    ("neither", "both fail"), ("missing", "in one run only"))


def render_report(runs: Sequence[RunFile], *, title: str | None = None, observation_chars: int | None = None,
                  labels: Sequence[str] | None = None) -> str:
    """The whole report as one HTML document; ``labels`` name the runs (default: their models or files)."""
    labels = list(labels) if labels else run_labels(runs)
    title = title or ("webarena-gym: " + " vs ".join(labels))
    rows = task_rows(runs)
    sites = sorted({row.site_group for row in rows})
    outcomes = SINGLE_OUTCOMES if len(runs) == 1 else COMPARE_OUTCOMES
    parts = [
        f"<header><h1>{escape(title)}</h1>{_run_list(runs, labels)}</header>",
        _summary(runs, labels),
        '<section id="filters" aria-label="filters">',
        _filter("site", "Site", [("all", "all")] + [(s, s) for s in sites]),
        _filter("outcome", "Outcome", outcomes),
        '<p id="shown" role="status"></p></section>',
    ]
    if len(runs) > 1:
        parts.append(_comparison(rows, labels))
    parts.append('<section id="episodes"><h2>Episodes</h2>')
    parts.extend(_episode(row, labels, observation_chars) for row in rows)
    parts.append("</section>")
    # One dialog shows any screenshot enlarged (report.js fills it); Escape or a click closes it.
    parts.append('<dialog id="lightbox" aria-label="screenshot"><img alt=""></dialog>')
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_asset('report.css')}</style></head>\n<body>\n"
        + "\n".join(parts)
        + f"\n<script>{_asset('report.js')}</script>\n</body></html>\n"
    )


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def _run_list(runs: Sequence[RunFile], labels: list[str]) -> str:
    items = []
    for run, label in zip(runs, labels, strict=True):
        settings = ", ".join(f"{k}={v}" for k, v in run.settings.items() if k != "model" and v is not None)
        items.append(f"<li><b>{escape(label)}</b> <span class=\"muted\">{escape(str(run.path))}"
                     f"{(' · ' + escape(settings)) if settings else ''}</span>"
                     f'<div class="made">{escape(made_with(run.sessions))}</div></li>')
    return f'<ul class="runs">{"".join(items)}</ul>'


def made_with(sessions: Sequence[dict[str, Any]]) -> str:
    """The code and date of a run, and of each time it was resumed with other code.

    >>> made_with([{"version": "0.1.0", "commit": "5bd7c29e1f", "modified": True, "date": "2025-06-01T21:30:00+00:00"}])
    'made with webarena-gym 0.1.0, commit 5bd7c29 with local changes, on 2025-06-01 21:30 UTC'
    >>> made_with([])
    'code version and date not recorded (a run file from before they were)'
    """
    if not sessions:
        return "code version and date not recorded (a run file from before they were)"
    text = f"made with {_code(sessions[0])}, on {_date(sessions[0])}"
    for session in sessions[1:]:
        same = _code(session) == _code(sessions[0])
        text += f"; resumed on {_date(session)}" + ("" if same else f" with {_code(session)}")
    return text


def _code(session: dict[str, Any]) -> str:
    text = f"webarena-gym {session.get('version') or '(version unknown)'}"
    if session.get("commit"):
        text += f", commit {str(session['commit'])[:7]}" + (" with local changes" if session.get("modified") else "")
    return text


def _date(session: dict[str, Any]) -> str:
    date = str(session.get("date") or "an unknown date")
    return date[:16].replace("T", " ") + " UTC" if date.endswith("+00:00") else date


def _rate(cell: tuple[int, int]) -> str:
    wins, total = cell
    if not total:
        return '<td class="num muted">–</td>'
    return f'<td class="num">{100 * wins / total:.1f}% <span class="muted">({wins}/{total})</span></td>'


def _table(caption: str, key_name: str, table: dict[str, list[tuple[int, int]]], labels: list[str]) -> str:
    head = "".join(f"<th>{escape(label)}</th>" for label in labels)
    body = "".join(f"<tr><th scope=\"row\">{escape(key)}</th>{''.join(_rate(c) for c in cells)}</tr>"
                   for key, cells in table.items())
    return (f'<table class="rates"><caption>{escape(caption)}</caption><thead><tr><th>{escape(key_name)}</th>'
            f"{head}</tr></thead><tbody>{body}</tbody></table>")


def _summary(runs: Sequence[RunFile], labels: list[str]) -> str:
    stats = [run_stats(run.episodes) for run in runs]
    metrics: list[tuple[str, Any]] = [
        ("episodes", lambda s: f"{s.episodes}"),
        ("success rate", lambda s: f"{100 * s.success_rate:.1f}%"),
        ("interactions per episode", lambda s: f"{s.mean_steps:.1f}"),
        ("steps with an error", lambda s: f"{s.steps_with_error} of {s.steps}"),
        ("prompt tokens (total, per episode)", lambda s: _tokens(s.prompt_tokens, s)),
        ("completion tokens (total, per episode)", lambda s: _tokens(s.completion_tokens, s)),
        ("episode ends", lambda s: ", ".join(f"{k}: {v}" for k, v in s.end_reasons.items())),
    ]
    head = "".join(f"<th>{escape(label)}</th>" for label in labels)
    body = "".join(f"<tr><th scope=\"row\">{escape(name)}</th>"
                   + "".join(f'<td class="num">{escape(show(s))}</td>' for s in stats) + "</tr>"
                   for name, show in metrics)
    families = family_table(runs)
    family_html = (f"<details><summary>Success per task family ({len(families) - 1})</summary>"
                   f"{_table('Success per task family', 'family', families, labels)}</details>") if families else ""
    return (f'<section id="summary"><h2>Summary</h2>{_differences(runs, labels)}<div class="tables">'
            f"{_table('Success per site', 'site', site_table(runs), labels)}"
            f'<table class="stats"><caption>Interactions and tokens</caption><thead><tr><th></th>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>{family_html}</section>")


def _differences(runs: Sequence[RunFile], labels: list[str]) -> str:
    """One line per run after the first: its success minus the first's, with 95% bootstrap intervals."""
    items = [f'<li class="difference"><b>{escape(labels[index])}</b> − <b>{escape(labels[0])}</b>: '
             f"{escape(format_difference(difference))} points on the {difference['tasks']['groups']} tasks both ran "
             f'<span class="muted">(95% bootstrap interval resampling {escape(format_units(difference))})</span></li>'
             for index, difference in run_differences(runs)]
    return f'<ul class="differences">{"".join(items)}</ul>' if items else ""


def _tokens(count: int | None, stats: RunStats) -> str:
    if count is None:
        return "not reported"
    return f"{count:,} ({count / max(stats.episodes, 1):,.0f})"


def _filter(name: str, caption: str, options: Sequence[tuple[str, str]]) -> str:
    buttons = "".join(
        f'<button type="button" data-value="{escape(value)}" aria-pressed="{str(value == "all").lower()}"'
        f"{' class=active' if value == 'all' else ''}>{escape(text)}</button>"
        for value, text in options
    )
    return f'<div class="filter" data-filter="{name}" role="group" aria-label="{caption}"><span>{caption}</span>{buttons}</div>'


def _mark(episode: EpisodeResult | None) -> str:
    if episode is None:
        return '<span class="mark missing" title="not in this run">–</span>'
    return '<span class="mark ok">✓</span>' if episode.success else '<span class="mark fail">✗</span>'


def _attrs(row: TaskRow) -> str:
    return f'data-site="{escape(row.site_group)}" data-outcome="{row.outcome}"'


def _comparison(rows: Sequence[TaskRow], labels: list[str]) -> str:
    head = "".join(f"<th>{escape(label)}</th>" for label in labels)
    body = "".join(
        f'<tr class="task-row" {_attrs(row)}><td><a href="#task-{row.task_id}">{row.task_id}</a></td>'
        f"<td>{escape(row.site_group)}</td><td>{escape(row.intent)}</td>"
        + "".join(f"<td>{_mark(e)}</td>" for e in row.episodes)
        + f'<td class="verdict {row.outcome}">{row.outcome}</td></tr>'
        for row in rows
    )
    return (f'<section id="comparison"><h2>Per task</h2><table class="compare"><thead><tr><th>task</th><th>site</th>'
            f"<th>intent</th>{head}<th>change</th></tr></thead><tbody>{body}</tbody></table></section>")


def _episode(row: TaskRow, labels: list[str], observation_chars: int | None) -> str:
    marks = " ".join(f"{_mark(e)}<span class=\"muted\">{escape(label)}</span>" if len(labels) > 1 else _mark(e)
                     for e, label in zip(row.episodes, labels, strict=True))
    columns = "".join(_run_column(e, label, observation_chars) for e, label in zip(row.episodes, labels, strict=True))
    return (f'<article class="episode" id="task-{row.task_id}" {_attrs(row)}><details><summary>{marks} '
            f'<a class="permalink" href="#task-{row.task_id}" title="link to this episode">#{row.task_id}</a> '
            f'<span class="site">{escape(row.site_group)}</span> {escape(row.intent)}</summary>'
            f'<div class="columns">{columns}</div></details></article>')


def _run_column(episode: EpisodeResult | None, label: str, observation_chars: int | None) -> str:
    if episode is None:
        return f'<div class="run"><h3>{escape(label)}</h3><p class="muted">Not in this run.</p></div>'
    components = ", ".join(f"{escape(k)}: {v:g}" for k, v in episode.reward_components.items()) or "–"
    reference = reference_facts(episode.reference)
    facts = [
        ("reward", f"{episode.reward:g} ({components})"),
        ("answer", "–" if episode.answer is None else repr(episode.answer)),
        *[(name, text) for name, text in reference if name != "reference URL"],
        ("ended by", episode.end_reason or "–"),
        ("interactions", str(episode.steps)),
        ("final page", episode.final_url or "–"),
        *[(name, text) for name, text in reference if name == "reference URL"],
    ]
    if not episode.reference:
        facts.insert(2, ("reference", "not recorded in this run file"))
    if episode.family:
        facts.insert(0, ("family", episode.family))
    dl = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v) if k != 'reward' else v}</dd>" for k, v in facts)
    steps = "".join(_step(i, turn, observation_chars) for i, turn in enumerate(episode.turns, start=1))
    return f'<div class="run"><h3>{escape(label)}</h3><dl>{dl}</dl><ol class="steps">{steps}</ol></div>'


def _step(number: int, turn: StepRecord, observation_chars: int | None) -> str:
    url = escape(turn.url)
    link = f'<a href="{url}" rel="noreferrer">{url}</a>' if turn.url.startswith(("http://", "https://")) else url
    head = f'<div class="step-head">Step {number} {link}</div>'
    shot = ""
    if turn.screenshot:
        shot = (f'<button type="button" class="shot-button" title="enlarge" aria-label="Enlarge the page at step {number}">'
                f'<img class="shot" alt="The page at step {number}" loading="lazy" '
                f'src="data:image/png;base64,{escape(turn.screenshot)}"></button>')
    parts: list[str] = []
    parts.append(f'<div class="label">model output</div><pre class="output">{escape(turn.output) or "(empty)"}</pre>')
    action = f"<code>{escape(turn.action)}</code>" if turn.action else '<span class="muted">no valid action</span>'
    parts.append(f'<div class="label">parsed action</div><div class="action">{action}</div>')
    if turn.error:
        parts.append(f'<div class="error">{escape(turn.error)}</div>')
    if turn.reasoning:
        parts.append(f"<details><summary>reasoning</summary><pre>{escape(turn.reasoning)}</pre></details>")
    if turn.observation:
        text = turn.observation if observation_chars is None else turn.observation[:observation_chars]
        cut = "" if len(text) == len(turn.observation) else f" (first {len(text):,} of {len(turn.observation):,})"
        parts.append(f"<details><summary>observation{cut}</summary><pre>{escape(text)}</pre></details>")
    if turn.prompt_tokens is not None or turn.completion_tokens is not None:
        parts.append(f'<div class="muted tokens">tokens: {turn.prompt_tokens} in, {turn.completion_tokens} out</div>')
    classes = "step" + (" has-error" if turn.error else "") + (" has-shot" if shot else "")
    return f'<li class="{classes}">{head}{shot}<div class="step-body">{"".join(parts)}</div></li>'


def reference_facts(reference: dict[str, Any]) -> list[tuple[str, str]]:
    """What an episode was scored against, as (name, text) rows: the task's reference answers, URL and page checks.

    >>> reference_facts({"eval_types": ["string_match"], "reference_answers": {"must_include": ["4", "blue |OR| navy"]}})
    [('reference answer', "must include: '4'; 'blue' or 'navy'")]
    """
    rows = []
    answers = reference.get("reference_answers") or {}
    for kind, label in (("exact_match", "exactly"), ("must_include", "must include"), ("fuzzy_match", "close to")):
        if kind in answers:
            items = answers[kind] if isinstance(answers[kind], list) else [answers[kind]]
            shown = "; ".join(" or ".join(repr(alternative) for alternative in str(item).split(" |OR| ")) for item in items)
            rows.append(("reference answer", f"{label}: {shown}"))
    if reference.get("reference_url"):
        note = f" ({reference['url_note']})" if reference.get("url_note") else ""
        rows.append(("reference URL", " or ".join(str(reference["reference_url"]).split(" |OR| ")) + note))
    for target in reference.get("program_html") or []:
        contents = target.get("required_contents") or {}
        wanted = "; ".join(f"{k.replace('_', ' ')}: {v!r}" for k, v in contents.items())
        where = "the last page" if target.get("url") in (None, "", "last") else target["url"]
        rows.append(("page check", f"{where}{' · ' + target['locator'] if target.get('locator') else ''} → {wanted}"))
    return rows
