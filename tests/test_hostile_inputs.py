"""Hostile inputs through the whole env: malformed, huge, ambiguous and odd-unicode actions, answers and task ids.

Each input is tried on the direct backend, the Playwright backend (a subset, marked
``browser``) and through worker processes (``make_vec(..., workers=2)``), and each must
give its documented outcome: an agent mistake is an error text in
``info["last_action_error"]`` with the step counted and the page unchanged (never an
exception out of ``step``); an action picked out of prose is named in
``info["parsed_action"]``; an answer ends the episode and is scored without raising; a
task id that names no task is an :class:`UnknownTaskError` at reset.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import webarena_gym
from webarena_gym.actions import parse_action
from webarena_gym.errors import ConfigurationError, EnvClosedError, InvalidActionError, UnknownTaskError
from webarena_gym.suites.embedded import embedded_tasks

#: A shopping task answered by exact match ("What is the SKU of ...?"), so no hostile answer scores.
TASK = next(t for t in embedded_tasks("test")
            if t.eval.eval_types == ("string_match",) and t.eval.reference_answers.exact_match)
CLICK = 'do(action="Click", element="1")'
WAIT = 'do(action="Wait")'
MILLION = 1_000_000


def case(value, expected, name):
    return pytest.param(value, expected, id=name)


#: Actions that are agent mistakes: (action, a fragment of info["last_action_error"]).
REFUSED = [
    case("", "Empty action", "empty"),
    case(" \r\n\t ", "Empty action", "whitespace-only"),
    case("click 12", "Cannot parse", "prose-without-call"),
    case("exit", "is not a do(...) or exit(...) call", "bare-exit-name"),
    case("exit(", "Cannot parse", "unclosed-call"),
    case('do(action="Fly", element="1")', "Unknown action 'Fly'", "unknown-action"),
    case('do(action="\u202eClick", element="1")', "Unknown action", "rtl-override-in-name"),
    case('do(action="Click", element="\u200f1")', "element must be an element id", "rtl-mark-in-element"),
    case('do(action="Click", element="-1")', "element must be an element id", "negative-element"),
    case('do(action="Click", element="99999")', "There is no element 99999", "absent-element"),
    case('do(action="Click", element="1234567890")', "at most 9 digits", "ten-digit-element"),
    case('do(action="Click", element="' + "9" * 5_000 + '")', "at most 9 digits", "5000-digit-quoted-element"),
    case('do(action="Click", element=' + "9" * 5_000 + ")", "at most 9 digits", "5000-digit-number-element"),
    case("exit(message=" + "9" * 5_000 + ")", "write it as a quoted string", "5000-digit-number-answer"),
    case('do(action="Click", action="Type", element="3")', "do got action= twice", "duplicated-action"),
    case('exit(message="yes", message="no")', "exit got message= twice", "duplicated-message"),
    case('do(action="Click", element="1" "0")', "string literals side by side", "adjacent-literals"),
    case(CLICK + '\nexit(message="done")', "holds 2 calls", "two-calls-on-two-lines"),
    case(CLICK + CLICK, "holds 2 calls", "two-calls-glued"),
    case("[" + CLICK + ', exit(message="done")]', "holds 2 calls", "calls-in-a-list"),
    case('```\n' + CLICK + '\nexit(message="done")\n```', "holds 2 calls", "two-calls-in-a-fence"),
    case('do(action="Click", element=exit(message="x"))', "element= must be a quoted string", "nested-exit"),
    case("exit(message=None)", "message= must be a quoted string", "none-answer"),
    case("exit(message=True)", "message= must be a quoted string", "bool-answer"),
    case('exit(message=f"{1}")', "message= must be a quoted string", "f-string-answer"),
    case('do(action="Click", element="1", **{"a": 1})', "not **kwargs", "double-star-kwargs"),
    case('__import__("os").system("echo hi")', "Unknown function", "import-call"),
    case('do(action="Click", element="\ud800")', "lone surrogate", "lone-surrogate-in-element"),
    case("\udfff", "lone surrogate", "lone-surrogate-alone"),
    case("\x00", "NUL character", "nul-alone"),
    case('do(action="Type", element="1", argument="a\x00b")', "NUL character", "nul-in-argument"),
    case('do(action="Type", element="1", argument="\x07\x1b[31m")', "control character '\\x07'", "bell-in-argument"),
    case("a" * MILLION, "is not a do(...) or exit(...) call", "million-letters"),
    case("(" * MILLION, "Cannot parse", "million-parentheses"),
    case('exit(message="' + "a" * MILLION + '")', "at most 1,000,000", "answer-over-a-million"),
    case("do(" * 100_000 + ")" * 100_000, "do needs action=", "deeply-nested-calls"),
    case(None, "must be a string, got NoneType", "none-action"),
    case(12, "must be a string, got int", "int-action"),
    case(b'do(action="Wait")', "must be a string, got bytes", "bytes-action"),
    case([WAIT], "must be a string, got list", "list-action"),
    case('do(action="Go Forward")', "There is no page to go forward to", "go-forward-at-start"),
    case('do(action="Go Backward")', "There is no page to go back to", "go-backward-at-start"),
    case('do(action="Scroll Up")', "Already at the top of the page", "scroll-up-at-top"),
]

#: Texts lenient extraction reads one action from: (text, info["parsed_action"]).
EXTRACTED = [
    case(f"I might {CLICK} but I will {WAIT} instead.", WAIT, "last-call-of-prose"),
    case(f'<think>exit(message="x") or {CLICK}?</think><answer>{WAIT}</answer>', WAIT, "answer-tag-wins"),
    case(f"```python\n{WAIT}\n```", WAIT, "code-fence"),
    case(f"\u202e{WAIT}", WAIT, "rtl-override-before-call"),
    case(f"\u200b\u200b{WAIT}\ufeff", WAIT, "zero-width-around-call"),
    case('do(action="wAiT", element="1", argument="x")', WAIT, "lenient-case-and-extras"),
]

#: Answers that end the episode and are scored 0 without raising: (action, info["answer"]).
ANSWERS = [
    case('exit(message="' + "a" * (MILLION - 20) + '")', "a" * (MILLION - 20), "answer-of-a-million"),
    case('exit(message="\\x1b[31m\\x07")', "\x1b[31m\x07", "control-characters-answer"),
    case('exit(message="\u202e\u200f\u2066N/A")', "\u202e\u200f\u2066N/A", "bidi-marks-answer"),
    case('exit(message=" |OR| ")', " |OR| ", "or-separator-answer"),
    case("exit(message=\"'\\\"'\\\"'\")", "'\"'\"'", "nested-quotes-answer"),
    case(f'exit(message="\u200f{TASK.eval.reference_answers.exact_match}")',
         f"\u200f{TASK.eval.reference_answers.exact_match}", "reference-behind-an-rtl-mark"),
    case("exit(message=0.10)", "0.10", "unquoted-number-answer"),
]

#: Task ids that name no task: reset raises UnknownTaskError.
UNKNOWN_TASK_IDS = [
    pytest.param("abc", id="str"),
    pytest.param(-1, id="negative"),
    pytest.param(10**100, id="huge-int"),
    pytest.param([TASK.task_id], id="list"),
    pytest.param({"task_id": TASK.task_id}, id="dict"),
    pytest.param((TASK.task_id,), id="tuple"),
    pytest.param(True, id="bool"),
    pytest.param(str(TASK.task_id), id="digits-as-str"),
    pytest.param(float("nan"), id="nan"),
    pytest.param(b"0", id="bytes"),
    pytest.param("\ud800", id="lone-surrogate"),
    pytest.param("x" * MILLION, id="million-chars"),
    pytest.param(float(TASK.task_id), id="float-equal-to-an-id"),
    pytest.param(np.float64(TASK.task_id), id="numpy-float"),
    pytest.param(10**5000, id="past-int-str-limit"),  # too long for repr(): the message describes it
]


def start(env, task_id=TASK.task_id):
    observation, info = env.reset(options={"task_id": task_id})
    assert info["step"] == 0 and info["parsed_action"] == ""
    return observation, info


def canonical(action) -> str:
    """What info["parsed_action"] says for ``action``: its canonical text, or "" when it does not parse."""
    try:
        return parse_action(action).to_string()
    except InvalidActionError:
        return ""


def assert_refused(step_result, start_observation, start_info, action, fragment):
    observation, reward, terminated, truncated, info = step_result
    error = info["last_action_error"]
    assert fragment in error, error
    assert len(error) < 500  # the agent's text is cut short, never echoed whole into the next page
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert info["step"] == 1 and info["parsed_action"] == canonical(action)
    assert info["url"] == start_info["url"]
    assert observation == f"[Error: {error}]\n{start_observation}"  # the page as it was, under the error


# -- the direct backend ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def direct():
    env = gym.make("WebArenaLite-v0", suite="embedded", split="test", max_steps=5)
    yield env
    env.close()


@pytest.mark.parametrize(("action", "fragment"), REFUSED)
def test_direct_backend_reports_a_hostile_action_and_keeps_the_page(direct, action, fragment):
    observation, info = start(direct)
    assert_refused(direct.step(action), observation, info, action, fragment)


@pytest.mark.parametrize(("text", "parsed"), EXTRACTED)
def test_direct_backend_names_the_action_lenient_extraction_took(direct, text, parsed):
    start(direct)
    _, _, terminated, _, info = direct.step(text)
    assert info["last_action_error"] == "" and info["parsed_action"] == parsed and not terminated


@pytest.mark.parametrize(("action", "answer"), ANSWERS)
def test_direct_backend_scores_a_hostile_answer_without_raising(direct, action, answer):
    start(direct)
    _, reward, terminated, truncated, info = direct.step(action)
    assert (reward, terminated, truncated) == (0.0, True, False)
    assert info["answer"] == answer and info["last_action_error"] == ""
    assert info["reward_components"] == {"string_match": 0.0}


def test_a_refused_action_counts_toward_the_step_limit(direct):
    start(direct)
    for step in range(1, 6):
        _, _, terminated, truncated, info = direct.step(CLICK + CLICK)
        assert info["step"] == step and "holds 2 calls" in info["last_action_error"]
    assert truncated and not terminated and info["reward_components"] == {"string_match": 0.0}


@pytest.mark.parametrize("task_id", UNKNOWN_TASK_IDS)
def test_direct_backend_refuses_a_task_id_that_names_no_task(direct, task_id):
    with pytest.raises(UnknownTaskError, match="Unknown task id") as raised:
        direct.reset(options={"task_id": task_id})
    assert len(str(raised.value)) < 1_000
    start(direct)  # the env is still usable


def test_direct_backend_draws_for_a_none_task_id_and_reads_numpy_ints(direct):
    _, info = direct.reset(seed=0, options={"task_id": None})
    assert info["task_id"] in {t.task_id for t in embedded_tasks("test")}
    _, info = direct.reset(options={"task_id": np.int64(TASK.task_id)})
    assert info["task_id"] == TASK.task_id


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        pytest.param("task_id", "options must be a dict", id="str-options"),
        pytest.param([("task_id", 0)], "options must be a dict", id="list-options"),
    ],
)
def test_direct_backend_refuses_options_that_are_not_a_mapping(direct, options, fragment):
    with pytest.raises(ConfigurationError, match=fragment):
        direct.reset(options=options)


@pytest.mark.parametrize(
    "settings",
    [
        pytest.param({"max_steps": True}, id="bool-max-steps"),
        pytest.param({"max_steps": 0}, id="zero-max-steps"),
        pytest.param({"max_steps": 2.5}, id="float-max-steps"),
        pytest.param({"max_chars": 10}, id="tiny-max-chars"),
        pytest.param({"strict_actions": "no"}, id="str-strict-actions"),
        pytest.param({"evaluation": "lax"}, id="unknown-evaluation"),
        pytest.param({"max_steps": 10_001}, id="max-steps-past-bound"),
        pytest.param({"max_steps": 1e9}, id="float-max-steps-past-bound"),
        pytest.param({"max_chars": 10_000_001}, id="max-chars-past-bound"),
        pytest.param({"step_timeout": 0}, id="zero-step-timeout"),
        pytest.param({"step_timeout": float("nan")}, id="nan-step-timeout"),
        pytest.param({"step_timeout": 3_601}, id="step-timeout-past-bound"),
        pytest.param({"task_ids": [0.0]}, id="float-task-ids"),
    ],
)
def test_hostile_settings_are_refused_when_the_env_is_made(settings):
    with pytest.raises((ConfigurationError, UnknownTaskError)) as raised:
        gym.make("WebArenaLite-v0", suite="embedded", split="test", **settings)
    assert list(settings)[0] in str(raised.value) or "Unknown task id" in str(raised.value)


@pytest.mark.parametrize("keep_task", ["yes", 1, None, np.array([True, False])])
def test_direct_backend_refuses_keep_task_that_is_not_a_bool(direct, keep_task):
    with pytest.raises(ConfigurationError, match=r"options\['keep_task'\] must be True or False"):
        direct.reset(options={"task_id": TASK.task_id, "keep_task": keep_task})


@pytest.mark.parametrize("vector", [False, True], ids=["env", "vector-env"])
def test_a_closed_env_raises_env_closed_error_even_for_a_hostile_action(vector):
    env = (webarena_gym.make_vec(1, workers=0, suite="embedded", max_steps=5) if vector
           else gym.make("WebArenaLite-v0", suite="embedded", split="test", max_steps=5))
    env.reset(options={"task_ids": [TASK.task_id]} if vector else {"task_id": TASK.task_id})
    env.close()
    env.close()  # a second close does nothing
    for action in ("", "\ud800", CLICK + CLICK, None):
        with pytest.raises(EnvClosedError, match="closed"):
            env.step([action] if vector else action)
    with pytest.raises(EnvClosedError, match="Make a new"):
        env.reset(options={"task_ids": ["abc"]} if vector else {"task_id": "abc"})


# -- the Playwright backend (a subset) ------------------------------------------------------------------

BROWSER_REFUSED = [p for p in REFUSED if p.id in {
    "empty", "unknown-action", "rtl-mark-in-element", "absent-element", "5000-digit-number-element",
    "duplicated-action", "adjacent-literals", "two-calls-on-two-lines", "nested-exit", "lone-surrogate-in-element",
    "nul-in-argument", "bell-in-argument", "answer-over-a-million", "none-action", "go-forward-at-start",
    "scroll-up-at-top",
}]
BROWSER_ANSWERS = [p for p in ANSWERS if p.id in {"bidi-marks-answer", "control-characters-answer"}]


@pytest.fixture(scope="module")
def browser():
    env = gym.make("WebArenaLite-v0", suite="embedded", split="test", backend="playwright", max_steps=5)
    yield env
    env.close()


@pytest.mark.browser
@pytest.mark.parametrize(("action", "fragment"), BROWSER_REFUSED)
def test_playwright_backend_reports_a_hostile_action_and_keeps_the_page(browser, action, fragment):
    observation, info = start(browser)
    assert_refused(browser.step(action), observation, info, action, fragment)


@pytest.mark.browser
@pytest.mark.parametrize(("action", "answer"), BROWSER_ANSWERS)
def test_playwright_backend_scores_a_hostile_answer_without_raising(browser, action, answer):
    start(browser)
    _, reward, terminated, _, info = browser.step(action)
    assert (reward, terminated, info["answer"]) == (0.0, True, answer)


@pytest.mark.browser
def test_playwright_backend_names_the_extracted_action_and_refuses_odd_task_ids(browser):
    start(browser)
    _, _, _, _, info = browser.step(EXTRACTED[0].values[0])
    assert info["parsed_action"] == WAIT and info["last_action_error"] == ""
    for task_id in ("abc", True, [TASK.task_id], 10**100):
        with pytest.raises(UnknownTaskError, match="Unknown task id"):
            browser.reset(options={"task_id": task_id})
    start(browser)


# -- through worker processes ---------------------------------------------------------------------------

WORKER_REFUSED = [p for p in REFUSED if p.id in {
    "whitespace-only", "unknown-action", "absent-element", "5000-digit-number-element", "5000-digit-number-answer",
    "duplicated-message", "adjacent-literals", "two-calls-glued", "nested-exit", "lone-surrogate-in-element",
    "lone-surrogate-alone", "nul-alone", "bell-in-argument", "million-letters", "answer-over-a-million",
    "int-action", "bytes-action", "go-backward-at-start",
}]


@pytest.fixture(scope="module")
def workers():
    envs = webarena_gym.make_vec(2, workers=2, suite="embedded", max_steps=5, autoreset_mode=AutoresetMode.DISABLED)
    yield envs
    envs.close()


def start_workers(envs):
    observations, infos = envs.reset(options={"task_ids": [TASK.task_id] * 2})
    return list(observations), infos


@pytest.mark.parametrize(("action", "fragment"), WORKER_REFUSED)
def test_workers_report_a_hostile_action_and_keep_the_page(workers, action, fragment):
    observations, infos = start_workers(workers)
    next_observations, rewards, terminated, truncated, next_infos = workers.step([action, action])
    for i in range(2):
        info = {key: next_infos[key][i] for key in ("last_action_error", "step", "parsed_action", "url")}
        step_result = (next_observations[i], rewards[i], terminated[i], truncated[i], info)
        assert_refused(step_result, observations[i], {"url": infos["url"][i]}, action, fragment)


def test_workers_score_hostile_answers_and_name_extracted_actions(workers):
    start_workers(workers)
    answer_action, answer = ANSWERS[2].values
    _, rewards, terminated, _, infos = workers.step([answer_action, EXTRACTED[0].values[0]])
    assert rewards.tolist() == [0.0, 0.0] and terminated.tolist() == [True, False]
    assert infos["answer"][0] == answer and list(infos["parsed_action"]) == ['exit(message="' + answer + '")', WAIT]


@pytest.mark.parametrize("task_id", [p for p in UNKNOWN_TASK_IDS if p.id in {"str", "huge-int", "list", "bool",
                                                                           "lone-surrogate", "nan"}])
def test_workers_refuse_a_task_id_that_names_no_task(workers, task_id):
    with pytest.raises(UnknownTaskError, match="Unknown task id"):
        workers.reset(options={"task_ids": [TASK.task_id, task_id]})
    start_workers(workers)  # the workers are still usable
