"""url_match: cleaning, |OR| alternatives, EXACT vs GOLD in PRED, query strings, lenient path resolution."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

from webarena_gym.evaluators import evaluate
from webarena_gym.evaluators.url_match import clean_url, url_match
from webarena_gym.suites.loading import load_tasks
from webarena_gym.suites.official import load_official_tasks
from webarena_gym.tasks.task import alternatives_of
from webarena_gym.webarena_sites import SITE_NAMES, default_base_url

BASE = "http://127.0.0.1:8023"


def url_task(reference_url, url_note=None):
    data = {
        "eval_types": ["url_match"],
        "reference_answers": None,
        "reference_url": reference_url,
        "program_html": [],
    }
    if url_note is not None:
        data["url_note"] = url_note
    return {
        "task_id": 3,
        "sites": ["gitlab"],
        "start_url": "__GITLAB__",
        "intent": "Open the issues",
        "eval": data,
    }


def test_cleaning_maps_localhost_and_drops_one_trailing_slash():
    assert clean_url("http://localhost:8023/a/") == "http://127.0.0.1:8023/a"
    assert clean_url("http://localhost:8023/a//") == "http://127.0.0.1:8023/a/"


def test_exact_is_the_default_note():
    task = url_task(f"{BASE}/byteblaze/dotfiles/-/issues")
    assert evaluate(task, answer=None, url="http://localhost:8023/byteblaze/dotfiles/-/issues/").reward == 1.0
    assert evaluate(task, answer=None, url=f"{BASE}/byteblaze/dotfiles/-/issues/1").reward == 0.0
    assert evaluate(task, answer=None, url=f"{BASE}/byteblaze/dotfiles/-/issues?state=closed").reward == 0.0


def test_or_alternatives():
    reference = f"{BASE}/a |OR| {BASE}/b"
    assert url_match(f"{BASE}/b", reference)
    assert not url_match(f"{BASE}/c", reference)


def test_gold_in_pred_is_a_substring_test():
    reference = f"{BASE}/byteblaze/dotfiles/-/issues"
    assert url_match(f"{BASE}/byteblaze/dotfiles/-/issues/?sort=created_date", reference, "GOLD in PRED")
    assert url_match("http://localhost:8023/byteblaze/dotfiles/-/issues/4", reference, "GOLD in PRED")
    assert not url_match(f"{BASE}/byteblaze/dotfiles", reference, "GOLD in PRED")
    assert evaluate(url_task(reference, "GOLD in PRED"), answer=None, url=f"{reference}?page=2").reward == 1.0


def test_lenient_exact_ignores_query_parameter_order_and_encoding():
    reference = f"{BASE}/ffmpeg-python/-/issues/?sort=created_date&state=opened&label_name%5B%5D=question"
    reordered = f"{BASE}/ffmpeg-python/-/issues?label_name[]=question&state=opened&sort=created_date"
    assert url_match(reordered, reference, evaluation="lenient")
    assert not url_match(reordered.replace("question", "bug"), reference, evaluation="lenient")
    # VisualAgentBench compares the raw cleaned strings (`if pred in ref_urls`)
    assert not url_match(reordered, reference)


def test_lenient_gold_in_pred_accepts_decoded_forms():
    assert url_match(f"{BASE}/search?q=a%20b", f"{BASE}/search?q=a b", "GOLD in PRED", evaluation="lenient")
    # VisualAgentBench: `ref in pred` on the raw strings
    assert not url_match(f"{BASE}/search?q=a%20b", f"{BASE}/search?q=a b", "GOLD in PRED")


@pytest.mark.parametrize("url", [None, "", "   "])
@pytest.mark.parametrize("evaluation", ["vab", "lenient"])
def test_no_url_never_matches(url, evaluation):
    assert not url_match(url, f"{BASE}/a", evaluation=evaluation)


def test_unknown_note_is_a_data_error():
    with pytest.raises(ValueError, match="url_note"):
        url_match(f"{BASE}/a", f"{BASE}/a", "PREFIX")


# --- lenient mode never accepts another page through a path trick -------------------------------------

SITES = {site: default_base_url(site) for site in SITE_NAMES}  # WebArena's addresses on loopback


def url_scored_tasks():
    embedded = [(f"embedded-{t.task_id}", t) for t in load_tasks("embedded", "test", site_urls=SITES)]
    lite = [(f"lite-{t.task_id}", t) for t in load_official_tasks("test", site_urls=SITES)]
    return [(name, t) for name, t in embedded + lite if "url_match" in t.eval.eval_types]


URL_TASKS = url_scored_tasks()


def test_the_walk_covers_every_url_scored_task():
    assert sum(name.startswith("lite-") for name, _ in URL_TASKS) == 39
    assert sum(name.startswith("embedded-") for name, _ in URL_TASKS) >= 30


def other_pages(reference: str) -> list[str]:
    """Path tricks on ``reference`` that a browser resolves to another page (its query and fragment kept)."""
    parts = urlsplit(reference)
    base, path = f"{parts.scheme}://{parts.netloc}", parts.path.rstrip("/")
    tail = (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")
    to_root = len([s for s in path.split("/") if s]) + 1
    return [
        base + path + "/../../../../admin" + tail,
        base + path + "/.." * to_root + "/zz-other" + tail,
        base + path + "/%2e%2e" * to_root + "/zz-other" + tail,
        base + path + "/.%2E" * to_root + "/zz-other" + tail,
        base + path + "\\.." * to_root + "\\zz-other" + tail,  # browsers read "\" as "/" in http URLs
        base + path + "%2F..%2F..%2Fother" + tail,
        base + path + "%2Fchild" + tail,
        base + path + "%2f..%2fzz-other" + tail,
    ]


def same_pages(reference: str, url_note: str | None) -> list[str]:
    """The documented equivalent forms of ``reference`` that lenient mode accepts."""
    parts = urlsplit(reference)
    path = parts.path.rstrip("/")
    query = parse_qsl(parts.query, keep_blank_values=True)
    first, _, rest = path.lstrip("/").partition("/")
    forms = [
        reference,
        urlunsplit((parts.scheme.upper(), parts.netloc.upper(), parts.path, parts.query, parts.fragment)),
        urlunsplit((parts.scheme, parts.netloc, path + "/", parts.query, parts.fragment)),
        urlunsplit((parts.scheme, parts.netloc, path[:-1] + quote_character(path[-1]), parts.query, parts.fragment)),
        urlunsplit((parts.scheme, parts.netloc, f"/{first}/./{rest}".rstrip("/"), parts.query, parts.fragment)),
        urlunsplit((parts.scheme, parts.netloc, f"/{first}/zz/../{rest}".rstrip("/"), parts.query, parts.fragment)),
        urlunsplit((parts.scheme, parts.netloc, path + "/child/..", parts.query, parts.fragment)),
    ]
    if len(query) > 1:
        forms.append(urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query[::-1]), parts.fragment)))
    if url_note == "GOLD in PRED":
        forms.append(urlunsplit((parts.scheme, parts.netloc, path + "/child", parts.query, parts.fragment)))
        forms.append(urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode([*query, ("zz", "1")]), "")))
    return forms


def quote_character(character: str) -> str:
    return "".join(f"%{byte:02X}" for byte in character.encode("utf-8"))


@pytest.mark.parametrize(("name", "task"), URL_TASKS, ids=[name for name, _ in URL_TASKS])
def test_lenient_mode_refuses_path_tricks_on_every_url_task_and_accepts_the_same_page(name, task):
    reference, url_note = task.eval.reference_url, task.eval.url_note
    accepted, refused = [], []
    for alternative in alternatives_of(reference):
        accepted += [u for u in other_pages(alternative) if url_match(u, reference, url_note, evaluation="lenient")]
        refused += [u for u in same_pages(alternative, url_note)
                    if not url_match(u, reference, url_note, evaluation="lenient")]
    assert accepted == [], f"lenient mode accepted another page for {reference!r}"
    assert refused == [], f"lenient mode refused the same page as {reference!r}"


def test_path_tricks_in_the_issue_are_refused_by_lenient_mode_and_the_default_keeps_its_substring_rule():
    reference = f"{BASE}/dashboard/todos"
    for url in (f"{BASE}/dashboard/todos/../../../../admin", f"{BASE}/dashboard/todos%2F..%2F..%2Fother",
                f"{BASE}/dashboard/todos%2Fchild"):
        assert not url_match(url, reference, "GOLD in PRED", evaluation="lenient")
        assert url_match(url, reference, "GOLD in PRED")  # VisualAgentBench's raw substring test, quirks included
    assert url_match(f"{BASE}/dashboard/todos/done/..", reference, evaluation="lenient")  # that resolves to it
    assert url_match(f"{BASE}/dashboard/todos/x%2Fy", reference, "GOLD in PRED", evaluation="lenient")  # a child
