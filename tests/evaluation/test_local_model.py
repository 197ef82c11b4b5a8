"""A real tiny transformers model, evaluated locally (`eval --model DIR`) and served over HTTP (`eval --endpoint`)."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("openai")
pytest.importorskip("trl")

import torch  # noqa: E402

from webarena_gym.cli import main  # noqa: E402
from webarena_gym.evaluation import read_run  # noqa: E402
from webarena_gym.prompts import system_prompt  # noqa: E402
from webarena_gym.suites.embedded import embedded_tasks  # noqa: E402

from .chat_server import ChatServer, Reply  # noqa: E402

pytestmark = pytest.mark.train

TASKS = ["0", "60", "110"]
MAX_TOKENS = "12"


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    from trainers.tiny import TinyModelSpec, build_tiny_model

    texts = [system_prompt(), system_prompt(thinking=True)] + [t.intent for t in embedded_tasks("test")]
    spec = TinyModelSpec(vocab_size=600, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=1)
    return build_tiny_model(tmp_path_factory.mktemp("tiny"), texts=texts * 3, spec=spec)


def serve_model(model_dir):
    """A chat-completions responder backed by the model: chat template, greedy ``generate``, usage counts."""
    import torch
    from transformers import AutoModelForCausalLM

    from trainers.policy import load_tokenizer

    model = AutoModelForCausalLM.from_pretrained(model_dir).eval()
    tokenizer = load_tokenizer(str(model_dir))
    lock = threading.Lock()

    def respond(request, number):
        text = tokenizer.apply_chat_template(request["messages"], add_generation_prompt=True, tokenize=False)
        ids = tokenizer(text, add_special_tokens=False, return_tensors="pt")["input_ids"]
        with lock, torch.no_grad():
            generated = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False,
                                       max_new_tokens=request["max_tokens"], pad_token_id=tokenizer.pad_token_id,
                                       eos_token_id=tokenizer.eos_token_id)[0, ids.shape[1]:].tolist()
        if tokenizer.eos_token_id in generated:
            generated = generated[: generated.index(tokenizer.eos_token_id) + 1]
        content = tokenizer.decode(generated, skip_special_tokens=True)
        return Reply(content, usage=(ids.shape[1], len(generated)))

    return respond


def test_a_served_model_and_the_same_model_loaded_locally_play_the_same_episodes(tiny_model, tmp_path, capsys):
    common = ["--task-ids", *TASKS, "--max-steps", "2", "--max-tokens", MAX_TOKENS, "--episodes-in-flight", "1",
              "--no-progress", "--max-observation-chars", "2000"]
    served, local = tmp_path / "served.jsonl", tmp_path / "local.jsonl"
    with ChatServer(serve_model(tiny_model)) as server:
        assert main(["eval", "--endpoint", server.url, "--model", "tiny", "--out", str(served), *common]) == 0
        requests = len(server.requests)
    threads = torch.get_num_threads()
    try:  # torch's threads change its speed, not the episodes
        assert main(["eval", "--model", str(tiny_model), "--out", str(local), "--threads", "2", *common]) == 0
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(threads)
    assert "all" in capsys.readouterr().out
    runs = [read_run(served, strict=True), read_run(local, strict=True)]
    assert runs[1].settings["model"] == str(tiny_model) and runs[1].settings["max_tokens"] == int(MAX_TOKENS)
    episodes = [sorted(run.episodes, key=lambda e: e.task_id) for run in runs]
    assert [e.task_id for e in episodes[0]] == [e.task_id for e in episodes[1]] == [int(t) for t in TASKS]
    assert requests == sum(len(e.turns) for e in episodes[0])
    for remote, here in zip(*episodes, strict=True):
        assert [t.output for t in remote.turns] == [t.output for t in here.turns]
        assert [t.error for t in remote.turns] == [t.error for t in here.turns]
        assert [(t.prompt_tokens, t.completion_tokens) for t in remote.turns] == \
               [(t.prompt_tokens, t.completion_tokens) for t in here.turns]
        assert remote.reward == here.reward and remote.end_reason == here.end_reason
    # An untrained model writes noise: every step is an agent mistake, none of them a crash.
    assert all(t.error or t.action for e in episodes[1] for t in e.turns)


def test_a_local_model_that_cannot_be_loaded_fails_clearly(tmp_path, capsys):
    assert main(["eval", "--model", str(tmp_path / "no-such-model"), "--task-ids", "0", "--no-progress",
                 "--out", str(tmp_path / "run.jsonl")]) == 1
    assert "No model directory at" in capsys.readouterr().err
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "config.json").write_text("{not json")
    assert main(["eval", "--model", str(tmp_path / "broken"), "--task-ids", "0", "--no-progress",
                 "--out", str(tmp_path / "run.jsonl")]) == 1
    assert "Could not load the model" in capsys.readouterr().err
    assert not (tmp_path / "run.jsonl").exists()  # nothing written for a run that never started
    assert main(["eval", "--model", "runs-here/absent", "--task-ids", "0", "--no-progress",
                 "--out", str(tmp_path / "run.jsonl")]) == 1  # a relative folder that reads like a hub id
    assert ("Could not load the model 'runs-here/absent' (no directory of that name here: tried as a hub id)"
            in capsys.readouterr().err)


def test_a_local_model_evaluated_with_other_prompt_settings_than_it_was_trained_with_is_warned_about(
        tiny_model, tmp_path, caplog, messages_of):
    import shutil

    from trainers.agent_record import write_agent_settings
    from trainers.config import AgentArguments

    trained = shutil.copytree(tiny_model, tmp_path / "trained")
    write_agent_settings(AgentArguments(max_chars=2000, keep_last=1), trained)
    common = ["eval", "--model", str(trained), "--task-ids", "0", "--max-steps", "1", "--max-tokens", MAX_TOKENS,
              "--no-progress", "--threads", "1"]
    with caplog.at_level("WARNING", logger="trainers.agent_record"):
        assert main([*common, "--out", str(tmp_path / "other.jsonl"), "--max-chars", "3000"]) == 0
    warnings = messages_of("trainers.agent_record")
    assert [message.split(", so")[0].split(" was ")[1] for message in warnings] == [
        "trained with max_chars=2000 and this run uses 3000",
        "trained with keep_last=1 and this run uses 0"]
    assert "(pass --max-chars 2000 to repeat them)" in warnings[0]
    assert "(pass --keep-last 1 to repeat them)" in warnings[1]
    caplog.clear()
    with caplog.at_level("WARNING", logger="trainers.agent_record"):
        assert main([*common, "--out", str(tmp_path / "same.jsonl"), "--max-chars", "2000",
                     "--keep-last", "1"]) == 0
    assert messages_of("trainers.agent_record") == []
