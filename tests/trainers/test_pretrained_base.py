"""Starting from a pretrained model (``--base-model``) instead of a tiny model built from the demonstrations.

The "pretrained" base is a real tiny Qwen2 model saved to a directory beforehand (its own
tokenizer, learnt from other text than the scripts would learn theirs from); no hub is
reachable here, so a hub id is only checked for the error it gives. The scripts run end to end
with a budget far too small to learn: where training lands is not asserted.
"""

from __future__ import annotations

import json
import shutil

import pytest

from trainers.policy import check_pretrained, load_tokenizer

from .examples import load_example

pytestmark = [pytest.mark.train]

FAMILIES = ["map.around", "shopping_admin.top_search_terms"]  # 2-turn oracles
TINY = {"--model-size": "small", "--tokenizer-swaps": "3", "--copy-pretraining-steps": "5",
        "--copy-pretraining-random-steps": "5",
        "--copy-pretraining-spans": "random", "--copy-pretraining-gap": "8", "--copy-pretraining-text": "read",
        "--copy-pretraining-learning-rate": "1e-3"}


def tiny_model_options() -> tuple[str, ...]:
    """The options that build the tiny model (their names in the parsed arguments)."""
    return load_example("main_job").TINY_MODEL_OPTIONS


def test_a_model_directory_with_a_chat_template_passes(tiny_model_dir):
    check_pretrained(str(tiny_model_dir))


@pytest.mark.parametrize("breakage, message", [
    ("missing", "there is no model directory"),
    ("no_template", "has no chat template"),
    ("not_causal", "is a 'vit' model, not a causal language model"),
    ("corrupt_config", "does not load as a model directory or hub id"),
    ("no_tokenizer", "has a tokenizer of 1 tokens: are its tokenizer files missing"),
    ("small_embedding", r"has a tokenizer of \d+ tokens for 1000 embeddings"),
])
def test_a_base_that_cannot_serve_is_named_with_the_reason(tiny_model_dir, tmp_path, breakage, message):
    base = tmp_path / "base"
    if breakage != "missing":
        shutil.copytree(tiny_model_dir, base)
    if breakage == "no_template":
        (base / "chat_template.jinja").unlink()
        tokenizer_config = json.loads((base / "tokenizer_config.json").read_text())
        tokenizer_config.pop("chat_template", None)
        (base / "tokenizer_config.json").write_text(json.dumps(tokenizer_config))
    elif breakage == "not_causal":
        (base / "config.json").write_text(json.dumps({"model_type": "vit"}))
    elif breakage == "corrupt_config":
        (base / "config.json").write_bytes(b'{"model_type": "qwen2", \xff')
    elif breakage == "small_embedding":
        config = json.loads((base / "config.json").read_text())
        (base / "config.json").write_text(json.dumps({**config, "vocab_size": 1000}))
    elif breakage == "no_tokenizer":
        for path in base.glob("tokenizer*"):
            path.unlink()
    with pytest.raises(ValueError, match=message):
        check_pretrained(str(base))


