"""The action grammar: strict and lenient parsing, clear errors, one source for prompt and parser."""

from __future__ import annotations

import warnings

import pytest

from webarena_gym.actions import ACTIONS, Action, describe_actions, parse_action
from webarena_gym.errors import InvalidActionError


@pytest.mark.parametrize("spec", ACTIONS, ids=lambda s: s.name)
def test_every_documented_example_parses_in_strict_mode(spec):
    action = parse_action(spec.example(), strict=True)
    assert action.name == spec.name
    assert (action.element is not None) == spec.element
    assert parse_action(action.to_string(), strict=True) == action
    assert spec.example() in describe_actions()


def test_keyword_order_is_free_and_values_are_kept_verbatim():
    a = parse_action('do(argument="size: 10 (US)", element="7", action="Select Dropdown Option")', strict=True)
    assert a == Action("Select Dropdown Option", 7, "size: 10 (US)")
    assert parse_action('exit(message="He said \\"no\\" (twice)")').message == 'He said "no" (twice)'


def test_lenient_mode_reads_thinking_format_fences_and_prose():
    text = '<think>Need the search box, which is element 3.</think>\n<answer>do(action="Search", element="3", argument="red shoes")</answer>'
    assert parse_action(text) == Action("Search", 3, "red shoes")
    assert parse_action('```python\ndo(action="click", element="4")\n```') == Action("Click", 4)
    assert parse_action('I will now do(action="Scroll Down") to see more.') == Action("Scroll Down")
    assert parse_action('exit("42")').message == "42"
    assert parse_action("exit()").message == ""


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "Empty action"),
        ("click 12", "Cannot parse"),
        ('do(action="Fly", element="1")', "Unknown action 'Fly'"),
        ('do(action="Click")', 'needs element="<id>"'),
        ('do(action="Type", element="3")', 'needs argument='),
        ('do(action="Click", element="abc")', "element must be an element id"),
        ('do(action="Click", element="1", foo="2")', "unknown argument"),
        ('__import__("os").system("rm -rf /")', "Unknown function"),
        ('do(action=open("x"), element="1")', "must be a quoted string"),
        ('exit(message="a", extra="b")', "unknown argument"),
        ("print('hi')", "Unknown function 'print'"),
    ],
)
def test_malformed_actions_raise_clear_messages(text, fragment):
    with pytest.raises(InvalidActionError, match=None) as caught:
        parse_action(text)
    assert fragment in str(caught.value)


def test_strict_mode_rejects_what_lenient_mode_forgives():
    with pytest.raises(InvalidActionError):
        parse_action('<answer>do(action="Click", element="1")</answer>', strict=True)
    with pytest.raises(InvalidActionError):
        parse_action('do(action="click", element="1")', strict=True)
    with pytest.raises(InvalidActionError, match="takes no argument"):
        parse_action('do(action="Click", element="1", argument="x")', strict=True)


def test_non_string_input_is_an_agent_error():
    with pytest.raises(InvalidActionError, match="must be a string"):
        parse_action(None)  # type: ignore[arg-type]


def test_garbled_model_output_is_judged_by_the_parser_without_python_warnings():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(InvalidActionError):
            parse_action("do(action=1if 1 else 2)", strict=False)
        action = parse_action('do(action="Type", element="3", argument="C:\\d")', strict=False)
    assert action.argument == "C:\\d"
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('do(action="Click", element="\ud800")', "lone surrogate"),
        ('exit(message="it is \udfff")', "lone surrogate"),
        ('do(action="Type", element="3", argument="a\x00b")', "NUL character"),
        ('do(action="Type", element="3", argument="PNC\x07 Park")', "control character '\\x07'"),
        ('do(action="Search", element="3", argument="\x1b[31m")', "control character '\\x1b'"),
        ("do(" * 100_000 + ")" * 100_000, "do needs action="),
        ('do(action="Click", element=' + "1+" * 200_000 + "1)", "nested too deeply"),
        ("do(action=" + "[" * 50_000 + "]" * 50_000 + ")", "too many nested"),
        ('exit(message="' + "a" * 1_000_000 + '")', "at most 1,000,000"),
        ('do(action="Click", element="\u00b2")', "element must be an element id"),  # a digit to isdigit, not to int
        ('do(action="Click", element="' + "9" * 5_000 + '")', "element must be an element id"),  # past int's 4,300 digits
        ('do(action="Click", element=' + "9" * 4_000 + ")", "element must be an element id"),
        ('do(action="Click", element="1234567890123")', "element must be an element id"),
        ("do(" + ", ".join(f"x{i}=1" for i in range(20_000)) + ")", "... (19995 more)"),
        ("f" + "o" * 100_000 + "()", "Unknown function 'fooo"),
        ('do(action="' + "Q" * 100_000 + '")', "Unknown action 'QQQ"),
        ("do(action=[" + "1," * 100_000 + "])", "action= must be a quoted string"),
    ],
)
def test_hostile_actions_are_agent_mistakes(text, fragment):
    with pytest.raises(InvalidActionError) as caught:
        parse_action(text)
    assert fragment in str(caught.value)
    assert len(str(caught.value)) < 400  # the agent's text is cut short, never echoed whole into the next page


def test_answers_may_hold_control_characters_and_tabs():
    assert parse_action('exit(message="a\\x1bb\tc")').message == "a\x1bb\tc"
    assert parse_action('do(action="Type", element="3", argument="line one\\nline two\\ttab")').argument == (
        "line one\nline two\ttab"
    )


def test_free_text_with_many_broken_calls_is_parsed_in_linear_time():
    # each candidate call is closed by scanning for its parenthesis, never by re-parsing every prefix
    text = "do(a b) " * 50_000 + 'then do(action="Click", element="4")'
    assert parse_action(text) == Action("Click", 4)
    text = 'do(action="Type", element="2", argument="a) b") and some prose'
    assert parse_action(text).argument == "a) b"
    with pytest.raises(InvalidActionError):
        parse_action("do(a b) " * 50_000)
