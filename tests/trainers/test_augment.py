"""Entity swaps: swapped copies of real oracle demonstrations stay consistent and hold no original string."""

from __future__ import annotations

import random
import re
from urllib.parse import quote, quote_plus

import pytest

from trainers.augment import copied_strings, entity_swaps, fresh_string
from webarena_gym.actions import Action, parse_action
from webarena_gym.demos import Demonstration, record_oracle_demonstrations
from webarena_gym.prompts import Turn
from webarena_gym.suites.embedded import family_of, family_task_ids

from .place_family import bc_config

pytestmark = pytest.mark.train

#: Families that copy a name from the intent, an answer from a page, both, or nothing.
FAMILIES = ("shopping.search_keyword", "shopping.product_sku", "map.zip_code", "shopping_admin.invoice_grand_total",
            "reddit.forum_post_count", "reddit.comment_count", "shopping.browse_category")


@pytest.fixture(scope="module")
def demos():
    ids = family_task_ids("train", FAMILIES)
    first = {}
    for task_id in ids:
        first.setdefault(family_of(task_id, "train").name, task_id)
    return {family_of(d.task_id, "train").name: d
            for d in record_oracle_demonstrations("train", task_ids=sorted(first.values()))}


def _texts(demo) -> list[str]:
    return [demo.intent, *(t.observation for t in demo.turns), *(t.action for t in demo.turns),
            *(t.url for t in demo.turns)]


def test_the_copied_strings_are_the_typed_name_and_the_answer_read_from_the_page(demos):
    sku = demos["shopping.product_sku"]
    name = parse_action(sku.turns[0].action).argument
    answer = parse_action(sku.turns[-1].action).message
    assert name in sku.intent and answer in sku.turns[-1].observation
    assert copied_strings(sku) == sorted([name, answer], key=len, reverse=True)
    assert copied_strings(demos["shopping.search_keyword"]) == [parse_action(demos["shopping.search_keyword"]
                                                                              .turns[0].action).argument]
    assert copied_strings(demos["shopping.browse_category"]) == []  # clicks a link: nothing typed, nothing read


@pytest.mark.parametrize("family", [f for f in FAMILIES if f != "shopping.browse_category"])
def test_a_swapped_copy_is_the_same_episode_with_new_strings(demos, family):
    demo = demos[family]
    (copy,) = entity_swaps([demo], 1, seed=3)
    originals = copied_strings(demo)
    assert originals
    for text in _texts(copy):
        for original in originals:
            if len(original) >= 4:  # a short number may recur by chance in a fresh one
                assert original not in text, (original, text[:200])
    tags = re.compile(r'<(/?\w+)|\bid="(\d+)"')  # element names and ids (an input's value holds the query)
    for before, after in zip(demo.turns, copy.turns, strict=True):
        assert tags.findall(before.observation) == tags.findall(after.observation)  # layout and element ids kept
        old, new = parse_action(before.action), parse_action(after.action)
        assert (old.name, old.element) == (new.name, new.element)
        if old.argument and old.argument in demo.intent:
            assert new.argument in copy.intent and new.argument != old.argument
        if old.message and old.message in demo.turns[-1].observation:
            assert new.message in copy.turns[-1].observation
        if old.name == "Search":  # the next page's URL carries the typed query, escaped as the site does
            following = copy.turns[copy.turns.index(after) + 1].url
            assert quote_plus(new.argument) in following or quote(new.argument) in following, following


def test_swaps_are_reproducible_and_skip_episodes_that_copy_nothing(demos):
    episodes = list(demos.values())
    first, again = entity_swaps(episodes, 2, seed=7), entity_swaps(episodes, 2, seed=7)
    assert first == again
    assert len(first) == 2 * (len(episodes) - 1)  # browse_category copies nothing
    assert entity_swaps(episodes, 0) == []
    with pytest.raises(ValueError, match="at least 0"):
        entity_swaps(episodes, -1)


def test_fresh_strings_keep_the_shape_of_any_text():
    rng = random.Random(0)
    assert re.fullmatch(r"\$\d\d\d\.\d\d", fresh_string("$174.19", rng, ["cedar"]))
    assert re.fullmatch(r"[A-Z]\d[A-Z]\d", fresh_string("B0D5", rng, ["cedar"]))
    assert re.fullmatch(r"Cedaré [A-Z][a-z]è[a-z]{2}", fresh_string("Café Crème", rng, ["cedar"]))  # é, è kept
    assert re.fullmatch("\ud800\x00 [a-z]", fresh_string("\ud800\x00 x", rng, []))


def test_huge_and_odd_episodes_are_swapped_in_linear_time():
    name = " ".join(f"Name{i}" for i in range(50_000)) + " Ωμέγα"  # actions hold no control character or surrogate
    intent = f'Search for "{name}"'
    search = Action("Search", element=1, argument=name).to_string()
    demo = Demonstration(1, intent, [Turn(f"<p>{name}\ud800\x07</p>", search, "http://x/"), Turn("<p>done</p>", 'exit(message="")')],
                         1.0)
    (run,) = copied_strings(demo)
    assert run == " ".join(f"Name{i}" for i in range(256))  # no name is longer than 256 words
    (copy,) = entity_swaps([demo], 1)
    assert run not in copy.intent and parse_action(copy.turns[0].action).argument in copy.intent


def test_bc_trains_on_the_originals_and_their_swapped_copies(demos, tiny_model_dir, tmp_path):
    from trainers.bc import train_bc

    episodes = list(demos.values())
    turns = sum(len(d.turns) for d in episodes)
    swapped_turns = sum(len(d.turns) for d in episodes if copied_strings(d))
    trainer = train_bc(bc_config(tmp_path, max_steps=1, entity_swaps=2, max_chars=2000, max_turns=3,
                                 split="train"),
                       str(tiny_model_dir), demonstrations=episodes)
    assert len(trainer.train_dataset) == turns + 2 * swapped_turns
    with pytest.raises(ValueError, match="entity_swaps"):
        bc_config(tmp_path, entity_swaps=-1)
