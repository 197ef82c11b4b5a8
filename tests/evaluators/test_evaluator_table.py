"""The evaluator table: each declared evaluator type has its own function, checked at import."""

from __future__ import annotations

import subprocess
import sys

import pytest

from webarena_gym.errors import ConfigurationError
from webarena_gym.evaluators import EVALUATORS, StaticPage, check_evaluators, evaluate
from webarena_gym.tasks.task import EVAL_TYPES


def test_the_table_implements_exactly_the_declared_evaluator_types():
    assert list(EVALUATORS) == list(EVAL_TYPES)
    check_evaluators(EVALUATORS)  # what the package does when imported


def test_a_declared_type_without_an_implementation_is_an_error_naming_it():
    declared = (*EVAL_TYPES, "llm_judge")
    with pytest.raises(ConfigurationError, match=r"without an implementation: \['llm_judge'\]; not declared: \[\]"):
        check_evaluators(EVALUATORS, declared)
    partial = {name: function for name, function in EVALUATORS.items() if name != "program_html"}
    with pytest.raises(ConfigurationError, match=r"without an implementation: \['program_html'\]"):
        check_evaluators(partial)
    with pytest.raises(ConfigurationError, match=r"not declared: \['extra'\].*EVAL_TYPES"):
        check_evaluators({**EVALUATORS, "extra": EVALUATORS["url_match"]})


def test_a_new_eval_type_without_a_function_fails_when_the_evaluators_are_imported():
    # Before the table, evaluate() ran program_html for any name without its own branch.
    code = (
        "import webarena_gym.tasks.task as task\n"
        "task.EVAL_TYPES = (*task.EVAL_TYPES, 'llm_judge')\n"
        "import webarena_gym.evaluators\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert "ConfigurationError" in run.stderr and "without an implementation: ['llm_judge']" in run.stderr


def test_each_evaluator_type_is_scored_by_its_own_function():
    task = {
        "task_id": 1, "sites": ["shopping"], "start_url": "__SHOPPING__", "intent": "Open the cart and say 3",
        "eval": {
            "eval_types": ["url_match", "string_match", "program_html"],
            "reference_answers": {"exact_match": "3"},
            "reference_url": "http://127.0.0.1:7770/checkout/cart",
            "program_html": [{"url": "last", "locator": "", "required_contents": {"must_include": ["Cart"]}}],
        },
    }
    page = StaticPage("http://127.0.0.1:7770/checkout/cart", "<html><body><h1>Cart</h1></body></html>")
    result = evaluate(task, answer="3", page=page)
    assert result.reward == 1.0 and list(result.components) == ["url_match", "string_match", "program_html"]
    assert result.details["url_match"]["url_note"] == "EXACT"
    elsewhere = StaticPage("http://127.0.0.1:7770/", "<html><body><h1>Home</h1></body></html>")
    result = evaluate(task, answer="4", page=elsewhere)
    assert result.components == {"url_match": 0.0, "string_match": 0.0, "program_html": 0.0}


def test_a_webarena_verified_task_is_not_scored_by_another_evaluator():
    task = {
        "task_id": 7, "sites": ["shopping"], "start_url": "__SHOPPING__", "intent": "Say 3",
        "eval": {"eval_types": ["webarena_verified"]},
    }
    if "webarena_verified" not in EVAL_TYPES:
        pytest.skip("this checkout declares no webarena_verified evaluator type")
    with pytest.raises(ConfigurationError, match="scored by the webarena-verified package.*evaluate_verified"):
        evaluate(task, answer="3", url="http://127.0.0.1:7770/")
