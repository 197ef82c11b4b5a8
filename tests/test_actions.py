"""The action grammar: strict and lenient parsing, clear errors, one source for prompt and parser."""

from __future__ import annotations

import json
import re
import warnings

import pytest

from webarena_gym.actions import (
    ACTIONS,
    ACTIONS_BY_NAME,
    ELEMENT_ACTIONS,
    SCROLL_STEPS,
    TEXT_ACTIONS,
    Action,
    ActionName,
    check_action_specs,
    describe_actions,
    parse_action,
)
from webarena_gym.errors import ConfigurationError, InvalidActionError


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


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ('do(action="Click", action="Type", element="3")', "do got action= twice"),
        ('do(action="Click", element="3", element="4")', "do got element= twice"),
        ('do(action="Type", element="3", argument="a", argument="b")', "do got argument= twice"),
        ('exit(message="yes", message="no")', "exit got message= twice"),
    ],
)
@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
def test_a_keyword_given_twice_is_refused_not_the_last_one_taken(text, shown, strict):
    with pytest.raises(InvalidActionError) as caught:
        parse_action(text, strict=strict)
    assert shown in str(caught.value) and "give each argument once, e.g. " in str(caught.value)


SIDE_BY_SIDE = [
    ('do(action="Click", element="1" "0")', 'element= is 2 string literals side by side'),
    ('do(action="Click", element=("1"\n "0"))', 'e.g. element="10"'),
    ('do(action="Type", element="3", argument="blue" \'shoes\')', 'e.g. argument="blueshoes"'),
    ('do(action="Cl" "ick", element="1")', "action= is 2 string literals"),
    ('exit(message="4" "2" "0")', 'message= is 3 string literals side by side'),
]


@pytest.mark.parametrize(
    ("text", "fragment", "strict"),
    [(*case, False) for case in SIDE_BY_SIDE]
    + [(*case, True) for case in SIDE_BY_SIDE]
    + [('exit("4" "2")', "message= is 2 string literals", False)],  # strict mode has no positional message
)
def test_string_literals_side_by_side_are_refused_not_joined(text, fragment, strict):
    with pytest.raises(InvalidActionError) as caught:
        parse_action(text, strict=strict)
    assert fragment in str(caught.value) and "write one quoted string" in str(caught.value)


def test_one_quoted_string_with_escaped_quotes_is_not_mistaken_for_two():
    assert parse_action('exit(message="say \\"hi\\" \'there\'")').message == "say \"hi\" 'there'"
    assert parse_action("exit(message='''a \"b\" c''')").message == 'a "b" c'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("exit(message=123)", Action("exit", message="123")),
        ("exit(message=1.5)", Action("exit", message="1.5")),
        ("exit(message=0.10)", Action("exit", message="0.10")),  # as written, not float's 0.1
        ("exit(message=1e3)", Action("exit", message="1e3")),
        ("exit(message=-4)", Action("exit", message="-4")),
        ('do(action="Click", element=12)', Action("Click", 12)),
        ('do(action="Type", element="3", argument=2.50)', Action("Type", 3, "2.50")),
        ('do(action="Select Dropdown Option", element=5, argument=10)', Action("Select Dropdown Option", 5, "10")),
    ],
)
@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
def test_an_unquoted_number_is_read_as_written_everywhere(text, expected, strict):
    assert parse_action(text, strict=strict) == expected


@pytest.mark.parametrize(
    "text",
    [
        "exit(message=None)",
        "exit(message=True)",
        "exit(message=3j)",
        "exit(message=[1])",
        "exit(message=answer)",
        'exit(message=b"42")',
        'do(action="Click", element=None)',
        'do(action="Type", element="3", argument=False)',
        'do(action="Type", element="3", argument=("a", "b"))',
    ],
)
def test_every_other_non_string_is_refused_with_the_quoted_form_to_write(text):
    with pytest.raises(InvalidActionError) as caught:
        parse_action(text)
    assert "must be a quoted string" in str(caught.value) and '="...".' in str(caught.value)


SEVERAL_CALLS = [
    'do(action="Click", element="1") exit(message="done")',
    'do(action="Click", element="1")\nexit(message="done")',
    'do(action="Click", element="1"); exit(message="done")',
    'do(action="Click", element="1"), exit(message="done")',
    'do(action="Type", element="2", argument="x")\ndo(action="Press Enter")\ndo(action="Click", element="4")',
]
SEVERAL_CALLS_WRAPPED = [  # lenient mode unwraps these first (strict mode refuses any wrapping)
    '[do(action="Click", element="1"), exit(message="done")]',
    '<think>fill it in, then submit</think><answer>do(action="Click", element="1")\nexit(message="done")</answer>',
    '```\ndo(action="Click", element="1")\nexit(message="done")\n```',
]