def test_a_relative_name_that_is_no_directory_here_says_so_beside_the_hub_lookup(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # "runs/bc" reads like a hub id (owner/name); here it is a missing folder
    with pytest.raises(ValueError, match=r"there is no model directory 'runs/bc' here, and as a hub id it does not "
                                         r"load \(.+\)"):
        check_pretrained("runs/bc")


@pytest.mark.parametrize("script_name", ["main_job", "reproduce_findings"])
def test_the_tiny_model_options_are_refused_beside_a_base_and_recorded_as_unused(script_name):
    script = load_example(script_name)
    args = script.parse_args(["--base-model", "some/model"])
    assert args.base_model == "some/model"
    assert all(getattr(args, name) is None for name in tiny_model_options())
    assert {flag[2:].replace("-", "_") for flag in TINY} == set(tiny_model_options())
    for flag, value in TINY.items():
        for argv in ([flag, value], [f"{flag}={value}"]):
            with pytest.raises(SystemExit):
                script.parse_args(["--base-model", "some/model", *argv])
    # Without a base they build the tiny model as before.
    assert script.parse_args([]).model_size == "tiny"


def test_lora_and_the_turn_limit_reach_both_trainers(tmp_path):
    script = load_example("main_job")
    args = script.parse_args(["--base-model", "some/model", "--lora-r", "8", "--max-new-tokens", "96"])
    bc, grpo = script.bc_config(args, tmp_path, [1], 0), script.grpo_config(args, tmp_path, [1, 2, 3, 4], 0)
    assert bc.lora_r == grpo.lora_r == 8 and bc.peft_config().r == 8
    assert grpo.max_completion_length == 96
    assert script.bc_config(script.parse_args([]), tmp_path, [1], 0).peft_config() is None


@pytest.mark.parametrize("script_name", ["main_job", "reproduce_findings"])
def test_bc_micro_batches_keep_the_batch_of_16_by_accumulation(tmp_path, script_name):
    script = load_example(script_name)
    for micro, accumulation in ((16, 1), (4, 4), (1, 16)):
        config = script.bc_config(script.parse_args(["--bc-micro-batch", str(micro)]), tmp_path, [1], 0)
        assert (config.per_device_train_batch_size, config.gradient_accumulation_steps) == (micro, accumulation)
    assert script.parse_args([]).bc_micro_batch == 16  # one pass per step, as before the option
    with pytest.raises(SystemExit):
        script.parse_args(["--bc-micro-batch", "3"])  # would not make 16


@pytest.mark.parametrize("script_name", ["main_job", "reproduce_findings"])
def test_grpo_micro_batches_split_a_step_of_rollouts_by_accumulation(tmp_path, script_name, capsys):
    script = load_example(script_name)
    flags = ["--grpo-tasks-per-step", "4", "--num-generations", "8"]
    for micro, passes in ((None, 1), (32, 1), (8, 4), (1, 32)):
        argv = flags + ([] if micro is None else ["--grpo-micro-batch", str(micro)])
        config = script.grpo_config(script.parse_args(argv), tmp_path, [1, 2, 3, 4], 0)
        assert (config.per_device_train_batch_size, config.gradient_accumulation_steps,
                config.steps_per_generation) == (micro or 32, passes, passes)
        assert config.generation_batch_size == 32  # a step's rollouts are still played together
    with pytest.raises(SystemExit):
        script.parse_args([*flags, "--grpo-micro-batch", "3"])
    assert "--grpo-micro-batch 3 does not divide a GRPO step's 32 rollouts" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # nor with the defaults of the script it runs in
        script.parse_args(["--grpo-micro-batch", "1000"])


@pytest.mark.parametrize("script_name", ["main_job", "reproduce_findings"])
def test_bf16_asks_bc_and_grpo_for_bf16_autocast_and_float32_stays_the_cpu_default(tmp_path, script_name):
    import torch

    script = load_example(script_name)
    for argv, wanted in (([], torch.cuda.is_available() and torch.cuda.is_bf16_supported()), (["--bf16"], True)):
        args = script.parse_args(argv)
        assert script.bc_config(args, tmp_path / "bc", [1, 2, 3, 4], 0).bf16 is wanted
        assert script.grpo_config(args, tmp_path / "grpo", [1, 2, 3, 4], 0).bf16 is wanted


@pytest.mark.parametrize("script_name", ["main_job", "reproduce_findings"])
def test_a_base_that_does_not_load_stops_the_script_before_anything_is_written(tmp_path, script_name):
    script = load_example(script_name)
    with pytest.raises(SystemExit, match="--base-model: there is no model directory"):
        script.main(["--output", str(tmp_path / "run"), "--base-model", str(tmp_path / "absent")])
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_the_experiment_starts_every_arm_from_the_base(tiny_model_dir, tmp_path, capsys):
    from safetensors.torch import load_file

    script = load_example("reproduce_findings")
    out = tmp_path / "run"
    argv = ["--output", str(out), "--base-model", str(tiny_model_dir), "--families", *FAMILIES,
            "--train-per-family", "1", "--test-limit", "2", "--seeds", "0", "--bc-epochs", "1", "--grpo-steps", "1",
            "--grpo-tasks-per-step", "1", "--num-generations", "2", "--sampled-passes", "1", "--max-turns", "2",
            "--max-new-tokens", "24", "--lora-r", "4", "--arms", "untrained", "grpo_zero", "bc", "--no-progress"]
    findings = script.main(argv)
    table = capsys.readouterr().out

    # No tiny model is built: the untrained arm is the base itself, and BC and R1-Zero train from it.
    seed = out / "seed0"
    assert not (seed / "tiny").exists() and "build tiny" not in findings["seeds"]["0"]["timing_s"]
    assert set(findings["seeds"]["0"]["arms"]) == {"untrained", "grpo_zero", "bc"}
    assert json.loads((seed / "eval_untrained.json").read_text())["greedy"]["steps"] > 0
    base_vocabulary = load_tokenizer(str(tiny_model_dir)).get_vocab()
    base_weights = load_file(str(tiny_model_dir / "model.safetensors"))
    for arm in ("bc", "grpo_zero"):
        assert load_tokenizer(str(seed / arm)).get_vocab() == base_vocabulary
        # With --lora-r, each is saved as a plain model of the base's shapes, the adapter merged in.
        weights = load_file(str(seed / arm / "model.safetensors"))
        assert {k: v.shape for k, v in weights.items()} == {k: v.shape for k, v in base_weights.items()}
    config = json.loads((out / "findings.json").read_text())["config"]
    assert config["base_model"] == str(tiny_model_dir) and (config["max_new_tokens"], config["lora_r"]) == (24, 4)
    assert all(config[name] is None for name in tiny_model_options())
    assert f"Every arm starts from {tiny_model_dir}." in table

    # The base is a result-deciding setting: another one into the same folder stops.
    with pytest.raises(SystemExit, match="--base-model: .* there, None now"):
        script.main([a for a in argv if a not in ("--base-model", str(tiny_model_dir))])


@pytest.mark.slow
def test_the_main_job_trains_from_the_base(tiny_model_dir, tmp_path, capsys):
    script = load_example("main_job")
    out = tmp_path / "main"
    script.main(["--output", str(out), "--base-model", str(tiny_model_dir), "--families", "map.missing_information",
                 "--train-per-family", "1", "--bc-epochs", "1", "--grpo-steps", "1", "--grpo-tasks-per-step", "1",
                 "--num-generations", "2"])
    printed = capsys.readouterr().out

    assert f"[2/5] Pretrained base: {tiny_model_dir}" in printed and not (out / "tiny").exists()
    assert load_tokenizer(str(out / "grpo")).get_vocab() == load_tokenizer(str(tiny_model_dir)).get_vocab()
    assert (out / "trajectories_test_untrained.jsonl").read_text().strip()
