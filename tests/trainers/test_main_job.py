"""The main job (the README's first command): its default task split, and its plumbing end to end.

The split test records the oracle's demonstrations with the main job's defaults and checks
the held-out table it will print: at least 30 test tasks, on five sites, none of whose
intents BC or GRPO ever sees. The end-to-end test runs ``examples/main_job.py`` with a
budget far too small to learn (real embedded sites, a real tiny model, one BC epoch and
one GRPO step) and checks what a user reads and finds on disk. Where training lands is
not asserted.
"""

from __future__ import annotations

import json
import re

import pytest

from webarena_gym.suites.embedded import embedded_tasks, family_of

from ..references import reference_is_na
from .examples import load_example

pytestmark = [pytest.mark.train, pytest.mark.slow]


def test_the_default_held_out_table_has_26_unseen_tasks_on_five_sites():
    script = load_example("main_job")
    args = script.parse_args([])
    train_ids, test_ids, demos = script.select_tasks(args.families, args.max_turns, args.train_per_family)

    # 63 and 26 since the sites grew busier (2026-12-07): admin oracles open a menu section first, so fewer
    # families finish within 3 interactions, and the test quota spreads over 186 families (72 and 46 before)
    assert len(test_ids) == 26 and len(train_ids) == 63 == len(demos)
    assert {family_of(i, "test").name.split(".")[0] for i in test_ids} == {
        "gitlab", "map", "reddit", "shopping", "shopping_admin"}
    held_out = set(test_ids)
    test_intents = {t.intent for t in embedded_tasks("test") if t.task_id in held_out}
    assert len(test_intents) == 26
    assert not test_intents & {d.intent for d in demos}  # never seen in training


def test_the_grpo_flags_reach_the_trainer_config(tmp_path):
    script = load_example("main_job")
    default = script.grpo_config(script.parse_args([]), tmp_path, list(range(4)), seed=0)
    assert (default.lr_scheduler_type, default.curriculum_memory, default.task_sampling, default.bc_replay_coef,
            default.bc_replay_batch_size) == ("constant", 0.98, "uniform", 0.0, 8)
    args = script.parse_args(["--grpo-lr-scheduler", "cosine", "--curriculum-memory", "0.9",
                              "--grpo-sampling", "learnable", "--bc-replay", "0.5", "--bc-replay-batch", "2"])
    config = script.grpo_config(args, tmp_path, list(range(4)), seed=0)
    assert (config.lr_scheduler_type, config.curriculum_memory, config.task_sampling, config.bc_replay_coef,
            config.bc_replay_batch_size) == ("cosine", 0.9, "learnable", 0.5, 2)
    assert not config.task_after_page
    config = script.grpo_config(script.parse_args(["--task-after-page"]), tmp_path, list(range(4)), seed=0)
    assert config.task_after_page and config.context_kwargs()["task_after_page"]
    # GRPO from the untrained model (R1-Zero) has no demonstrations to replay
    assert script.grpo_config(args, tmp_path, list(range(4)), seed=0, from_bc=False).bc_replay_coef == 0.0


def test_the_recipe_is_a_module_and_the_env_setting_names_reach_its_configs(tmp_path):
    import trainers.recipe as recipe

    script = load_example("main_job")
    assert script.grpo_config is recipe.grpo_config and script.select_tasks is recipe.select_tasks
    args = recipe.main_job_arguments(["--max-chars", "900"])
    bc, grpo = (make(args, tmp_path, list(range(4)), 0) for make in (recipe.bc_config, recipe.grpo_config))
    assert bc.max_chars == grpo.max_chars == 900 and bc.env_kwargs()["max_chars"] == 900
    with pytest.warns(FutureWarning, match="--max-observation-chars is now called --max-chars"):
        assert recipe.main_job_arguments(["--max-observation-chars", "900"]).max_chars == 900


