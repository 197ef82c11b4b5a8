"""Behaviour cloning: the rows are the agent's real contexts, and the loss falls on demonstrations."""

from __future__ import annotations

import json

import pytest

from trainers.chat import demonstration_rows, fit_observation, format_action
from webarena_gym.env import WebArenaEnv
from webarena_gym.observation import window_text
from webarena_gym.wrappers import CompressedHistory

from .place_family import MAX_CHARS, MAX_TURNS, bc_config

pytestmark = pytest.mark.train


@pytest.mark.parametrize(("thinking", "task_after_page"), [(False, False), (True, False), (False, True)])
def test_bc_rows_are_exactly_what_the_agent_sees_and_writes(place_family, tmp_path, thinking, task_after_page):
    tasks, demos = place_family
    config = bc_config(tmp_path, thinking=thinking, task_after_page=task_after_page)
    rows = demonstration_rows(demos, config)
    assert len(rows) == sum(len(d.turns) for d in demos)
    env = CompressedHistory(WebArenaEnv(suite="embedded", tasks=tasks, max_steps=MAX_TURNS, max_chars=MAX_CHARS),
                            **config.context_kwargs())
    try:
        row = iter(rows)
        for demo in demos:
            _prompt, info = env.reset(options={"task_id": demo.task_id})
            for turn in demo.turns:
                expected = next(row)
                assert expected["prompt"] == info["messages"]
                written = expected["completion"][0]["content"]
                assert written == format_action(turn.action, turn.thought, thinking=thinking)
                _prompt, reward, terminated, _truncated, info = env.step(written)
                assert not info["last_action_error"]
            assert terminated and reward == 1.0  # the env accepts the written format and the task is solved
    finally:
        env.close()
    told_last = [m["content"].endswith(f"Task: {demos[0].intent}") for m in rows[1]["prompt"] if m["role"] == "user"]
    assert told_last == ([True, True] if task_after_page else [False, False])
    if thinking:
        assert rows[0]["completion"][0]["content"].startswith("<think>I click ")
        assert "<answer>" in rows[0]["prompt"][0]["content"]  # the system prompt asks for the format


def test_bc_loss_falls_on_demonstrations(bc_model_dir):
    records = [json.loads(line) for line in (bc_model_dir / "metrics.jsonl").read_text().splitlines()]
    losses = [r["loss"] for r in records if "loss" in r]
    assert len(losses) >= 4
    assert losses[-1] < 0.6 * losses[0], losses
    assert (bc_model_dir / "training_dynamics.png").exists()
    assert (bc_model_dir / "config.json").exists() and (bc_model_dir / "tokenizer_config.json").exists()


def test_a_smaller_observation_budget_recuts_recorded_pages_like_the_env():
    page = "\n".join(f"<p>line {i}</p>" for i in range(200))
    recorded = window_text(page, 0, 1600)
    assert fit_observation(recorded, 5000) == recorded
    recut = fit_observation(recorded, 700)
    assert recut.splitlines()[:-1] == window_text(page, 0, 700).splitlines()[:-1]
    assert recut.endswith("use Scroll Down ...]") and len(recut) < 800


def test_bc_config_rejects_settings_that_would_train_on_pages(tmp_path):
    with pytest.raises(ValueError, match="completion_only_loss"):
        bc_config(tmp_path, completion_only_loss=False)
    with pytest.raises(ValueError, match="max_turns"):
        bc_config(tmp_path, max_turns=0)


def test_bc_without_demonstrations_says_how_to_record_them(tiny_model_dir, tmp_path):
    from trainers.bc import train_bc

    with pytest.raises(ValueError, match="webarena-gym demos"):
        train_bc(bc_config(tmp_path), str(tiny_model_dir))


def test_the_progress_bar_shows_the_key_numbers_instead_of_printing_each_log(place_family, tiny_model_dir, tmp_path,
                                                                             capsys):
    from transformers.trainer_callback import ProgressCallback

    from trainers.bc import train_bc
    from trainers.metrics import CompactProgress

    _tasks, demos = place_family
    trainer = train_bc(bc_config(tmp_path, max_steps=3, disable_tqdm=False), str(tiny_model_dir), demonstrations=demos)
    kinds = [type(c) for c in trainer.callback_handler.callbacks]
    assert CompactProgress in kinds and ProgressCallback not in kinds
    captured = capsys.readouterr()
    assert "loss=" in captured.err and "acc=" in captured.err
    assert "{'loss'" not in captured.out + captured.err


def test_bc_that_diverges_stops_with_a_clear_error_instead_of_saving_nan_weights(place_family, nan_model_dir,
                                                                                 tmp_path):
    from trainers.bc import train_bc

    _tasks, demos = place_family
    with pytest.raises(FloatingPointError, match=r"training diverged at step 1: \{'grad_norm': nan\}"):
        train_bc(bc_config(tmp_path / "bc", max_steps=3, logging_steps=1), str(nan_model_dir), demonstrations=demos)
    logged = [json.loads(line) for line in (tmp_path / "bc" / "metrics.jsonl").read_text().splitlines()]
    assert len(logged) == 1 and logged[0]["grad_norm"] != logged[0]["grad_norm"]  # written, then stopped
    assert not (tmp_path / "bc" / "model.safetensors").exists()


def test_training_keeps_the_models_attention_except_in_bf16_on_cuda_where_it_asks_for_eager(place_family,
                                                                                          tiny_model_dir, tmp_path):
    """On an H200, SDPA's memory-efficient backward returned NaN gradients in bf16 (trainers.config)."""
    import torch

    from trainers.bc import train_bc
    from trainers.config import training_attention
    from trainers.policy import load_policy

    from .place_family import grpo_config

    assert training_attention(False) is None
    assert training_attention(True) == ("eager" if torch.cuda.is_available() else None)
    default = bc_config(tmp_path / "default", bf16=False)
    assert default.attn_implementation is None and default.model_init_kwargs is None
    # A setting reaches the model TRL loads from the path (BC's and GRPO's configs resolve it alike).
    assert grpo_config(tmp_path / "grpo", attn_implementation="eager").model_init_kwargs == {
        "attn_implementation": "eager"}
    _tasks, demos = place_family
    trainer = train_bc(bc_config(tmp_path / "eager", attn_implementation="eager", max_steps=1), str(tiny_model_dir),
                       demonstrations=demos)
    assert trainer.model.config._attn_implementation == "eager"
    assert load_policy(str(tiny_model_dir))[0].config._attn_implementation == "sdpa"
    assert load_policy(str(tiny_model_dir), attn_implementation="eager")[0].config._attn_implementation == "eager"


def test_more_bc_on_a_model_prompted_otherwise_is_warned_about(bc_model_dir, place_family, tmp_path, caplog,
                                                              messages_of):
    from trainers.bc import train_bc

    _tasks, demos = place_family
    with caplog.at_level("WARNING", logger="trainers.agent_record"):
        train_bc(bc_config(tmp_path / "more", max_steps=1, thinking=True), str(bc_model_dir), demonstrations=demos)
    assert messages_of("trainers.agent_record") == [
        f"{bc_model_dir} was trained with thinking=False and this run uses True, so its prompts "
        "differ from those it learnt (leave out --thinking to repeat them)."]
    assert json.loads((tmp_path / "more" / "agent_settings.json").read_text())["thinking"] is True
