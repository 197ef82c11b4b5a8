"""The realism and template-coverage benchmarks run on the current tree and say what they measure.

Nothing here asserts where the ratios land (they move as the sites grow); the tests check
that every page type is measured with numbers, that each widget detector finds its widget
in a small handwritten page and not in a near miss, and that the coverage counts are what a
direct recount gives.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


realism = _load("realism")
template_coverage = _load("template_coverage")


def _page(body: str) -> str:
    return f"<!DOCTYPE html><html><head><title>t</title></head><body><main>{body}</main></body></html>"


ROWS = "".join(f"<tr><td>row {i}</td><td>{i}</td></tr>" for i in range(3))
SNIPPETS = {
    "tabs": (
        '<div role="tablist"><a role="tab" href="?tab=a">A</a><a role="tab" href="?tab=b">B</a></div>',
        '<div><a href="?tab=a">A</a><a href="?tab=b">B</a></div>'),
    "collapsible": (
        "<details><summary>More</summary><p>hidden text</p></details>",
        "<div><strong>More</strong><p>text</p></div>"),
    "pagination": (
        '<nav aria-label="Pagination"><a href="?p=1">1</a><a href="?p=2">2</a></nav>',
        '<nav aria-label="Main"><a href="/a">A</a><a href="/b">B</a></nav>'),
    "filters": (
        '<form class="issue-filters"><input name="q"><select name="state"><option>open</option></select></form>',
        '<form class="comment-form"><input name="q"><select name="state"><option>open</option></select></form>'),
    "breadcrumbs": (
        '<nav aria-label="Breadcrumb"><a href="/">Home</a> / <a href="/c">Cat</a></nav>',
        '<nav aria-label="Main"><a href="/">Home</a> / <a href="/c">Cat</a></nav>'),
    "vote_buttons": (
        '<form><button name="choice" value="1" title="Upvote"></button><button name="choice" value="-1" '
        'title="Downvote"></button></form>',
        '<form><button name="save" title="Save"></button><button name="cancel">Cancel</button></form>'),
    "mega_menu": (
        "<nav>" + "".join(f"<details><summary>Dept {i}</summary><a href='/d{i}'>Item</a></details>"
                          for i in range(8)) + "</nav>",
        "<nav>" + "".join(f"<details><summary>Dept {i}</summary><a href='/d{i}'>Item</a></details>"
                          for i in range(7)) + "</nav>"),
    "toolbar": (
        '<div role="toolbar"><button>Edit</button><button>Delete</button></div>',
        '<div role="group"><button>Edit</button><button>Delete</button></div>'),
    "data_grid": (
        '<select name="limit"><option>20</option></select><table><tr><th><a href="?sort=id">ID</a></th>'
        f'<th><a href="?sort=name">Name</a></th></tr>{ROWS}</table>',
        f'<select name="limit"><option>20</option></select><table><tr><th>ID</th><th>Name</th></tr>{ROWS}</table>'),
    "mass_action": (
        '<select name="massaction"><option>Delete</option><option>Update status</option></select>',
        '<select name="status"><option>Delete</option><option>Update status</option></select>'),
    "scope_switcher": (
        '<div class="store-switcher"><select name="store"><option>All Store Views</option></select></div>',
        '<div class="currency"><select name="currency"><option>USD</option></select></div>'),
    "star_rating": (
        "".join(f'<input type="radio" name="rating" value="{i}">' for i in range(1, 6)),
        "".join(f'<input type="radio" name="size" value="{i}">' for i in range(1, 6))),
    "option_swatches": (
        '<form><input type="radio" name="options[color]" value="red"><input type="radio" name="options[color]" '
        'value="blue"><button type="submit" disabled>Add to Cart</button></form>',
        '<form><input type="radio" name="options[color]" value="red"><button type="submit">Compare</button></form>'),
    "sorter": (
        '<select name="sort"><option>Price</option></select><a href="?dir=desc" title="Set Descending Direction"></a>',
        '<select name="sort"><option>Price</option></select><a href="/help">Help</a>'),
    "markdown_editor": (
        '<div role="tablist"><button role="tab">Write</button><button role="tab">Preview</button></div>'
        "<textarea name='body'></textarea>",
        '<div role="tablist"><button role="tab">Write</button><button role="tab">Preview</button></div>'),
    "searchable_dropdown": (
        '<input role="combobox" aria-controls="l"><ul role="listbox" id="l"><li role="option">a</li></ul>',
        '<input type="search"><ul id="l"><li>a</li></ul>'),
    "date_picker": ('<input type="date" name="from">', '<input type="text" name="from">'),
    "reactions": (
        '<button title="Thumbs up" class="award-control">1</button>',
        '<button title="Subscribe">Subscribe</button>'),
    "switch": (
        '<button role="switch" aria-checked="true">Notifications</button>',
        '<button aria-pressed="true">Notifications</button>'),
    "modal": (
        '<div role="dialog" aria-label="Confirm"><p>Sure?</p><button>OK</button></div>',
        '<div role="region" aria-label="Confirm"><p>Sure?</p><button>OK</button></div>'),
    "role_dropdown": (
        "<table>" + "".join(f'<tr><td>user{i}</td><td><select name="access_level"><option>Developer</option>'
                            "</select></td></tr>" for i in range(2)) + "</table>",
        "<table>" + "".join(f'<tr><td>user{i}</td><td>Developer</td></tr>' for i in range(2)) + "</table>"),
    "export": (
        '<button type="button">Export</button><select name="exportType"><option>CSV</option></select>',
        '<button type="button">Import</button>'),
}


def test_the_eighteen_kinds_and_the_extras_each_have_a_detector_and_a_snippet():
    assert len(realism.WIDGET_KINDS) == 18
    assert set(SNIPPETS) == set(realism.WIDGET_KINDS) | set(realism.EXTRA_KINDS) == set(realism.DETECTORS)


@pytest.mark.parametrize("kind", sorted(SNIPPETS))
def test_each_detector_finds_its_widget_and_not_a_near_miss(kind):
    positive, negative = SNIPPETS[kind]
    assert kind in realism.detect_widgets(_page(positive))
    assert kind not in realism.detect_widgets(_page(negative))


def test_a_comment_hide_toggle_made_of_a_checkbox_and_its_label_is_collapsible():
    toggle = ('<article><input type="checkbox" class="hideable__checkbox" id="comment_toggle_1" checked>'
              '<label class="comment__hide-toggle hideable__toggle" for="comment_toggle_1"></label>'
              '<div class="hideable__hide"><p>comment body</p></div></article>')
    assert "collapsible" in realism.detect_widgets(_page(toggle))
    plain = '<form><input type="checkbox" id="remember"><label for="remember">Remember me</label></form>'
    assert "collapsible" not in realism.detect_widgets(_page(plain))


def test_a_widget_hidden_by_markup_is_not_counted():
    hidden = '<div hidden><nav aria-label="Breadcrumb"><a href="/">Home</a></nav></div>'
    assert "breadcrumbs" not in realism.detect_widgets(_page(hidden))


def test_icon_only_controls_are_those_named_only_by_title_or_aria_label():
    figures = realism.measure_html(_page(
        '<a href="/cart" title="Cart"></a><button aria-label="Close"><svg></svg></button>'
        '<a href="/home" title="Home">Home</a><button>Save</button><input title="Search">'))
    assert figures.elements == 5
    assert figures.icon_only == 2
    assert figures.chars > 0


def test_realism_measures_every_page_type_with_numbers(tmp_path, capsys):
    out = tmp_path / "realism.json"
    figures = realism.main(["--json", str(out)])
    printed = capsys.readouterr().out
    written = json.loads(out.read_text())
    assert written["summary"] == json.loads(json.dumps(figures["summary"]))
    keys = [row["key"] for row in written["rows"]]
    assert keys == [page_type.key for page_type in realism.PAGE_TYPES] and len(keys) == 14
    for row in written["rows"]:
        assert row["error"] == "", row
        embedded = row["embedded"]
        assert all(isinstance(embedded[k], int) for k in ("chars", "elements", "icon_only")), row
        assert embedded["chars"] > 0 and embedded["elements"] > 0, row
        assert set(embedded["widgets"]) <= set(realism.WIDGET_KINDS) | set(realism.EXTRA_KINDS)
        assert row["url"].startswith("http://"), row
        assert f"{row['site']}:{row['key']}"[:28] in printed
    summary = written["summary"]
    assert set(summary["sites"]) == {"shopping", "shopping_admin", "reddit", "gitlab"}
    assert set(summary["widget_kinds_found"]) | set(summary["widget_kinds_missing"]) == set(realism.WIDGET_KINDS)
    assert re.search(r"^(PASS|FAIL) median chars ratio", printed, re.M)
    assert re.search(r"^overall: (PASS|FAIL)$", printed, re.M)
    assert f"widget kinds on the embedded pages: {len(summary['widget_kinds_found'])}/18" in printed


def test_a_page_type_whose_route_is_gone_is_an_error_row_not_a_crash():
    gone = realism.PageType("gone", "reddit", "a page that moved", lambda world: "/no/such/page/here")
    rows, summary = realism.run({"page_types": {}}, page_types=(realism.PAGE_TYPES[-1], gone))
    assert rows[0].error == "" and rows[0].embedded.chars > 0
    assert rows[1].embedded is None and "404" in rows[1].error
    assert "ERROR" in realism.format_report(rows, summary)


def test_real_figures_are_measured_from_captures_and_give_ratios(tmp_path):
    captures = tmp_path / "captures" / "deep"
    captures.mkdir(parents=True)
    (captures / "bio.html").write_text(_page(
        '<nav aria-label="Breadcrumb"><a href="/">Home</a></nav><form><textarea name="bio"></textarea>'
        '<button>Save</button><a href="/x" title="Settings"></a></form>'))
    targets = tmp_path / "targets.json"
    targets.write_text(json.dumps({"page_types": {"biography_form": {"capture": "site/assets/bio.html", "chars": None,
                                                                     "elements": None}}}))
    realism.main(["--targets", str(targets), "--measure-real", str(tmp_path / "captures")])
    entry = json.loads(targets.read_text())["page_types"]["biography_form"]
    assert entry["elements"] == 4 and entry["icon_only"] == 1 and entry["widgets"] == ["breadcrumbs"]
    row = realism.Row("biography_form", "reddit", "bio", embedded=realism.PageFigures(entry["chars"] * 2, 2, 0),
                      real=realism.real_figures(json.loads(targets.read_text()), "biography_form"))
    assert row.ratio("chars") == 2.0 and row.ratio("elements") == 0.5


def test_the_real_figures_file_names_its_captures_and_holds_numbers_only():
    targets = realism.load_targets()
    assert set(targets["page_types"]) == {page_type.key for page_type in realism.PAGE_TYPES}
    for key, entry in targets["page_types"].items():
        assert entry["chars"] is None or isinstance(entry["chars"], int), key
        assert (entry["capture"] or "").endswith(".html") or entry["chars"] is None, key
        assert set(entry.get("widgets", [])) <= set(realism.WIDGET_KINDS) | set(realism.EXTRA_KINDS), key


def test_the_eighteen_kinds_are_kinds_the_real_pages_show():
    targets = realism.load_targets()
    shown = set().union(*(entry.get("widgets", []) for entry in targets["page_types"].values()))
    assert set(realism.WIDGET_KINDS) <= shown


def _recount(lite: list[dict], families: list) -> tuple[int, int, dict[str, tuple[int, int]]]:
    def form(template: str) -> str:
        words = re.findall(r"\{\{.*?\}\}|[a-z0-9]+", template.lower())
        return " ".join("SLOT" if w.startswith("{{") else w for w in words)

    family_forms = {form(f.intent_template) for f in families}
    templates = {}
    for task in lite:
        templates.setdefault(task["intent_template"], "+".join(task["sites"]))
    groups: dict[str, list[int]] = {}
    for template, group in templates.items():
        counts = groups.setdefault(group, [0, 0])
        counts[0] += 1
        counts[1] += form(template) in family_forms
    covered = sum(c[1] for c in groups.values())
    return len(templates), covered, {g: (c[0], c[1]) for g, c in groups.items()}


def test_template_coverage_counts_equal_a_direct_recount(tmp_path, capsys):
    from webarena_gym.suites.embedded import all_families
    from webarena_gym.suites.official import official_data_path

    lite = json.loads(official_data_path("webarena-lite").read_text())
    templates, covered, groups = _recount(lite, all_families())
    markdown = tmp_path / "coverage.md"
    coverage = template_coverage.main(["--markdown", str(markdown)])
    printed = capsys.readouterr().out
    assert (len(coverage.rows), coverage.covered) == (templates, covered)
    assert {g: (t, c) for g, (t, c, _) in coverage.by_group().items()} == groups
    assert markdown.read_text() == printed
    assert f"| **all** | {templates} | {covered} |" in printed
    assert f"Overall: {covered}/{templates} Lite test templates" in printed
    assert ("meets the 60% target" in printed) == (covered / templates >= 0.60)
    listed = [line for line in printed.splitlines() if line.startswith("| ") and line.count("|") >= 5
              and not line.startswith(("| site group", "| **all**")) and line.split("|")[2].strip().isdigit()
              and not line.split("|")[3].strip().isdigit()]
    assert len(listed) == templates
    assert sum(1 for line in listed if not line.rstrip(" |").endswith("none")) == covered


def test_templates_match_whatever_their_placeholders_are_called():
    lite = [{"intent_template": "What is the price of {{product}}?", "sites": ["shopping"]},
            {"intent_template": "Show me {{thing}}", "sites": ["shopping"]}]

    class Family:
        name, intent_template = "shopping.price", "what is the PRICE of {{item}}"

    coverage = template_coverage.compute_coverage(lite, [Family()])
    assert [row.families for row in coverage.rows] == [["shopping.price"], []]
    assert coverage.by_group() == {"shopping": (2, 1, 1)}


def test_the_docs_coverage_table_is_what_the_script_prints_for_this_tree():
    """docs/guide/template-coverage.md carries the script's table for the current families (rerun the script
    with ``--markdown`` and paste its output when families change)."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "guide" / "template-coverage.md").read_text()
    assert template_coverage.markdown_report(template_coverage.compute_coverage()).strip() in page