@pytest.mark.parametrize(
    ("text", "strict"),
    [(text, False) for text in SEVERAL_CALLS + SEVERAL_CALLS_WRAPPED] + [(text, True) for text in SEVERAL_CALLS],
)
def test_a_text_of_several_calls_is_refused_one_action_per_step(text, strict):
    with pytest.raises(InvalidActionError) as caught:
        parse_action(text, strict=strict)
    message = str(caught.value)
    assert re.search(r"holds \d calls \('do\(", message) and "send one action per step" in message


def test_prose_that_mentions_several_calls_still_gives_the_last_one():
    text = 'I could do(action="Click", element="1"), but the answer is visible: exit(message="done")'
    assert parse_action(text) == Action("exit", message="done")
    text = '<think>do(action="Click", element="1") would open it</think><answer>exit(message="7")</answer>'
    assert parse_action(text) == Action("exit", message="7")


def test_a_call_nested_in_an_argument_is_not_extracted():
    # the whole text is one malformed do(...): ending the episode with the nested exit's message would be a guess
    with pytest.raises(InvalidActionError, match="element= must be a quoted string"):
        parse_action('do(action="Click", element=exit(message="x"))')
    assert parse_action('answer(do(action="Click", element="3"))') == Action("Click", 3)  # an unknown wrapper


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('do(action="Click", element="1234567890")', "at most 9 digits"),
        ('do(action="Click", element=1234567890)', "at most 9 digits"),
        ('do(action="Click", element="' + "9" * 5_000 + '")', "at most 9 digits"),
        ('do(action="Click", element=' + "9" * 5_000 + ")", "at most 9 digits"),  # past Python's 4,300 digits
        ('Sure: do(action="Click", element=' + "9" * 5_000 + ")", "at most 9 digits"),
        ("exit(message=" + "9" * 5_000 + ")", "write it as a quoted string"),
        ("exit(" + "9" * 5_000 + ")", "write it as a quoted string"),
        ("exit(message=" + "9" * 101 + ")", "at most 100 are read as a number"),
    ],
)
def test_over_long_numbers_are_refused_with_a_message_for_the_agent_not_for_python(text, fragment):
    with pytest.raises(InvalidActionError) as caught:
        parse_action(text)
    message = str(caught.value)
    assert fragment in message and "set_int_max_str_digits" not in message and len(message) < 400


def test_the_longest_element_id_and_a_long_quoted_number_are_accepted():
    assert parse_action('do(action="Click", element="999999999")').element == 999_999_999
    assert parse_action('exit(message="' + "9" * 5_000 + '")').message == "9" * 5_000
    assert parse_action("exit(message=" + "9" * 100 + ")").message == "9" * 100


def test_every_action_name_has_exactly_one_definition_and_a_missing_one_is_refused():
    assert [spec.name for spec in ACTIONS] == list(ActionName)  # one spec each, in the prompt's order
    assert describe_actions().count("do(action=") == len(ActionName) - 1  # every do-action is in the prompt
    without_hover = tuple(spec for spec in ACTIONS if spec.name is not ActionName.HOVER)
    with pytest.raises(ConfigurationError, match=r"without one: \['Hover'\]"):
        check_action_specs(without_hover)
    with pytest.raises(ConfigurationError, match=r"with several: \['Wait'\]"):
        check_action_specs((*ACTIONS, ACTIONS_BY_NAME[ActionName.WAIT]))


def test_action_kinds_derive_from_the_definitions():
    assert ELEMENT_ACTIONS == {"Click", "Type", "Search", "Select Dropdown Option", "Hover"}
    assert ELEMENT_ACTIONS == {spec.name for spec in ACTIONS if spec.element}
    assert TEXT_ACTIONS == {ActionName.TYPE, ActionName.SEARCH}
    assert SCROLL_STEPS == {ActionName.SCROLL_DOWN: +1, ActionName.SCROLL_UP: -1}
    for name in ELEMENT_ACTIONS:  # an element action without element= is an agent mistake naming the fix
        with pytest.raises(InvalidActionError, match='needs element="<id>"'):
            parse_action(f'do(action="{name}", argument="x")', strict=True)


def test_action_names_are_the_strings_the_agent_writes():
    parsed = parse_action('do(action="select dropdown option", element="2", argument="M")')
    assert parsed.name is ActionName.SELECT_DROPDOWN_OPTION and parsed.name == "Select Dropdown Option"
    assert f"{parsed.name}" == str(parsed.name) == "Select Dropdown Option"
    assert json.dumps({"action": parsed.name}) == '{"action": "Select Dropdown Option"}'
    assert repr(parsed) == "Action(name='Select Dropdown Option', element=2, argument='M', message=None)"
    assert Action("Go Backward") == Action(ActionName.GO_BACKWARD) and Action("Wait").to_string() == 'do(action="Wait")'
    with pytest.raises(ConfigurationError, match=r"'Clik' is not an ActionName; expected one of \['Click'"):
        Action("Clik")
