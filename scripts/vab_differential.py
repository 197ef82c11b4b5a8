"""Build the differential test set: answer/URL/located-text cases scored by VisualAgentBench's own code.

The reference evaluators are not part of this repository. Point this script at a copy of
``VAB-WebArena-Lite/new/`` (``evaluators.py`` and ``helper_functions_eval.py`` from
THUDM/VisualAgentBench) and run it with a Python that has ``nltk==3.8.1`` (with its
English ``punkt`` data on ``NLTK_DATA``) and ``beartype==0.12.0``, the versions
visualwebarena pins. The modules those files import for the browser, the LLM and image
evaluation are replaced by inert stand-ins; a case whose outcome would need the LLM judge
is left out. Each case records what the reference answered and why the case is there::

    python scripts/vab_differential.py --reference /path/to/VAB-WebArena-Lite/new \\
        --tasks test_webarena_lite.raw.json --out tests/evaluators/data/vab_differential.json

``tests/evaluators/test_vab_differential.py`` scores every case with this project's
default evaluators and asserts the same outcome.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
import types
from pathlib import Path
from urllib.parse import quote

#: Where the placeholders point (the same mapping the test resolves the tasks with).
SITES = {
    "__SHOPPING_ADMIN__": "http://127.0.0.1:7780/admin",
    "__SHOPPING__": "http://127.0.0.1:7770",
    "__REDDIT__": "http://127.0.0.1:9999",
    "__GITLAB__": "http://127.0.0.1:8023",
    "__MAP__": "http://127.0.0.1:3000",
    "__WIKIPEDIA__": "http://127.0.0.1:8888",
    "__HOMEPAGE__": "http://127.0.0.1:4399",
}


class NeedsJudge(Exception):
    """The reference asked its LLM: the outcome is not a property of the code."""


def _stub(name: str, **attributes: object) -> None:
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    sys.modules[name] = module


def load_reference(folder: Path) -> types.ModuleType:
    """Import the reference ``evaluators.py`` with inert stand-ins for its heavy imports."""

    class Page:  # playwright's Page: only used in type hints here
        pass

    def ask_llm(*args: object, **kwargs: object) -> str:
        raise NeedsJudge

    _stub("evaluate")
    _stub("requests")
    _stub("PIL", Image=types.SimpleNamespace())
    _stub("PIL.Image")
    _stub("playwright")
    _stub("playwright.sync_api", CDPSession=type("CDPSession", (), {}), Page=Page)
    _stub("browser_env")
    _stub("browser_env.actions", Action=dict)
    _stub("browser_env.utils", StateInfo=dict)
    _stub("browser_env.env_config", ACCOUNTS={}, REDDIT="", SHOPPING="", WIKIPEDIA="")
    _stub("llms")
    _stub("llms.providers")
    _stub("llms.providers.openai_utils", generate_from_openai_chat_completion=ask_llm)
    _stub("evaluation_harness")
    _stub("evaluation_harness.image_utils")
    for module_name, file_name in (
        ("evaluation_harness.helper_functions", "helper_functions_eval.py"),
        ("evaluation_harness.evaluators", "evaluators.py"),
    ):
        spec = importlib.util.spec_from_file_location(module_name, folder / file_name)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    evaluators = sys.modules["evaluation_harness.evaluators"]
    evaluators.time = types.SimpleNamespace(sleep=lambda seconds: None)  # it waits 3 s after each goto
    return evaluators


def resolve(value: object) -> object:
    if isinstance(value, str):
        for placeholder, url in SITES.items():
            value = value.replace(placeholder, url)
        return value
    if isinstance(value, list):
        return [resolve(v) for v in value]
    if isinstance(value, dict):
        return {k: resolve(v) for k, v in value.items()}
    return value


class LocatedPage:
    """A page whose locators read fixed texts (the reference's PseudoPage wraps it)."""

    def __init__(self, url: str, texts: list[str]):
        self.url = url
        self.texts = list(texts)
        self.opened: list[str] = []

    def goto(self, url: str) -> None:
        self.opened.append(url)

    def evaluate(self, expression: str) -> str:
        return self.texts.pop(0)

    def content(self) -> str:
        return self.texts.pop(0)


# ---------------------------------------------------------------- case generators


def answer_variants(task: dict) -> list[tuple[str, str]]:
    """(answer, why) pairs for a string_match task, from its references."""
    references = task["eval"]["reference_answers"]
    out: list[tuple[str, str]] = []
    if "exact_match" in references:
        ref = references["exact_match"]
        out += [
            (ref, "the reference itself"),
            (ref.upper(), "case differs: both sides are lowercased"),
            (f'"{ref}"', "one pair of double quotes is removed"),
            (f"'{ref}'", "one pair of single quotes is removed"),
            (f"\"'{ref}'\"", "nested quotes: the answer is cleaned twice"),
            (f"'\"'{ref}'\"'", "three nested pairs: only two are removed"),
            (f" {ref}", "leading space: nothing is stripped"),
            (f"{ref}\n", "trailing newline: nothing is stripped"),
            (f"{ref}.", "a final period breaks exact equality"),
            (f"The answer is {ref}", "a sentence around the reference is not exact"),
            ("N/A", "N/A against a real reference"),
        ]
    must = references.get("must_include")
    if isinstance(must, str):
        out += [(must, "bare-string must_include: the reference code raises"), (f"it is {must}", "same, in a sentence")]
    elif must:
        first = [item.split(" |OR| ")[0] for item in must]
        out += [
            (", ".join(first), "every item, comma separated"),
            ("The answer: " + " and ".join(first) + ".", "every item in a sentence ending with a period"),
            ("\n".join(first), "every item, one per line"),
            (", ".join(first).upper(), "every item, upper case"),
            ("\"'" + ", ".join(first) + "'\"", "every item inside nested quotes"),
            ("/".join(first), "items joined by '/': one-token references also match the pieces"),
            (" ".join("1" + item for item in first), "each item glued to a digit: a one-token reference must be a whole token"),
            (" ".join(f"{item}. then" for item in first), "each item before '. then': Punkt keeps a number's period before a lowercase word"),
            (" ".join(f"{item}." for item in first), "each item followed by a period"),
            (" ".join(f"({item})" for item in first), "each item in brackets"),
            (" ".join(f"{item}'s" for item in first), "each item with a clitic"),
            ("N/A", "N/A"),
            ("", "empty answer"),
        ]
        if len(first) > 1:
            out.append((", ".join(first[1:]), "the first item missing"))
        alternatives = [item.split(" |OR| ") for item in must if " |OR| " in item]
        if alternatives:
            seconds = [item.split(" |OR| ")[-1] for item in must]
            out.append((", ".join(seconds), "the last |OR| alternative of each item"))
    fuzzy = references.get("fuzzy_match")
    if fuzzy == "N/A":
        out += [
            ("N/A", "N/A for an unachievable task"),
            ("n/a", "lower-case N/A"),
            ("'N/A'", "quoted N/A"),
            ("\"'N/A'\"", "nested quotes around N/A: cleaned twice, so n/a"),
        ]
    return out


def url_variants(reference: str) -> list[tuple[str, str]]:
    """(url, why) pairs for one reference alternative."""
    origin = reference.split("/", 3)
    base = "/".join(origin[:3])
    has_query = "?" in reference
    out = [
        (reference, "the reference itself"),
        (reference + "/", "one trailing slash is removed"),
        (reference + "//", "two trailing slashes: only one is removed"),
        (reference + "?", "an empty query string"),
        (reference + "#", "an empty fragment"),
        (reference + ("&page=2" if has_query else "?page=2"), "an extra query parameter"),
        (reference + "0", "the last path segment extended"),
        (reference.replace("127.0.0.1", "localhost"), "localhost is mapped to 127.0.0.1"),
        (reference.replace("http://", "https://"), "another scheme"),
        (reference.replace("http://127.0.0.1", "HTTP://127.0.0.1"), "an upper-case scheme"),
        (reference.replace(":8023", ":8024").replace(":7770", ":7771").replace(":7780", ":7781").replace(":9999", ":9998").replace(":3000", ":3001"), "another port"),
        (reference.rsplit("/", 1)[0], "the parent path"),
        (f"{base}/login?next={quote(reference, safe='')}", "the reference percent-encoded in a login redirect"),
        (f"{base}/?redirect_to={quote(reference, safe='')}", "the reference percent-encoded in a query value"),
        (f"{base}/login?next={reference}", "the raw reference in a query value"),
        ("", "no URL"),
    ]
    if has_query:
        path, query = reference.split("?", 1)
        params = query.split("&")
        if len(params) > 1:
            out.append((path + "?" + "&".join(reversed(params)), "query parameters reordered"))
        if "[]" in query:
            out.append((reference.replace("[]", "%5B%5D"), "brackets percent-encoded"))
        if path.endswith("/"):
            out.append((path[:-1] + "?" + query, "no trailing slash before the query"))
        else:
            out.append((path + "/?" + query, "a trailing slash before the query"))
    if "%" in reference:
        from urllib.parse import unquote

        out.append((unquote(reference), "percent-decoded"))
    if " " in reference:
        out.append((reference.replace(" ", "%20"), "spaces percent-encoded"))
    return out


def located_variants(target: dict) -> list[tuple[str, str]]:
    """(located text, why) pairs for one program_html target."""
    contents = target["required_contents"]
    if "exact_match" in contents:
        ref = contents["exact_match"]
        return [
            (ref, "the reference itself"),
            (ref.upper(), "case differs"),
            (f"\n{ref}\n", "the text with newlines around it: nothing is stripped"),
            (f"'{ref}'", "quoted: one pair removed"),
            (f"\"'{ref}'\"", "nested quotes: a located text is cleaned only once"),
            (ref + "x", "a longer text"),
            ("", "the locator found nothing"),
        ]
    if "must_include" in contents:
        first = [item.split(" |OR| ")[0] for item in contents["must_include"]]
        out = [
            ("\n".join(first), "every item, one per line"),
            ("Posted: " + " | ".join(first) + ".", "every item inside a longer text"),
            (" ".join(f"x{item}x" for item in first), "each item glued to letters"),
            (" ".join(f"{item}." for item in first), "each item followed by a period"),
            (", ".join(first).upper(), "upper case"),
            ("", "the locator found nothing"),
        ]
        if len(first) > 1:
            out.append(("\n".join(first[1:]), "the first item missing"))
        return out
    return []


def generate(evaluators: types.ModuleType, tasks: list[dict], workdir: Path) -> list[dict]:
    pseudo_page = sys.modules["evaluation_harness.helper_functions"].PseudoPage
    cases: list[dict] = []

    def score(config: dict, evaluator: object, page: LocatedPage, answer: str) -> tuple[float, str] | None:
        config_file = workdir / f"{config['task_id']}.json"
        config_file.write_text(json.dumps(config))
        trajectory = [{"observation": {}, "info": {}}, {"answer": answer}]
        try:
            return float(evaluator(trajectory, str(config_file), pseudo_page(page, page.url))), ""
        except NeedsJudge:
            return None
        except Exception as exc:  # the reference raises on this task data: the task scores 0
            return 0.0, f" (the reference code raises {type(exc).__name__})"

    for raw in tasks:
        task = resolve(raw)
        ev = task["eval"]
        start = task["start_url"].split(" |AND| ")[0]
        if "string_match" in ev["eval_types"]:
            for answer, why in answer_variants(task):
                outcome = score(task, evaluators.StringEvaluator(), LocatedPage(start, []), answer)
                if outcome is not None:
                    cases.append(_case(task, "string_match", why, outcome, answer=answer))
        if "url_match" in ev["eval_types"]:
            for alternative in ev["reference_url"].split(" |OR| "):
                for url, why in url_variants(alternative):
                    outcome = score(task, evaluators.URLExactEvaluator(), LocatedPage(url, []), "")
                    cases.append(_case(task, "url_match", why, outcome, url=url))
        if "program_html" in ev["eval_types"]:
            targets = ev["program_html"]
            good = [located_variants(t)[0][0] if located_variants(t) else None for t in targets]
            computed = [t for t in targets if t["locator"].startswith("func:") or t["url"].startswith("func:shopping")]
            if computed or None in good:  # helpers that query a live site, or an LLM judge
                continue
            for index, target in enumerate(targets):
                for text, why in located_variants(target):
                    texts = list(good)
                    texts[index] = text
                    last = start
                    page = LocatedPage(last, texts)
                    outcome = score(task, evaluators.HTMLContentExactEvaluator(), page, "")
                    if outcome is not None:
                        cases.append(_case(task, "program_html", f"target {index}: {why}", outcome, url=last, texts=texts, opened=page.opened))
    return cases


def _case(task: dict, kind: str, why: str, outcome: tuple[float, str], **fields: object) -> dict:
    return {"task_id": task["task_id"], "kind": kind, **fields, "expected": outcome[0], "why": why + outcome[1]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", type=Path, required=True, help="VAB-WebArena-Lite/new/ folder")
    parser.add_argument("--tasks", type=Path, required=True, help="test_webarena_lite.raw.json")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    evaluators = load_reference(args.reference)
    tasks = json.loads(args.tasks.read_text())
    with tempfile.TemporaryDirectory() as workdir:
        cases = generate(evaluators, tasks, Path(workdir))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"sites": SITES, "cases": cases}, indent=1, ensure_ascii=False) + "\n")
    kinds = {k: sum(c["kind"] == k for c in cases) for k in ("string_match", "url_match", "program_html")}
    print(f"{len(cases)} cases ({kinds}), {sum(c['expected'] == 1.0 for c in cases)} scored 1 by the reference")


if __name__ == "__main__":
    main()