def test_the_main_job_prints_both_tables_and_leaves_every_stage_on_disk(tmp_path, capsys):
    script = load_example("main_job")
    out = tmp_path / "main"
    script.main(["--output", str(out), "--families", "map.missing_information", "shopping_admin.top_search_terms",
                 "--train-per-family", "1", "--bc-epochs", "1", "--grpo-steps", "1", "--grpo-tasks-per-step", "1",
                 "--num-generations", "2"])
    printed = capsys.readouterr().out
    test_tasks = [t for t in embedded_tasks("test") if family_of(t.task_id, "test").name in
                  ("map.missing_information", "shopping_admin.top_search_terms")]
    held = len(test_tasks)  # one of each family since the test quota spreads over 186 families (two before)

    assert "2 demonstrations" in printed and f"{held} held-out test tasks" in printed
    tables = printed.split("[5/5]")[1:]
    assert len(tables) == 2 and "train tasks" in tables[0] and "held-out test tasks" in tables[1]
    for table, count in zip(tables, (2, held), strict=True):
        assert all(stage in table for stage in ("untrained", "after BC", "after BC+GRPO", "answer N/A, no model"))
        assert len(re.findall(rf"\(\s*\d+/{count}\s*\)", table.split("\nall")[1].splitlines()[0])) == 4
        # Under each table, what each stage adds over the one before, task by task, with its intervals over the
        # two families and over the tasks.
        untrained, bc, grpo, _floor = map(int, re.findall(rf"\(\s*(\d+)/{count}\s*\)", table.split("\nall")[1]))
        assert f"resampling the 2 families | the {count} tasks" in table
        for name, gain in (("after BC - untrained", bc - untrained), ("after BC+GRPO - after BC", grpo - bc)):
            points = re.escape(f"{name}: {100 * gain / count:+.1f}")
            assert re.search(rf"{points} \[\S+, \S+\] \| \[\S+, \S+\]", table)
    # The floor column: answering N/A at once solves the held-out tasks whose reference is N/A.
    unachievable = sum(reference_is_na(t) for t in test_tasks)
    assert held >= 2 and unachievable >= 1
    assert re.findall(rf"\(\s*(\d+)/{held}\s*\)", tables[1].split("\nall")[1].splitlines()[0])[-1] == str(unachievable)

    for stage in ("tiny", "bc", "grpo"):
        assert (out / stage / "model.safetensors").is_file()
    for stage in ("bc", "grpo"):
        assert (out / stage / "metrics.jsonl").read_text().strip()
    for split, episodes in (("train", 2), ("test", held)):
        for stage in ("untrained", "after_BC", "after_BCGRPO"):
            lines = (out / f"trajectories_{split}_{stage}.jsonl").read_text().splitlines()
            assert sum("task_id" in json.loads(line) for line in lines) == episodes


def test_a_base_that_can_copy_spells_train_entities_in_pieces_and_is_trained_to_repeat(tmp_path):
    from safetensors.torch import load_file

    from trainers.augment import copied_strings
    from trainers.policy import load_tokenizer

    script = load_example("main_job")
    plain = script.parse_args([])  # the findings' 72 demonstrations: on a few, every string merges into a token
    _train, _test, demos = script.select_tasks(plain.families, plain.max_turns, plain.train_per_family)
    built = {}
    for name, extra in (("plain", []), ("swapped", ["--tokenizer-swaps", "3"]),
                        ("pretrained", ["--tokenizer-swaps", "3", "--copy-pretraining-steps", "2"]),
                        ("pretrained_on_read", ["--tokenizer-swaps", "3", "--copy-pretraining-steps", "2",
                                                "--copy-pretraining-text", "read"]),
                        ("random_then_read", ["--tokenizer-swaps", "3", "--copy-pretraining-random-steps", "2",
                                              "--copy-pretraining-steps", "2", "--copy-pretraining-text", "read"])):
        args = script.parse_args(extra)
        built[name] = script.build_tiny_policy(tmp_path / name, demos, args, seed=0, progress=False)

    def tokens_per_copied_string(model_dir) -> float:
        tokenizer = load_tokenizer(str(model_dir))
        lengths = [len(tokenizer(s, add_special_tokens=False)["input_ids"]) for d in demos for s in copied_strings(d)]
        return sum(lengths) / len(lengths)

    # Learnt from the text as read, the train tasks' names become a token or two of their own, which an unseen
    # name never is; learnt beside swapped copies, they are spelled in pieces like any other name.
    assert tokens_per_copied_string(built["swapped"]) > 1.5 * tokens_per_copied_string(built["plain"])
    assert load_tokenizer(str(built["pretrained"])).get_vocab() == load_tokenizer(str(built["swapped"])).get_vocab()
    weights = {name: load_file(path / "model.safetensors") for name, path in built.items() if name != "plain"}
    assert any(not (weights["swapped"][k] == weights["pretrained"][k]).all() for k in weights["swapped"])
    # Copy pretraining on what the agent reads only (no demonstrated action) trains the same base otherwise.
    assert load_tokenizer(str(built["pretrained_on_read"])).get_vocab() == load_tokenizer(str(built["swapped"])).get_vocab()
    assert any(not (weights["pretrained_on_read"][k] == weights["pretrained"][k]).all() for k in weights["swapped"])
    # Random spans first (the stage that teaches copying) train the same base into other weights.
    assert load_tokenizer(str(built["random_then_read"])).get_vocab() == load_tokenizer(str(built["swapped"])).get_vocab()
    assert any(not (weights["random_then_read"][k] == weights["pretrained_on_read"][k]).all() for k in weights["swapped"])


