"""One test per VisualAgentBench rule the default mode reproduces, and its lenient counterpart.

Line numbers cite ``VAB-WebArena-Lite/new/evaluators.py`` in THUDM/VisualAgentBench
(commit 9055fc2), the file its ``replace.sh`` copies over visualwebarena's evaluators.
"""

from __future__ import annotations

from webarena_gym.evaluators import evaluate
from webarena_gym.evaluators.string_match import clean_answer, match_reference_answers, must_include
from webarena_gym.evaluators.url_match import url_match
from webarena_gym.tasks.task import ReferenceAnswers

GITLAB = "http://127.0.0.1:8023"
ISSUE = f"{GITLAB}/byteblaze/dotfiles/-/issues/719"


def score(answer, evaluation="vab", **references):
    task = {
        "task_id": 1,
        "sites": ["gitlab"],
        "start_url": "__GITLAB__",
        "intent": "?",
        "eval": {"eval_types": ["string_match"], "reference_answers": references},
    }
    return evaluate(task, answer=answer, url=GITLAB, evaluation=evaluation).reward


def test_cleaning_removes_one_quote_pair_lowercases_and_strips_nothing():
    # lines 149-154: a leading and trailing ' (else ") removed, then lower(); no strip
    assert clean_answer("'Yes'") == "yes" and clean_answer('"Yes"') == "yes"
    assert clean_answer(" 'Yes' ") == " 'yes' "
    assert clean_answer("'") == ""  # a lone quote both starts and ends the text
    assert score(" yes", exact_match="Yes") == 0.0
    assert score(" yes", "lenient", exact_match="Yes") == 1.0


def test_the_answer_is_cleaned_twice_so_nested_quotes_reduce():
    # line 217 cleans the answer, then exact_match (line 162) and must_include (line 170) clean it again
    assert score("\"'N/A'\"", exact_match="N/A") == 1.0
    assert score("'\"'N/A'\"'", exact_match="N/A") == 0.0  # a third pair stays
    assert score("'\"'N/A'\"'", "lenient", exact_match="N/A") == 1.0


def test_located_text_is_cleaned_once():
    # lines 424-426: program_html passes the located text straight to exact_match
    references = ReferenceAnswers(exact_match="Good idea")
    assert match_reference_answers(references, "'Good idea'", located=True).score == 1.0
    assert match_reference_answers(references, "\"'Good idea'\"", located=True).score == 0.0


def test_only_the_first_required_contents_kind_counts_on_a_page():
    # lines 422-470: an if/elif chain, exact_match before must_include
    references = ReferenceAnswers(exact_match="a b", must_include=("zzz",))
    assert match_reference_answers(references, "a b", located=True).score == 1.0
    assert match_reference_answers(references, "a b", located=True, evaluation="lenient").score == 0.0


def test_a_one_token_reference_must_be_a_token_or_a_slash_piece():
    # lines 173-179: word_tokenize both, extend with the pieces of tokens holding "/"
    assert not must_include("0", "there are 10")
    assert must_include("yjlou", "see gitlab.com/yjlou")
    assert not must_include("2", "it costs 2. then it stops")  # Punkt keeps "2." before a lowercase word
    assert must_include("2", "it costs 2.")
    # line 181: a longer reference is a plain substring
    assert must_include("n/a here", "it is n/a here")


def test_or_alternatives_and_an_empty_alternative():
    # lines 244-245: split on " |OR| ", any alternative suffices; an alternative that cleans
    # to "" has no token, so it is a substring test that always passes
    assert score("3", must_include=["65 |OR| 3"]) == 1.0
    assert score("anything", must_include=["x |OR| ''"]) == 1.0
    assert score("anything", "lenient", must_include=["x |OR| ''"]) == 0.0


def test_na_forms_under_fuzzy_match():
    # lines 263-274: fuzzy_match "N/A" first tests the twice-cleaned answer against "n/a"
    for answer in ("N/A", "n/a", "'N/A'", "\"'N/A'\""):
        assert score(answer, fuzzy_match="N/A") == 1.0
    assert score("the order total is $5", fuzzy_match="N/A") == 0.0


def test_a_bare_string_must_include_raises_there_and_scores_0():
    # line 242: assert isinstance(value, list) fails on Lite task 81's bare string
    assert score("yjlou", must_include="yjlou") == 0.0
    assert score("yjlou", "lenient", must_include="yjlou") == 1.0


def test_url_cleaning_maps_localhost_and_drops_one_slash():
    # lines 319-325
    assert url_match(ISSUE.replace("127.0.0.1", "localhost") + "/", ISSUE)
    assert not url_match(ISSUE + "//", ISSUE)


def test_exact_is_string_equality_when_url_note_is_absent():
    # line 330 (url_note defaults to EXACT), lines 331-335 (pred in ref_urls)
    for near_miss in (ISSUE + "?", ISSUE + "#", ISSUE + "//", ISSUE.replace("http://", "HTTP://")):
        assert not url_match(near_miss, ISSUE)
        assert url_match(near_miss, ISSUE, evaluation="lenient")


def test_gold_in_pred_is_a_raw_substring():
    # lines 336-340: any(ref in pred)
    reference = f"{GITLAB}/a11yproject/a11yproject.com/-/issues/?label_name[]=bug"
    encoded = reference.replace("[]", "%5B%5D")
    assert not url_match(encoded, reference, "GOLD in PRED")
    assert url_match(encoded, reference, "GOLD in PRED", evaluation="lenient")
    assert url_match(ISSUE + "0", ISSUE, "GOLD in PRED")  # issue 7190 contains "issues/719"
    assert not url_match(ISSUE + "0", ISSUE, "GOLD in PRED", evaluation="lenient")


def test_no_mode_accepts_a_reference_carried_in_a_query_value():
    from urllib.parse import quote

    for evaluation in ("vab", "lenient"):
        for url in (f"{GITLAB}/?redirect_to={quote(ISSUE, safe='')}", f"{GITLAB}/users/sign_in?next={quote(ISSUE)}"):
            assert not url_match(url, ISSUE, "GOLD in PRED", evaluation=evaluation)
            assert not url_match(url, ISSUE, evaluation=evaluation)
    # the raw form: that code's substring test finds it; lenient mode does not
    assert url_match(f"{GITLAB}/login?next={ISSUE}", ISSUE, "GOLD in PRED")
    assert not url_match(f"{GITLAB}/login?next={ISSUE}", ISSUE, "GOLD in PRED", evaluation="lenient")