@pytest.mark.parametrize(("argv", "named"), [
    (["--copy-pretraining-random-steps", "-3"], "argument --copy-pretraining-random-steps: must be at least 0, got -3"),
    (["--num-generations", "1"], "argument --num-generations: must be at least 2, got 1"),  # no group to compare
    (["--temperature", "nan"], "argument --temperature: must be a finite number above 0, got 'nan'"),
    (["--beta", "-0.1"], "argument --beta: must be a finite number at least 0, got '-0.1'"),
    (["--curriculum-memory", "1.5"], "argument --curriculum-memory: must be a finite number at least 0 and at most 1"),
    (["--grpo-steps", "x"], "argument --grpo-steps: expected a whole number, got 'x'"),
    (["--seed", "-1"], "argument --seed: must be at least 0, got -1"),
    (["--families", "shopping.product_skus"], "`webarena-gym tasks families` lists them); close: shopping.product_rating, shopping.product_sku"),
    (["--families", "map.zip_code", "--grpo-skip-families", "shopping.search_keyword"],
     "--grpo-skip-families: 'shopping.search_keyword' is not among --families"),
    (["--families", "map.zip_code", "--grpo-skip-families", "map.zip_code"],
     "--grpo-skip-families leaves GRPO no family to draw from"),
])
def test_options_that_cannot_work_are_usage_errors_before_anything_trains(argv, named, capsys):
    script = load_example("main_job")
    with pytest.raises(SystemExit) as exited:
        script.parse_args(argv)
    assert exited.value.code == 2 and named in capsys.readouterr().err


def test_grpo_never_draws_a_skipped_family_but_bc_and_the_held_out_table_keep_it():
    script = load_example("main_job")
    skipped = "shopping.search_keyword"
    plain, skipping = script.parse_args([]), script.parse_args(["--grpo-skip-families", skipped])
    train_ids, test_ids, demos = script.select_tasks(skipping.families, skipping.max_turns, skipping.train_per_family)
    assert any(family_of(i, "train").name == skipped for i in train_ids)  # BC still learns it
    assert any(family_of(i, "test").name == skipped for i in test_ids)  # and it is still evaluated
    for grpo_tasks in ("bc", "all"):
        plain.grpo_tasks = skipping.grpo_tasks = grpo_tasks
        every = script.grpo_task_ids(plain, train_ids, demos)
        kept = script.grpo_task_ids(skipping, train_ids, demos)
        assert kept == [i for i in every if family_of(i, "train").name != skipped] and len(kept) < len(every)


def test_families_the_oracle_cannot_solve_within_the_limit_stop_the_run_before_any_model(tmp_path):
    script = load_example("main_job")
    with pytest.raises(SystemExit, match=r"The oracle solves none of the 9 train tasks of these families within "
                                         r"--max-turns 2 \(its shortest episode takes 4 interactions\): raise"):
        script.main(["--families", "shopping_admin.preview_theme", "--max-turns", "2", "--output", str(tmp_path)])
    assert list(tmp_path.iterdir()) == []  # no demonstrations file, no tiny model


def test_a_negative_count_of_random_span_steps_stops_naming_the_option(tmp_path):
    script = load_example("main_job")
    args = script.parse_args([])
    args.copy_pretraining_random_steps = -3  # the command line refuses it; a script's own settings reach this check
    _train, _test, demos = script.select_tasks(["map.around"], args.max_turns, 1)
    with pytest.raises(SystemExit, match=r"--copy-pretraining-random-steps: steps must be .* got -3"):
        script.build_tiny_policy(tmp_path / "tiny", demos, args, seed=0, progress=False)


def test_copy_pretraining_that_diverges_stops_naming_the_option_to_lower(tmp_path):
    script = load_example("main_job")
    args = script.parse_args(["--copy-pretraining-steps", "4", "--copy-pretraining-learning-rate", "1e30"])
    _train, _test, demos = script.select_tasks(["map.around"], args.max_turns, 1)
    with pytest.raises(SystemExit, match=r"diverged at step \d.*--copy-pretraining-learning-rate, now 1e\+30"):
        script.build_tiny_policy(tmp_path / "tiny", demos, args, seed=0, progress=False)
